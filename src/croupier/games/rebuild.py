"""A round rebuilt from its hand history: the audit trail replays every hand."""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from croupier.core.cards import DECK, Card
from croupier.core.errors import InvalidInput
from croupier.games.records import (
    Action,
    CardDealt,
    CardDiscarded,
    MeterChanged,
    Record,
    action_of,
)
from croupier.games.reported_cards import REPORTED_RECORDS
from croupier.games.states import StubCheck
from croupier.rules.progressive import MemoryMeters, MeterMove
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import Shoe, StackedShoe

if TYPE_CHECKING:
    from croupier.games.base import Game
    from croupier.games.round import Round

__all__ = ["ReplayMeters", "rebuild_round", "round_inputs"]


class ReplayMeters(MemoryMeters):
    """The meters of a hand history replayed: before each of the round's meter moves, each
    meter stands where the history says it stood.

    A linked meter (one name at several tables, § 605a.7) moves between a round's own records
    when another table's wager contributes, so the amount a later move starts from is the one
    its record shows, not the round's last.  ``stood`` gives those amounts exactly (the meter's
    own ledger, ``before_exact`` of each of the round's moves in order); without it a record's
    whole cents are taken where the meter's whole cents differ from them (the fraction of a
    cent a linked table added is not in the records), and the replay's own amount otherwise.
    ``unmoved``: meters the records never move, at their amounts (a game's meter at its reset).
    """

    def __init__(
        self,
        records: Sequence[Record],
        stood: Sequence[Fraction] | None = None,
        *,
        unmoved: Mapping[str, int] | None = None,
    ) -> None:
        moves = [r for r in records if isinstance(r, MeterChanged)]
        if stood is not None and len(stood) != len(moves):
            raise InvalidInput(
                f"{len(stood)} exact meter amounts were given for {len(moves)} meter moves"
            )
        self._stood: dict[str, deque[tuple[int, Fraction | None]]] = {}
        for i, move in enumerate(moves):
            exact = stood[i] if stood is not None else None
            self._stood.setdefault(move.meter, deque()).append((move.before, exact))
        super().__init__({**(unmoved or {}), **{m: q[0][0] for m, q in self._stood.items()}})
        for meter, queue in self._stood.items():
            first = queue[0][1]
            if first is not None:
                self._amounts[meter] = first

    def _stand(self, meter: str) -> None:
        queue = self._stood.get(meter)
        if not queue:
            return
        whole, exact = queue.popleft()
        if exact is not None:
            self._amounts[meter] = exact
        elif math.floor(self._get(meter)) != whole:
            self._amounts[meter] = Fraction(whole)

    def contribute(self, meter: str, amount: Fraction) -> MeterMove:
        self._stand(meter)
        return super().contribute(meter, amount)

    def pay(self, meter: str, share: Fraction, reset: int) -> MeterMove:
        self._stand(meter)
        return super().pay(meter, share, reset)


def rebuild_round(
    game: Game,
    records: Sequence[Record],
    *,
    players: Mapping[int, str] | None = None,
    stub_check: StubCheck = StubCheck.NOT_REQUIRED,
    meters_stood: Sequence[Fraction] | None = None,
) -> Round:
    """Replay ``records`` into a new round of ``game`` (:meth:`Round.rebuild
    <croupier.games.round.Round.rebuild>`); ``meters_stood``: :class:`ReplayMeters`."""
    rebuilt, _ = _replayed(game, records, players, stub_check, meters_stood)
    return rebuilt


def round_inputs(
    game: Game,
    records: Sequence[Record],
    *,
    players: Mapping[int, str] | None = None,
    stub_check: StubCheck = StubCheck.NOT_REQUIRED,
) -> list[tuple[int, Action]]:
    """The inputs of a hand history (each action a seat, the dealer or a supervisor gave),
    each with the position in ``records`` of the first record it produced: what
    :func:`rebuild_round` applies (a derived record, such as the irregularity a short stub
    count reports, § 641a.8(f), is none)."""
    _, inputs = _replayed(game, records, players, stub_check, None)
    return inputs


def _undealt(shown: Sequence[Card], decks: int) -> list[Card]:
    """The cards of ``decks`` decks in their order less ``shown`` (each card shown takes the
    first of its copies left); refused where a card is shown more often than the decks hold."""
    owed: Counter[Card] = Counter()
    for card in shown:
        owed[card] += 1
        if owed[card] > decks:
            raise InvalidInput(f"the hand history deals {card} more often than {decks} deck(s)")
    rest: list[Card] = []
    for _ in range(decks):
        for card in DECK:
            if owed[card]:
                owed[card] -= 1
            else:
                rest.append(card)
    return rest


def _replayed(
    game: Game,
    records: Sequence[Record],
    players: Mapping[int, str] | None,
    stub_check: StubCheck,
    meters_stood: Sequence[Fraction] | None,
) -> tuple[Round, list[tuple[int, Action]]]:
    if isinstance(records, str | bytes) or not all(isinstance(r, Record) for r in records):
        raise InvalidInput("a hand history is a sequence of records")
    shown = [r.card for r in records if isinstance(r, CardDealt | CardDiscarded)]
    decks = max(1, game.deck_count)
    shoe: Shoe
    if any(isinstance(r, REPORTED_RECORDS) for r in records):
        # cards a reader or the dealer reported, a misread corrected among them: the shoe
        # deals them in the order shown and checks each against the decks as it goes
        shoe = ReportedShoe(decks=decks, reported=shown)
    else:
        shoe = StackedShoe([*shown, *_undealt(shown, decks)], decks=decks)
    spec = game.meter_spec
    unmoved = {spec.name: spec.reset} if spec is not None else {}
    meters = ReplayMeters(records, meters_stood, unmoved=unmoved)
    rebuilt = game.new_round(
        shoe=shoe,
        meters=meters,
        players=players,
        stub_check=stub_check,
    )
    inputs: list[tuple[int, Action]] = []
    position = 0
    while position < len(records):
        action = action_of(records[position])
        if action is None:
            position += 1
            continue
        inputs.append((position, action))
        new = rebuilt.apply(action)
        # where the records the input produced come next in the history, the derived ones
        # among them (a short stub count's irregularity, § 641a.8(f)) are not inputs again
        same = tuple(records[position : position + len(new)]) == new
        position += len(new) if new and same else 1
    return rebuilt, inputs
