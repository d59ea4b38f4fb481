"""A live baccarat table's dealing shoe: one shoe dealt coup after coup down to its cut card.

:class:`LiveShoe` is the :class:`~croupier.server.live_tables.Dealing` of a game whose tables
deal one shoe over many rounds (``Game.shoe_cut_card``: the baccarat games).  It follows the
engine's procedures (:mod:`croupier.games.baccarat`, as :class:`BaccaratShoe` does offline):

- a new shoe: the game's decks shuffled by the injected shuffler (cut where the dealer gives a
  cut), the first card turned up and as many more burned, the cut card :data:`CUT_CARD` cards
  from the bottom (:func:`open_shoe`; casino practice, the shuffle-and-cut section § 541.5 /
  § 627a.5 is not in the texts at hand);
- each coup deals from where the one before stopped; once the cut card has come out, one more
  coup is dealt and the shoe is done (:func:`stage_after`);
- deferred vigorish is marked by seat (:class:`VigLedger`) and collected before the reshuffle
  and when the player leaves the table (§ 541.13(g); Midibaccarat § 543.13(g)); what the
  player's chips do not cover then is owed at the cage (:meth:`VigLedger.settle`).

Where the shoe stands is a frozen :class:`ShoeState`: the order as shuffled, the nonce of its
commitment, the cards taken, the coups dealt, the cut card's stage and the markers.  The floor
persists it in the transaction of every command that changes it
(:mod:`croupier.server.shoe_floor`), so a restart carries on with the same shoe exactly.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.modes import PlayMode
from croupier.games import Game
from croupier.games.baccarat import (
    CollectReason,
    MarkerCollected,
    ResultAnnounced,
    ShoeStage,
    VigLedger,
    open_shoe,
    stage_after,
)
from croupier.games.records import CardDealt, CardDiscarded, Record
from croupier.games.round import Round
from croupier.rules.progressive import MeterBank
from croupier.server.live_tables import ShoePerRound
from croupier.store.shoes import NONCE_BYTES, commitment
from croupier.table.shoe import Shoe, Shuffler, cut, shoe_cards

__all__ = ["Collected", "LiveShoe", "ShoeState"]

Collected = tuple[str | None, Record]
"""A record of the shoe between coups with the player it concerns (``None``: the table)."""


@dataclass(frozen=True, slots=True)
class ShoeState:
    """Where a table's shoe stands (number 0: no shoe opened yet)."""

    number: int = 0
    order: tuple[Card, ...] = ()
    """The whole shoe, top first, as shuffled (the first card and the burn included)."""
    nonce: str = ""
    taken: int = 0
    """Cards of ``order`` gone before the coup dealing now, or the next one."""
    coups: int = 0
    """Coups finished from this shoe."""
    stage: ShoeStage = ShoeStage.DONE
    markers: tuple[tuple[int, int], ...] = ()
    """Vigorish owed by seat (seat, cents), seats in order."""
    results: tuple[str, ...] = ()
    """Each finished coup's winning hand, in order (``player``, ``banker``, ``tie``; a void
    coup has none): the shoe's bead road and big road on the pages."""

    @property
    def commitment(self) -> str | None:
        return commitment(self.order, self.nonce) if self.order else None

    def owed(self) -> dict[int, int]:
        return dict(self.markers)

    def to_json(self) -> dict[str, Any]:
        """What the ``dealing_shoes`` row keeps beside the order and nonce."""
        return {
            "taken": self.taken,
            "coups": self.coups,
            "stage": self.stage.value,
            "markers": {str(seat): owed for seat, owed in self.markers},
            "results": list(self.results),
        }

    @classmethod
    def parse(cls, *, number: int, order: tuple[Card, ...], nonce: str, data: Any) -> ShoeState:
        """The state a ``dealing_shoes`` row holds (``data``: :meth:`to_json`)."""
        try:
            markers = tuple(sorted((int(s), int(v)) for s, v in data["markers"].items()))
            return cls(
                number=number,
                order=order,
                nonce=nonce,
                taken=int(data["taken"]),
                coups=int(data["coups"]),
                stage=ShoeStage(data["stage"]),
                markers=markers,
                results=tuple(str(r) for r in data.get("results", ())),  # none before issue 40
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InvalidInput(
                f"shoe {number} state {str(data)[:80]} does not decode: {exc}"
            ) from None


def _winner(rnd: Round) -> tuple[str, ...]:
    """The coup's winning hand as the dealer announced it (§ 541.12(a)); none for a void."""
    return tuple(r.winner for r in rnd.records if isinstance(r, ResultAnnounced))


def _markers(owed: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(owed.items()))


class LiveShoe(ShoePerRound):
    """One shoe dealt coup after coup down to its cut card (see the module docstring); the
    seats as :class:`ShoePerRound`'s."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        shuffler: Shuffler,
        meters: MeterBank,
        mode: PlayMode = PlayMode.REAL,
    ) -> None:
        if game.shoe_cut_card is None:
            raise InvalidInput(f"a {game.slug} table does not deal one shoe over many rounds")
        super().__init__(game, shuffler, meters, mode)
        self.table_id = table_id
        self.baccarat = game
        self.cut_card = game.shoe_cut_card
        self._state = ShoeState()
        self._stack: tuple[Card, ...] = ()
        self.opened: tuple[Record, ...] = ()
        """The records of the shoe the last :meth:`new_round` opened (none mid-shoe)."""

    # -- reading -----------------------------------------------------------------------------

    @property
    def state(self) -> ShoeState:
        return self._state

    @property
    def shoe_id(self) -> str | None:
        number = self._state.number
        return f"{self.table_id}-shoe-{number:06d}" if number else None

    def markers(self) -> dict[int, int]:
        """Vigorish owed by seat (the marker buttons on the layout)."""
        return self._state.owed()

    def owed_at_table(self, player: str) -> int:
        """The markers at the seats ``player`` holds."""
        owed = self._state.owed()
        return sum(owed.get(s, 0) for s, p in self._seats.items() if p == player)

    def cards_left(self) -> int:
        """Cards in the shoe now (the coup in play's counted)."""
        state, rnd = self._state, self._current
        if not state.order:
            return 0
        dealing = rnd is not None and not rnd.is_over
        return len(state.order) - state.taken - (_shown(rnd) if dealing and rnd else 0)

    # -- the command's bookkeeping -----------------------------------------------------------

    def memento(self) -> Any:
        return super().memento(), self._state, self._stack, self.opened

    def restore(self, memento: Any) -> None:
        base, self._state, self._stack, self.opened = memento
        super().restore(base)

    def restore_state(self, state: ShoeState) -> None:
        """Carry on with ``state`` (as persisted: a restart)."""
        self._state = state

    # -- dealing -----------------------------------------------------------------------------

    def new_round(self, *, cut_at: int | None = None) -> Round:
        """The next coup, from the shoe where the last one stopped; a new shoe first (shuffled,
        cut at ``cut_at`` where given, burned) when the last one is done."""
        if not self._seats:
            raise IllegalAction("no player is seated to wager")
        state = self._state
        opened: tuple[Record, ...] = ()
        if state.stage is ShoeStage.DONE:
            state, opened = self._open(cut_at)
        elif cut_at is not None:
            raise IllegalAction(
                f"shoe {self.shoe_id} is dealt down to its cut card: it is cut once, when it is "
                f"opened (coup {state.coups + 1} of it is next)"
            )
        if self._stack:
            state = _stacked(state, self._stack)
        shoe = Shoe(state.order, decks=self.baccarat.shoe_decks, cut_card=self.cut_card)
        shoe.burn(state.taken)
        rnd = self.game.new_round(
            shoe=shoe, meters=self.meters, players=self._seats, mode=self.mode
        )
        self._state, self._stack, self.opened, self._current = state, (), opened, rnd
        return rnd

    def _open(self, cut_at: int | None) -> tuple[ShoeState, tuple[Record, ...]]:
        decks = self.baccarat.shoe_decks
        order = tuple(self.shuffler.shuffle(shoe_cards(decks)))
        if cut_at is not None:
            order = cut(order, cut_at)
        shoe, opened = open_shoe(order, decks=decks, cut_card=self.cut_card)
        state = ShoeState(
            number=self._state.number + 1,
            order=order,
            nonce=secrets.token_hex(NONCE_BYTES),
            taken=len(shoe.burned),
            stage=ShoeStage.DEALING,
            markers=self._state.markers,
        )
        return state, (opened,)

    def stack_next(self, cards: Sequence[Card]) -> None:
        """Training tables only (contract 2): ``cards``, top first, are what the next coup deals
        first: taken from the rest of the shoe and put on top of it (a new shoe: after its
        burn), so no card is dealt more often than the shoe's decks hold it.  The order
        changes, so the coup gets a commitment of its own."""
        if self.mode is not PlayMode.TRAINING:
            raise IllegalAction(
                f"table {self.table_id} is not a training table: its shoe is never stacked"
            )
        if isinstance(cards, str) or not all(isinstance(c, Card) for c in cards):
            raise InvalidInput(f"stacked cards {str(cards)[:80]!r} are not a sequence of cards")
        stack = tuple(cards)
        if self._state.stage is not ShoeStage.DONE:
            _stacked(self._state, stack)  # refused now if the shoe does not hold them
        elif any(stack.count(c) > self.baccarat.shoe_decks for c in set(stack)):
            raise IllegalAction(
                f"stacked cards {' '.join(map(str, stack))} hold a card more often than the "
                f"{self.baccarat.shoe_decks}-deck shoe"
            )
        self._stack = stack

    # -- between coups -----------------------------------------------------------------------

    def coup_over(self, rnd: Round, chips: Mapping[str, int]) -> tuple[Collected, ...]:
        """The coup ``rnd`` is over: its markers are placed, the shoe moves past its cards and,
        when the shoe is done, every marker is collected from the players' ``chips`` (player
        -> cents) before the reshuffle (§ 541.13(g)).  The records, with their players."""
        if not rnd.is_over:
            raise IllegalAction(f"the coup is still {rnd.phase.value}")
        state = self._state
        ledger = VigLedger.of(self.baccarat, state.owed())
        ledger.record(rnd)
        taken = state.taken + _shown(rnd)
        stage, new = stage_after(
            state.stage, cards_left=len(state.order) - taken, cut_card=self.cut_card
        )
        out: list[Collected] = [(None, rec) for rec in new]
        if stage is ShoeStage.DONE:
            left = dict(chips)
            for seat in sorted(ledger.markers(), reverse=True):
                player = self._seats.get(seat) or rnd.players.get(seat)
                if player is None:
                    raise IllegalAction(f"the marker at seat {seat} belongs to no player")
                out += self._settle(ledger, seat, player, left, CollectReason.RESHUFFLE)
        self._state = replace(
            state,
            taken=taken,
            coups=state.coups + 1,
            stage=stage,
            markers=_markers(ledger.markers()),
            results=state.results + _winner(rnd),
        )
        return tuple(out)

    def settle_leaving(self, player: str, chips: int) -> tuple[Collected, ...]:
        """``player`` leaves the table: the markers at their seats are collected from their
        ``chips`` (§ 541.13(g)), what the chips do not cover owed at the cage."""
        ledger = VigLedger.of(self.baccarat, self._state.owed())
        left = {player: chips}
        out: list[Collected] = []
        mine = sorted((s for s, p in self._seats.items() if p == player), reverse=True)
        for seat in mine:
            if ledger.owed(seat):
                out += self._settle(ledger, seat, player, left, CollectReason.PLAYER_LEAVES)
        self._state = replace(self._state, markers=_markers(ledger.markers()))
        return tuple(out)

    @staticmethod
    def _settle(
        ledger: VigLedger, seat: int, player: str, left: dict[str, int], reason: CollectReason
    ) -> list[Collected]:
        done = ledger.settle(seat, reason=reason, chips=max(0, left.get(player, 0)))
        for rec in done:
            if isinstance(rec, MarkerCollected):
                left[player] = left.get(player, 0) - rec.amount
        return [(player, rec) for rec in done]


def _shown(rnd: Round) -> int:
    """Cards the coup took from the shoe: each is dealt or discarded, on the record."""
    return sum(isinstance(r, CardDealt | CardDiscarded) for r in rnd.records)


def _stacked(state: ShoeState, cards: tuple[Card, ...]) -> ShoeState:
    """``state`` with ``cards`` taken from the rest of the shoe and put on its top, under a
    fresh nonce (a new order: a new commitment)."""
    rest = list(state.order[state.taken :])
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            raise IllegalAction(
                f"card {card} is not left in the shoe to stack ({len(rest)} cards remain "
                "after the cards stacked before it)"
            ) from None
    order = state.order[: state.taken] + cards + tuple(rest)
    return replace(state, order=order, nonce=secrets.token_hex(NONCE_BYTES))
