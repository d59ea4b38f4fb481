/* croupier web: the supervisor's and the pit's page (observers and auditors see the parts their
 * role allows): the live floor (a table's live felt when its tile is clicked: pit.js), the
 * shift's figures and the players' ratings, hand-pay approvals, voids, buy-ins and cash-outs,
 * game recall with a step-by-step replay of any round, and the results of `audit verify`.
 */
"use strict";

const PIT_TABS = {
  floor: { label: "Floor", roles: ["supervisor", "observer", "auditor"] },
  players: { label: "Players", roles: ["supervisor", "observer", "auditor"] },
  handpays: { label: "Hand pays", roles: ["supervisor"] },
  cage: { label: "Buy-ins and cash-outs", roles: ["supervisor"] },
  recall: { label: "Game recall", roles: ["supervisor", "observer", "auditor"] },
  audit: { label: "Audit", roles: ["supervisor", "auditor"] },
};

function describeRecord(r) {
  const k = r.kind || r.type;
  const seat = r.seat !== undefined ? `seat ${r.seat}: ` : "";
  switch (k) {
    case "wager_placed": return `${seat}${said(r.wager)} ${Money.fmt(r.amount)} placed`;
    case "no_more_bets": return `No more bets${r.progressive_chips ? ` (${r.progressive_chips} progressive chips)` : ""}`;
    case "meter_changed": return `Meter ${words(r.meter)} ${Money.fmt(r.before)} → ${Money.fmt(r.after)} (${words(r.reason)})`;
    case "card_dealt": return `Card ${Cards.parse(cardText(r.card)) ? cardText(r.card) : "face down"} to ${/^\d$/.test(String(r.to)) ? `seat ${r.to}` : words(r.to)}${r.face_up ? " face up" : ""}`;
    case "play_wagered": return `${seat}${said(r.wager)} ${Money.fmt(r.amount)}`;
    case "wager_settled": return `${seat}${said(r.wager)} ${r.result}: paid ${Money.fmt(r.paid)}, returned ${Money.fmt(r.returned)}`;
    case "hand_shown": return `${seat}hand shown ${(r.cards || []).map(cardText).join(" ")} (${said(r.category)})`;
    case "hand_hidden": return `${seat}hand shown (${said(r.category)})`;
    case "hand_turned": return `${r.hand === "player" ? "Player's" : "Banker's"} Hand turned ${(r.cards || []).map(cardText).join(" ")} (${r.count})${cite(r.section)}`;
    case "dealer_revealed": return `Dealer reveals ${(r.cards || []).map(cardText).join(" ")} (${said(r.category)})`;
    case "round_voided": return `Round void: ${r.reason}${cite(r.section)}`;
    default: {
      const rest = Object.entries(r).filter(([key]) => key !== "kind" && key !== "seat")
        .map(([key, v]) => `${words(key)} ${Array.isArray(v) ? v.join(" ") : v}`).join(", ");
      return `${seat}${words(k)}${rest ? ` — ${rest}` : ""}`;
    }
  }
}

/** Why a table needs the supervisor now, in words, or "" (a round held for a void, a
 * progressive count held for a recount, a declared hand to verify against its light). */
function supervisorDue(t) {
  if (t.held && t.round_id) return `round held: ${t.held}; void it`;
  if (t.phase === "count_held") return "the progressive chips differ from the wagers: recount them";
  if (t.phase === "declaring") return "a hand declared at the felt: verify it against its light";
  return "";
}

