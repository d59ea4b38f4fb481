"""Dealer training (issue 40): drills dealt by the engine and graded against its own settlement.

A drill deals a round of a registered game (:data:`croupier.games.registry.ENTRIES`: every game
has payout drills) from a seeded shoe in :attr:`PlayMode.TRAINING <croupier.core.modes.PlayMode>`
(training rounds may deal seeded shoes, never real play), its simulated players wagering and
deciding from the same seed, and asks what the chapter makes the dealer know:

=============  ==========================================================  =====================
kind           the question                                                graded against
=============  ==========================================================  =====================
payout         what a settled wager pays ("Blind $15 on a flush?")         its ``WagerSettled``
commission     the vigorish a seat pays ("Banker wins $25: commission?")   its ``VigCollected``
case           a payout or commission in one of the rulebook's edge cases  the scenario replayed
               (the package's scenario library, ``croupier/scenarios``)
decision       whether a player's decision is allowed now ("may seat 1     ``Round.verify``
               play 2x the Ante?")
procedure      the dealer's next step (no more bets, deal, turn, reveal,   ``Round.apply``
               settle): an out-of-order step is the engine's refusal
=============  ==========================================================  =====================

A case drill deals no shoe: it replays a scenario of the library (each a round written from the
regulation's text, named after the subsection it shows) through the engine and asks about one
seat's wager or commission in it; its answer names the scenario's subsection.  Each other
answer names the section that rules it: the pay table's (or the fixed table's, or the
round's own section for that result), the commission record's, the refusal's; where the
engine's refusal names none, the game's chapter (as :meth:`Game.cited
<croupier.games.base.Game.cited>` words it).  Nothing here knows a game's rule: a drill is a
round the engine deals and settles, read back.  The same seed deals the same drill, so a
question is asked and graded from its seed alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

from croupier.core.errors import CroupierError, IllegalAction, InvalidInput
from croupier.core.modes import PlayMode
from croupier.core.money import format_cents
from croupier.games import Game, Round, game_class
from croupier.games.base import spoken_words
from croupier.games.records import (
    Action,
    CardDealt,
    Check,
    DealNext,
    Fold,
    PlaceWager,
    Play,
    Record,
    Result,
    Reveal,
    Settle,
    WagerSettled,
)
from croupier.games.registry import ENTRIES
from croupier.games.round import Phase
from croupier.table.scenario import NOT_HANDS
from croupier.table.shoe import SeededShuffler, Shoe

__all__ = [
    "DRILL_SEAT",
    "DrillKind",
    "Procedure",
    "Question",
    "StepTaken",
    "drill_games",
    "grade",
    "kinds_of",
    "procedure",
    "question",
    "ruling_for",
]

DRILL_SEAT = 1
"""The seat a payout, commission or decision drill asks about."""

PROCEDURE_SEATS = (1, 2)
"""The seats of a procedure drill's round (two: the settlement order shows)."""

UNITS = (500, 1000, 1500, 2500, 5000)
"""The wager amounts the simulated players choose among (cents)."""

TRIES = 60
"""Seeds tried from the one given until a deal holds the question asked (then refused)."""

VIG = "vig_collected"
"""The kind of the engine's commission record (the chip ledger reads it by the same kind)."""


RESULTS = {
    Result.WIN: "wins",
    Result.LOSE: "loses",
    Result.PUSH: "pushes",
    Result.FORFEIT: "is forfeited",
    Result.VOID: "is void",
}
"""A settled wager's result in words."""


class DrillKind(StrEnum):
    PAYOUT = "payout"
    COMMISSION = "commission"
    DECISION = "decision"
    CASE = "case"
    """A payout or a commission in one of the rulebook's edge cases (the scenario library)."""
    PROCEDURE = "procedure"


@dataclass(frozen=True, slots=True)
class Hand:
    """Cards on the layout: whose (in words) and the cards, in the order dealt."""

    name: str
    cards: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class Question:
    """A drill asked: what the trainee sees, and the engine's answer with its section."""

    game: str
    kind: DrillKind
    seed: int
    prompt: str
    hands: tuple[Hand, ...]
    facts: tuple[str, ...]
    expected: str
    """Cents (payout, commission) or ``yes``/``no`` (decision)."""
    section: str
    explanation: str
    choices: tuple[str, ...] = ()
    """The answers offered (a decision: yes and no); empty: an amount in dollars."""

    def shown(self) -> dict[str, Any]:
        """The question as the trainee sees it (no answer)."""
        return {
            "game": self.game,
            "game_name": game_class(self.game).spoken_name(),
            "kind": self.kind.value,
            "prompt": self.prompt,
            "hands": [h.to_json() for h in self.hands],
            "facts": list(self.facts),
            "choices": list(self.choices),
        }


