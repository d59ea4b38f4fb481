/* croupier web: the table pages: the player's wagering device and the dealer's console.
 *
 * Both draw the same felt from a RoundState: the round rebuilt from the records the page
 * received (each already filtered by the server to the connection's point of view) merged with
 * the server's current view.  A card the page was not sent is drawn face down; the page never
 * asks for, nor could show, another player's cards.
 */
"use strict";

const BOXES = ["dealer", "board", "player", "banker", "six_card_bonus"];
const BOX_LABEL = { dealer: "Dealer", board: "Community cards", player: "Player hand", banker: "Banker hand",
  six_card_bonus: "Six Card Bonus cards" };
const RESULT_WORD = { win: "wins", lose: "loses", push: "pushes", forfeit: "forfeited", void: "void" };

/** A card as text, or null when the record carried none (redacted for this viewer). */
function cardText(c) {
  if (c && typeof c === "object") return c.card || c.code || null;
  return Cards.parse(c) ? String(c) : null;
}

/** The round as the page knows it, rebuilt from records in order. */
class RoundState {
  constructor() {
    this.boxes = {};      // recipient -> [card text | null]
    this.wagers = {};     // seat -> {wager: cents}
    this.settled = {};    // seat -> [{wager, stake, result, paid, returned, line}]
    this.extras = {};     // seat -> [{what, amount}] (progressive awards, Envy Bonuses)
    this.folded = new Set();
    this.shown = {};      // seat -> the hand's category, once it is turned up
    this.calls = [];      // what the dealer said, in order
    this.phase = "";
    this.voided = null;
  }
  static from(records) {
    const s = new RoundState();
    for (const r of records || []) s.apply(r);
    return s;
  }
  box(to) { const k = String(to); return (this.boxes[k] = this.boxes[k] || []); }
  seatWagers(seat) { const k = String(seat); return (this.wagers[k] = this.wagers[k] || {}); }
  turn(to, pos, card) { const b = this.box(to); while (b.length < pos) b.push(null); b[pos - 1] = card; }
  apply(r) {
    const kind = r.kind || r.type;
    switch (kind) {
      case "wager_placed": case "play_wagered": {
        const w = this.seatWagers(r.seat);
        w[r.wager] = (kind === "play_wagered" ? 0 : w[r.wager] || 0) + r.amount;
        if (kind === "play_wagered") this.calls.push(`Seat ${r.seat}: ${said(r.wager)} ${Money.fmt(r.amount)}`);
        break;
      }
      case "no_more_bets": this.calls.push("No more bets."); break;
      case "card_dealt": case "card_hidden":
        if (r.to !== "burn" && r.to !== "discard") this.box(r.to).push(cardText(r.card));
        break;
      case "community_card_turned": this.turn("board", r.position, cardText(r.card)); break;
      case "street_card_turned": this.turn("board", r.number, cardText(r.card)); break;
      case "dealer_revealed":
        this.boxes.dealer = (r.cards || []).map(cardText);
        this.calls.push(`Dealer has ${said(r.category)}.`);
        break;
      case "hand_shown": case "hand_hidden":
        if (r.cards) this.boxes[String(r.seat)] = r.cards.map(cardText);
        if (r.category) { this.shown[String(r.seat)] = r.category; this.calls.push(`Seat ${r.seat} shows ${said(r.category)}.`); }
        break;
      case "hand_turned":
        // baccarat dealt face down (§ 627a.8(c)(2)): the Player's Hand called, then the Banker's
        // cards turned face up; the engine sends them, the page draws them
        this.boxes[r.hand] = (r.cards || []).map(cardText);
        this.calls.push(`${r.hand === "player" ? "Player" : "Banker"} ${r.count}.`);
        break;
      case "result_announced":
        if (r.player) this.boxes.player = r.player.map(cardText);
        if (r.banker) this.boxes.banker = r.banker.map(cardText);
        if (r.announcement) this.calls.push(r.announcement + ".");
        // baccarat: each hand's final Point Count as the dealer announced it (§ 541.12(a))
        if (r.player_count !== undefined) this.counts = { player: r.player_count, banker: r.banker_count };
        break;
      case "folded": this.folded.add(String(r.seat)); this.calls.push(`Seat ${r.seat} folds.`); break;
      case "checked": this.calls.push(`Seat ${r.seat} checks.`); break;
      case "bet_withdrawn": {
        const w = this.seatWagers(r.seat); delete w[r.wager];
        this.calls.push(`Seat ${r.seat} pulls ${said(r.wager)}.`);
        break;
      }
      case "wager_settled": {
        const k = String(r.seat);
        (this.settled[k] = this.settled[k] || []).push(r);
        break;
      }
      case "progressive_paid": {
        // the progressive wager's own settlement line already pays the award; a 100% award is
        // not paid from the table inventory but by a hand-pay a supervisor approves
        if (r.from_meter) {
          const k = String(r.seat);
          (this.extras[k] = this.extras[k] || []).push({ what: `Progressive ${said(r.line)}: hand pay, approved by a supervisor`,
            amount: `hand pay ${Money.fmt(r.amount)}`, result: "handpay" });
        }
        break;
      }
      case "envy_paid": {
        const k = String(r.seat);
        (this.extras[k] = this.extras[k] || []).push({ what: `Envy Bonus for seat ${r.for_seat}: ${r.line}`, amount: `pays ${Money.fmt(r.amount)}`, result: "win" });
        break;
      }
      case "vig_marked": case "vig_collected": {
        // baccarat commission: marked and owed until collected (§ 541.13(g)), or collected now
        const k = String(r.seat);
        const marked = kind === "vig_marked";
        const what = marked ? "Commission marked: owed until you leave or the shoe ends" : r.how === "tie" ? "Tie commission collected" : "Commission collected";
        (this.extras[k] = this.extras[k] || []).push({ what, amount: marked ? `owes ${Money.fmt(r.amount)}` : `you pay ${Money.fmt(r.amount)}`, result: "lose" });
        break;
      }
      case "round_voided": this.voided = r; this.calls.push(`Round void: ${r.reason}${cite(r.section)}.`); break;
      case "irregularity": this.calls.push(`Irregularity: ${words(r.irregularity)}${cite(r.section)}: ${r.consequence || ""}.`); break;
      default: break;
    }
  }
}

