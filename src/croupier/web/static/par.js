/* croupier web: the par sheets of every game and pay table: the exact figures, outcome tables,
 * a plot of each wager's outcomes, the optimal strategy, downloads as HTML and JSON.
 * Sheets are computed on demand by the server and cached; the page polls while one computes.
 */
"use strict";

function pct(x) { return `${(100 * x).toFixed(4)}%`; }

/** Milliseconds before asking again for a sheet still computing, after ``tries`` answers of
 * "computing": 250 ms, doubled each time up to 1.5 s (most sheets take about a second, so the
 * first answers come soon; a long cold solve is asked after every 1.5 s, 400 times at most). */
const POLL_TRIES = 400;
function pollDelay(tries) { return Math.min(1500, 250 * 2 ** tries); }

/** A bar plot (SVG) of each outcome's probability, log scale, wins green and losses red. */
function outcomePlot(name, outcomes) {
  const NS = "http://www.w3.org/2000/svg";
  const rows = outcomes.filter((o) => o.probability > 0);
  const W = Math.max(360, 46 * rows.length + 60), H = 220, left = 48, bottom = 60, top = 14;
  const lo = Math.floor(Math.log10(Math.min(...rows.map((o) => o.probability))));
  const y = (p) => top + (H - top - bottom) * (Math.log10(p) / lo);
  let body = "";
  for (let d = 0; d >= lo; d--) {
    const yy = y(10 ** d);
    body += `<line x1="${left}" x2="${W - 8}" y1="${yy}" y2="${yy}" stroke="#2d4a3c"/>` +
      `<text x="${left - 6}" y="${yy + 4}" text-anchor="end" font-size="12" fill="#c9d6cc">1e${d}</text>`;
  }
  const bw = (W - left - 16) / rows.length;
  rows.forEach((o, i) => {
    const x = left + 4 + i * bw, yy = y(o.probability);
    const fill = o.net > 0 ? "#3ddc84" : o.net < 0 ? "#ff7a6b" : "#b8b8b8";
    body += `<rect x="${x}" y="${yy}" width="${Math.max(4, bw - 8)}" height="${H - bottom - yy}" fill="${fill}"><title>${o.outcome}: ${o.probability_exact}</title></rect>` +
      `<text transform="translate(${x + bw / 2 - 2} ${H - bottom + 10}) rotate(40)" font-size="12" fill="#e6e0c8">${String(o.outcome).slice(0, 18)}</text>`;
  });
  const el = document.createElementNS(NS, "svg");
  el.setAttribute("viewBox", `0 0 ${W} ${H}`);
  // drawn at its own size (never shrunk to a phone's width, where its labels would be a few
  // pixels high): a wide chart scrolls sideways in its box
  el.setAttribute("width", String(W));
  el.setAttribute("height", String(H));
  el.setAttribute("class", "bars");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", `${name}: probability of each outcome, log scale`);
  el.innerHTML = body;
  return el;
}

function summaryTable(sheet) {
  const named = [];
  if (sheet.base) named.push(["base", sheet.base]);
  for (const [k, v] of Object.entries(sheet.wagers || {})) named.push([k, v]);
  return h("div.scroll", {}, h("table.grid", { "aria-label": "summary" },
    h("thead", {}, h("tr", {}, ["Wager", "Pay table", "House edge", "Exact", "Element of risk", "Hit frequency", "Std dev"].map((x) => h("th", {}, x)))),
    h("tbody", {}, named.map(([n, s]) => h("tr", { dataset: { wager: n } }, h("td", {}, words(n)), h("td", {}, s.paytable || "–"),
      h("td.num", {}, pct(s.house_edge)), h("td.num.small", {}, s.house_edge_exact), h("td.num", {}, pct(s.element_of_risk)),
      h("td.num", {}, pct(s.hit_frequency)), h("td.num", {}, s.std_dev.toFixed(4)))))));
}

function wagerSection(name, s) {
  return h("div.panel", {}, h("h3", {}, `${words(name)}${s.paytable ? ` · pay table ${s.paytable}` : ""}`),
    h("p", {}, `House edge ${pct(s.house_edge)} (${s.house_edge_exact}); ${Number(s.combinations).toLocaleString("en-US")} equally likely ${s.method} combinations.`),
    h("div.scroll.chart", { tabindex: "0", role: "group", "aria-label": `${words(name)} chart` }, outcomePlot(words(name), s.outcomes)),
    h("div.scroll", {}, h("table.grid", { "aria-label": `${words(name)} outcomes` },
      h("thead", {}, h("tr", {}, ["Outcome", "Pays", "Net", "Combinations", "Probability", "Return"].map((x) => h("th", {}, x)))),
      h("tbody", {}, s.outcomes.map((o) => h("tr", {}, h("td", {}, words(o.outcome)), h("td", {}, o.pays), h("td.num", {}, o.net_exact),
        h("td.num", {}, Number(o.combinations).toLocaleString("en-US")), h("td.num", {}, o.probability.toFixed(8)), h("td.num", {}, o.return.toFixed(6))))))),
    (s.notes || []).map((n) => h("p.small.muted", {}, n)),
    // sanity flags: a house edge below zero or above 50% (a warning, not a refusal)
    (s.flags || []).map((f) => h("p.flag", {}, `Warning: ${f}`)));
}

