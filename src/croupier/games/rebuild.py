"""A round rebuilt from its hand history: the audit trail replays every hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from croupier.cards import DECK, Card
from croupier.errors import InvalidInput
from croupier.games.records import CardDealt, CardDiscarded, MeterChanged, Record, action_of
from croupier.games.states import StubCheck
from croupier.progressive import MemoryMeters
from croupier.shoe import StackedShoe

if TYPE_CHECKING:
    from croupier.games.base import Game
    from croupier.games.round import Round

__all__ = ["rebuild_round"]


def rebuild_round(
    game: Game,
    records: Sequence[Record],
    *,
    players: Mapping[int, str] | None = None,
    stub_check: StubCheck = StubCheck.NOT_REQUIRED,
) -> Round:
    """Replay ``records`` into a new round of ``game`` (:meth:`Round.rebuild
    <croupier.games.round.Round.rebuild>`)."""
    if isinstance(records, str | bytes) or not all(isinstance(r, Record) for r in records):
        raise InvalidInput("a hand history is a sequence of records")
    shown = [r.card for r in records if isinstance(r, CardDealt | CardDiscarded)]
    decks = max(1, game.deck_count)
    rest: list[Card] = []
    for _ in range(decks):
        rest += list(DECK)
    for card in shown:
        if card not in rest:
            raise InvalidInput(f"the hand history deals {card} more often than {decks} deck(s)")
        rest.remove(card)
    meters: dict[str, int] = {}
    for r in records:
        if isinstance(r, MeterChanged) and r.meter not in meters:
            meters[r.meter] = r.before
    spec = game.meter_spec
    if spec is not None and spec.name not in meters:
        meters[spec.name] = spec.reset
    rebuilt = game.new_round(
        shoe=StackedShoe([*shown, *rest], decks=decks),
        meters=MemoryMeters(meters),
        players=players,
        stub_check=stub_check,
    )
    position = 0
    while position < len(records):
        action = action_of(records[position])
        if action is None:
            position += 1
            continue
        new = rebuilt.apply(action)
        # where the records the input produced come next in the history, the derived ones
        # among them (a short stub count's irregularity, § 641a.8(f)) are not inputs again
        same = tuple(records[position : position + len(new)]) == new
        position += len(new) if new and same else 1
    return rebuilt