@dataclass(frozen=True, slots=True)
class Graded:
    """An answer graded: right or not, the engine's answer in words, the section."""

    correct: bool
    expected: str
    section: str
    explanation: str

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "expected": self.expected,
            "section": self.section,
            "explanation": self.explanation,
        }


# -- the games and their drills --------------------------------------------------------------


def _game_classes() -> list[type[Game]]:
    return [cls for entry in ENTRIES for cls in entry.classes()]


@cache
def kinds_of(slug: str) -> tuple[DrillKind, ...]:
    """The drills ``slug`` offers: payouts always; a commission where a deal of the game
    charges one, decisions where its players decide (found by dealing, not by a list), the
    rulebook's edge cases where the scenario library holds one of the game."""
    kinds = [DrillKind.PAYOUT]
    for kind in (DrillKind.COMMISSION, DrillKind.DECISION, DrillKind.CASE):
        try:
            question(slug, kind, 0)
        except IllegalAction:
            continue
        kinds.append(kind)
    return (*kinds, DrillKind.PROCEDURE)


def drill_games() -> list[dict[str, Any]]:
    """Every registered game, its name and the drills it offers."""
    return [
        {
            "slug": cls.slug,
            "name": cls.spoken_name(),
            "kinds": [k.value for k in kinds_of(cls.slug)],
        }
        for cls in _game_classes()
    ]


def _game(slug: str) -> Game:
    cls = game_class(slug)  # InvalidInput naming the games where it is none
    return cls()


# -- dealing ----------------------------------------------------------------------------------


def _deal(game: Game, seed: int, seats: Sequence[int]) -> tuple[Round, random.Random]:
    """A training round of ``game`` from the shoe ``seed`` shuffles, each seat's wagers
    placed by the simulated player (the same ``seed`` chooses them)."""
    decks = game.shoe_decks
    shoe = Shoe.shuffled(SeededShuffler(seed), decks=decks)
    players = {seat: f"trainee seat {seat}" for seat in seats}
    rnd = game.new_round(shoe=shoe, players=players, mode=PlayMode.TRAINING)
    rng = random.Random(seed)
    for seat in seats:
        _wagers(rnd, rng, seat)
    return rnd, rng


def _wagers(rnd: Round, rng: random.Random, seat: int) -> None:
    """The seat's wagers: the required ones, each other wager offered before the cards at
    even odds of being made, at least one; each amount one the round accepts."""
    game = rnd.game
    offered = [w for w in game.offered_wagers() if w not in game.decision_wagers]
    chosen = [w for w in offered if w in game.required_wagers or rng.random() < 0.5]
    if not chosen:
        chosen = [rng.choice(offered)]
    unit = rng.choice(UNITS)
    for wager in chosen:
        amounts = [unit, *rnd.stakes.get(seat, {}).values()]
        amounts += [
            a.amount
            for a in rnd.legal_actions()
            if isinstance(a, PlaceWager) and a.seat == seat and a.wager == wager
        ]
        for amount in amounts:
            action = PlaceWager(seat=seat, wager=wager, amount=amount)
            if rnd.can(action):
                rnd.apply(action)
                break


def _decide(rnd: Round, rng: random.Random, seat: int) -> Action:
    """The simulated player's decision: one the round allows, a fold only one time in five."""
    allowed = [a for a in rnd.decision_candidates(seat) if rnd.can(a)]
    if not allowed:
        raise IllegalAction(f"seat {seat} has no decision now (phase {rnd.phase.value})")
    staying = [a for a in allowed if not isinstance(a, Fold)]
    if staying and rng.random() < 0.8:
        return rng.choice(staying)
    return rng.choice(allowed)


