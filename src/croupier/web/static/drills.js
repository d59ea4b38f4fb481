/* croupier web: dealer training (issue 40). Drills dealt by the engine (GET /api/drills,
 * POST /api/drills/questions, .../answer, POST /api/drills/procedure): a payout, a commission,
 * a decision or one of the rulebook's edge cases (the scenario library) asked, the answer graded by the server against the engine's settlement with
 * the section that rules it and the time it took; a procedure drill where the trainee takes the
 * dealer's steps and an out-of-order one is the engine's refusal, shown beside the steps with
 * its section. The page holds no game rule: every answer is the server's.
 */
"use strict";

const DRILL_KINDS = { payout: "Payouts", commission: "Commission", decision: "Decisions", case: "Edge cases", procedure: "Procedure" };
/** A drill's name in full where its button's word is short (the button's accessible name). */
const DRILL_KIND_NAMES = { case: "From the rulebook's edge cases" };

class DrillsPage {
  constructor(section) {
    this.section = section;
    this.games = [];
    this.game = "";
    this.kind = "payout";
    this.asked = null;   // the question shown (its id)
    this.proc = null;    // the procedure drill's state
    this.ticket = 0;     // the newest request: an older answer arriving later is not drawn
  }

  async enter() {
    fill(this.section, h("h1", { id: "drills-title" }, "Dealer training"), h("p.muted", {}, "Loading…"));
    try {
      const data = await Api.get("/api/drills");
      this.games = data.games;
      if (!this.games.some((g) => g.slug === this.game)) this.game = this.games[0].slug;
      this.layout();
      this.scores(data);
      await this.next();
    } catch (err) { Announce.error(err); }
  }

  gameOf(slug) { return this.games.find((g) => g.slug === slug); }

  layout() {
    const select = h("select#drill-game", { onchange: (e) => { this.game = e.target.value; this.pickKind(); this.next(); } },
      this.games.map((g) => h("option", { value: g.slug, selected: g.slug === this.game }, g.name)));
    this.kinds = h("div.btn-row.drill-kinds", { role: "group", "aria-label": "Drill" });
    this.card = h("section.panel.drill-card", { "aria-labelledby": "drill-prompt" });
    this.board = h("aside.panel.drill-scores", { "aria-labelledby": "drill-scores-title" });
    fill(this.section,
      h("div.drill-head", {},
        h("h1", { id: "drills-title" }, "Dealer training"),
        h("div.field.drill-pick", {}, h("label", { for: "drill-game" }, "Game"), select),
        this.kinds),
      h("div.drill-main", {}, this.card, this.board));
    this.pickKind();
  }

  pickKind() {
    const offered = this.gameOf(this.game).kinds;
    if (!offered.includes(this.kind)) this.kind = offered[0];
    fill(this.kinds, offered.map((k) => h("button.btn.btn-ghost", {
      type: "button", "aria-pressed": String(k === this.kind), dataset: { kind: k },
      ...(DRILL_KIND_NAMES[k] ? { "aria-label": DRILL_KIND_NAMES[k], title: DRILL_KIND_NAMES[k] } : {}),
      onclick: () => { this.kind = k; this.pickKind(); this.next(); },
    }, DRILL_KINDS[k] || words(k))));
  }

  /** A new drill of the chosen game and kind. */
  async next() {
    for (const old of document.querySelectorAll(".field-error")) old.remove();
    Announce.clear();  // the bar says only what is true now: a new drill
    // a game and a drill chosen in quick succession ask twice: only the newest question is
    // drawn, and the card is busy until it is
    const ticket = ++this.ticket;
    if (this.kind === "procedure") {
      this.card.setAttribute("aria-busy", "false");
      await this.step(null, null);
      return;
    }
    this.proc = null;
    this.card.setAttribute("aria-busy", "true");
    try {
      const asked = await Api.post("/api/drills/questions", { game: this.game, kind: this.kind });
      if (ticket !== this.ticket) return;
      this.asked = asked;
      this.shown = performance.now();
      this.drawQuestion();
    } catch (err) {
      if (ticket === this.ticket) Announce.error(err);
    } finally {
      if (ticket === this.ticket) this.card.setAttribute("aria-busy", "false");
    }
  }

  hands(hands) {
    return h("div.drill-hands", {}, hands.map((hand) => h("div.drill-hand", {},
      h("span.drill-hand-name", {}, hand.name),
      h("div.hand.hand-small", { role: "group", "aria-label": hand.name }, hand.cards.map((c) => Cards.card(c))))));
  }

  drawQuestion() {
    const q = this.asked;
    const result = h("p.drill-result#drill-result", { role: "status" });
    let form;
    if (q.choices.length) {
      form = h("div.btn-row", { role: "group", "aria-label": "Your answer" }, q.choices.map((c) =>
        h("button.btn.btn-gold", { type: "button", dataset: { answer: c }, onclick: (e) => this.answer(e.currentTarget, c) },
          c === "yes" ? "Yes" : c === "no" ? "No" : c)));
    } else {
      const input = h("input#drill-answer", { name: "answer", inputmode: "decimal", autocomplete: "off", required: true,
        "aria-describedby": "drill-answer-hint" });
      const submit = h("button.btn.btn-gold", { type: "submit" }, "Check");
      form = h("form.field.drill-form", { onsubmit: (e) => { e.preventDefault(); this.answer(submit, input.value); } },
        h("label", { for: "drill-answer" }, "Your answer"),
        h("div.btn-row", {}, input, submit),
        h("span.muted.small#drill-answer-hint", {}, "in dollars, e.g. 22.50; 0 where nothing is paid"));
    }
    this.card.dataset.drill = String(q.id);
    fill(this.card,
      h("h2#drill-prompt", {}, q.prompt),
      this.hands(q.hands),
      q.facts.length ? h("ul.drill-facts", {}, q.facts.map((f) => h("li", {}, f))) : null,
      form, result);
    const first = this.card.querySelector("#drill-answer, [data-answer]");
    if (first) first.focus({ preventScroll: true });
  }