/** Two phrases alike but for case ("Banker wins", "banker wins"): a line saying its result again. */
function sameWords(a, b) { return String(a).toLowerCase() === String(b).toLowerCase(); }

/** The dealer's words for one seat's settlement: each wager, its result and amount. */
function settlementLines(state, seat) {
  const k = String(seat);
  const rows = (state.settled[k] || []).map((r) => {
    const amount = r.result === "win" ? `pays ${Money.fmt(r.paid)}` : r.result === "push" ? `returned ${Money.fmt(r.returned)}`
      : r.result === "void" ? `returned ${Money.fmt(r.returned)}` : `${Money.fmt(r.stake)} taken`;
    // a bet taken back (§ 643a.11(b)) is returned, not a push the player played to
    const text = r.line === "withdrawn" ? `${said(r.wager)} taken back`
      : `${said(r.wager)} ${RESULT_WORD[r.result] || r.result}${r.line && r.line !== r.result && !sameWords(said(r.line), `${said(r.wager)} ${RESULT_WORD[r.result]}`) ? ` (${said(r.line)})` : ""}`;
    return { wager: r.wager, result: r.result, text, amount };
  });
  for (const e of state.extras[k] || []) rows.push({ wager: "award", result: e.result, text: e.what, amount: e.amount });
  return rows;
}

function settlementList(state, seat) {
  const rows = settlementLines(state, seat);
  if (!rows.length) return null;
  return h("ul.settle-list", { "aria-label": `settlement of seat ${seat}` },
    rows.map((r) => h("li", {}, h("span", {}, r.text), h(`span.r-${r.result}`, {}, r.amount))));
}