def _play_on(rnd: Round, rng: random.Random, *, stop: Callable[[Round], bool]) -> None:
    """The round played on (the dealer's steps and the players' decisions) until ``stop``."""
    while not rnd.is_over and not stop(rnd):
        seat = rnd.to_act().seat
        if seat is not None:
            rnd.apply(_decide(rnd, rng, seat))
        else:
            rnd.apply(rnd.dealer_step())


# -- what the trainee sees ---------------------------------------------------------------------


def _hands(rnd: Round, seat: int, *, hidden: frozenset[str] = frozenset()) -> tuple[Hand, ...]:
    """The cards dealt to ``seat`` and to every hand that is no seat's (the dealer's, the
    board, baccarat's two hands), in the order dealt; burnt and discarded cards left out and
    the recipients in ``hidden`` shown face down (``??``)."""
    cards: dict[str, list[str]] = {}
    for record in rnd.records:
        if not isinstance(record, CardDealt) or record.to in NOT_HANDS:
            continue
        if record.to.isdigit() and int(record.to) != seat:
            continue
        face = "??" if record.to in hidden and not record.face_up else str(record.card)
        cards.setdefault(record.to, []).append(face)
    return tuple(Hand(_whose(to), tuple(c)) for to, c in cards.items())


def _whose(to: str) -> str:
    return f"Seat {to}" if to.isdigit() else spoken_words(to)


def _facts(rnd: Round, seat: int) -> tuple[str, ...]:
    """What the dealer announced: each hand's category (the seat's, the dealer's) or
    baccarat's result, in the engine's words."""
    names = rnd.game.spoken_names()
    out: list[str] = []
    for record in rnd.records:
        announced = getattr(record, "announcement", None)
        category = getattr(record, "category", None)
        owner = getattr(record, "seat", None)
        if isinstance(announced, str):
            out.append(f"Announced: {announced}")
        elif isinstance(category, str) and owner in (None, seat):
            who = f"Seat {owner}" if owner is not None else "Dealer"
            out.append(f"{who}: {names.get(category, spoken_words(category).lower())}")
    return tuple(out)


def _stakes(rnd: Round, seat: int) -> str:
    names = rnd.game.spoken_names()
    placed = rnd.stakes.get(seat, {})
    return ", ".join(
        f"{names.get(w, spoken_words(w))} {format_cents(a)}" for w, a in placed.items()
    )


# -- the section that rules an answer -----------------------------------------------------------


def ruling_section(rnd: Round, wager: str, result: Result) -> str:
    """The section that rules how ``wager`` was settled: a win by the pay table that pays it
    (its chosen letter's, a fixed table's, the progressive's), else the round's own section
    for the wager's result (``banker_wins``...), else the chapter's settlement section, else
    its pay-table section, else the chapter."""
    return ruling_for(rnd.game, rnd.sections, wager, result)


def ruling_for(game: Game, sections: Mapping[str, str], wager: str, result: Result) -> str:
    """:func:`ruling_section` of a round of ``game`` whose sections are ``sections``."""
    tables = [game.paytable(wager), *game.fixed_tables(), *game.fixed_paytables]
    if wager == "progressive":
        tables.insert(0, game.progressive_table)
    paying = next((t for t in tables if t is not None and t.wager == wager), None)
    if paying is not None and result is Result.WIN:
        return paying.section
    verb = {Result.WIN: "wins", Result.LOSE: "loses"}.get(result, "")
    for key in (f"{wager}_{verb}", f"{wager}_wager", wager):
        if key in sections:
            return sections[key]
    if paying is not None:
        return paying.section
    # else the chapter's settlement section (each game's ``settlement_order``: how and in what
    # order wagers are settled), then its pay-table section, then the chapter
    return sections.get("settlement_order") or game.paytables_section or game.chapter


# -- the questions -------------------------------------------------------------------------------


def question(slug: str, kind: DrillKind, seed: int) -> Question:
    """The drill of ``kind`` for game ``slug`` dealt from ``seed`` (or the next seeds, until a
    deal holds one: a commission needs a Banker win); :class:`IllegalAction` where the game has
    no such drill (no decisions, no commission)."""
    make = _MAKERS.get(kind)
    if kind is DrillKind.CASE:
        from croupier.server.drill_cases import case_question  # it reads this module's records

        make = case_question
    if make is None:
        raise InvalidInput(f"drill kind {kind!r} is not one of payout, commission, decision, case")
    game = _game(slug)
    for tried in range(seed, seed + TRIES):
        found = make(game, tried)
        if found is not None:
            return found
    raise IllegalAction(
        f"{game.spoken_name()} has no {kind.value} drill: {TRIES} deals from seed {seed} held none"
    )


