"""Scenarios: one round written out, replayed through the real engine (disputes, tests, training).

A scenario (JSON, see ../shared/DESIGN.md) names the game and its rules, the meters, each seat's
wagers, decisions and (optionally) hand, the dealer's cards and the community cards, or the
order the cards leave the shoe.  Given hands, the shoe order is derived from the game's own
dealing procedure, so the cards land exactly where the scenario says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from croupier.cards import DECK, Card, parse_cards
from croupier.errors import InvalidInput
from croupier.games import Game, Round, get_game
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    DEALER,
    CardDealt,
    DealerRevealed,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
)
from croupier.games.round import ActorKind
from croupier.progressive import MemoryMeters
from croupier.shoe import StackedShoe

__all__ = ["load_scenario", "run_scenario"]

_KEYS = {"game", "rules", "meters", "seats", "dealer", "community", "cards", "progressive_chips"}
_SEAT_KEYS = {"wagers", "decisions", "hand", "player"}
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
    rnd.apply(NoMoreBets(progressive_chips=chips))


def _play_out(rnd: Round, seats: Mapping[int, Mapping[str, Any]]) -> None:
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
    if isinstance(value, str):
        return list(parse_cards(value))
    if isinstance(value, list) and all(isinstance(c, str) for c in value):
        return list(parse_cards(value))
    raise InvalidInput(f'{what} {value!r} must be a list of cards such as ["As", "Kd"]')


def _stack_from_hands(
    game: Game, data: Mapping[str, Any], seats: Mapping[int, Mapping[str, Any]]
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
    named = [c for cards in wanted.values() for c in cards]
    parse_cards([str(c) for c in named])  # refuses a card given twice
    spare = [c for c in DECK if c not in set(named)]
    dry = game.new_round(shoe=StackedShoe(DECK), meters=MemoryMeters(), players=_players(seats))
    _place_wagers(dry, seats, None)
    _play_out(dry, seats)
    order: list[Card] = []
    for rec in dry.records:
        if not isinstance(rec, CardDealt):
            continue
        queue = wanted.get(rec.to)
        if queue is None:
            order.append(spare.pop(0))
        elif not queue:
            raise InvalidInput(
                f"the deal gives {rec.to!r} more cards than the scenario lists for it"
            )
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
    start = data.get("meters", {})
    if not isinstance(start, Mapping) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in start.values()
    ):
        raise InvalidInput("scenario 'meters' must map meter names to cents")
    chips = data.get("progressive_chips")
    if data.get("cards"):
        given = _cards(data["cards"], "cards")
        order = given + [c for c in DECK if c not in set(given)]
    else:
        order = _stack_from_hands(game, data, seats)
    meters = MemoryMeters(dict(start))
    rnd = game.new_round(shoe=StackedShoe(order), meters=meters, players=_players(seats))
    _place_wagers(rnd, seats, chips)
    _play_out(rnd, seats)
    return _report(rnd, dict(start), meters)


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
        "meters": meter_report,
        "records": rnd.history(),
    }
