/* croupier web: the pit's live felt of a table and its shift figures (issue 40).
 *
 * The felt is the table as the pit's role sees it (GET /api/tables/{id}/view, then its stream:
 * the server's view for the observer, the supervisor and the auditor is the face-up layout,
 * never a face-down card).  The figures (drop, win, hold, rounds, hands per hour, average
 * wager, theoretical win) and the players' ratings are the server's (GET /api/pit/shift:
 * computed from the chip ledger and the records); the page only shows them.
 */
"use strict";

const PIT_NONE = "–";
/** A phone's width (app.css's narrowest layout). */
function pitPhone() { return window.matchMedia("(max-width: 480px)").matches; }

/** A ratio the server computed, as a percentage for display. */
function pitPct(value) { return value === null || value === undefined ? PIT_NONE : `${value.toFixed(2)}%`; }
function pitCents(value) { return value === null || value === undefined ? PIT_NONE : Money.fmt(value); }
function pitPerHour(value) { return value === null || value === undefined ? PIT_NONE : value >= 10 ? value.toFixed(0) : value.toFixed(1); }
function pitMinutes(value) {
  if (value === null || value === undefined) return PIT_NONE;
  return value < 60 ? `${value} min` : `${Math.floor(value / 60)} h ${String(value % 60).padStart(2, "0")} min`;
}
function theoText(value, status) { return value === null || value === undefined ? (status === "computing" ? "computing…" : PIT_NONE) : Money.fmt(value); }