def _payout(game: Game, seed: int) -> Question | None:
    rnd, rng = _deal(game, seed, (DRILL_SEAT,))
    rnd.apply(rnd.dealer_no_more_bets())
    _play_on(rnd, rng, stop=lambda r: False)
    progressive = {offer.wager for offer in game.progressive_offers()}
    settled = [
        r
        for r in rnd.records
        if isinstance(r, WagerSettled) and r.seat == DRILL_SEAT and r.wager not in progressive
    ]
    paying = [r for r in settled if r.paid > 0]
    pool = paying if paying and rng.random() < 0.75 else settled
    if not pool:
        return None
    rec = rng.choice(pool)
    names = game.spoken_names()
    wager = names.get(rec.wager, spoken_words(rec.wager))
    on = f" ({names.get(rec.line, spoken_words(rec.line).lower())})" if rec.line else ""
    prompt = f"{game.spoken_name()}: {wager} {format_cents(rec.stake)}{on}. What does it pay?"
    returned = f"; the {format_cents(rec.returned)} wager goes back" if rec.returned else ""
    explanation = f"{wager} {RESULTS[rec.result]}: pays {format_cents(rec.paid)}{returned}"
    return Question(
        game=game.slug,
        kind=DrillKind.PAYOUT,
        seed=seed,
        prompt=prompt,
        hands=_hands(rnd, DRILL_SEAT),
        facts=(f"Seat {DRILL_SEAT} wagered {_stakes(rnd, DRILL_SEAT)}", *_facts(rnd, DRILL_SEAT)),
        expected=str(rec.paid),
        section=ruling_section(rnd, rec.wager, rec.result),
        explanation=explanation,
    )


def _commission(game: Game, seed: int) -> Question | None:
    rnd, rng = _deal(game, seed, (DRILL_SEAT,))
    rnd.apply(rnd.dealer_no_more_bets())
    _play_on(rnd, rng, stop=lambda r: False)
    vig = next(
        (r for r in rnd.records if r.kind == VIG and getattr(r, "seat", None) == DRILL_SEAT),
        None,
    )
    if vig is None:
        return None
    amount, basis, rate = int(_field(vig, "amount")), int(_field(vig, "basis")), _field(vig, "rate")
    winner = next(_field(r, "announcement") for r in rnd.records if hasattr(r, "announcement"))
    prompt = (
        f"{game.spoken_name()}: {winner}; Banker wager {format_cents(basis)}. "
        "What commission does the seat pay?"
    )
    return Question(
        game=game.slug,
        kind=DrillKind.COMMISSION,
        seed=seed,
        prompt=prompt,
        hands=_hands(rnd, DRILL_SEAT),
        facts=(f"Seat {DRILL_SEAT} wagered {_stakes(rnd, DRILL_SEAT)}", *_facts(rnd, DRILL_SEAT)),
        expected=str(amount),
        section=str(_field(vig, "section")),
        explanation=f"commission {format_cents(amount)}: {rate} of {format_cents(basis)}",
    )


def _field(record: Record, name: str) -> Any:
    """A field of a record of a kind this module reads by its kind (the commission)."""
    return getattr(record, name)


def _asked_decisions(rnd: Round, seat: int) -> list[Action]:
    """The decisions a trainee is asked about: the seat's candidates and every Play size up
    to four times the Ante, a check and a fold (those the game words: allowed, or refused
    with a section)."""
    asked: list[Action] = list(rnd.decision_candidates(seat))
    if rnd.game.decision_wagers:
        asked += [Play(seat=seat, multiple=m) for m in (1, 2, 3, 4)]
    asked += [Check(seat=seat), Fold(seat=seat)]
    out: list[Action] = []
    said: set[str] = set()
    for action in asked:
        words = rnd.describe(action)
        if words in said:
            continue  # two sizes the game words alike (a Play equal to the Ante): the first
        said.add(words)
        try:
            rnd.verify(action)
        except CroupierError as refused:
            if not refused.section:
                continue  # no such decision in this game
        out.append(action)
    return out


