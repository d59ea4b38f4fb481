/* croupier web: the dealer's console.
 *
 * The procedure in order: shuffle, cut and open betting (the table's dealing procedure decides
 * whether a cut is taken), "no more bets" with the progressive chips counted, deal, turn and
 * reveal, settle; the stub count where the chapter asks for one; and every irregularity the
 * chapter lets the dealer report now.  Each button is enabled from the dealer's actions (GET
 * /api/tables/{id}/actions on connect, then as the table stream carries them: the engine's
 * legality rule); the server refuses anything else.
 * The dealer sees what the server sends the dealer: face-up cards only.
 */
"use strict";

const STEP_BUTTONS = [
  // [step name(s) in the actions, label, endpoint]
  [["no_more_bets"], "No more bets", "no-more-bets"],
  [["deal", "turn_community_card"], "Deal", "deal"],
  [["reveal"], "Turn / reveal", "reveal"],
  [["settle"], "Settle", "settle"],
];

// the card keypad of a table of real cards (issue 39): ranks and suits, with their keys
const KEY_RANKS = [["A", "a"], ["2", "2"], ["3", "3"], ["4", "4"], ["5", "5"], ["6", "6"], ["7", "7"],
  ["8", "8"], ["9", "9"], ["10", "t"], ["J", "j"], ["Q", "q"], ["K", "k"]];
const KEY_SUITS = [["s", "\u2660", "spades"], ["h", "\u2665", "hearts"], ["d", "\u2666", "diamonds"], ["c", "\u2663", "clubs"]];
const ORDINALS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];

/** "seat 3, second card" for the next card due (``{to, number, face_up}``). */
function nextCardName(next) {
  const place = /^\d$/.test(String(next.to)) ? `seat ${next.to}` : words(next.to);
  return `${place}, ${ORDINALS[next.number] || `card ${next.number}`}${ORDINALS[next.number] ? " card" : ""}${next.face_up ? " (face up)" : ""}`;
}

