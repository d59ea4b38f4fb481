/* croupier web: the dealer's console.
 *
 * The procedure in order: open the table, shuffle and cut, open betting, "no more bets" with the
 * progressive chips counted, deal, turn and reveal, settle; and every irregularity of the
 * chapter.  Buttons are enabled from the server's view of what the dealer may do now.
 */
"use strict";

const IRREGULARITIES = ["card_face_up_in_deck", "card_drawn_in_error", "wrong_card_count", "dealer_card_exposed", "automated_shoe_jam"];

class DealerPage extends TablePage {
  async enter() {
    this.section.replaceChildren(h("p.muted", {}, "Loading the table…"));
    try {
      const s = Api.session || {};
      if (s.table) { await this.connect(s.table); return; }
      const tables = await Api.get("/api/tables");
      const pick = h("div.tiles", {}, tables.map((t) => h("div.tile", {}, h("h3", {}, t.name),
        h("p.small", {}, `${words(t.game)} · ${words(t.phase)}`),
        h("button.btn.btn-gold", { type: "button", "aria-label": `deal at ${t.name}`, onclick: (e) => act(e.currentTarget, () => this.connect(t.id)) }, "Deal this table"))));
      this.section.replaceChildren(h("div.panel", {}, h("h1", { id: "dealer-title" }, "Choose your table"), pick));
    } catch (err) { Announce.error(err); }
  }
  can(name) {
    const legal = this.legal().map(normAction);
    if (!legal.length) return null; // the view did not say: leave the choice to the server
    return legal.some((a) => a.name === name);
  }
  step(label, path, opts = {}) {
    const enabled = opts.enabled === undefined ? true : opts.enabled;
    return h(`button.btn${opts.primary ? ".btn-gold" : ""}`, { type: "button", disabled: enabled === false, dataset: { step: path },
      onclick: (e) => act(e.currentTarget, async () => {
        await Api.post(`/api/tables/${this.tableId}/${path}`, opts.body ? opts.body() : {});
        Announce.say(opts.said || `${label}.`);
        this.refresh();
      }) }, label);
  }
  progressiveCount() {
    let n = 0;
    for (const w of Object.values(this.state.wagers)) for (const k of Object.keys(w)) if (k.includes("progressive")) n++;
    return n;
  }
  render() {
    const info = this.tableInfo();
    const phase = this.state.phase || info.phase || "";
    const idle = !phase || ["over", "void", "closed", "open", "idle"].includes(phase);
    const can = (n, fallback) => { const c = this.can(n); return c === null ? fallback : c; };
    const cut = h("input#cut-pos", { type: "number", min: 10, max: 400, value: 26, "aria-describedby": "cut-help" });
    const chips = h("input#prog-chips", { type: "number", min: 0, max: 99, value: this.progressiveCount() });
    const irr = h("select#irr-kind", {}, this.irregularities().map((k) => h("option", { value: k }, words(k))));
    const steps = h("div.panel.controls", { "aria-label": "dealing procedure" },
      h("h2", {}, "Procedure"),
      h("div.btn-row", {}, this.step("Open the table", "open", { enabled: idle }),
        this.step("Shuffle", "shuffle", { enabled: idle }),
        h("label", { for: "cut-pos" }, "Cut at"), cut,
        this.step("Cut", "cut", { enabled: idle, body: () => ({ position: Number(cut.value) }) })),
      h("p.small.muted#cut-help", {}, "The cover card goes at least ten cards from the top."),
      h("div.btn-row", {}, this.step("Open betting", "rounds", { enabled: idle, primary: idle, said: "Place your bets." }),
        h("label", { for: "prog-chips" }, "Progressive chips counted"), chips,
        this.step("No more bets", "no-more-bets", { enabled: can("no_more_bets", phase === "betting"), primary: phase === "betting",
          said: "No more bets.", body: () => ({ progressive_chips: Number(chips.value) }) })),
      h("div.btn-row", {}, this.step("Deal", "deal", { enabled: can("deal", phase === "dealing"), primary: phase === "dealing" }),
        this.step("Turn / reveal", "reveal", { enabled: can("reveal", phase === "reveal"), primary: phase === "reveal" }),
        this.step("Settle", "settle", { enabled: can("settle", phase === "settlement"), primary: phase === "settlement" })),
      h("h3", {}, "Irregularity"),
      h("div.btn-row", {}, h("label", { for: "irr-kind" }, "Kind"), irr,
        h("button.btn.btn-red", { type: "button", onclick: (e) => act(e.currentTarget, async () => {
          await Api.post(`/api/tables/${this.tableId}/irregularities`, { kind: irr.value });
          Announce.say(`Reported: ${words(irr.value)}.`);
          this.refresh();
        }) }, "Report")));
    const calls = h("div.panel", {}, h("h2", {}, "The round"), h("ol.replay-steps", { "aria-label": "calls" }, this.state.calls.map((c) => h("li", {}, c))));
    const settle = h("div.panel", {}, h("h2", {}, "Settlement"));
    for (let n = 1; n <= 7; n++) {
      const list = settlementList(this.state, n);
      if (list) settle.append(h("h3", {}, `Seat ${n}`), list);
    }
    const left = h("div", {}, this.header("Dealer console"), h("div.panel", {}, drawFelt(info, this.state, { acting: null })), steps);
    const right = h("aside", { "aria-label": "round" }, calls, settle,
      h("div.panel", {}, h("h2", {}, "The sign"), h("div.sign", { tabindex: "0" }, (this.detail && this.detail.sign) || "")));
    this.section.replaceChildren(h("div.layout", {}, left, right));
  }
  irregularities() {
    const legal = this.legal().map(normAction).filter((a) => a.name === "irregularity").map((a) => a.kind);
    return legal.length ? legal : IRREGULARITIES;
  }
}

App.register("dealer", new DealerPage(document.getElementById("page-dealer")));
