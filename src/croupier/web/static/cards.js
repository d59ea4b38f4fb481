/* croupier web: playing cards and chips drawn as SVG by the project (no downloaded assets).
 *
 * Cards.card("As") -> an <svg> element of the ace of spades (role=img, labelled, data-card).
 * Cards.back("red") -> a face-down card; Cards.chip(500) -> a $5 chip.
 * The card is 250 x 350 units (the 2.5 x 3.5 in. poker card), scaled by CSS.
 */
"use strict";

const Cards = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "10", 9: "9", 8: "8", 7: "7",
    6: "6", 5: "5", 4: "4", 3: "3", 2: "2" };
  const SUITS = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
  const RED = "#c8102e";
  const BLACK = "#111";

  // Suit shapes in a 100 x 100 box, centred at (50, 50).
  const SHAPES = {
    h: '<path d="M50 92C22 68 2 50 2 29 2 12 15 2 29 2c10 0 17 6 21 14C54 8 61 2 71 2c14 0 27 10 27 27 0 21-20 39-48 63z"/>',
    d: '<path d="M50 2 90 50 50 98 10 50z"/>',
    s: '<path d="M50 2C78 28 98 44 98 63c0 15-11 25-25 25-9 0-16-4-20-11 1 10 6 17 14 23H33c8-6 13-13 14-23-4 7-11 11-20 11C13 88 2 78 2 63 2 44 22 28 50 2z"/>',
    c: '<circle cx="50" cy="27" r="22"/><circle cx="25" cy="60" r="22"/><circle cx="75" cy="60" r="22"/>' +
      '<path d="M45 52h10c0 22 5 36 15 46H30c10-10 15-24 15-46z"/>',
  };

  const L = 78, C = 125, R = 172;
  const PIPS = {
    2: [[C, 78], [C, 272]],
    3: [[C, 78], [C, 175], [C, 272]],
    4: [[L, 78], [R, 78], [L, 272], [R, 272]],
    5: [[L, 78], [R, 78], [C, 175], [L, 272], [R, 272]],
    6: [[L, 78], [R, 78], [L, 175], [R, 175], [L, 272], [R, 272]],
    7: [[L, 78], [R, 78], [C, 126], [L, 175], [R, 175], [L, 272], [R, 272]],
    8: [[L, 78], [R, 78], [C, 126], [L, 175], [R, 175], [C, 224], [L, 272], [R, 272]],
    9: [[L, 78], [R, 78], [L, 143], [R, 143], [C, 175], [L, 207], [R, 207], [L, 272], [R, 272]],
    T: [[L, 78], [R, 78], [C, 110], [L, 143], [R, 143], [L, 207], [R, 207], [C, 240], [L, 272],
      [R, 272]],
  };

  function parse(code) {
    const text = String(code || "").trim();
    const m = /^(10|[2-9TJQKA])([shdc])$/i.exec(text);
    if (!m) return null;
    const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
    return { rank, suit: m[2].toLowerCase(), code: rank + m[2].toLowerCase() };
  }

  function name(code) {
    const c = parse(code);
    return c ? `${RANKS[c.rank]} of ${SUITS[c.suit]}` : "face-down card";
  }

  function suit(s, x, y, size, flip) {
    const k = size / 100;
    const rot = flip ? ` rotate(180 50 50)` : "";
    return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${k})${rot}">${SHAPES[s]}</g>`;
  }

  function index(rank, s, colour) {
    const label = rank === "T" ? "10" : rank;
    const size = label.length > 1 ? 40 : 46;
    return `<g fill="${colour}"><text x="30" y="56" text-anchor="middle" font-size="${size}" ` +
      `font-family="Georgia, 'DejaVu Serif', serif" font-weight="700"` +
      `${label.length > 1 ? ' letter-spacing="-4"' : ""}>${label}</text>` +
      suit(s, 30, 82, 30, false) + "</g>";
  }

  function face(rank, s, colour) {
    const gold = "#e9c46a";
    const crown = rank === "K"
      ? '<path d="M92 118l16 22 17-28 17 28 16-22-6 34h-54z" fill="#d4a017" stroke="#7a5a00" stroke-width="2"/>'
      : rank === "Q"
        ? '<path d="M97 140q28-40 56 0l-6 12h-44z" fill="#d4a017" stroke="#7a5a00" stroke-width="2"/>'
        : '<path d="M100 146h50v-14q-25-18-50 0z" fill="#2a6f97" stroke="#123" stroke-width="2"/>';
    return `<rect x="52" y="52" width="146" height="246" rx="8" fill="${gold}" fill-opacity="0.28" ` +
      `stroke="${colour}" stroke-width="3"/>` +
      `<rect x="60" y="60" width="130" height="230" rx="6" fill="none" stroke="${gold}" stroke-width="3"/>` +
      crown +
      `<text x="125" y="218" text-anchor="middle" font-size="86" fill="${colour}" ` +
      `font-family="Georgia, 'DejaVu Serif', serif" font-weight="700">${rank}</text>` +
      suit(s, 125, 252, 34, false) + suit(s, 84, 92, 24, false) + suit(s, 166, 258, 24, true);
  }

  function faceMarkup(c) {
    const colour = c.suit === "h" || c.suit === "d" ? RED : BLACK;
    let body;
    if (c.rank === "A") body = suit(c.suit, 125, 175, c.suit === "s" ? 120 : 92, false);
    else if (PIPS[c.rank]) body = PIPS[c.rank].map(([x, y]) => suit(c.suit, x, y, 46, y > 180)).join("");
    else body = face(c.rank, c.suit, colour);
    return `<rect x="2" y="2" width="246" height="346" rx="16" fill="#fffdf7" stroke="#b9b3a6" stroke-width="3"/>` +
      `<g fill="${colour}">${body}</g>` + index(c.rank, c.suit, colour) +
      `<g transform="rotate(180 125 175)">${index(c.rank, c.suit, colour)}</g>`;
  }

  let uid = 0;
  function backMarkup(colour) {
    const fill = colour === "blue" ? "#1d3f8f" : colour === "green" ? "#1b5e3b" : "#9b1b1b";
    const id = `lattice${++uid}`;
    return `<defs><pattern id="${id}" width="20" height="20" patternUnits="userSpaceOnUse" ` +
      `patternTransform="rotate(45)"><rect width="20" height="20" fill="${fill}"/>` +
      `<path d="M0 10h20M10 0v20" stroke="#fff" stroke-opacity="0.35" stroke-width="2"/></pattern></defs>` +
      `<rect x="2" y="2" width="246" height="346" rx="16" fill="#fffdf7" stroke="#b9b3a6" stroke-width="3"/>` +
      `<rect x="16" y="16" width="218" height="318" rx="10" fill="url(#${id})"/>` +
      `<ellipse cx="125" cy="175" rx="52" ry="70" fill="${fill}" stroke="#fff" stroke-opacity="0.7" stroke-width="4"/>` +
      `<text x="125" y="190" text-anchor="middle" font-size="44" fill="#fff" fill-opacity="0.85" ` +
      `font-family="Georgia, serif" font-style="italic">C</text>`;
  }

  function svg(markup, label, cls) {
    const el = document.createElementNS(NS, "svg");
    el.setAttribute("viewBox", "0 0 250 350");
    el.setAttribute("class", cls);
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
    el.innerHTML = markup;
    return el;
  }

  /** A card face up ("As", "Th", "10h"), or face down when the code is not a card. */
  function card(code, opts = {}) {
    const c = parse(code);
    if (!c) return back(opts.back);
    const el = svg(faceMarkup(c), name(c.code), "card" + (opts.highlight ? " card-best" : ""));
    el.dataset.card = c.code;
    return el;
  }

  /** A face-down card; its back colour follows the deck in use (§ 641a.3(b): two colours). */
  function back(colour) {
    const el = svg(backMarkup(colour || "red"), "face-down card", "card card-back");
    el.dataset.card = "back";
    return el;
  }

  const CHIP_COLOURS = [
    [100000, "#e8a317", "#3b2a00"], [50000, "#6a1b9a", "#fff"], [10000, "#141414", "#fff"],
    [2500, "#1e7d32", "#fff"], [500, "#c62828", "#fff"], [100, "#f4f4f4", "#0d3b66"],
  ];

  function chipLabel(cents) {
    const d = cents / 100;
    if (d >= 1000) return `${d / 1000}K`;
    return Number.isInteger(d) ? String(d) : d.toFixed(2);
  }

  /** A casino chip showing ``cents`` (colour by the largest denomination it reaches). */
  function chip(cents, opts = {}) {
    const [, fill, ink] = CHIP_COLOURS.find(([v]) => cents >= v) || CHIP_COLOURS[CHIP_COLOURS.length - 1];
    const edge = ink === "#fff" ? "#fff" : "#0d3b66";
    let spots = "";
    for (let i = 0; i < 8; i++) {
      spots += `<rect x="45" y="3" width="10" height="14" rx="2" fill="${edge}" transform="rotate(${i * 45} 50 50)"/>`;
    }
    const label = chipLabel(cents);
    const el = document.createElementNS(NS, "svg");
    el.setAttribute("viewBox", "0 0 100 100");
    el.setAttribute("class", "chip" + (opts.small ? " chip-small" : ""));
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", `chip ${Money.fmt(cents)}`);
    el.innerHTML = `<circle cx="50" cy="52" r="47" fill="#000" fill-opacity="0.35"/>` +
      `<circle cx="50" cy="50" r="47" fill="${fill}" stroke="#222" stroke-width="1.5"/>${spots}` +
      `<circle cx="50" cy="50" r="31" fill="${fill}" stroke="${edge}" stroke-width="3" stroke-dasharray="4 3"/>` +
      `<text x="50" y="${label.length > 3 ? 57 : 59}" text-anchor="middle" font-size="${label.length > 3 ? 20 : 26}" ` +
      `font-weight="700" font-family="system-ui, sans-serif" fill="${ink}">${label}</text>`;
    return el;
  }

  return { card, back, chip, parse, name };
})();
