/* croupier web: the player's page, a seat's wagering device.
 *
 * Sign, limits and live progressive meter; wager entry offering only the wagers (and amounts)
 * allowed now; own cards and cards turned face up; the decisions allowed now; the settlement
 * announced wager by wager; the balance; the seat's recent hands.
 */
"use strict";

const DECISION_WORDS = {
  play: (a, game) => ({ text: game === "mississippi-stud" ? `bet ${a.multiple || 1}` : `play ${a.multiple || 1}`,
    label: game === "mississippi-stud" ? `Bet ${a.multiple || 1}x` : `Play ${a.multiple || 1}x` }),
  check: () => ({ text: "check", label: "Check" }),
  fold: () => ({ text: "fold", label: "Fold" }),
  withdraw: (a) => ({ text: "pull", label: `Pull ${words(a.wager || "bet")}` }),
  pull: (a) => ({ text: "pull", label: `Pull ${words(a.wager || "bet")}` }),
  ride: (a) => ({ text: "ride", label: `Let ${words(a.wager || "it")} ride` }),
};

/** An action from the view as {name, seat, ...}: accepts objects or "play 2" strings. */
function normAction(a) {
  if (typeof a === "string") {
    const [name, arg] = a.trim().toLowerCase().split(/\s+/);
    return { name: name === "bet" ? "play" : name, multiple: arg ? Number(arg) : undefined };
  }
  const name = a.name || a.action || a.kind || "";
  return { ...a, name };
}

function limitsOf(detail, wager) {
  const lim = (detail && detail.limits) || {};
  const one = lim[wager] || lim;
  const min = one.min ?? one.minimum ?? 100;
  const max = one.max ?? one.maximum ?? 100000;
  return { min, max };
}