def _decision(game: Game, seed: int) -> Question | None:
    rnd, rng = _deal(game, seed, (DRILL_SEAT,))
    rnd.apply(rnd.dealer_no_more_bets())

    def seat_acts(r: Round) -> bool:
        return r.to_act().seat == DRILL_SEAT

    _play_on(rnd, rng, stop=seat_acts)
    for _street in range(rng.randrange(3)):  # asked on the first, second or third street
        if rnd.is_over:
            break
        rnd.apply(_decide(rnd, rng, DRILL_SEAT))
        _play_on(rnd, rng, stop=seat_acts)
    if rnd.is_over:
        return None
    asked = _asked_decisions(rnd, DRILL_SEAT)
    if not asked:
        return None
    action = rng.choice(asked)
    said = rnd.describe(action)
    try:
        rnd.verify(action)
        expected, section = "yes", game.decision_section or game.chapter
        explanation = f"yes: seat {DRILL_SEAT} may {said} now"
    except CroupierError as refused:
        expected, section = "no", str(refused.section)
        explanation = f"no: {refused.message}"
    prompt = f"{game.spoken_name()}: may seat {DRILL_SEAT} {said} now?"
    return Question(
        game=game.slug,
        kind=DrillKind.DECISION,
        seed=seed,
        prompt=prompt,
        hands=_hands(rnd, DRILL_SEAT, hidden=frozenset({"dealer"})),
        facts=(f"Seat {DRILL_SEAT} wagered {_stakes(rnd, DRILL_SEAT)}",),
        expected=expected,
        section=section,
        explanation=explanation,
        choices=("yes", "no"),
    )


_MAKERS: dict[DrillKind, Callable[[Game, int], Question | None]] = {
    DrillKind.PAYOUT: _payout,
    DrillKind.COMMISSION: _commission,
    DrillKind.DECISION: _decision,
}


def grade(asked: Question, answer: str) -> Graded:
    """``answer`` graded against the engine's: an amount in dollars (``45``, ``$45.50``) for a
    payout or a commission, ``yes``/``no`` for a decision; an unreadable answer is refused
    (:class:`InvalidInput`) and grades nothing."""
    text = answer.strip().lower()
    if asked.choices:
        if text not in asked.choices:
            raise InvalidInput(f"answer {answer!r} is not one of {', '.join(asked.choices)}")
        correct = text == asked.expected
        expected = asked.expected
    else:
        cents = parse_dollars(answer)
        correct = cents == int(asked.expected)
        expected = format_cents(int(asked.expected))
    return Graded(correct, expected, asked.section, asked.explanation)


def parse_dollars(text: str) -> int:
    """``"45"``, ``"$45.50"``, ``"1,250"`` -> cents; anything else refused naming it."""
    raw = text.strip().replace(",", "").removeprefix("$").strip()
    whole, _, part = raw.partition(".")
    if not whole.isdigit() or len(whole) > 9 or (part and (not part.isdigit() or len(part) > 2)):
        raise InvalidInput(f"answer {text!r} is not an amount in dollars such as 45 or $45.50")
    return int(whole) * 100 + int(part.ljust(2, "0") or 0)


# -- the procedure drill -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepTaken:
    """A step the trainee took: accepted, or the engine's refusal with its section."""

    step: str
    accepted: bool
    expected: str
    message: str = ""
    section: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "label": step_label(self.step),
            "accepted": self.accepted,
            "expected": step_label(self.expected),
            "message": self.message,
            "section": self.section,
        }


@dataclass(frozen=True)
class Procedure:
    """A procedure drill's round after the steps taken: what the table shows now."""

    game: str
    seed: int
    steps: tuple[str, ...]
    taken: StepTaken | None
    phase: str
    over: bool
    hands: tuple[Hand, ...]
    buttons: tuple[str, ...]
    log: tuple[str, ...] = field(default=())
    net: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "game_name": game_class(self.game).spoken_name(),
            "seed": self.seed,
            "steps": list(self.steps),
            "taken": self.taken.to_json() if self.taken is not None else None,
            "phase": spoken_words(self.phase).lower(),
            "over": self.over,
            "hands": [h.to_json() for h in self.hands],
            "buttons": [{"step": b, "label": step_label(b)} for b in self.buttons],
            "log": list(self.log),
            "net": self.net,
        }


