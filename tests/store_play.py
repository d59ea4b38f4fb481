"""Shared by the store tests: every game's test Rules Submission, and a seeded driver that plays
a round through its public actions (every offered wager, random legal decisions, now and then
an irregularity) so the store sees every kind of record."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Protocol

from croupier.games import get_game
from croupier.games.base import Game
from croupier.games.records import Action, IrregularityKind, PlaceWager, Record, ReportIrregularity
from croupier.games.round import Actor, ActorKind, Phase, Round
from croupier.rules.submission import load_rules

RULES_DIR = Path(__file__).parent / "rules"
GAME_FILES = {
    "four-card-poker": "four-card-poker.toml",
    "let-it-ride": "let-it-ride.toml",
    "three-card-poker": "three-card-poker.toml",
    "ultimate-texas-holdem": "ultimate-texas-holdem.toml",
    "mississippi-stud": "mississippi-stud.toml",
    "mississippi-stud-table-a": "mississippi-stud-table-a.toml",
    "mini-baccarat": "mini-baccarat.toml",
    "midi-baccarat": "midi-baccarat.toml",
    "ez-baccarat": "ez-baccarat.toml",
}


def game_for(name: str) -> Game:
    return get_game(load_rules(RULES_DIR / GAME_FILES[name]))


class Playable(Protocol):
    """A round or a tracked round."""

    @property
    def phase(self) -> Phase: ...

    @property
    def is_over(self) -> bool: ...

    def to_act(self) -> Actor: ...

    def can(self, action: Action) -> bool: ...

    def apply(self, action: Action) -> tuple[Record, ...]: ...


def wagers(rnd: Round, rng: random.Random, seats: tuple[int, ...]) -> list[Action]:
    """Each seat's wagers: the house wagers, then each other offered wager half the time (at
    a baccarat table, now and then a verbal wager with cash, § 541.8(b))."""
    placed: list[PlaceWager] = []
    for seat in seats:
        unit = rng.choice((500, 1000, 2500))
        already = [a for w, a in rnd.stakes.get(seat, {}).items() if w != "progressive"]
        # A round resumed in betting: the seat's wagers go on at the unit it began with.
        placed += rnd.house_wagers(seat, unit=already[0] if already else unit)
        for wager in rnd.game.offered_wagers():
            if wager in rnd.game.decision_wagers or rng.random() < 0.5:
                continue
            action = PlaceWager(seat=seat, wager=wager, amount=rnd._suggested_amount(seat, wager))
            if all(p.wager != wager or p.seat != seat for p in placed):
                placed.append(action)
    if not hasattr(rnd, "_verify_verbal_wager"):
        return list(placed)
    from croupier.games.baccarat.paytables import VerbalWager

    return [
        VerbalWager(
            seat=p.seat, wager=p.wager, amount=p.amount, cash=p.amount + 500, confirmed_by="Dee"
        )
        if rng.random() < 0.2
        else p
        for p in placed
    ]


def drive(
    play: Playable,
    rnd: Round,
    rng: random.Random,
    *,
    seats: tuple[int, ...] = (1, 2, 3),
    irregular: float = 0.02,
    stop_after: int | None = None,
) -> int:
    """Play ``rnd`` (through ``play``, the round or its tracker) to its end, or until
    ``stop_after`` actions; returns the actions applied."""
    applied = 0

    def act(action: Action) -> None:
        nonlocal applied
        play.apply(action)
        applied += 1

    if play.phase is Phase.BETTING:
        for action in wagers(rnd, rng, seats):
            if play.can(action):
                act(action)
            if stop_after is not None and applied >= stop_after:
                return applied
        act(rnd.dealer_no_more_bets())
    while not play.is_over and (stop_after is None or applied < stop_after):
        if rng.random() < irregular:
            kinds = [k for k in IrregularityKind if play.can(ReportIrregularity(kind=k))]
            if kinds:
                act(ReportIrregularity(kind=rng.choice(kinds)))
                continue
        actor = play.to_act()
        if actor.kind is ActorKind.SEAT:
            assert actor.seat is not None
            choices = [a for a in rnd.decision_candidates(actor.seat) if play.can(a)]
            act(rng.choice(choices))
        else:
            act(rnd.dealer_step())
    return applied