class ParPage {
  constructor(section) { this.section = section; this.poll = null; }
  async enter() {
    this.section.replaceChildren(h("h1", { id: "par-title" }, "Par sheets"), h("p.muted", {}, "Loading the games…"));
    try { this.games = await Api.get("/api/par"); } catch (err) { Announce.error(err); return; }
    const sel = h("select#par-game", {}, this.games.map((g) => h("option", { value: g.game }, `${g.title} (${g.chapter})`)));
    this.tables = h("div#par-tables.btn-row");
    this.out = h("div#par-out");
    sel.addEventListener("change", () => this.pickGame(sel.value));
    const go = h("button.btn.btn-gold", { type: "button", onclick: () => this.show() }, "Show par sheet");
    this.links = h("div.btn-row");
    this.section.replaceChildren(h("h1", { id: "par-title" }, "Par sheets"),
      h("div.panel", {}, h("p.muted", {}, "Exact figures from complete enumeration; each pay table may be chosen. Long sheets are computed once and kept."),
        h("div.btn-row", {}, h("label", { for: "par-game" }, "Game"), sel), this.tables, h("div.btn-row", {}, go), this.links), this.out);
    this.pickGame(sel.value);
  }
  leave() { clearTimeout(this.poll); }
  pickGame(slug) {
    this.game = this.games.find((g) => g.game === slug);
    this.tables.replaceChildren(...Object.entries(this.game.paytables).filter(([, l]) => l.length > 1).map(([w, letters]) => {
      const id = `pt-${w}`;
      return h("span", {}, h("label", { for: id }, `${words(w)} pay table `),
        h("select", { id, dataset: { wager: w } }, letters.map((l) => h("option", { value: l, selected: this.game.current[w] === l }, l))));
    }));
    this.out.replaceChildren();
    this.links.replaceChildren();
  }
  query() {
    const q = [];
    for (const s of this.tables.querySelectorAll("select")) {
      if (this.game.current[s.dataset.wager] !== s.value) q.push(`paytable=${encodeURIComponent(`${s.dataset.wager}=${s.value}`)}`);
    }
    return q.length ? `?${q.join("&")}` : "";
  }
  async show() {
    clearTimeout(this.poll);
    const q = this.query(), slug = this.game.game;
    this.links.replaceChildren();
    this.out.replaceChildren(h("p.muted", { role: "status" }, "Computing the exact par sheet…"));
    let tries = 0;
    const fetchIt = async () => {
      const res = await fetch(`/api/par/${slug}${q}`, { headers: { Accept: "application/json" } });
      const data = await res.json();
      if (res.status === 202 && tries < POLL_TRIES) { this.poll = setTimeout(fetchIt, pollDelay(tries++)); return; }
      if (!res.ok) { Announce.error(new ApiError(res.status, data)); this.out.replaceChildren(); return; }
      this.render(data);
      this.offerDownloads(slug, q);
    };
    fetchIt().catch((err) => Announce.error(err));
  }
  /** The downloads, never a "computing" answer saved as a file: the JSON comes with the sheet;
   * the HTML report is drawn on the first click (the page waits for it, then saves it). */
  offerDownloads(slug, q) {
    const json = h("a.btn.btn-ghost", { href: `/par/${slug}.json${q}`, download: "" }, "Download JSON");
    const url = `/par/${slug}.html${q}`, label = "Download HTML report";
    const report = h("a.btn.btn-ghost", { href: url, download: "" }, label);
    report.addEventListener("click", (ev) => {
      if (report.dataset.ready === "yes") return;
      ev.preventDefault();
      if (report.getAttribute("aria-busy") === "true") return;
      report.setAttribute("aria-busy", "true");
      report.textContent = "Preparing the HTML report…";
      let tries = 0;
      const check = async () => {
        const res = await fetch(url);
        if (res.status === 202 && tries < POLL_TRIES) { this.poll = setTimeout(check, pollDelay(tries++)); return; }
        report.removeAttribute("aria-busy");
        report.textContent = label;
        if (!res.ok) { Announce.error(new ApiError(res.status, await res.json())); return; }
        report.dataset.ready = "yes";
        report.click();
      };
      check().catch((err) => Announce.error(err));
    });
    this.links.replaceChildren(json, report);
  }
  render(data) {
    const s = data.sheet;
    const parts = [h("div.panel#par-summary", {}, h("h2", {}, `${data.title} · ${data.chapter}`), summaryTable(s),
      h("p.small.muted", {}, s.conventions))];
    if (s.base) parts.push(wagerSection("base", s.base));
    for (const [k, v] of Object.entries(s.wagers || {})) parts.push(wagerSection(k, v));
    parts.push(h("div.panel", {}, h("h2", {}, "Strategy"), h("pre.text", { tabindex: "0" }, data.strategy)));
    parts.push(h("div.panel", {}, h("h2", {}, "The sign"), h("div.sign", { tabindex: "0" }, data.sign)));
    this.out.replaceChildren(...parts);
  }
}

App.register("par", new ParPage(document.getElementById("page-par")));