class DealerPage extends TablePage {
  async enter() {
    this.section.replaceChildren(h("p.muted", {}, "Loading the table…"));
    try {
      const s = Api.session || {};
      if (s.table_id) { await this.connect(s.table_id); return; }
      // a dealer bound to tables deals those only (none bound: a demo dealer, every table)
      const bound = s.tables || [];
      // the table in the address (/dealer?table=...): a reload keeps the dealer at it
      const named = new URLSearchParams(location.search).get("table");
      if (location.pathname === "/dealer" && named && (!bound.length || bound.includes(named))) { await this.connect(named); return; }
      const tables = (await Api.get("/api/tables")).filter((t) => !bound.length || bound.includes(t.id));
      const pick = h("div.tiles", {}, tables.map((t) => h("div.tile", { dataset: { table: t.id } }, h("h3", {}, t.name), trainingBanner(t),
        h("p.small", {}, `${t.game_name || words(t.game)} · ${t.status}${t.phase ? ` · ${words(t.phase)}` : ""}`),
        h("button.btn.btn-gold", { type: "button", "aria-label": `deal at ${t.name}`, onclick: (e) => act(e.currentTarget, () => this.choose(t.id)) }, "Deal this table"))));
      this.section.replaceChildren(h("div.panel", {}, h("h1", { id: "dealer-title" }, "Choose your table"), pick));
    } catch (err) { Announce.error(err); }
  }
  /** Deal ``tableId``: its address pushed (Back returns to the choice, a reload stays). */
  async choose(tableId) {
    history.pushState(null, "", `/dealer?table=${encodeURIComponent(tableId)}`);
    await this.connect(tableId);
  }
  post(path, body, said) {
    return async () => {
      // one step at a time: every step button waits until the console is drawn again
      for (const b of this.section.querySelectorAll("button[data-step]")) b.disabled = true;
      let res;
      try {
        res = await Api.post(`/api/tables/${encodeURIComponent(this.tableId)}/${path}`, body ? body() : undefined);
        await this.caughtUp(res && res.seq); // the stream brings the state the step made
      } finally {
        this.lastSig = null;
        this.draw();
      }
      const voided = ((res && res.records) || []).find((r) => r.kind === "round_voided");
      if (voided) Announce.say(`Round void: ${voided.reason}${cite(voided.section)}.`, "error");
      else if (said) Announce.say(said);
    };
  }
  /** A table of real cards: the keypad, the card it expects next named, its keyboard keys
   * (rank: A 2-9 T J Q K; suit: S H D C; Escape clears). */
  keypadPanel(info) {
    const source = ((info.rules || {}).table || {}).cards;
    if (source !== "keypad" && source !== "reader") return null;
    const next = this.actions.next_card;
    const kinds = [["card", "the next card"], ["correct", "a correction of the last card"], ["face_up", "a card found face up"]];
    // a baccarat shoe of real cards, between coups: a new shoe, keyed by its first card turned up
    if (this.actions.shoe_change) kinds.push(["shoe", "a new shoe: its first card turned up"]);
    if (!kinds.some(([v]) => v === this.keyKind)) this.keyKind = "card";
    const kind = h("select#key-kind", { "aria-label": "report the card as" },
      kinds.map(([v, label]) => h("option", { value: v, selected: v === (this.keyKind || "card") }, label)));
    kind.onchange = () => { this.keyKind = kind.value; };
    const ranks = h("div.btn-row", { role: "group", "aria-label": "rank" }, KEY_RANKS.map(([r, key]) =>
      h("button.btn" + (this.keyRank === r ? ".btn-gold" : ""), { type: "button", dataset: { rank: r }, "aria-pressed": String(this.keyRank === r),
        "aria-keyshortcuts": key.toUpperCase(), onclick: () => this.keyed(r, null) }, r)));
    const suits = h("div.btn-row", { role: "group", "aria-label": "suit" }, KEY_SUITS.map(([s, sym, name]) =>
      h("button.btn", { type: "button", dataset: { suit: s }, "aria-label": name, "aria-keyshortcuts": s.toUpperCase(),
        disabled: !this.keyRank, onclick: () => this.keyed(null, s) }, sym)));
    return h("div.panel.keypad", { role: "region", "aria-label": "card keypad" }, h("h2", {}, "Card keypad"),
      h("p#next-card", { "aria-live": "polite" }, next ? `Next: ${nextCardName(next)}` : "No card is due."),
      h("div.btn-row", {}, h("label", { for: "key-kind" }, "Report"), kind), ranks, suits,
      h("p.small.muted", {}, "Keys: the rank (A, 2-9, T, J, Q, K), then the suit (S, H, D, C); Escape clears."));
  }
  /** A rank or a suit keyed; a suit after a rank reports the card. */
  keyed(rank, suit) {
    if (rank) { this.keyRank = rank; this.lastSig = null; this.draw(); return; }
    if (!suit || !this.keyRank) return;
    const card = this.keyRank + suit;
    const type = this.keyKind || "card";
    this.keyRank = null;
    const said = type === "shoe" ? `A new shoe: the ${Cards.name(card)} turned up.` : `Keyed the ${Cards.name(card)}.`;
    if (type === "shoe") this.keyKind = "card";
    act(null, this.post("keypad", () => ({ type, card }), said));
  }
  bindKeys() {
    if (this.keysBound) return;
    this.keysBound = true;
    document.addEventListener("keydown", (e) => {
      if (!this.tableId || !this.section.querySelector(".keypad") || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      const key = e.key.toLowerCase();
      if (key === "escape") { this.keyRank = null; this.lastSig = null; this.draw(); return; }
      const rank = KEY_RANKS.find(([, k]) => k === key || (key === "0" && k === "t"));
      const suit = KEY_SUITS.find(([s]) => s === key);
      if (rank) { e.preventDefault(); this.keyed(rank[0], null); } else if (suit && this.keyRank) { e.preventDefault(); this.keyed(null, suit[0]); }
    });
  }
  /** The progressive table game system: the lights, a count held for a supervisor, the hands
   * declared at a table whose cards croupier does not see. */
  systemPanel() {
    const lights = Object.entries((this.round && this.round.lights) || {});
    const held = this.actions.count_held;
    const declared = this.actions.declared;
    if (!lights.length && !held && !declared) return null;
    const out = h("div.panel", { role: "region", "aria-label": "progressive system" }, h("h2", {}, "Progressive system"));
    if (lights.length) out.append(h("p#lights", {}, "Lights: ", lights.map(([s, l]) => `seat ${s} ${l}`).join(" · ")));
    // a position with several progressive devices (Let It Ride's two): each wager's light
    const byWager = (this.round && this.round.wager_lights) || {};
    if (Object.keys(byWager).length) out.append(h("p#wager-lights", {}, wagerLights(byWager)));
    if (held) out.append(h("p#count-held.error", { role: "status" }, `Count held for a supervisor: ${held.counted} chips counted, the system accepted ${held.accepted} (§ 641a.8(b)).`));
    if (declared) {
      // what is typed survives the console being drawn again (kept until declared)
      this.declaring = this.declaring || { seat: "", cards: "" };
      const typed = this.declaring;
      const seat = h("input#declare-seat", { type: "number", min: 1, max: 7, "aria-label": "seat of the winning hand",
        value: typed.seat, oninput: (e) => { typed.seat = e.currentTarget.value; } });
      const cards = h("input#declare-cards", { type: "text", placeholder: "e.g. As Ks Qs Js 10s", autocomplete: "off", "aria-label": "the winning hand's cards",
        value: typed.cards, oninput: (e) => { typed.cards = e.currentTarget.value; } });
      out.append(h("p.small", {}, Object.keys(declared).length
        ? Object.entries(declared).map(([s, ok]) => `seat ${s}: ${ok ? "verified" : "awaiting the supervisor"}`).join(" · ") : "No hand declared."),
      h("div.btn-row", {}, seat, cards, h("button.btn.btn-gold", { type: "button", dataset: { step: "declare" },
        onclick: (e) => act(e.currentTarget, this.post("declarations", () => {
          const body = { seat: Number(typed.seat), cards: typed.cards.trim() };
          this.declaring = null;
          return body;
        }, "Hand declared.")) }, "Declare winning hand"),
      h("button.btn", { type: "button", dataset: { step: "declarations-close" },
        onclick: (e) => act(e.currentTarget, this.post("declarations/close", null, "Declarations closed.")) }, "Close declarations")));
    }
    return out;
  }
  render() {
    this.bindKeys();
    const info = this.tableInfo();
    const steps = this.actions.steps || [];
    const has = (names) => names.some((n) => steps.includes(n));
    const rnd = this.round;
    const dealerTurn = rnd && !rnd.to_act_seat && ["dealing", "decisions"].includes(rnd.phase);
    // a table of real cards (a reader, the keypad, the felt): the dealer shuffles and cuts the
    // cards at the table, croupier only opens the betting
    const source = ((info.rules || {}).table || {}).cards;
    const ownShoe = !source || source === "shuffle";
    const cut = h("input#cut-pos", { type: "number", min: 10, max: 400, placeholder: "no cut", inputmode: "numeric" });
    // a training table only: the cards the next round deals first, top first (a real table refuses a stack)
    // (kept across redraws of the console; sent once, with the round it stacks)
    const stack = info.training ? h("input#stack-cards", { type: "text", placeholder: "e.g. As Kd 7c", autocomplete: "off", spellcheck: "false",
      value: this.stackText || "", oninput: (e) => { this.stackText = e.currentTarget.value; } }) : null;
    const opening = () => {
      const text = (this.stackText || "").trim();
      this.stackText = "";
      return Object.assign({ cut_at: cut.value === "" || !ownShoe ? null : Number(cut.value) }, text ? { stack: text } : {});
    };
    // the progressive wagers the system accepted (the engine's count); the dealer corrects it
    // to the chips actually collected, and a count that differs voids the round (§ 641a.8(b))
    const accepted = this.actions.progressive_chips;
    const chips = h("input#prog-chips", { type: "number", min: 0, max: 999, value: accepted === undefined ? 0 : accepted,
      "aria-describedby": "prog-accepted" });
    const stub = h("input#stub-count", { type: "number", min: 0, max: 500, placeholder: "cards" });
    const betting = rnd && rnd.phase === "betting";
    // the next step, first on the page (inside the viewport at a laptop's and a phone's size):
    // the steps, the inputs the step allowed now needs, why a step waits, the round's result
    const next = h("div.panel.controls.next-step", { role: "region", "aria-label": "next step" },
      h("h2", {}, "Next step"),
      has(["new_round"]) && ownShoe ? h("div.btn-row", {}, h("label", { for: "cut-pos" }, "Cut at card"), cut) : null,
      betting ? h("div.btn-row", {}, h("label", { for: "prog-chips" }, "Progressive chips counted"), chips,
        h("span.small.muted#prog-accepted", {}, accepted === undefined ? "" : `the system accepted ${accepted} progressive wager${accepted === 1 ? "" : "s"}`)) : null,
      h("div.btn-row.steps", {},
        h("button.btn" + (has(["new_round"]) ? ".btn-gold" : ""), { type: "button", disabled: !has(["new_round"]), dataset: { step: "rounds" },
          onclick: (e) => act(e.currentTarget, this.post("rounds", opening, "Place your bets.")) }, ownShoe ? "Shuffle, cut and open betting" : "Open betting"),
        STEP_BUTTONS.map(([names, label, path]) => {
          const on = has(names) || (path === "deal" && dealerTurn);
          const body = path === "no-more-bets" ? () => ({ progressive_chips: Number(chips.value) }) : null;
          return h(`button.btn${on ? ".btn-gold" : ""}`, { type: "button", disabled: !on, dataset: { step: path },
            onclick: (e) => act(e.currentTarget, this.post(path, body, path === "no-more-bets" ? "No more bets." : `${label}.`)) }, label);
        })),
      has(["count_stub"]) ? h("div.btn-row", {}, h("label", { for: "stub-count" }, "Stub count"), stub,
        h("button.btn.btn-gold", { type: "button", onclick: (e) => act(e.currentTarget, this.post("stub-count", () => ({ count: Number(stub.value) }), "Stub counted.")) }, "Record the count")) : null,
      this.waitingList(), this.result());
    const procedure = h("div.panel.controls", { role: "group", "aria-label": "dealing procedure" }, h("h2", {}, "Procedure"),
      stack ? h("div.btn-row", {}, h("label", { for: "stack-cards" }, "Stack the next round (training)"), stack) : null,
      stack ? h("p.small.muted", {}, "The cards the round deals first, top first, in the order they leave the shoe, burned cards included.") : null,
      h("p.small.muted", {}, "The cover card goes at least ten cards from the top; leave the cut empty where the table's shuffler deals without one."),
      this.irregularityRow());
    const calls = h("div.panel", {}, h("h2", {}, "The round"), this.state.calls.length
      ? h("ol.replay-steps", { "aria-label": "calls" }, this.state.calls.map((c) => h("li", {}, c))) : h("p.small.muted", {}, this.round && this.round.phase !== "over" && this.round.phase !== "void" ? "Nothing called yet." : "No round in play."));
    const settle = h("div.panel", {}, h("h2", {}, "Settlement"));
    let any = false;
    for (let n = 1; n <= 7; n++) {
      const list = settlementList(this.state, n);
      if (list) { any = true; settle.append(h("h3", {}, `Seat ${n}`), list); }
    }
    if (!any) settle.append(h("p.small.muted", {}, "Nothing settled yet."));
    const left = h("div", {}, this.header("Dealer console", "dealer-title"), next, this.keypadPanel(info), this.systemPanel(),
      h("div.panel", {}, drawFelt(info, this.state, { acting: this.acting() })), procedure);
    const right = h("aside", { "aria-label": "the round" }, calls, settle, this.shoePanel(), dealPanel(this.view.deal),
      h("div.panel", {}, h("h2", {}, "The sign"), h("div.sign", { tabindex: "0", role: "document", "aria-label": "pay-table sign" }, info.sign || "")));
    this.section.replaceChildren(h("div.layout", {}, left, right));
  }
  /** Why a step waits (the server's words: the refusal the step would get now, with its
   * section; the seat whose decision the deal waits for). */
  waitingList() {
    const waits = this.actions.waiting || [];
    if (!waits.length) return null;
    const step = { no_more_bets: "No more bets", deal: "Deal", new_round: "Open betting" };
    return h("ul#step-why.why", { "aria-label": "why a step waits" }, waits.map((w) =>
      h("li", {}, h("strong", {}, `${step[w.step] || "The next step"} waits: `), `${dollars(w.reason)}${cite(w.section)}.`)));
  }
  /** The round's result, once it is over: the house's net, large, and each seat's. */
  result() {
    const rnd = this.round;
    if (!rnd || !["over", "void"].includes(rnd.phase)) return null;
    const nets = Object.entries(rnd.settlement || {}).filter(([, s]) => s && s.net !== undefined);
    const house = -nets.reduce((sum, [, s]) => sum + s.net, 0);
    const tone = (n) => (n > 0 ? "r-win" : n < 0 ? "r-lose" : "r-push");
    const who = this.tableInfo().seats || {};
    return h("div#round-result.result", { role: "region", "aria-label": "the round's result" },
      h("h2", {}, rnd.phase === "void" ? "Round void" : "Round over"),
      rnd.phase === "void" ? null : h("p.net-big", {}, "House net: ", h(`strong.${tone(house)}`, {}, Money.fmt(house))),
      nets.length ? h("ul.settle-list", { "aria-label": "each seat's net" }, nets.map(([seat, s]) =>
        h("li", {}, h("span", {}, `Seat ${seat}${who[seat] ? ` · ${who[seat]}` : ""}`), h(`span.${tone(s.net)}`, {}, `net ${Money.fmt(s.net)}`)))) : null);
  }
  /** Baccarat: the shoe dealt coup after coup, and the commission marked by seat. */
  shoePanel() {
    const shoe = this.view.shoe;
    if (!shoe) return null;
    const stage = { dealing: "dealing", last_round: "cut card out: one more coup", done: "done: the next coup opens a new shoe" }[shoe.stage] || shoe.stage;
    const markers = Object.entries(this.view.markers || {});
    return h("div.panel.shoe", { role: "region", "aria-label": "the shoe" }, h("h2", {}, "The shoe"),
      h("table.grid", { "aria-label": "shoe" }, h("tbody", {},
        h("tr", {}, h("th", { scope: "row" }, "Shoe"), h("td", {}, shoe.id ? `${shoe.number} (${shoe.id})` : "not opened")),
        h("tr", {}, h("th", { scope: "row" }, "Coups dealt"), h("td.num", {}, String(shoe.coups))),
        h("tr", {}, h("th", { scope: "row" }, "Cards left"), h("td.num", {}, `${shoe.cards_left} (cut card at ${shoe.cut_card})`)),
        h("tr", {}, h("th", { scope: "row" }, "Stage"), h("td", { dataset: { stage: shoe.stage } }, stage)))),
      h("h3", {}, "Commission owed"),
      markers.length ? h("table.grid", { "aria-label": "commission owed by seat" }, h("tbody", {}, markers.map(([seat, cents]) =>
        h("tr", {}, h("th", { scope: "row" }, `Seat ${seat}`), h("td.num", {}, Money.fmt(cents))))))
        : h("p.small.muted", {}, "No marker on the layout."),
      h("p.small.muted", {}, "Markers are collected when the player leaves and before the reshuffle (§ 541.13(g))."),
      roads(shoe.results));
  }
  irregularityRow() {
    const kinds = this.actions.irregularities || [];
    if (!kinds.length) return h("p.small.muted", {}, "No irregularity can be reported at this point of the round.");
    const sel = h("select#irr-kind", {}, kinds.map((k) => h("option", { value: k }, words(k))));
    return h("div", {}, h("h3", {}, "Irregularities"), h("div.btn-row", {}, h("label", { for: "irr-kind" }, "Irregularity"), sel,
      h("button.btn.btn-red", { type: "button", onclick: (e) => act(e.currentTarget, this.post("irregularities", () => ({ kind: sel.value }), `Reported: ${words(sel.value)}.`)) }, "Report")));
  }
}

App.register("dealer", new DealerPage(document.getElementById("page-dealer")));
