/* croupier web: the player's page, a seat's wagering device.
 *
 * The sign, posted limits and live progressive meter; wager entry offering only the wagers and
 * amounts the round accepts now (GET /api/tables/{id}/actions on connect, then as the table
 * stream carries them: the engine's legality rule);
 * own cards and cards turned face up; the decisions allowed now; the settlement announced wager
 * by wager; the balance; the seat's recent hands.
 */
"use strict";

/** The engine's words for a decision (``Round.describe``, sent by the server), capitalised. */
function decisionLabel(d) {
  const text = d.label || words(d.name);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The commission markers collected as the player leaves (§ 541.13(g)), and any part owed at
 * the cage. */
function announceCollected(records) {
  for (const r of records) {
    if (r.kind === "vig_marker_collected") Announce.say(`Commission collected: ${Money.fmt(r.amount)}.`);
    else if (r.kind === "vig_marker_to_cage") Announce.say(`Commission of ${Money.fmt(r.amount)} owed at the cage.`, "error");
  }
}

class PlayerPage extends TablePage {
  async enter() {
    this.section.replaceChildren(h("p.muted", {}, "Loading your seat…"));
    try {
      this.me = await Api.get("/api/me");
      const tables = Object.keys(this.me.seats || {});
      if (tables.length) await this.connect(tables[0]);
      else await this.chooseSeat();
    } catch (err) { Announce.error(err); }
  }
  async chooseSeat() {
    this.tableId = null;
    const tables = await Api.get("/api/tables");
    const list = h("div.tiles");
    for (const t of tables) {
      const buttons = h("div.btn-row", { role: "group", "aria-label": `seats at ${t.name}` });
      for (let n = 1; n <= 7; n++) {
        const taken = (t.seats || {})[String(n)];
        buttons.append(h("button.btn", { type: "button", disabled: !!taken || t.status !== "open", "aria-label": `sit at ${t.name} seat ${n}`,
          onclick: (e) => act(e.currentTarget, async () => {
            await Api.post(`/api/tables/${encodeURIComponent(t.id)}/sit`, { seat: n });
            this.me = await Api.get("/api/me");
            await this.connect(t.id);
          }) }, String(n)));
      }
      list.append(h("div.tile", { dataset: { table: t.id } }, h("h3", {}, t.name), trainingBanner(t), h("p.small", {}, `${t.game_name || words(t.game)} · ${t.status}`), buttons));
    }
    this.section.replaceChildren(h("div.panel", {}, h("h1", { id: "player-title" }, "Choose a seat"),
      h("p.muted", {}, "Each table's seats, seat 1 farthest to the dealer's left."), list));
  }
  /** The account (balance, commission owed, seats) and the seat's recent hands: asked again
   * only where the table's state may have moved them (the seats, the round or its phase, the
   * seat's stakes, the player's own command, an event other than a record: chips bought or
   * cashed, a hand-pay approved, the shoe). */
  async afterLoad(before) {
    const was = (before && before.round) || {};
    const now = this.view.round || {};
    const seat = String(this.mySeat());
    const stakes = (r) => JSON.stringify((r.stakes || {})[seat] || {});
    const moved = !before || !before.table_id || this.meStale || JSON.stringify(before.seats) !== JSON.stringify(this.view.seats)
      || before.round_id !== this.view.round_id || was.phase !== now.phase || stakes(was) !== stakes(now);
    if (!moved) return;
    this.meStale = false;
    const [me, recent] = await Promise.all([
      Api.get("/api/me"),
      this.mySeat() ? Api.get(`/api/tables/${encodeURIComponent(this.tableId)}/seats/${this.mySeat()}/rounds?last=5`).catch(() => []) : [],
    ]);
    this.me = me;
    this.recent = recent;
  }
  mySeat() {
    const seats = (this.me && this.me.seats && this.me.seats[this.tableId]) || [];
    return seats.length ? seats[0] : null;
  }
  render() {
    if (!this.mySeat()) { this.chooseSeat(); return; }
    const info = this.tableInfo();
    const seat = this.mySeat();
    // what the player acts on now (wagers, decisions) and the round's result come first: inside
    // the viewport at a laptop's and a phone's size without scrolling; the felt follows
    const left = h("div", {}, this.header(`Seat ${seat}`, "player-title"), this.controls(),
      h("div.panel", {}, drawFelt(info, this.state, { mySeat: seat, acting: this.acting() })));
    const right = h("aside", { "aria-label": "balance, sign and recent hands" },
      h("div.panel", {}, h("h2", {}, "Balance"), h("div.balance#balance", { "aria-live": "polite" }, Money.fmt(this.me.balance)),
        this.me.commission_owed ? h("p.owed#commission-owed", { "aria-live": "polite" }, "Commission owed ",
          h("strong", {}, Money.fmt(this.me.commission_owed)), h("span.small.muted", {}, " · collected when you leave or the shoe ends")) : null,
        h("p.small.muted", {}, `${this.me.username} · player ${this.me.player_id}`),
        h("button.btn.btn-ghost", { type: "button", onclick: (e) => act(e.currentTarget, async () => {
          const left = await Api.post(`/api/tables/${encodeURIComponent(this.tableId)}/leave`);
          announceCollected((left && left.records) || []);
          this.leave(); this.me = await Api.get("/api/me"); await this.chooseSeat();
        }) }, "Leave the table")),
      dealPanel(this.view.deal),
      this.view.shoe && (this.view.shoe.results || []).length
        ? h("div.panel", { role: "region", "aria-label": "the shoe's roads" }, h("h2", {}, "The shoe"), roads(this.view.shoe.results)) : null,
      h("div.panel", {}, h("h2", {}, "Posted limits"), this.limits()),
      h("div.panel", {}, h("h2", {}, "The sign"), h("div.sign", { tabindex: "0", role: "document", "aria-label": "pay-table sign" }, info.sign || "")),
      h("div.panel#recent", {}, h("h2", {}, "Recent hands"), this.recentList()));
    this.section.replaceChildren(h("div.layout", {}, left, right));
  }
  limits() {
    const detail = this.detail || {};
    const rules = detail.rules || {};
    const rows = [];
    // every wager placed before the cards posts a minimum and maximum (a fixed wager: its amount)
    for (const [k, v] of Object.entries(detail.limits || {})) {
      const range = v.min === v.max ? `${Money.fmt(v.min)} (fixed)` : `${v.min === undefined ? "–" : Money.fmt(v.min)} to ${v.max === undefined ? "–" : Money.fmt(v.max)}`;
      rows.push([said(k), range]);
    }
    // the decision wagers (Play, street bets): multiples of the Ante, within its limits
    for (const w of detail.wagers || []) if (!(w in (detail.limits || {}))) rows.push([said(w), "a multiple of the Ante"]);
    for (const w of this.actions.wagers || []) {
      const a = w.amounts;
      rows.push([`${said(w.wager)} now`, a.length === 1 ? `exactly ${Money.fmt(a[0])}` : `${Money.fmt(a[0])} to ${Money.fmt(a[a.length - 1])}`]);
    }
    if (rules.payout_limit) rows.push(["payout limit per hand", Money.fmt(rules.payout_limit)]);
    if (!rows.length) return h("p.small.muted", {}, "The limits are posted at the table.");
    return h("table.grid", { "aria-label": "posted limits" }, h("tbody", {}, rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td.num", {}, v)))));
  }
  controls() {
    const panel = h("div.panel.controls", { role: "group", "aria-label": "wagers and decisions" });
    const wagers = this.actions.wagers || [];
    if (wagers.length) {
      panel.append(h("h2", {}, "Place your wagers"));
      for (const w of wagers) panel.append(this.wagerRow(w));
    }
    const decisions = this.actions.decisions || [];
    if (decisions.length) {
      const row = h("div.btn-row.decisions", { role: "group", "aria-label": "your decision" });
      for (const d of decisions) {
        const cls = d.name === "fold" || d.name === "withdraw" ? "btn.btn-red" : "btn.btn-gold";
        row.append(h(`button.${cls}`, { type: "button", dataset: { decision: d.decision },
          onclick: (e) => act(e.currentTarget, async () => {
            const res = await Api.post(`/api/tables/${encodeURIComponent(this.tableId)}/decisions`, { decision: d.decision, seat: d.seat });
            this.meStale = true; // a Play wager moves the balance
            await this.caughtUp(res && res.seq);
          }) }, decisionLabel(d)));
      }
      panel.append(h("h2", {}, "Your decision"), this.decideCards(), row);
    }
    const settle = settlementList(this.state, this.mySeat());
    if (settle) {
      const mine = this.round && this.round.settlement && this.round.settlement[String(this.mySeat())];
      const over = this.round && ["over", "void"].includes(this.round.phase);
      const net = mine && mine.net !== undefined ? mine.net : undefined;
      const tone = net > 0 ? "r-win" : net < 0 ? "r-lose" : "r-push";
      panel.append(h("div#round-result.result", { role: "region", "aria-label": "the round's result" },
        h("h2", {}, over ? (this.round.phase === "void" ? "Round void" : "Round over") : "Settlement"),
        net !== undefined ? h("p.net.net-big", {}, "Net this round: ", h(`strong.${tone}`, {}, Money.fmt(net))) : null,
        settle));
    }
    if (!wagers.length && !decisions.length && !settle) panel.append(h("p.muted.waiting", {}, this.waitingText()));
    return panel;
  }
  /** The cards the decision is made on, beside its buttons (the felt may be below the fold on
   * a phone): the seat's own and the community cards turned so far. */
  decideCards() {
    const mine = this.state.boxes[String(this.mySeat())] || [];
    const board = (this.state.boxes.board || []).filter(Boolean);
    if (!mine.length && !board.length) return null;
    const info = this.tableInfo();
    return h("div.decide-cards", { role: "group", "aria-label": "the cards you decide on" },
      mine.length ? h("div.decide-part", {}, h("span.zone-label", {}, "Your hand"), handOf(mine, { label: "your hand to decide on", back: info.back })) : null,
      board.length ? h("div.decide-part", {}, h("span.zone-label", {}, BOX_LABEL.board), handOf(board, { label: "the community cards so far", back: info.back })) : null);
  }
  waitingText() {
    const r = this.round;
    if (!r || r.phase === "over" || r.phase === "void") return "Waiting for the dealer to open betting.";
    if (r.phase === "betting") return "Your wagers are placed; waiting for \u201cno more bets\u201d.";
    if (r.to_act_seat) return `Waiting for seat ${r.to_act_seat}.`;
    return `The dealer: ${words(r.phase)}.`;
  }
  wagerRow(w) {
    const id = `amt-${w.wager}`;
    // the amount chosen survives the page being drawn again (another seat's wager, the stream)
    this.chosen = this.chosen || {};
    const keep = this.chosen[w.wager];
    const select = h("select", { id, onchange: (e) => { this.chosen[w.wager] = Number(e.currentTarget.value); } },
      w.amounts.map((a) => h("option", { value: a, selected: a === keep }, Money.fmt(a))));
    const place = h("button.btn.btn-gold", { type: "button", dataset: { wager: w.wager },
      onclick: (e) => act(e.currentTarget, async () => {
        const cents = Number(select.value);
        const res = await Api.post(`/api/tables/${encodeURIComponent(this.tableId)}/wagers`, { wager: w.wager, amount: cents, seat: w.seat });
        Announce.say(`${said(w.wager)} ${Money.fmt(cents)} accepted.`);
        this.meStale = true; // the balance the wager moved, asked with the state it made
        await this.caughtUp(res && res.seq);
      }) }, "Place", h("span.wide-only", {}, ` ${said(w.wager)}`));
    place.setAttribute("aria-label", `Place ${said(w.wager)}`);
    const a = w.amounts;
    return h("div.wager-row", {}, h("label", { for: id }, said(w.wager)), select, place,
      h("span.limits", {}, a.length === 1 ? `exactly ${Money.fmt(a[0])}` : `${Money.fmt(a[0])} to ${Money.fmt(a[a.length - 1])}`));
  }
  recentList() {
    const rounds = Array.isArray(this.recent) ? this.recent : [];
    if (!rounds.length) return h("p.muted.small", {}, "No hands yet at this seat.");
    const seat = String(this.mySeat());
    return h("ul.settle-list", { "aria-label": "recent hands" }, rounds.map((r) => {
      const cards = (r.cards && r.cards[seat]) || RoundState.from(r.records || []).boxes[seat] || [];
      const net = r.settlement && r.settlement[seat] ? r.settlement[seat].net : undefined;
      return h("li", {}, h("span", {}, h("span.small", {}, `${r.round_id || words(r.phase)} `), handOf(cards, { label: "cards" })),
        h(`span.${net > 0 ? "r-win" : net < 0 ? "r-lose" : "r-push"}`, {}, net === undefined ? words(r.phase) : Money.fmt(net)));
    }));
  }
  onEvent(ev) {
    if (ev.type !== "record" && ev.type !== "phase") this.meStale = true;
    super.onEvent(ev);
  }
  /** The round over: its net for the seat, the one thing the bar says then. */
  phaseNews(rnd) {
    const mine = rnd && rnd.settlement && rnd.settlement[String(this.mySeat())];
    if (!rnd || rnd.phase !== "over" || !mine || mine.net === undefined) return;
    const net = mine.net;
    const said = net > 0 ? `you win ${Money.fmt(net)}` : net < 0 ? `you lose ${Money.fmt(-net)}` : "you break even";
    Announce.say(`Round over: ${said} (net ${Money.fmt(net)}).`, net > 0 ? "win" : "");
  }
}

App.register("player", new PlayerPage(document.getElementById("page-player")));