/** The shift's name and window on the floor's clock ("swing shift, 16:00–24:00 Eastern"). */
function shiftTitle(shift) {
  if (!shift || !shift.shift) return "This shift";
  const at = (iso) => new Date(iso).toLocaleTimeString("en-US", { timeZone: shift.zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const end = at(shift.end) === "00:00" ? "24:00" : at(shift.end);
  return `${words(shift.shift)} shift, ${at(shift.start)}–${end} ${shift.zone === "America/New_York" ? "Eastern" : shift.zone}`;
}

const PIT_FIGURES = [
  ["drop", "Drop", (r) => pitCents(r.drop)],
  ["win", "Win", (r) => pitCents(r.win)],
  ["hold", "Hold", (r) => pitPct(r.hold_percent)],
  ["rounds", "Rounds", (r) => String(r.rounds)],
  ["pace", "Hands per hour", (r) => pitPerHour(r.hands_per_hour)],
  ["average", "Average wager", (r) => pitCents(r.average_wager)],
];

/** One table's shift figures, each labelled (a definition list). */
function figuresList(row, status) {
  if (!row) return null;
  const item = (key, label, text) => h("div.figure", { dataset: { figure: key } }, h("dt", {}, label), h("dd", {}, text));
  return h("dl.figures", { "aria-label": `shift figures of ${row.name}` },
    PIT_FIGURES.map(([key, label, show]) => item(key, label, show(row))),
    item("theo", "Theoretical win", theoText(row.theo, status)));
}

/** Every table's figures for the shift, a row each (scrolls sideways on a phone). */
function shiftTable(shift) {
  const rows = (shift.tables || []).map((r) => h("tr", { dataset: { table: r.table_id } },
    h("th", { scope: "row" }, r.name), h("td.num", {}, String(r.rounds)), h("td.num", {}, pitPerHour(r.hands_per_hour)),
    h("td.num", {}, pitCents(r.drop)), h("td.num", {}, pitCents(r.win)), h("td.num", {}, pitPct(r.hold_percent)),
    h("td.num", {}, pitCents(r.average_wager)), h("td.num", {}, theoText(r.theo, shift.theo_status))));
  // a region the keyboard can scroll sideways on a phone
  return h("div.scroll", { tabindex: "0", role: "region", "aria-label": "shift figures, scrollable" }, h("table.grid", { "aria-label": "shift figures" },
    h("thead", {}, h("tr", {}, ["Table", "Rounds", "Hands per hour", "Drop", "Win", "Hold", "Average wager", "Theoretical win"].map((x, i) => h(i ? "th.num" : "th", { scope: "col" }, x)))),
    h("tbody", {}, rows)));
}

/** The seated players' ratings; the supervisor buys in and cashes out by name on each row
 * (``amounts``: what was typed, kept across redraws; ``done``: after a move). */
function playersTable(players, opts) {
  if (!players.length) return h("p.muted", {}, "No player is seated.");
  const head = ["Player", "Table · seat", "Balance", "Time at the table", "Hands", "Average bet", "Theoretical win"];
  // each cell carries its column's name: on a phone a row is drawn as a card of labelled figures
  const cell = (n, tag, text) => h(tag, { dataset: { label: head[n] } }, text);
  const rows = players.map((p) => {
    const who = p.username || p.name;
    const cells = [h("th", { scope: "row" }, p.name, p.username && p.username !== p.name ? h("span.small.muted", {}, ` (${p.username})`) : null),
      cell(1, "td", `${p.table_name} · ${p.seats.map((s) => `seat ${s}`).join(", ")}`), cell(2, "td.num", Money.fmt(p.balance)),
      cell(3, "td.num", pitMinutes(p.minutes_seated)), cell(4, "td.num", String(p.hands)), cell(5, "td.num", pitCents(p.average_bet)),
      cell(6, "td.num", theoText(p.theo, opts.status))];
    if (opts.cage) {
      const amount = h("input.cage-amount", { type: "number", min: "0.01", step: "0.01", inputmode: "decimal", "aria-label": `amount for ${who} ($)`,
        value: opts.amounts[p.player_id] || "", oninput: (e) => { opts.amounts[p.player_id] = e.currentTarget.value; } });
      const move = (kind) => (e) => act(e.currentTarget, async () => {
        const amt = Money.parse(amount.value);
        if (!amt) throw new Error(`Enter the amount for ${who}.`);
        const res = await Api.post(`/api/players/${encodeURIComponent(p.player_id)}/${kind}`, { amount: amt });
        delete opts.amounts[p.player_id];
        Announce.say(`${kind === "buy-in" ? "Buy-in" : "Cash-out"} of ${Money.fmt(amt)} for ${who} recorded${res && res.balance !== undefined ? `; balance ${Money.fmt(res.balance)}` : ""}.`);
        opts.done();
      });
      cells.push(h("td.cage", { dataset: { label: "Buy-in or cash-out" } }, h("div.btn-row", {}, amount,
        h("button.btn.btn-gold", { type: "button", "aria-label": `Buy in for ${who}`, onclick: move("buy-in") }, "Buy in"),
        h("button.btn", { type: "button", "aria-label": `Cash out for ${who}`, onclick: move("cash-out") }, "Cash out"))));
    }
    return h("tr", { dataset: { player: p.player_id } }, cells);
  });
  return h("div.scroll", { tabindex: "0", role: "region", "aria-label": "players, scrollable" }, h("table.grid.cards", { "aria-label": "players" },
    h("thead", {}, h("tr", {}, [...head, ...(opts.cage ? ["Buy-in or cash-out"] : [])].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows)));
}

/** A table's live felt in the pit: the TablePage machinery (view, stream) drawn into a box of
 * the pit's floor, with the table's shift figures and its players. */
class PitWatch extends TablePage {
  constructor(box, pit) { super(box); this.pit = pit; }
  render() {
    const info = this.tableInfo();
    const shift = this.pit.shiftData || {};
    const row = (shift.tables || []).find((t) => t.table_id === this.tableId);
    const players = (shift.players || []).filter((p) => p.table_id === this.tableId);
    const rnd = this.round;
    const figures = figuresList(row, shift.theo_status);
    const felt = drawFelt(info, this.state, { acting: this.acting() });
    fill(this.section, h("div.panel.watch", { role: "region", "aria-labelledby": "watch-title", dataset: { table: this.tableId } },
      h("div.watch-head", {},
        h("h2#watch-title", {}, `${info.name || this.tableId} · live felt`),
        h("span.small.live-status", { "aria-live": "polite" }, h(`span.status-dot.status-${this.live || "connecting"}`), this.live === "live" ? "live" : "connecting"),
        h("button.btn.btn-ghost", { type: "button", "aria-label": "Close the felt", onclick: () => this.pit.unwatch() }, "Close")),
      h("p.small", {}, h("span.phase-pill", { dataset: { phase: rnd ? rnd.phase : "none" } }, this.phaseText()),
        rnd ? ` round ${this.view.round_id}${rnd.to_act_seat ? ` · seat ${rnd.to_act_seat} to act` : ""}` : "", ` · ${shiftTitle(shift)}`),
      // on a phone the felt comes first, the figures after it: the felt fills the screen
      ...(pitPhone() ? [felt, figures] : [figures, felt]),
      players.length ? h("div", {}, h("h3", {}, "Players at the table"), playersTable(players, { status: shift.theo_status })) : null));
  }
}
