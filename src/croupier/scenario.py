"""Scenarios: one round written out, replayed through the real engine (disputes, tests, training).

A scenario (JSON, see ../shared/DESIGN.md) names the game and its rules, the meters, each seat's
wagers, decisions and (optionally) hand, the dealer's cards and the community cards, or the
order the cards leave the shoe.  Given hands, the shoe order is derived from the game's own
dealing procedure, so the cards land exactly where the scenario says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from croupier import scenario_events as events
from croupier.cards import DECK, Card, parse_cards, verify_distinct
from croupier.errors import CroupierError, InvalidInput
from croupier.games import Game, Round, get_game
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    DEALER,
    DealerRevealed,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
)
from croupier.games.round import ActorKind
from croupier.progressive import MemoryMeters
from croupier.scenario_events import ScenarioEvent
from croupier.shoe import StackedShoe

__all__ = ["load_scenario", "run_scenario"]

_KEYS = {"game", "rules", "meters", "seats", "dealer", "community", "cards", "progressive_chips"}
_KEYS |= {"events"}  # irregularities and table events: croupier.scenario_events
_SEAT_KEYS = {"wagers", "decisions", "hand", "player", "verbal"}
COMMUNITY = "board"


def load_scenario(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInput(f"scenario {str(path)!r} cannot be read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"scenario {str(path)!r} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"scenario {str(path)!r} must be a JSON object")
    return data


def _seats(data: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    raw = data.get("seats")
    if not isinstance(raw, Mapping) or not raw:
        raise InvalidInput("scenario 'seats' must map seat numbers to wagers and decisions")
    seats: dict[int, dict[str, Any]] = {}
    problems: list[str] = []
    for key, seat in raw.items():
        if not str(key).isdigit() or not 1 <= int(key) <= 7:
            problems.append(f"seat {key!r} is not a betting position 1-7")
            continue
        if not isinstance(seat, Mapping):
            problems.append(f"seat {key} must be an object")
            continue
        unknown = sorted(set(seat) - _SEAT_KEYS)
        problems += [f"seat {key}: unknown key {k!r}" for k in unknown]
        wagers = seat.get("wagers", {})
        if not isinstance(wagers, Mapping):
            problems.append(f"seat {key}: 'wagers' must map wager names to cents")
        decisions = seat.get("decisions", [])
        if not isinstance(decisions, list) or not all(isinstance(d, str) for d in decisions):
            problems.append(f"seat {key}: 'decisions' must be a list of strings")
        seats[int(key)] = dict(seat)
    if problems:
        raise InvalidInput("; ".join(problems))
    return dict(sorted(seats.items()))


def _players(seats: Mapping[int, Mapping[str, Any]]) -> dict[int, str]:
    return {s: str(seat.get("player", f"P{s}")) for s, seat in seats.items()}


def _place_wagers(rnd: Round, seats: Mapping[int, Mapping[str, Any]], chips: int | None) -> None:
    for seat, spec in seats.items():
        for wager, amount in spec.get("wagers", {}).items():
            rnd.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
        events.place_verbal(rnd, seat, spec.get("verbal"))
    rnd.apply(NoMoreBets(progressive_chips=chips))


def _play_out(
    rnd: Round, seats: Mapping[int, Mapping[str, Any]], happened: Sequence[ScenarioEvent] = ()
) -> None:
    if happened:
        decisions = {s: spec.get("decisions", []) for s, spec in seats.items()}
        events.play_out(rnd, decisions, happened)
        return
    queues = {s: list(spec.get("decisions", [])) for s, spec in seats.items()}
    while not rnd.is_over:
        rnd.run_dealer()
        actor = rnd.to_act()
        if actor.kind is not ActorKind.SEAT or actor.seat is None:
            continue
        queue = queues.get(actor.seat, [])
        if not queue:
            raise InvalidInput(
                f"seat {actor.seat} must decide now (phase {rnd.phase.value}) but the scenario "
                "gives it no decision left"
            )
        rnd.apply(rnd.parse_decision(actor.seat, queue.pop(0)))
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
    raise InvalidInput(f'{what} {value!r} must be a list of cards such as ["As", "Kd"]')


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
    game: Game, seats: Mapping[int, Mapping[str, Any]], happened: Sequence[ScenarioEvent] = ()
) -> list[str]:
    """Where each card leaving the shoe goes, in order, by a dry run of the scenario's round
    (a card found face up goes to ``"face_up"``)."""
    dry = game.new_round(
        shoe=StackedShoe(DECK),
        meters=MemoryMeters(),
        players=_players(seats),
        stub_check=events.stub_check(happened),
    )
    _place_wagers(dry, seats, None)
    _play_out(dry, seats, happened)
    return events.cards_out(dry.records)


def _shoe_order(game: Game, value: object, seats: Mapping[int, Mapping[str, Any]]) -> list[Card]:
    """The ``cards`` of a scenario; a card given twice is refused naming where each copy goes."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not _is_card_list(value):
        raise InvalidInput(f'cards {value!r} must be a list of cards such as ["As", "Kd"]')
    assert isinstance(value, list)
    cards = list(parse_cards(value, distinct=False))
    where: dict[Card, list[int]] = {}
    for index, card in enumerate(cards):
        where.setdefault(card, []).append(index)
    twice = {card: at for card, at in where.items() if len(at) > 1}
    if twice:
        try:
            goes = _recipients(game, seats)
        except CroupierError:
            goes = []
        shown = "; ".join(
            f"{card} (" + " and ".join(_place(i, goes) for i in at) + ")"
            for card, at in twice.items()
        )
        raise InvalidInput(f"a card is given twice in 'cards': {shown}")
    return cards + [c for c in DECK if c not in set(cards)]


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
) -> list[Card]:
    """The shoe order that deals each given hand where the scenario puts it.

    A dry run with any deck yields the recipients in dealing order; each recipient then takes
    its own cards in turn; recipients the scenario leaves out, discards and burns take the cards
    nobody was given, lowest first.
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
    for to in _recipients(game, seats, happened):
        queue = wanted.get(to)
        if queue is None:
            order.append(spare.pop(0))
        elif not queue:
            raise InvalidInput(f"the deal gives {to!r} more cards than the scenario lists for it")
        else:
            order.append(queue.pop(0))
    left = {k: [str(c) for c in v] for k, v in wanted.items() if v}
    if left:
        raise InvalidInput(f"cards the deal never reaches: {left}")
    return order + spare


def run_scenario(data: Mapping[str, Any]) -> dict[str, Any]:
    """Replay one scenario; returns the settlement as JSON-ready data."""
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise InvalidInput(f"unknown scenario key(s) {unknown}")
    if not isinstance(data.get("game"), str):
        raise InvalidInput(f"scenario game {data.get('game')!r} must be a game name")
    rules = data.get("rules", {})
    if not isinstance(rules, Mapping):
        raise InvalidInput("scenario 'rules' must be an object (a Rules Submission)")
    game = get_game({"game": data["game"], **rules})
    seats = _seats(data)
    happened = events.parse_events(data.get("events"))
    game, table = events.table_before(game, happened)  # another method deals the round
    start = data.get("meters", {})
    if not isinstance(start, Mapping) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in start.values()
    ):
        raise InvalidInput("scenario 'meters' must map meter names to cents")
    chips = data.get("progressive_chips")
    cuts: list[dict[str, Any]] = []
    if data.get("cards"):
        order, cuts = events.cut_stack(game, _shoe_order(game, data["cards"], seats), happened)
    else:
        events.cut_stack(game, None, happened)  # a cut needs 'cards'
        order = _stack_from_hands(game, data, seats, happened)
    meters = MemoryMeters(dict(start))
    rnd = game.new_round(
        shoe=StackedShoe(order),
        meters=meters,
        players=_players(seats),
        stub_check=events.stub_check(happened),
    )
    _place_wagers(rnd, seats, chips)
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