function handOf(cards, opts = {}) {
  // --n: the number of cards, for the fan that fits a seat's box (app.css)
  const el = h(`div.hand${opts.big ? ".hand-big" : ""}`, { role: "group", "aria-label": opts.label || "cards" });
  el.style.setProperty("--n", String((cards || []).length || 1)); // not a style attribute: the CSP has no inline style
  for (const c of cards || []) el.append(Cards.card(c, { back: opts.back }));
  return el;
}

/** The felt: dealer's and common boxes, the progressive meter, the seats. */
function drawFelt(table, state, opts) {
  const felt = h("div.felt", { role: "region", "aria-label": "the table" });
  felt.append(h("p.felt-title", {}, table.game_name || table.title || words(table.game)));
  felt.append(h("p.felt-rule", {}, table.chapter || ""));
  const meters = h("div.meters");
  felt.append(meters);
  for (const [name, cents] of Object.entries(table.meters || {})) {
    meters.append(h("div.meter", { role: "group", "aria-label": `progressive meter ${words(name)}`, dataset: { meter: name } },
      h("small", {}, `Progressive · ${words(name)}`), Money.fmt(cents)));
  }
  for (const box of BOXES) {
    const cards = state.boxes[box];
    if (!cards || !cards.length) continue;
    const count = state.counts && state.counts[box] !== undefined ? h("span.count", {}, String(state.counts[box])) : null;
    felt.append(h("div.zone", { dataset: { box } }, h("span.zone-label", {}, BOX_LABEL[box], count ? " · " : null, count),
      handOf(cards, { label: BOX_LABEL[box], back: table.back })));
  }
  if (opts.mySeat) {
    const k = String(opts.mySeat);
    // the seat's own hand once it has cards (a baccarat seat never has: no empty area)
    if ((state.boxes[k] || []).length) {
      felt.append(h("div.zone", {}, h("span.zone-label", {}, `Your hand · seat ${k}`),
        handOf(state.boxes[k], { big: true, label: "your cards", back: table.back })));
    }
    const spots = h("div.spots", { role: "group", "aria-label": "your wagers" });
    for (const [w, amt] of Object.entries(state.wagers[k] || {})) {
      spots.append(h("div.spot", { dataset: { wager: w } }, Cards.chip(amt, { small: true }), said(w),
        h("span.spot-amount", {}, Money.fmt(amt))));
    }
    felt.append(spots);
  }
  const seats = h("div.seats", { role: "group", "aria-label": "seats" });
  for (let n = 1; n <= 7; n++) {
    const k = String(n);
    const who = (table.seats || {})[k];
    const cls = ["seat", k === String(opts.mySeat) ? "seat-me" : "", String(opts.acting) === k ? "seat-acting" : ""].filter(Boolean).join(".");
    // each wager on a line of its own: name and amount
    const wagers = Object.entries(state.wagers[k] || {}).map(([w, a]) => h("span.seat-wager", {}, h("span", {}, said(w)), h("span", {}, Money.fmt(a))));
    // baccarat: the seat's marker button, commission owed until collected (§ 541.13(g))
    const owed = (table.markers || {})[k];
    seats.append(h(`div.${cls}`, { dataset: { seat: k } },
      h("div.seat-name", {}, `Seat ${k}${who ? ` · ${who}` : ""}${state.folded.has(k) ? " · folded" : ""}`),
      k === String(opts.mySeat) ? null : handOf(state.boxes[k] || [], { label: `seat ${k} cards`, back: table.back }),
      state.shown[k] ? h("div.seat-shown", {}, said(state.shown[k])) : null,
      h("div.seat-wagers", {}, wagers),
      owed ? h("div.seat-marker", { role: "note", "aria-label": `seat ${k} commission owed` }, `Commission owed ${Money.fmt(owed)}`) : null));
  }
  felt.append(seats);
  return felt;
}

