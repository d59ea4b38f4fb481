"""Scenarios: one round written out, replayed through the real engine (disputes, tests, training).

A scenario (JSON, docs/rules-and-scenarios.md) names the game and its rules, the meters, each seat's
wagers, decisions and (optionally) hand, the dealer's cards and the community cards, or the
order the cards leave the shoe.  Given hands, the shoe order is derived from the game's own
dealing procedure, so the cards land exactly where the scenario says.

A scenario replays exactly what it says, or is refused naming the key
(:class:`~croupier.core.shapes.ScenarioModel` checks the shape, every problem at once): a card the
deal needs but the scenario leaves out is never filled in from the deck (the message says which
seat or hand is short; only burned and discarded cards, which no hand holds, come from the rest
of the deck); ``cards`` and hands together, seat keys naming one seat twice (``"1"`` and
``"01"``), a ``rules.game`` other than ``game``, a meter the game does not use, and a meter
below its reset are refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from croupier.core.cards import DECK, Card, parse_cards, verify_distinct
from croupier.core.errors import CroupierError, InvalidInput, format_problems, shown_value
from croupier.core.reading import load_document, quote, verify_bounded
from croupier.core.shapes import ScenarioModel, problems_from
from croupier.games import Game, Round, game_class, get_game
from croupier.games.play import play_out
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    DEALER,
    Action,
    DealerRevealed,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
)
from croupier.games.round import StubCheck
from croupier.rules.progressive import MemoryMeters
from croupier.table import scenario_events as events
from croupier.table.scenario_events import ScenarioEvent
from croupier.table.shoe import StackedShoe, shoe_cards

__all__ = ["LIBRARY", "load_scenario", "run_scenario", "verify_scenario"]

LIBRARY = Path(__file__).resolve().parents[1] / "scenarios"
"""The scenario library shipped with the package (``croupier/scenarios/*.json``): the
regulation's edge cases, one round each, named after the subsection it shows; the tests replay
them, the golden outputs hold their replays and the training page deals from them."""

COMMUNITY = "board"
NOT_HANDS = frozenset({"burn", "discard", "face_up"})
"""Recipients of the deal that are no one's hand: burned and discarded cards, and a card found
face up and discarded (§ 641a.13(a))."""


def load_scenario(path: str | Path) -> dict[str, Any]:
    """Read a scenario file (JSON, bounded: see :mod:`croupier.core.reading`)."""
    return load_document(path, what="scenario", toml=False)


def _verify_seat_keys(raw: object) -> None:
    """Refuse seat keys that name one seat twice (``"1"`` and ``"01"``)."""
    if not isinstance(raw, Mapping):
        return
    seen: dict[int, str] = {}
    for key in raw:
        text = str(key)
        if text.isascii() and text.isdigit() and len(text) <= 3:
            number = int(text)
            if number in seen:
                raise InvalidInput(
                    f"scenario seat keys {quote(seen[number])} and {quote(text)} both name "
                    f"seat {number}"
                )
            seen[number] = text


def verify_scenario(data: Mapping[str, Any]) -> ScenarioModel:
    """The scenario's shape, or ``InvalidInput`` naming every problem at once."""
    if not isinstance(data, Mapping):
        raise InvalidInput(f"a scenario must be a JSON object, not {type(data).__name__}")
    verify_bounded(data, what="scenario")
    _verify_seat_keys(data.get("seats"))
    try:
        return ScenarioModel.model_validate(data)
    except ValidationError as exc:
        problems = problems_from(exc, blocks=("rules",))
        raise InvalidInput(f"scenario: {format_problems(problems, limit=8)}") from None


def _seats(model: ScenarioModel) -> dict[int, dict[str, Any]]:
    return {
        int(key): seat.model_dump(exclude_none=True, exclude_defaults=True)
        for key, seat in sorted(model.seats.items())
    }


def _players(seats: Mapping[int, Mapping[str, Any]]) -> dict[int, str]:
    return {s: str(seat.get("player", f"P{s}")) for s, seat in seats.items()}


def _place_wagers(
    rnd: Round,
    seats: Mapping[int, Mapping[str, Any]],
    chips: int | None,
    happened: Sequence[ScenarioEvent] = (),
) -> None:
    """The seats' wagers, then "no more bets" (unless a void while the bets are taken ends
    the round first)."""
    for seat, spec in seats.items():
        for wager, amount in spec.get("wagers", {}).items():
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
        events.place_verbal(rnd, seat, spec.get("verbal"))
    events.void_in_betting(rnd, happened)
    if not rnd.is_over:
        rnd.apply(NoMoreBets(progressive_chips=chips))


def _play_out(
    rnd: Round, seats: Mapping[int, Mapping[str, Any]], happened: Sequence[ScenarioEvent] = ()
) -> None:
    if happened:
        decisions = {s: spec.get("decisions", []) for s, spec in seats.items()}
        events.play_out(rnd, decisions, happened)
        return
    queues = {s: list(spec.get("decisions", [])) for s, spec in seats.items()}

    def written(rnd: Round, seat: int) -> Action:
        queue = queues.get(seat, [])
        if not queue:
            raise InvalidInput(
                f"seat {seat} must decide now (phase {rnd.phase.value}) but the scenario "
                "gives it no decision left"
            )
        return rnd.parse_decision(seat, queue.pop(0))

    play_out(rnd, written)
    leftover = {s: q for s, q in queues.items() if q}
    if leftover:
        raise InvalidInput(f"decisions never asked for: {leftover}")


def _cards(value: object, what: str) -> list[Card]:
    if value is None:
        return []
    if isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(c, str) for c in value)
    ):
        cards = list(parse_cards(value, distinct=False))
        verify_distinct(cards, what=what)
        return cards
    raise InvalidInput(f'{what} {shown_value(value)} must be a list of cards such as ["As", "Kd"]')


def _verify_no_card_twice(wanted: Mapping[str, list[Card]]) -> None:
    """Refuse a card given to two places, naming each seat or hand that holds it."""
    owners: dict[Card, list[str]] = {}
    for who, cards in wanted.items():
        for card in cards:
            owners.setdefault(card, []).append(_holder(who))
    twice = [f"{card} ({' and '.join(names)})" for card, names in owners.items() if len(names) > 1]
    if twice:
        raise InvalidInput(f"a card is given to two hands: {'; '.join(twice)}")


def _holder(who: str) -> str:
    if who.isdigit():
        return f"seat {who} hand"
    names = {COMMUNITY: "community", DEALER: "dealer", "player": "Player's Hand"}
    return (names | {"banker": "Banker's Hand"}).get(who, who)


def _recipients(
    game: Game,
    seats: Mapping[int, Mapping[str, Any]],
    happened: Sequence[ScenarioEvent] = (),
    stub: StubCheck = StubCheck.NOT_REQUIRED,
) -> list[str]:
    """Where each card leaving the shoe goes, in order, by a dry run of the scenario's round
    (a card found face up goes to ``"face_up"``)."""
    dry = game.new_round(
        shoe=StackedShoe(DECK),
        meters=MemoryMeters(),
        players=_players(seats),
        stub_check=stub,
    )
    _place_wagers(dry, seats, None, happened)
    _play_out(dry, seats, happened)
    return events.cards_out(dry.records)


def _shoe_order(game: Game, value: object, seats: Mapping[int, Mapping[str, Any]]) -> list[Card]:
    """The ``cards`` of a scenario, then the rest of the shoe.  A shoe of several decks (the
    Rules Submission's ``[table] decks``: baccarat's six or eight) holds each card that many
    times, so a card may be given up to that many times; one given more often (twice, in a
    one-deck game) is refused naming where each copy goes."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not _is_card_list(value):
        raise InvalidInput(
            f'cards {shown_value(value)} must be a list of cards such as ["As", "Kd"]'
        )
    assert isinstance(value, list)
    cards = list(parse_cards(value, distinct=False))
    decks = game.shoe_decks
    where: dict[Card, list[int]] = {}
    for index, card in enumerate(cards):
        where.setdefault(card, []).append(index)
    over = {card: at for card, at in where.items() if len(at) > decks}
    if over:
        try:
            goes = _recipients(game, seats)
        except CroupierError:
            goes = []
        shown = "; ".join(
            f"{card}{'' if decks == 1 else f' {len(at)} times'} ("
            + " and ".join(_place(i, goes) for i in at)
            + ")"
            for card, at in over.items()
        )
        if decks == 1:
            raise InvalidInput(f"a card is given twice in 'cards': {shown}")
        raise InvalidInput(
            f"a card is given more often than the {decks}-deck shoe holds it in 'cards': {shown}"
        )
    left = Counter(shoe_cards(decks)) - Counter(cards)
    spare: list[Card] = []
    for card in shoe_cards(decks):  # the shoe's other cards, deck after deck
        if left[card] > 0:
            spare.append(card)
            left[card] -= 1
    return cards + spare


def _is_card_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(c, str) for c in value)


def _place(index: int, goes: list[str]) -> str:
    to = f", to the {_holder(goes[index])}" if index < len(goes) else ""
    return f"card {index + 1}{to}"


def _stack_from_hands(
    game: Game,
    data: Mapping[str, Any],
    seats: Mapping[int, Mapping[str, Any]],
    happened: Sequence[ScenarioEvent] = (),
    stub: StubCheck = StubCheck.NOT_REQUIRED,
) -> list[Card]:
    """The shoe order that deals each given hand where the scenario puts it.

    A dry run with any deck yields the recipients in dealing order; each recipient then takes
    its own cards in turn.  A hand the deal reaches but the scenario leaves out (or gives too
    few cards) is refused, naming it; only burned and discarded cards, which no hand holds,
    take the cards nobody was given, lowest first.
    """
    wanted: dict[str, list[Card]] = {
        str(s): _cards(spec.get("hand"), f"seat {s} hand") for s, spec in seats.items()
    }
    wanted[DEALER] = _cards(data.get("dealer"), "dealer")
    wanted[COMMUNITY] = _cards(data.get("community"), "community")
    wanted = {k: v for k, v in wanted.items() if v}
    _verify_no_card_twice(wanted)
    named = [c for cards in wanted.values() for c in cards]
    spare = [c for c in DECK if c not in set(named)]
    order: list[Card] = []
    dealt = _recipients(game, seats, happened, stub)
    short = {to for to in dealt if to not in NOT_HANDS and to not in wanted}
    if short:
        raise InvalidInput("; ".join(_missing_hand(to, dealt.count(to)) for to in sorted(short)))
    given = {to: len(cards) for to, cards in wanted.items()}
    for to in dealt:
        queue = wanted.get(to)
        if queue is None:
            order.append(spare.pop(0))  # a burned or discarded card: no hand holds it
        elif not queue:
            raise InvalidInput(
                f"{_who(to)} is short: the deal gives it {dealt.count(to)} cards, the scenario "
                f"lists {given[to]}"
            )
        else:
            order.append(queue.pop(0))
    left = {k: [str(c) for c in v] for k, v in wanted.items() if v}
    if left:
        raise InvalidInput(f"cards the deal never reaches: {left}")
    return order + spare


def _who(to: str) -> str:
    if to.isdigit():
        return f"seat {to}"
    return {DEALER: "the dealer", COMMUNITY: "the community cards"}.get(to, repr(to))


def _missing_hand(to: str, count: int) -> str:
    key = {DEALER: "'dealer'", COMMUNITY: "'community'"}.get(to)
    if to.isdigit():
        return f"seat {to} has no 'hand' but the deal gives it {count} cards"
    if key is not None:
        return f"the scenario gives no {key} but the deal gives {_who(to)} {count} cards"
    return (
        f"the deal gives {count} cards to {shown_value(to)}, "
        "which hands cannot name: give 'cards' instead"
    )


def _verify_cards_suffice(
    game: Game,
    order: list[Card],
    listed: int,
    seats: Mapping[int, Mapping[str, Any]],
    happened: Sequence[ScenarioEvent],
    stub: StubCheck,
) -> list[Card]:
    """Only the first ``listed`` cards of ``order`` may reach a hand: a deal that needs one more
    for a hand is refused, naming the hand (a dry run on ``order``: the cards listed decide
    everything up to it); burned and discarded cards past the list come from the stub."""
    dry = game.new_round(
        shoe=StackedShoe(order, decks=game.shoe_decks),
        meters=MemoryMeters(),
        players=_players(seats),
        stub_check=stub,
    )
    _place_wagers(dry, seats, None, happened)
    _play_out(dry, seats, happened)
    dealt = events.cards_out(dry.records)
    short = [i for i, to in enumerate(dealt) if i >= listed and to not in NOT_HANDS]
    if short:
        raise InvalidInput(
            f"'cards' lists {listed} cards but the deal needs {short[-1] + 1}: card "
            f"{short[0] + 1} goes to {_who(dealt[short[0]])}; cards are never filled in from the "
            "deck (only burned or discarded ones)"
        )
    return order  # the cards after the listed ones stay in the shoe, never dealt (the stub)


def _verify_meters(game: Game, start: Mapping[str, int], players: Mapping[int, str]) -> None:
    """Each meter named must be one the game uses, at or above its reset."""
    if not start:
        return
    rnd = game.new_round(shoe=StackedShoe(DECK), meters=MemoryMeters(), players=players)
    specs = {spec.name: spec for _, spec in rnd.contribution_meters()}
    problems: list[str] = []
    for name, amount in start.items():
        spec = specs.get(name)
        if spec is None:
            used = ", ".join(repr(n) for n in sorted(specs)) or "none"
            problems.append(f"meters {quote(name)} is not a meter of this table (meters: {used})")
        elif amount < spec.reset:
            problems.append(
                f"meters {quote(name)} {amount} cents is below its reset of {spec.reset} cents"
            )
    if problems:
        raise InvalidInput("scenario: " + "; ".join(problems))


def _stub_check(model: ScenarioModel, happened: Sequence[ScenarioEvent]) -> StubCheck:
    """Whether the dealer counts the stub in the round (§ 641a.8(f)): as ``stub_check`` says
    (a round voided before its count still has the phase), else where an event counts it."""
    counted = events.stub_check(happened)
    if model.stub_check is None:
        return counted
    given = StubCheck(model.stub_check)
    if given is StubCheck.NOT_REQUIRED and counted is StubCheck.REQUIRED:
        raise InvalidInput(
            "scenario stub_check 'not_required' disagrees with its 'stub_count' event"
        )
    return given


def run_scenario(data: Mapping[str, Any]) -> dict[str, Any]:
    """Replay one scenario; returns the settlement as JSON-ready data."""
    model = verify_scenario(data)
    rules = data.get("rules", {})
    named = rules.get("game") if isinstance(rules, Mapping) else None
    if isinstance(named, str) and game_class(named) is not game_class(model.game):
        raise InvalidInput(
            f"scenario rules.game {quote(named)} disagrees with game {quote(model.game)}"
        )
    game = get_game({**rules, "game": model.game})
    seats = _seats(model)
    happened = events.parse_events(data.get("events"))
    stub = _stub_check(model, happened)
    game, table = events.table_before(game, happened)  # another method deals the round
    start = dict(model.meters)
    _verify_meters(game, start, _players(seats))
    chips = model.progressive_chips
    hands = [f"seats.{s}.hand" for s, seat in model.seats.items() if seat.hand is not None]
    hands += [k for k in ("dealer", "community") if getattr(model, k) is not None]
    if model.cards is not None and hands:
        raise InvalidInput(
            f"scenario gives both 'cards' and hands ({', '.join(hands)}): give one or the other"
        )
    cuts: list[dict[str, Any]] = []
    if model.cards is not None:
        stack = _shoe_order(game, list(model.cards), seats)
        order, cuts = events.cut_stack(game, stack, happened)
        if not cuts:  # cut cards come from the whole stack; otherwise only those listed
            order = _verify_cards_suffice(game, order, len(model.cards), seats, happened, stub)
    else:
        events.cut_stack(game, None, happened)  # a cut needs 'cards'
        order = _stack_from_hands(game, data, seats, happened, stub)
    meters = MemoryMeters(dict(start))
    rnd = game.new_round(
        shoe=StackedShoe(order, decks=game.shoe_decks),
        meters=meters,
        players=_players(seats),
        stub_check=stub,
    )
    _place_wagers(rnd, seats, chips, happened)
    _play_out(rnd, seats, happened)
    report = _report(rnd, dict(start), meters)
    if happened:
        report["table"] = table + cuts + events.after_round(rnd, happened)
    return report


def _report(rnd: Round, start: dict[str, int], meters: MemoryMeters) -> dict[str, Any]:
    dealer: dict[str, Any] = {"cards": [str(c) for c in supervisor_hands(rnd).get(DEALER, [])]}
    for rec in rnd.records:
        if isinstance(rec, DealerRevealed):
            dealer |= {"category": rec.category, "best": [str(c) for c in rec.best]}
    meter_report: dict[str, dict[str, int]] = {}
    for rec in rnd.records:
        if isinstance(rec, MeterChanged):
            meter_report.setdefault(rec.meter, {"before": rec.before})
    for name, amount in meters.snapshot().items():
        meter_report.setdefault(name, {"before": start.get(name, amount)})["after"] = amount
    return {
        "game": rnd.game.slug,
        "phase": rnd.phase.value,
        "seats": rnd.settlement(),
        "hands": {k: [str(c) for c in v] for k, v in supervisor_hands(rnd).items() if k.isdigit()},
        "dealer": dealer,
        "community": [str(c) for c in supervisor_hands(rnd).get(COMMUNITY, [])],
        **rnd.hands_report(),
        "meters": meter_report,
        "records": rnd.history(),
    }