  async answer(control, text) {
    if (!String(text).trim()) { refuseBeside(control, new Error("Type the amount in dollars first.")); return; }
    await act(control, async () => {
      const g = await Api.post(`/api/drills/questions/${this.asked.id}/answer`, { answer: String(text) });
      const secs = (g.millis / 1000).toFixed(1);
      const result = document.getElementById("drill-result");
      result.className = `drill-result ${g.correct ? "drill-right" : "drill-wrong"}`;
      const said = this.asked.choices.length ? g.answer : Money.fmt(Money.parse(g.answer) ?? 0);
      fill(result,
        h("strong", {}, g.correct ? "Right" : "Not right"),
        ` — you said ${said}${g.correct ? "" : `; the answer is ${g.expected}`}. ${dollars(g.explanation)} (${g.section}) · ${secs} s`);
      // the answer given, the form's place is the result's (its controls are spent)
      const form = this.card.querySelector(".drill-form, [data-answer]");
      if (form) (form.closest(".drill-form") || form.parentElement).hidden = true;
      const next = h("button.btn.btn-gold#drill-next", { type: "button", onclick: () => this.next() }, "Next drill");
      result.after(next);
      next.focus({ preventScroll: true });
      // the result is beside the answer (a status region); the bar above says nothing stale
      Announce.clear();
      document.getElementById("announcer").textContent = g.correct ? "Right." : `Not right: ${g.expected}.`;
      this.scores(await Api.get("/api/drills"));
    });
  }

  /** A procedure drill's step (``step`` null: a new deal). */
  async step(control, step) {
    const body = step === null ? { game: this.game } :
      { game: this.game, seed: this.proc.seed, steps: this.proc.steps, step };
    // one step at a time: the others wait for the engine's answer to this one
    for (const b of this.card.querySelectorAll("[data-step]")) b.disabled = true;
    await act(control, async () => {
      this.proc = await Api.post("/api/drills/procedure", body);
      this.drawProcedure();
      const t = this.proc.taken;
      if (t && !t.accepted) {
        const err = new ApiError(409, { detail: `${t.label}: ${t.message}`, section: t.section });
        refuseBeside(this.card.querySelector(`[data-step="${t.step}"]`), err);
        document.getElementById("announcer").textContent = `Out of order: ${t.label} (${t.section}).`;
      }
      if (step !== null) this.scores(await Api.get("/api/drills"));
    });
    for (const b of this.card.querySelectorAll("[data-step]")) b.disabled = Boolean(this.proc && this.proc.over);
  }

  drawProcedure() {
    const p = this.proc;
    const buttons = p.buttons.map((b) => h("button.btn.btn-gold", {
      type: "button", dataset: { step: b.step }, disabled: p.over, onclick: (e) => this.step(e.currentTarget, b.step),
    }, b.label));
    const net = Object.entries(p.net).map(([seat, cents]) => `Seat ${seat} ${cents >= 0 ? "wins" : "loses"} ${Money.fmt(Math.abs(cents))}`);
    fill(this.card,
      h("h2#drill-prompt", {}, `${p.game_name}: deal the round (${p.phase})`),
      h("div.btn-row.drill-steps", { role: "group", "aria-label": "Dealer's steps" }, buttons),
      p.over ? h("p.drill-result.drill-right", { role: "status" }, h("strong", {}, "Round over. "), net.join("; ")) : null,
      p.over ? h("button.btn.btn-gold#drill-next", { type: "button", onclick: () => this.next() }, "New round") : null,
      this.hands(p.hands),
      p.log.length ? h("ol.drill-log", { "aria-label": "The players' decisions" }, p.log.map((l) => h("li", {}, l))) : null);
    const focus = this.card.querySelector("#drill-next") || this.card.querySelector("[data-step]");
    if (focus && !this.card.contains(document.activeElement)) focus.focus({ preventScroll: true });
  }

  scores(data) {
    const name = (slug) => (this.gameOf(slug) || { name: slug }).name;
    const rows = data.scores.map((s) => h("tr", {},
      h("td", {}, name(s.game)), h("td", {}, DRILL_KIND_NAMES[s.kind] || DRILL_KINDS[s.kind] || words(s.kind)),
      h("td.num", {}, `${s.right} / ${s.answered}`),
      h("td.num", {}, s.mean_millis === null ? "" : `${(s.mean_millis / 1000).toFixed(1)} s`)));
    const days = data.days.slice(-7).map((d) => h("li", {}, `${d.day}: ${d.right} of ${d.answered} right`));
    fill(this.board,
      h("h2#drill-scores-title", {}, "Your scores"),
      rows.length ? h("div.scroll", {}, h("table.grid", { "aria-label": "scores by game and drill" },
        h("thead", {}, h("tr", {}, h("th", {}, "Game"), h("th", {}, "Drill"), h("th.num", {}, "Right"), h("th.num", {}, "Mean time"))),
        h("tbody", {}, rows))) : h("p.muted", {}, "No drill answered yet."),
      days.length ? h("ul.drill-days", { "aria-label": "by day" }, days) : null);
  }
}

App.register("drills", new DrillsPage(document.getElementById("page-drills")));