/** Baccarat's roads of the shoe (each finished coup's winning hand, in order): the bead road
 * (one bead a coup, down six rows then the next column) and the big road (a column for each run
 * of Banker or Player wins; a tie marks the last cell with its count). */
const ROAD = { player: ["P", "Player"], banker: ["B", "Banker"], tie: ["T", "Tie"] };
const ROAD_ROWS = 6;

/** The big road's cells (``{result, col, row, ties}``, 1-based) for the shoe's ``results``.
 * Each run of Banker or Player wins starts at the top of the column after the previous run's
 * first column; a run that would pass the sixth row, or meet a cell already drawn below it,
 * turns right and goes on along that row (the "dragon tail", as casinos' scoreboards draw it:
 * a house convention, no chapter describes the roads). */
function bigRoadCells(results) {
  const cells = [], taken = new Set();
  let start = 0, col = 0, row = 0, last = null, ties = 0, tail = false;
  for (const r of results || []) {
    if (r === "tie") {
      if (cells.length) cells[cells.length - 1].ties += 1;
      else ties += 1; // ties before the first win: on the first cell
      continue;
    }
    if (r !== last) { start += 1; col = start; row = 1; last = r; tail = false; }
    else if (!tail && row < ROAD_ROWS && !taken.has(`${col},${row + 1}`)) row += 1;
    else { tail = true; col += 1; }
    taken.add(`${col},${row}`);
    cells.push({ result: r, col, row, ties });
    ties = 0;
  }
  return cells;
}
function roads(results) {
  if (!results || !results.length) return null;
  const tally = (w) => results.filter((r) => r === w).length;
  const said = `${results.length} coups: Banker ${tally("banker")}, Player ${tally("player")}, Tie ${tally("tie")}`;
  const bead = h("div.road.bead-road", { role: "img", "aria-label": `bead road, ${said}` },
    results.map((r) => h(`span.bead.bead-${r}`, { "aria-hidden": "true", dataset: { result: r } }, (ROAD[r] || ["?"])[0])));
  const big = h("div.road.big-road", { role: "img", "aria-label": `big road, ${said}` });
  for (const { result, col, row, ties } of bigRoadCells(results)) {
    const cell = h(`span.cell.cell-${result}`, { "aria-hidden": "true", dataset: { result } }, ties ? String(ties) : "");
    if (ties) cell.dataset.ties = String(ties);
    cell.style.gridColumn = String(col); // CSSOM, not a style attribute: the CSP has no inline style
    cell.style.gridRow = String(row);
    big.append(cell);
  }
  return h("div.roads", {}, h("h3", {}, "Bead road"), h("div.scroll", {}, bead), h("h3", {}, "Big road"), h("div.scroll", {}, big));
}

/** A selector that finds the "same" control after the page is drawn again. */
function focusKey(el) {
  if (!el || el === document.body) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  for (const k of ["step", "decision", "wager", "table"]) {
    if (el.dataset && el.dataset[k]) return `${el.tagName.toLowerCase()}[data-${k}="${CSS.escape(el.dataset[k])}"]`;
  }
  const label = el.getAttribute && el.getAttribute("aria-label");
  return label ? `${el.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]` : null;
}

function restoreFocus(root, key) {
  if (!key) return;
  const el = root.querySelector(key);
  if (el && !el.disabled) el.focus({ preventScroll: true });
}

/** The banner every page shows for a training table (``[table] training``): its cards may be
 * stacked and its rounds are recorded as training, never real play. */
function trainingBanner(table) {
  if (!table || !table.training) return null;
  return h("p.training-banner", { role: "note", "aria-label": "training table" },
    "Training table: the dealer may stack the cards; every round is recorded as training, never real play.");
}

/** The shared machinery of a table page: table detail, view, the caller's actions, stream.
 *
 * The view and actions are asked of the routes when the page connects and when its stream
 * reconnects; otherwise the page applies the stream's messages (``carry=state``): the last
 * message of each batch carries the view and actions the routes would answer at its seq,
 * which replace the page's and draw it again. */