class PlayerPage extends TablePage {
  async enter() {
    this.section.replaceChildren(h("p.muted", {}, "Loading your seat…"));
    try {
      this.me = await Api.get("/api/me");
      if (this.me.table && this.me.seat) await this.connect(this.me.table);
      else await this.chooseSeat();
    } catch (err) { Announce.error(err); }
  }
  async chooseSeat() {
    const tables = await Api.get("/api/tables");
    const list = h("div.tiles");
    for (const t of tables) {
      const buttons = h("div.btn-row");
      for (let n = 1; n <= 7; n++) {
        const taken = (t.seats || {})[String(n)];
        buttons.append(h("button.btn", { type: "button", disabled: !!taken, "aria-label": `sit at ${t.name} seat ${n}`,
          onclick: (e) => act(e.currentTarget, async () => {
            await Api.post(`/api/tables/${t.id}/sit`, { seat: n });
            this.me = await Api.get("/api/me");
            await this.connect(t.id);
          }) }, String(n)));
      }
      list.append(h("div.tile", {}, h("h3", {}, t.name), h("p.small", {}, `${words(t.game)} · ${words(t.phase)}`), buttons));
    }
    this.section.replaceChildren(h("div.panel", {}, h("h1", { id: "player-title" }, "Choose a seat"), list));
  }
  async load() {
    await super.load();
    if (this.me) {
      const me = await Api.get("/api/me").catch(() => null);
      if (me) { this.me = me; this.renderBalance(); }
      this.loadRecent();
    }
  }
  mySeat() { return this.me && this.me.seat; }
  myLegal() {
    const seat = String(this.mySeat());
    return this.legal().map(normAction).filter((a) => a.seat === undefined || String(a.seat) === seat);
  }
  render() {
    const info = this.tableInfo();
    const seat = this.mySeat();
    const left = h("div", {}, this.header("Your seat"), h("div.panel", {}, drawFelt(info, this.state, { mySeat: seat, acting: this.acting() })));
    left.append(this.controls());
    const right = h("aside", { "aria-label": "balance, sign and recent hands" },
      h("div.panel", {}, h("h2", {}, "Balance"), h("div.balance#balance", { "aria-live": "polite" }, Money.fmt(this.me.balance)),
        h("p.small.muted", {}, `${this.me.name || ""} · seat ${seat}`),
        h("button.btn.btn-ghost", { type: "button", onclick: (e) => act(e.currentTarget, async () => {
          await Api.post(`/api/tables/${this.tableId}/leave`); this.leave(); this.me = await Api.get("/api/me"); await this.chooseSeat();
        }) }, "Leave the table")),
      h("div.panel", {}, h("h2", {}, "The sign"), this.limitsTable(), h("div.sign", { tabindex: "0", "aria-label": "pay-table sign" }, (this.detail && this.detail.sign) || "")),
      h("div.panel#recent", {}, h("h2", {}, "Recent hands"), this.recentList()));
    this.section.replaceChildren(h("div.layout", {}, left, right));
  }
  acting() {
    const t = this.view.to_act;
    if (!t) return null;
    if (typeof t === "object") return t.seat;
    const m = /seat (\d)/.exec(String(t));
    return m ? m[1] : null;
  }
  renderBalance() {
    const el = document.getElementById("balance");
    if (el && this.me) el.textContent = Money.fmt(this.me.balance);
  }
  limitsTable() {
    const rows = this.offered().map((w) => {
      const { min, max } = limitsOf(this.detail, w);
      return h("tr", {}, h("td", {}, words(w)), h("td.num", {}, Money.fmt(min)), h("td.num", {}, Money.fmt(max)));
    });
    return h("table.grid", { "aria-label": "posted limits" },
      h("thead", {}, h("tr", {}, h("th", {}, "Wager"), h("th.num", {}, "Min"), h("th.num", {}, "Max"))), h("tbody", {}, rows));
  }
  offered() {
    const d = this.detail || {};
    const w = d.wagers || d.offered_wagers || [];
    return Array.isArray(w) ? w.map((x) => (typeof x === "string" ? x : x.wager || x.name)) : Object.keys(w);
  }
  /** The wagers that may be placed now: the view's legal place_wager actions for this seat. */
  wagersNow() {
    const fromView = this.myLegal().filter((a) => a.name === "place_wager" || a.name === "wager").map((a) => a.wager);
    return [...new Set(fromView)];
  }
  controls() {
    const panel = h("div.panel.controls", { "aria-label": "wagers and decisions" });
    const wagers = this.wagersNow();
    if (wagers.length) {
      panel.append(h("h2", {}, "Place your wagers"));
      for (const w of wagers) panel.append(this.wagerRow(w));
    }
    const decisions = this.myLegal().filter((a) => DECISION_WORDS[a.name]);
    if (decisions.length) {
      const row = h("div.btn-row.decisions", { role: "group", "aria-label": "your decision" });
      for (const a of decisions) {
        const { text, label } = DECISION_WORDS[a.name](a, this.detail.game);
        const cls = a.name === "fold" ? "btn.btn-red" : "btn.btn-gold";
        row.append(h(`button.${cls}`, { type: "button", dataset: { decision: text },
          onclick: (e) => act(e.currentTarget, () => Api.post(`/api/tables/${this.tableId}/decisions`, { decision: text }).then(() => this.refresh())) }, label));
      }
      panel.append(h("h2", {}, "Your decision"), row);
    }
    const settle = settlementList(this.state, this.mySeat());
    if (settle) panel.append(h("h2", {}, "Settlement"), settle);
    if (!wagers.length && !decisions.length && !settle) {
      panel.append(h("p.muted", {}, this.waitingText()));
    }
    return panel;
  }
  waitingText() {
    const p = this.state.phase;
    if (!p || p === "over" || p === "closed") return "Waiting for the dealer to open betting.";
    if (p === "betting") return "Betting is open; your wagers are placed.";
    return `Waiting: ${words(p)}.`;
  }
  wagerRow(w) {
    const { min, max } = limitsOf(this.detail, w);
    const fixed = min === max;
    const id = `amt-${w}`;
    const input = h("input", { id, type: "number", min: min / 100, max: max / 100, step: "0.01", value: min / 100, readonly: fixed, inputmode: "decimal" });
    const place = h("button.btn.btn-gold", { type: "button", dataset: { wager: w },
      onclick: (e) => act(e.currentTarget, async () => {
        const cents = Money.parse(input.value);
        if (cents === null || cents < min || cents > max) throw new Error(`${words(w)}: enter an amount from ${Money.fmt(min)} to ${Money.fmt(max)}`);
        await Api.post(`/api/tables/${this.tableId}/wagers`, { wager: w, amount: cents });
        Announce.say(`${words(w)} ${Money.fmt(cents)} accepted.`);
        this.refresh();
      }) }, `Place ${words(w)}`);
    return h("div.wager-row", {}, h("label", { for: id }, words(w)), input, place,
      h("span.limits", {}, fixed ? `exactly ${Money.fmt(min)}` : `${Money.fmt(min)} to ${Money.fmt(max)}`));
  }
  async loadRecent() {
    const seat = this.mySeat();
    if (!seat || !this.tableId) return;
    try {
      this.recent = await Api.get(`/api/tables/${this.tableId}/seats/${seat}/rounds?last=5`);
    } catch { this.recent = []; }
    const box = document.getElementById("recent");
    if (box) box.replaceChildren(h("h2", {}, "Recent hands"), this.recentList());
  }
  recentList() {
    const rounds = Array.isArray(this.recent) ? this.recent : (this.recent && this.recent.rounds) || [];
    if (!rounds.length) return h("p.muted.small", {}, "No hands yet at this seat.");
    const seat = String(this.mySeat());
    return h("ul.settle-list", { "aria-label": "recent hands" }, rounds.map((r) => {
      const st = RoundState.from(r.records || []);
      const net = r.net ?? (r.settlement && r.settlement.seats && r.settlement.seats[seat] && r.settlement.seats[seat].net);
      return h("li", {}, h("span", {}, `Round ${r.round_id || r.id || ""}`, handOf(st.boxes[seat] || [], { label: "cards" })),
        h(`span.${net > 0 ? "r-win" : net < 0 ? "r-lose" : "r-push"}`, {}, net === undefined ? "" : Money.fmt(net)));
    }));
  }
  onEvent(ev) {
    super.onEvent(ev);
    const d = ev.data || {};
    if (d.kind === "wager_settled" && String(d.seat) === String(this.mySeat())) {
      Announce.say(`${words(d.wager)} ${RESULT_WORD[d.result] || d.result}: ${d.result === "win" ? "pays " + Money.fmt(d.paid) : Money.fmt(d.stake)}`, d.result === "win" ? "win" : "");
    }
  }
}

App.register("player", new PlayerPage(document.getElementById("page-player")));