def step_label(step: str) -> str:
    return spoken_words(step) if step else ""


def _step_actions(rnd: Round) -> dict[str, Action]:
    """The dealer's steps of the game's round, by name: "no more bets", deal, the community
    card's turn where the game turns one by its own action, reveal, settle."""
    steps: dict[str, Action] = {"no_more_bets": rnd.dealer_no_more_bets(), "deal": DealNext()}
    turn = getattr(type(rnd), "turn_action", None)
    if isinstance(turn, type) and issubclass(turn, Action) and turn.name not in ("reveal",):
        steps[turn.name] = turn()
    steps["reveal"] = Reveal()
    steps["settle"] = Settle()
    return steps


def _expected(rnd: Round) -> str:
    """The dealer's step the engine takes next ("" where a seat or nobody acts)."""
    if rnd.phase is Phase.BETTING:
        return "no_more_bets"
    if rnd.is_over or rnd.to_act().seat is not None:
        return ""
    try:
        return rnd.dealer_step().name
    except CroupierError:
        return ""


def _take(rnd: Round, rng: random.Random, step: str, log: list[str]) -> None:
    """The trainee's ``step`` applied (refused as the engine refuses it); a deal deals every
    card then due; the simulated players then decide until the dealer acts again (the next
    cards are the dealer's to deal)."""
    actions = _step_actions(rnd)
    action = actions.get(step)
    if action is None:
        known = ", ".join(actions)
        raise InvalidInput(f"step {step!r} is not a dealer's step of {rnd.game.slug} ({known})")
    rnd.apply(action)
    while isinstance(action, DealNext) and rnd.phase is Phase.DEALING:
        rnd.apply(DealNext())
    while not rnd.is_over and rnd.to_act().seat is not None:
        seat = rnd.to_act().seat
        assert seat is not None
        decision = _decide(rnd, rng, seat)
        log.append(f"Seat {seat}: {rnd.describe(decision)}")
        rnd.apply(decision)


def procedure(slug: str, seed: int, steps: Sequence[str], step: str | None) -> Procedure:
    """The procedure drill of ``slug`` dealt from ``seed``: the ``steps`` accepted so far
    replayed (each must be accepted again: :class:`InvalidInput` where one is not), then
    ``step`` taken (where given): accepted, or refused with the engine's words and section
    (the game's chapter where the refusal names none)."""
    game = _game(slug)
    rnd, rng = _deal(game, seed, PROCEDURE_SEATS)
    log: list[str] = []
    for i, done in enumerate(steps):
        try:
            _take(rnd, rng, done, log)
        except CroupierError as refused:
            raise InvalidInput(
                f"step {i + 1} ({done!r}) of the steps sent was not accepted: {refused.message}"
            ) from None
    taken: StepTaken | None = None
    accepted = tuple(steps)
    if step is not None:
        expected = _expected(rnd)
        try:
            _take(rnd, rng, step, log)
        except InvalidInput:
            raise
        except CroupierError as refused:
            message, section = game.cited((refused.message, refused.section or ""))
            taken = StepTaken(step, False, expected, message, section or "")
        else:
            taken = StepTaken(step, True, expected)
            accepted = (*accepted, step)
    over = rnd.is_over
    net = {str(s): rnd.books().net(s) for s in PROCEDURE_SEATS} if over else {}
    return Procedure(
        game=game.slug,
        seed=seed,
        steps=accepted,
        taken=taken,
        phase=rnd.phase.value,
        over=over,
        hands=_table_hands(rnd),
        buttons=tuple(_step_actions(rnd)),
        log=tuple(log),
        net=net,
    )


def _table_hands(rnd: Round) -> tuple[Hand, ...]:
    """Every hand on the layout as the dealer sees it (the dealer's hole cards face down
    until the reveal)."""
    revealed = any(getattr(r, "kind", "") == "dealer_revealed" for r in rnd.records)
    hidden = frozenset() if revealed or rnd.is_over else frozenset({"dealer"})
    hands: dict[str, Hand] = {}
    for seat in PROCEDURE_SEATS:
        for hand in _hands(rnd, seat, hidden=hidden):
            hands[hand.name] = hand
    return tuple(hands.values())