class TablePage {
  constructor(section) {
    this.section = section;
    this.tableId = null;
    this.stream = null;
    this.view = {};
    this.actions = {};
    this.state = new RoundState();
    this.applying = Promise.resolve();
    this.waiters = [];
  }
  async connect(tableId) {
    this.leave();
    this.tableId = tableId;
    const id = encodeURIComponent(tableId);
    this.detail = await Api.get(`/api/tables/${id}`);
    Spoken.use(this.detail.names);
    await this.queue(() => this.load());
    window.scrollTo(0, 0); // a table chosen far down a list opens at its top: its next step in view
    this.stream = new Stream(`/api/tables/${id}/stream?carry=state`, (ev) => this.onEvent(ev), (s) => this.status(s),
      { since: this.view.seq || 0, onReopen: () => this.queue(() => this.load()) });
  }
  leave() {
    if (this.stream) this.stream.close();
    this.stream = null; this.lastSig = null; this.view = {}; this.actions = {}; this.moment = undefined;
  }
  /** What the page says when the round moves to a new phase (nothing by default). */
  phaseNews(_rnd) {}
  status(s) {
    this.live = s;
    const el = this.section.querySelector(".live-status");
    if (el) el.replaceChildren(h(`span.status-dot.status-${s}`), s === "live" ? "live" : "reconnecting…");
  }
  /** Run ``work`` after the page's earlier updates (one at a time, in order). */
  queue(work) {
    this.applying = this.applying.then(work).catch((err) => Announce.error(err));
    return this.applying;
  }
  /** A stream message: the view and actions it carries (the server's at its seq) replace the
   * page's; a message without them is followed in its batch by one that has them. */
  onEvent(ev) {
    if (!ev.view && !ev.actions) return;
    const tableId = this.tableId;
    this.queue(() => tableId === this.tableId && this.adopt(ev.view || this.view, ev.actions || this.actions));
  }
  /** The view and actions asked of the routes (on connect and reconnect only). */
  async load() {
    if (!this.tableId) return;
    const id = encodeURIComponent(this.tableId);
    const [view, actions] = await Promise.all([Api.get(`/api/tables/${id}/view`), Api.get(`/api/tables/${id}/actions`)]);
    await this.adopt(view, actions);
  }
  /** The page's state from a view and actions at one seq, then drawn (an older seq than the
   * page holds is left: a stream resuming behind a reload). */
  async adopt(view, actions) {
    if (view && typeof view.seq === "number" && view.seq < (this.view.seq || 0)) return;
    const before = this.view;
    this.view = view || {};
    this.actions = actions || {};
    const rnd = this.view.round || null;
    this.round = rnd;
    this.state = RoundState.from(rnd ? rnd.records : []);
    if (rnd && rnd.stakes) this.state.wagers = rnd.stakes;
    this.state.phase = rnd ? rnd.phase : "";
    // the bar says only what is true now: a new round or phase empties it (what was said of
    // the last one, "ante accepted", a refusal, is no longer so), then the page says the news
    const moment = rnd ? `${this.view.round_id}|${rnd.phase}` : "";
    if (this.moment !== undefined && moment !== this.moment) { Announce.clear(); this.phaseNews(rnd); }
    this.moment = moment;
    await this.afterLoad(before);
    this.draw();
    for (const w of [...this.waiters]) w();
  }
  /** Draw the page where its state changed (the focus kept on the same control). */
  draw() {
    const sig = JSON.stringify([this.view, this.actions, this.me || null, this.recent || null]);
    if (sig === this.lastSig) return; // nothing changed: keep the page (and the focus) as it is
    this.lastSig = sig;
    const focus = focusKey(document.activeElement);
    this.render();
    restoreFocus(this.section, focus);
  }
  /** Once the page holds the state at ``seq`` (a command's answer's, brought by the stream),
   * or after a few seconds where none comes. */
  caughtUp(seq) {
    if (!seq || (this.view.seq || 0) >= seq) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => { clearTimeout(timer); this.waiters = this.waiters.filter((w) => w !== check); resolve(); };
      const check = () => { if ((this.view.seq || 0) >= seq) done(); };
      const timer = setTimeout(done, 5000);
      this.waiters.push(check);
    });
  }
  async afterLoad(_before) {}
  tableInfo() {
    const d = this.detail || {};
    return { ...d, seats: this.view.seats || d.seats || {}, meters: this.view.meters || d.meters || {}, markers: this.view.markers || {} };
  }
  acting() { return this.round ? this.round.to_act_seat : null; }
  phaseText() {
    if (this.view.held) return `held: ${this.view.held}`;
    if (!this.round) return this.detail && this.detail.status === "closed" ? "table closed" : "waiting for the first round";
    return words(this.round.phase);
  }
  header(title, id) {
    const info = this.tableInfo();
    const rnd = this.round;
    return h("div.panel.table-head", {}, trainingBanner(info),
      h("h1", { id }, title),
      h("p", {}, h("strong", {}, info.game_name || info.title || words(info.game)), info.name && ![info.title, info.game_name].includes(info.name) ? ` · ${info.name}` : "", " · ",
        h("span.phase-pill", { role: "note", "aria-label": "round phase", dataset: { phase: rnd ? rnd.phase : "none" } }, this.phaseText()),
        rnd ? h("span.small.muted", {}, ` round ${this.view.round_id}${rnd.to_act_seat ? ` · seat ${rnd.to_act_seat} to act` : ""}`) : null, " ",
        h("span.small.live-status", { "aria-live": "polite" }, h(`span.status-dot.status-${this.live || "connecting"}`), this.live === "live" ? "live" : "connecting")));
  }
}