class PitPage {
  constructor(section) { this.section = section; this.tab = "floor"; this.stream = null; }
  role() { return (Api.session && Api.session.role) || "observer"; }
  enter() {
    const tabs = h("div.tabs", { role: "tablist", "aria-label": "pit" });
    for (const [key, t] of Object.entries(PIT_TABS)) {
      if (!t.roles.includes(this.role())) continue;
      tabs.append(h("button.btn", { type: "button", role: "tab", id: `tab-${key}`, "aria-selected": String(key === this.tab),
        "aria-controls": "pit-body", onclick: () => this.open(key) }, t.label));
    }
    this.body = h("div#pit-body", { role: "tabpanel" });
    const title = this.role() === "supervisor" ? "Supervisor · the pit" : this.role() === "auditor" ? "Audit · the pit" : "Pit view";
    this.section.replaceChildren(h("h1", { id: "pit-title" }, title), tabs, this.body);
    // the floor stream's messages are the floor's state: the tables and the meters' amounts
    this.tables = null;
    this.meterRows = null;
    this.refreshFloor = debounce(() => { if (this.tab === "floor") this.floor().catch((err) => Announce.error(err)); }, 150);
    // the shift's figures and the players (the server's, from the ledger): asked again once a
    // table's events settle, and while a table's par sheet is still being computed
    this.shiftData = null;
    this.amounts = {};
    this.refreshShift = debounce(() => this.loadShift().catch((err) => Announce.error(err)), 800);
    this.watchBox = h("div.watch-box");
    this.watch = new PitWatch(this.watchBox, this);
    this.stream = new Stream("/api/floor/stream", (ev) => this.applyFloor(ev), () => {},
      { onReopen: () => { this.tables = null; this.meterRows = null; this.refreshFloor(); } });
    this.open(PIT_TABS[this.tab].roles.includes(this.role()) ? this.tab : "floor");
  }
  leave() { if (this.stream) this.stream.close(); this.stream = null; this.unwatch(); }
  open(key) {
    this.tab = key;
    if (key !== "floor") this.unwatch();
    for (const b of this.section.querySelectorAll("[role=tab]")) b.setAttribute("aria-selected", String(b.id === `tab-${key}`));
    this.body.setAttribute("aria-labelledby", `tab-${key}`);
    this[key]().catch((err) => Announce.error(err));
  }
  /** A floor stream message: its tables replace the page's, its meter amounts the meters'
   * (a meter that fell paid an award: its row, with the paid-to-date, is asked again). */
  applyFloor(ev) {
    const d = ev.data || {};
    if (!Array.isArray(d.tables)) return;
    this.tables = d.tables;
    const amounts = d.meters || {};
    const rows = this.meterRows || [];
    const known = new Set(rows.map((m) => m.name));
    const fell = rows.some((m) => m.name in amounts && amounts[m.name] < m.amount);
    if (!this.meterRows || fell || Object.keys(amounts).some((n) => !known.has(n))) this.meterRows = null;
    else this.meterRows = rows.map((m) => (m.name in amounts ? { ...m, amount: amounts[m.name] } : m));
    this.refreshFloor();
    this.refreshShift();
  }
  /** The shift's figures and players asked of the server, then drawn where they show. */
  async loadShift() {
    const data = await Api.get("/api/pit/shift");
    this.shiftData = data;
    clearTimeout(this.shiftRetry);
    if (data.theo_status === "computing") this.shiftRetry = setTimeout(() => this.refreshShift(), 1000);
    if (this.tab === "floor") await this.floor();
    if (this.tab === "players") this.drawPlayers();
    if (this.watching) { this.watch.lastSig = null; this.watch.draw(); }
    return data;
  }
  /** The table's live felt at the top of the floor (its tile clicked or its Watch button). */
  async watchTable(tableId) {
    this.watching = tableId;
    await this.watch.connect(tableId);
    // on a phone the felt is scrolled to the top of the screen (the header, the tabs and what
    // needs the supervisor are above it); wider, the page's top already shows it
    if (pitPhone()) this.watchBox.scrollIntoView({ block: "start" });
    else window.scrollTo(0, 0);
  }
  unwatch() {
    if (this.watch) this.watch.leave();
    this.watching = null;
    if (this.watchBox) fill(this.watchBox);
  }
  async floor() {
    const [tables, meters, shift] = await Promise.all([this.tables || Api.get("/api/tables"), this.meterRows || Api.get("/api/meters").catch(() => []),
      // the floor is drawn even where the figures cannot be had (they follow at the next change)
      this.shiftData || Api.get("/api/pit/shift").catch(() => ({ tables: [], players: [] }))]);
    this.tables = this.tables || tables;
    this.meterRows = this.meterRows || meters;
    if (!this.shiftData && shift.shift) { this.shiftData = shift; if (shift.theo_status === "computing") this.refreshShift(); }
    const devices = await this.deviceStatus(tables);
    if (this.tab !== "floor") return; // another tab was opened meanwhile
    const figures = Object.fromEntries((shift.tables || []).map((r) => [r.table_id, r]));
    const tiles = h("div.tiles", { role: "group", "aria-label": "tables" });
    // what the supervisor must act on now comes first, above everything (on a phone too)
    const due = this.role() === "supervisor" ? tables.filter(supervisorDue) : [];
    for (const t of tables) {
      const seated = Object.values(t.seats || {}).filter(Boolean).length;
      const fig = figures[t.id];
      // a click on the tile (not on one of its controls) shows the table's live felt
      const tile = h("div.tile", { dataset: { table: t.id }, onclick: (e) => { if (!e.target.closest("button, input, select, a")) this.watchTable(t.id).catch((err) => Announce.error(err)); } },
        h("h3", {}, t.name), trainingBanner(t),
        h("p.small", {}, `${t.game_name || words(t.game)} · table ${t.status}${t.held ? ` · held: ${t.held}` : ""}`), h("p", {}, h("span.phase-pill", {}, words(t.phase || "no round")),
          ` round ${t.round_id || "–"} · ${seated} seated`),
        Object.entries(t.meters || {}).map(([m, c]) => h("p.small", {}, `${words(m)}: `, h("strong", {}, Money.fmt(c)))),
        fig ? h("p.small", {}, `Shift: drop ${Money.fmt(fig.drop)} · win ${Money.fmt(fig.win)} · hold ${pitPct(fig.hold_percent)}`) : null,
        (devices[t.id] || []).map((d) => h("p.small.device", { dataset: { device: d.device, silent: String(d.silent) } },
          `${d.device}: ${d.silent ? "silent" : "connected"} · last heard ${d.last_seen ? new Date(d.last_seen).toLocaleTimeString() : "never"}`,
          Object.keys(d.lights || {}).length ? ` · lights ${Object.entries(d.lights).map(([s, l]) => `seat ${s} ${l}`).join(", ")}` : "",
          Object.keys(d.wager_lights || {}).length ? [" · ", wagerLights(d.wager_lights)] : null)),
        h("div.btn-row", {}, h("button.btn.btn-ghost", { type: "button", "aria-label": `Watch the felt of ${t.name}`, dataset: { watch: t.id },
          onclick: (e) => act(e.currentTarget, () => this.watchTable(t.id)) }, "Watch the felt")));
      if (this.role() === "supervisor") tile.append(this.tableActions(t, due.includes(t)));
      tiles.append(tile);
    }
    const mrows = (meters || []).map((m) => h("tr", {}, h("td", {}, words(m.name)), h("td.num", {}, Money.fmt(m.amount)),
      h("td.num", {}, Money.fmt(m.reset)), h("td", {}, String(m.rate ?? "")), h("td.num", {}, Money.fmt(m.paid_total || 0))));
    const focus = focusKey(document.activeElement);
    const needs = due.length ? h("div.panel.needs", { role: "region", "aria-labelledby": "needs-title" }, h("h2#needs-title", {}, "Needs you now"),
      due.map((t) => h("div.due", { dataset: { table: t.id } }, h("p", {}, h("strong", {}, t.name), ` · ${supervisorDue(t)}`),
        t.held ? this.voidRow(t) : this.systemActions(t)))) : null;
    this.body.replaceChildren(...(needs ? [needs] : []), this.watchBox, h("div.panel", {}, h("h2", {}, "The floor"), tiles),
      h("div.panel", {}, h("h2", {}, shiftTitle(shift)), shiftTable(shift),
        h("p.small.muted", {}, "Drop: the wagers taken; win: what the house kept; hold: win ÷ drop; theoretical win: each wager times its exact house edge (the par sheet of the table's rules).")),
      h("div.panel.scroll", {}, h("h2", {}, "Progressive meters"), h("table.grid", { "aria-label": "meters" },
        h("thead", {}, h("tr", {}, h("th", {}, "Meter"), h("th.num", {}, "Amount"), h("th.num", {}, "Reset"), h("th", {}, "Rate"), h("th.num", {}, "Paid to date"))),
        h("tbody", {}, mrows))));
    restoreFocus(this.body, focus);
  }
  async players() {
    if (!this.shiftData) await this.loadShift();
    this.drawPlayers();
  }
  drawPlayers() {
    if (this.tab !== "players") return;
    const shift = this.shiftData || {};
    const focus = focusKey(document.activeElement);
    this.body.replaceChildren(h("div.panel", {}, h("h2", {}, "Players"),
      playersTable(shift.players || [], { status: shift.theo_status, cage: this.role() === "supervisor", amounts: this.amounts, done: () => this.loadShift() }),
      h("p.small.muted", {}, "Each seated player's time at the table since sitting down, the hands played since, the average bet and the theoretical win (the rating a table-games department keeps).")));
    restoreFocus(this.body, focus);
  }
  /** Each table's devices (card readers, progressive sensors: issue 39), asked at most every
   * 5 seconds while the floor is drawn; a role the policy refuses them sees none. */
  async deviceStatus(tables) {
    const now = Date.now();
    if (this.devices && now - this.devicesAt < 5000) return this.devices;
    const lists = await Promise.all(tables.map((t) => Api.get(`/api/tables/${encodeURIComponent(t.id)}/devices`).catch(() => [])));
    this.devices = Object.fromEntries(tables.map((t, i) => [t.id, lists[i] || []]));
    this.devicesAt = now;
    return this.devices;
  }
  /** A tile's actions: only what applies (Open a closed table, Close an open one, Void a round
   * in play, never one already over or void); a table that needs the supervisor now (``due``)
   * has its held round's void or its system step in the "Needs you now" panel instead. */
  tableActions(t, due) {
    const inPlay = Boolean(t.round_id) && !["over", "void", null, undefined, ""].includes(t.phase);
    const toggle = t.status === "open" ? ["close", "Close"] : ["open", "Open"];
    return h("div", {}, h("div.btn-row", {},
      h("button.btn.btn-ghost", { type: "button", onclick: (e) => act(e.currentTarget, () => Api.post(`/api/tables/${t.id}/${toggle[0]}`).then(() => this.floor())) }, toggle[1])),
      inPlay && !(due && t.held) ? this.voidRow(t) : null, due ? h("p.small", {}, "Needs you now: at the top of the floor.") : null);
  }
  /** The reason and Void round of the table's round (the reason typed survives the floor being
   * drawn again: a table's event meanwhile). */
  voidRow(t) {
    this.reasons = this.reasons || {};
    const reason = h("input", { "aria-label": `reason to void the round at ${t.name}`, placeholder: "reason",
      value: this.reasons[t.id] || "", oninput: (e) => { this.reasons[t.id] = e.currentTarget.value; } });
    return h("div.btn-row", {}, reason, h("button.btn.btn-red", { type: "button", onclick: (e) => act(e.currentTarget, async () => {
      if (!reason.value.trim()) throw new Error("A void needs a reason.");
      await Api.post(`/api/rounds/${t.round_id}/void`, { reason: reason.value.trim() });
      delete this.reasons[t.id];
      Announce.say(`Round ${t.round_id} voided.`);
      this.floor();
    }) }, "Void round"));
  }
  /** The progressive table game system's supervisor steps (issue 39): the recount of a count
   * held (§ 641a.8(b)) and the verification of a hand declared at the felt against its light
   * (§ 641a.11(c)(5)(ii)-(iii)). */
  systemActions(t) {
    // what is typed survives the floor being drawn again (a table's event meanwhile)
    this.typed = this.typed || {};
    const kept = (name, attrs) => h("input", { ...attrs, value: this.typed[`${t.id}:${name}`] || "",
      oninput: (e) => { this.typed[`${t.id}:${name}`] = e.currentTarget.value; } });
    const post = (path, body, said) => (e) => act(e.currentTarget, async () => {
      await Api.post(`/api/tables/${encodeURIComponent(t.id)}/${path}`, body());
      for (const k of Object.keys(this.typed)) if (k.startsWith(`${t.id}:`)) delete this.typed[k];
      Announce.say(said);
      this.floor();
    });
    if (t.phase === "count_held") {
      const count = kept("recount", { type: "number", min: 0, max: 999, "aria-label": `progressive chips recounted at ${t.name}` });
      return h("div.btn-row", {}, count, h("button.btn.btn-gold", { type: "button", dataset: { recount: t.id },
        onclick: post("progressive-count", () => ({ count: Number(count.value) }), "Progressive chips recounted.") }, "Recount"));
    }
    if (t.phase === "declaring") {
      const seat = kept("verify", { type: "number", min: 1, max: 7, "aria-label": `seat of the declared hand at ${t.name}` });
      return h("div.btn-row", {}, seat, h("button.btn.btn-gold", { type: "button", dataset: { verify: t.id },
        onclick: post("declarations/verify", () => ({ seat: Number(seat.value) }), "Declared hand verified.") }, "Verify against the light"));
    }
    return null;
  }
  async handpays() {
    const pays = await Api.get("/api/handpays");
    if (this.tab !== "handpays") return;
    const rows = (pays || []).map((p) => h("tr", { dataset: { handpay: String(p.id), status: p.status } }, h("td", {}, String(p.id)), h("td", {}, String(p.table_id)), h("td", {}, String(p.round_id)),
      h("td", {}, `${p.seat} · ${p.player_id}`), h("td", {}, `${words(p.meter)}: ${said(p.line)}`), h("td.num", {}, Money.fmt(p.amount)),
      h("td", {}, p.status !== "pending" ? `${p.status}${p.approved_by ? ` by ${p.approved_by}` : ""}` : h("button.btn.btn-gold", { type: "button", "aria-label": `approve hand pay ${p.id}: ${Money.fmt(p.amount)} to ${p.player_id}`, onclick: (e) => act(e.currentTarget, async () => {
        await Api.post(`/api/handpays/${p.id}/approve`); Announce.say(`Hand pay ${p.id} approved.`); this.handpays();
      }) }, "Approve"))));
    this.body.replaceChildren(h("div.panel.scroll", {}, h("h2", {}, "Hand pays"),
      rows.length ? h("table.grid", { "aria-label": "hand pays" }, h("thead", {}, h("tr", {}, ["Id", "Table", "Round", "Seat", "Award", "Amount", "Status"].map((x) => h("th", {}, x)))), h("tbody", {}, rows))
        : h("p.muted", {}, "No hand pay has been awarded.")));
  }
  async cage() {
    // the players to pick from, by user name (the accounts the supervisor may list); a player's
    // id is taken as well
    const accounts = await Api.get("/api/accounts").catch(() => []);
    if (this.tab !== "cage") return;
    const players = (accounts || []).filter((a) => a.player_id);
    const pid = h("input#cage-player", { required: true, list: "cage-players", autocomplete: "off", placeholder: "user name or player id" });
    const list = h("datalist#cage-players", {}, players.map((a) => h("option", { value: a.username }, `${a.username} · ${a.player_id}`)));
    const amt = h("input#cage-amount", { type: "number", min: "0.01", step: "0.01", required: true });
    const send = (kind) => (e) => act(e.currentTarget, async () => {
      const cents = Money.parse(amt.value);
      const typed = pid.value.trim();
      if (!typed || !cents) throw new Error("Enter a player and an amount.");
      const named = players.find((a) => a.username === typed.toLowerCase());
      const id = named ? named.player_id : typed;
      const who = named ? `${named.username} (${id})` : id;
      const res = await Api.post(`/api/players/${encodeURIComponent(id)}/${kind}`, { amount: cents });
      Announce.say(`${kind === "buy-in" ? "Buy-in" : "Cash-out"} of ${Money.fmt(cents)} for ${who} recorded${res && res.balance !== undefined ? `; balance ${Money.fmt(res.balance)}` : ""}.`);
    });
    this.body.replaceChildren(h("div.panel", {}, h("h2", {}, "Buy-ins and cash-outs"),
      h("div.wager-row", {}, h("label", { for: "cage-player" }, "Player"), pid, list),
      h("div.wager-row", {}, h("label", { for: "cage-amount" }, "Amount ($)"), amt),
      h("div.btn-row", {}, h("button.btn.btn-gold#cage-in", { type: "button", onclick: send("buy-in") }, "Buy in"),
        h("button.btn#cage-out", { type: "button", onclick: send("cash-out") }, "Cash out"))));
  }
  async recall() {
    const tables = await Api.get("/api/tables");
    if (this.tab !== "recall") return;
    const sel = h("select#recall-table", {}, tables.map((t) => h("option", { value: t.id }, `${t.name} · ${t.game_name || words(t.game)}${t.training ? " · training" : ""}`)));
    const list = h("div#recall-list");
    this.replayBox = h("div#replay");
    const load = (e) => act(e && e.currentTarget, async () => {
      const rounds = await Api.get(`/api/tables/${sel.value}/rounds?last=10`);
      const arr = Array.isArray(rounds) ? rounds : rounds.rounds || [];
      list.replaceChildren(arr.length ? h("div.btn-row", {}, arr.map((r) => h("button.btn", { type: "button", dataset: { round: r.round_id || r.id },
        onclick: (ev) => act(ev.currentTarget, () => this.replay(r, sel.value)) }, `Round ${r.round_id || r.id}`))) : h("p.muted", {}, "No rounds recorded at this table."));
    });
    this.body.replaceChildren(h("div.panel", {}, h("h2", {}, "Game recall"),
      h("div.btn-row", {}, h("label", { for: "recall-table" }, "Table"), sel, h("button.btn.btn-gold", { type: "button", onclick: load }, "Recall")), list),
      this.replayBox);
  }
  async replay(round, tableId) {
    const rid = round.round_id || round.id;
    let records = round.records;
    let seating = round.players || {};
    if (this.role() !== "observer") {
      const full = await Api.get(`/api/rounds/${rid}/records`).catch(() => null);
      if (full) { records = full.records || full; seating = full.players || seating; }
    }
    records = records || [];
    const table = (await Api.get("/api/tables")).find((t) => String(t.id) === String(tableId)) || {};
    // the recalled game's names (its wagers and hands as people say them)
    Spoken.use((await Api.get(`/api/tables/${encodeURIComponent(tableId)}`).catch(() => ({}))).names);
    let i = records.length;
    const felt = h("div"), steps = h("ol.replay-steps", { "aria-label": "records" });
    records.forEach((r, n) => steps.append(h("li", { dataset: { step: n + 1 } }, describeRecord(r))));
    const counter = h("span.small", { "aria-live": "polite" });
    const draw = () => {
      // the recalled round's own seating (who sat where then), never today's
      felt.replaceChildren(drawFelt({ ...table, meters: {}, seats: seating }, RoundState.from(records.slice(0, i)), {}));
      [...steps.children].forEach((li, n) => li.classList.toggle("now", n === i - 1));
      counter.textContent = `step ${i} of ${records.length}`;
      const now = steps.children[i - 1]; if (now) now.scrollIntoView({ block: "nearest" });
    };
    const go = (d) => () => { i = Math.max(0, Math.min(records.length, d === "start" ? 0 : d === "end" ? records.length : i + d)); draw(); };
    // The scenario holds every card dealt: the supervisor's and the auditor's only (the policy,
    // server/policy.py); the observer's pit replays the round as the public saw it.
    const scenario = this.role() === "observer" ? null : h("button.btn.btn-ghost", { type: "button", onclick: (e) => act(e.currentTarget, async () => {
      const data = await Api.get(`/api/rounds/${rid}/scenario`);
      const a = h("a", { href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" })), download: `round-${rid}.json` });
      document.body.append(a); a.click(); a.remove();
    }) }, "Download scenario");
    const deal = await Api.get(`/api/rounds/${rid}/deal`).catch(() => null);
    // a training table's round (its record header says so) is never real play
    fill(this.replayBox, h("div.panel", {}, h("h2", {}, `Replay of round ${rid}`), trainingBanner({ training: round.mode === "training" }),
      h("div.btn-row", { role: "group", "aria-label": "replay controls" },
        h("button.btn", { type: "button", onclick: go("start") }, "« Start"), h("button.btn", { type: "button", onclick: go(-1) }, "◀ Step back"),
        h("button.btn.btn-gold", { type: "button", onclick: go(1) }, "Step ▶"), h("button.btn", { type: "button", onclick: go("end") }, "End »"), counter, scenario),
      h("div.layout", {}, felt, steps)), dealPanel(deal));
    draw();
  }
  async audit() {
    const out = h("div#audit-out");
    const run = (e) => act(e && e.currentTarget, async () => {
      const res = await Api.get("/api/audit/verify");
      // what the server checked: its problems (ledger, meters) and, where it runs the whole
      // `croupier audit verify`, the chains' counts and findings (res.audit or at the top)
      const full = res.audit || res;
      const checked = full.checked || {};
      // (the server's problems already hold each chain finding, as "table key: what")
      const findings = res.audit ? [...(res.problems || [])] : [...(res.problems || []), ...(full.findings || []).map((f) => typeof f === "string" ? f : `${f.table} ${f.key}: ${f.what}`)];
      const ok = res.ok && (full.ok ?? true) && !findings.length;
      const balances = Object.entries(res.balances || {});
      fill(out, h("p", { role: "status", "aria-label": "audit result", dataset: { ok: ok ? "yes" : "no" } }, "Result: ",
        h(ok ? "span.ok" : "span.bad", {}, ok ? `clean: nothing differs (${Object.keys(checked).length ? "every chain, meter and settlement matches, every chip reconciles" : "the ledger balances and every meter matches its ledger account"})` : `${findings.length} problem${findings.length === 1 ? "" : "s"} found`)),
        Object.keys(checked).length ? h("table.grid", { "aria-label": "checked" }, h("tbody", {}, Object.entries(checked).map(([k, n]) =>
          h("tr", {}, h("th", { scope: "row" }, words(k)), h("td.num", {}, String(n)))))) : null,
        findings.length ? h("ul", { "aria-label": "problems" }, findings.map((p) => h("li.bad", {}, p))) : null,
        balances.length ? h("div.scroll", {}, h("h3", {}, "Ledger balances"), h("table.grid", { "aria-label": "ledger balances" },
          h("thead", {}, h("tr", {}, h("th", {}, "Account"), h("th.num", {}, "Balance"))),
          h("tbody", {}, balances.map(([k, v]) => h("tr", { dataset: { account: k } }, h("td", {}, k),
            h("td.num", {}, /^-?\d+$/.test(String(v)) ? Money.fmt(Number(v)) : `${v}¢`)))))) : null,
        h("details", {}, h("summary", {}, "Full report"), h("pre.text", {}, JSON.stringify(res, (_k, v) => (v === null ? "none" : v), 2))));
    });
    this.body.replaceChildren(h("div.panel", {}, h("h2", {}, "audit verify"),
      h("p.muted", {}, "The server's check of the chip ledger (every transaction sums to zero, every balance equals its rows) and of each progressive meter against its ledger account; where the server runs the whole croupier audit verify, the record and meter hash chains, the settlements rebuilt from the records and each seat's chips reconciled with its settlement too."),
      h("button.btn.btn-gold", { type: "button", onclick: run }, "Run audit verify"), out));
  }
}

App.register("pit", new PitPage(document.getElementById("page-pit")));