/** SHA-256 of ``text`` (UTF-8) as lowercase hex, computed in the browser. */
async function sha256Hex(text) {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The round's provable deal: the commitment to the shoe's order published before any wager
 * and, once the round is over, the revealed order checked here (its SHA-256 with the nonce must
 * be the commitment, the cards dealt must follow the order).  A viewer the server gives no
 * order is told where the check is made. */
function dealPanel(deal) {
  if (!deal || !deal.commitment) return null;
  const status = h("p.small.deal-check", { "aria-live": "polite" });
  const panel = h("div.panel.deal", { role: "region", "aria-label": "provable deal", dataset: { revealed: deal.revealed ? "yes" : "no" } },
    h("h2", {}, "Provable deal"),
    h("p.small.muted", {}, `Commitment to the shoe's order (${deal.scheme}), published before the first wager:`),
    h("code.hash", { role: "note", "aria-label": "commitment" }, deal.commitment), status);
  if (!deal.revealed && deal.shoe) status.textContent = `This coup is dealt from shoe ${deal.shoe}: the commitment covers the whole shoe, and its order and nonce are revealed when the shoe ends.`;
  else if (!deal.revealed) status.textContent = "The order and its nonce are revealed once the round is over.";
  else if (!deal.order || !deal.nonce) {
    status.textContent = `Round over: ${deal.verified_by || "the order and nonce are given to supervisors and auditors"}, who check them (croupier audit verify-deal).`;
  }
  else {
    status.textContent = "Checking the revealed order…";
    sha256Hex(`${deal.order.join(" ")}\n${deal.nonce}`).then((hex) => {
      const taken = deal.taken || 0;
      const follows = (deal.dealt || []).every((c, i) => c === null || c === deal.order[taken + i]);
      const ok = hex === deal.commitment && follows;
      panel.dataset.verified = ok ? "yes" : "no";
      status.replaceChildren(h(ok ? "span.ok" : "span.bad", {}, ok
        ? `Verified here: the revealed order and nonce hash to the commitment; the ${(deal.dealt || []).length} cards dealt follow the order from card ${taken + 1}.`
        : "Not verified: the revealed order does not match the commitment. Call a supervisor."));
    });
  }
  return panel;
}
