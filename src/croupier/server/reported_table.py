"""The dealing of a table of real cards (issue 39, ``[table] cards = "reader"`` or
``"keypad"``): seats as any table's, and each round a fresh
:class:`~croupier.table.reported.ReportedShoe` of the game's decks, whose cards the reader or
the dealer reports as they leave the shoe (:mod:`croupier.server.devices`).

The stub is counted at least once every 5 rounds where no counting shuffler is used
(§ 641a.8(f), § 641a.9(d), § 641a.10(d) and each chapter's parallel: the game's
``table_regs``), at a table of real cards as at any other: the round that would be the fifth
without a count has the ``stub_count`` phase, which the dealer's count (``CountStub``) or the
reader's ``stub`` message (``ReportStub``) ends.  A stub reported in any round is a count and
starts the five again.  After a restart the rounds since the last count are not known, so the
table's first round counts the stub (the house's reading: never more than five uncounted).

Nothing of the order is known before the deal, so no order is stored and no commitment is
published (``deal`` is ``null`` in the ``round`` event); the round's records are the whole
account of its cards, which the audit rebuilds.

A baccarat table of real cards deals one shoe coup after coup (:class:`ReportedAcrossCoups`):
each coup's shoe carries the cards gone in the shoe's earlier coups, so a card reported more
often than the shoe's decks hold is an irregularity across coups as within one.  The reader's
``shoe`` message (or the dealer's) says the shoe was changed, naming the first card turned up
when it was opened: that card is seen and as many more are burned face down, unseen (casino
practice, as :func:`croupier.games.baccarat.open_shoe`).  The floor keeps the shoe's cards in
its ``dealing_shoes`` row (:mod:`croupier.server.shoe_floor`); the cut card and the markers stay
the dealer's at the felt.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction
from croupier.core.modes import PlayMode
from croupier.core.shapes import ShuffleMethod
from croupier.games import Game
from croupier.games.records import StubCounted
from croupier.games.reported_cards import CarryShoe, StubReported
from croupier.games.round import Round, StubCheck
from croupier.hands.baccarat import card_value
from croupier.rules.progressive import MeterBank
from croupier.server.live_tables import ShoePerRound
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import SecureShuffler

__all__ = ["ReportedAcrossCoups", "ReportedPerRound", "ReportedShoeState"]

Seated = tuple[dict[int, str], Round | None, tuple[Card, ...]]
""":meth:`ShoePerRound.memento`: the seats, the round, the cards stacked."""


class ReportedPerRound(ShoePerRound):
    """Seats, and a shoe of real cards (reported, never shuffled here) for each round; the
    stub counted every fifth round (module docstring)."""

    def __init__(self, game: Game, meters: MeterBank, mode: PlayMode = PlayMode.REAL) -> None:
        super().__init__(game, SecureShuffler(), meters, mode)  # the shuffler is never used
        self._uncounted: int | None = 0
        """Rounds begun since the stub was last counted (``None``: not known, after a
        restart)."""

    def history_unknown(self) -> None:
        """The table played rounds before the server started: when its stub was last counted
        is not known here, so the next round counts it."""
        self._uncounted = None

    @property
    def stub_rounds(self) -> int | None:
        """The most rounds between stub counts at this table (``None``: never due: a counting
        shuffler, or a game whose chapter sets no stub count)."""
        regs = self.game.table_regs
        if regs is None or self.game.rules.table.shuffle is ShuffleMethod.COUNTING:
            return None
        return regs.stub_rounds

    def _stub_check(self) -> StubCheck:
        last, every = self._current, self.stub_rounds
        if last is not None:
            if any(isinstance(r, StubCounted | StubReported) for r in last.records):
                self._uncounted = 0
            elif self._uncounted is not None:
                self._uncounted += 1
        if every is None:
            return StubCheck.NOT_REQUIRED
        # § 641a.8(f) and its parallels: this round would be the fifth without a count
        due = self._uncounted is None or self._uncounted + 1 >= every
        return StubCheck.REQUIRED if due else StubCheck.NOT_REQUIRED

    # The rounds since the count are kept with the seats (Dealing's memento is the table's
    # own: ShoePerRound's three-tuple, with this count beside it here).
    def memento(self) -> tuple[Seated, int | None]:  # type: ignore[override]
        return super().memento(), self._uncounted

    def restore(self, memento: tuple[Seated, int | None]) -> None:  # type: ignore[override]
        dealing, self._uncounted = memento
        super().restore(dealing)

    def new_round(self, *, cut_at: int | None = None) -> Round:
        if cut_at is not None:
            raise IllegalAction("the cards of a reader or keypad table are cut at the felt")
        if not self.seats:
            raise IllegalAction("no player is seated to wager")
        shoe = ReportedShoe(decks=self.game.deck_count)
        stub = self._stub_check()
        rnd = self.game.new_round(
            shoe=shoe, meters=self.meters, players=self.seats, stub_check=stub, mode=self.mode
        )
        self.resume(rnd)
        return rnd

    def stack_next(self, cards: object) -> None:
        raise IllegalAction("the cards of a reader or keypad table are real: none is stacked")


@dataclass(frozen=True, slots=True)
class ReportedShoeState:
    """Where a baccarat shoe of real cards stands between coups (number 0: the table's first
    shoe, never reported opened)."""

    number: int = 0
    gone: tuple[Card, ...] = ()
    """The cards seen leaving the shoe in its finished coups (the first card turned up
    first)."""
    burned: int = 0
    """Cards burned face down when the shoe was opened (unseen)."""
    coups: int = 0


def _shoe_of(rnd: Round) -> ReportedShoe | None:
    shoe = rnd._deal.shoe  # the table's own dealing reads the shoe its round deals from
    return shoe if isinstance(shoe, ReportedShoe) else None


class ReportedAcrossCoups(ReportedPerRound):
    """A baccarat table of real cards: one shoe of the game's decks coup after coup, each coup
    carrying the cards gone before it (:class:`CarryShoe`, on the coup's record: the replay
    after a crash and the audit's rebuild count them as the coup did; module docstring)."""

    def __init__(self, game: Game, meters: MeterBank, mode: PlayMode = PlayMode.REAL) -> None:
        super().__init__(game, meters, mode)
        self._shoe = ReportedShoeState()

    @property
    def state(self) -> ReportedShoeState:
        return self._shoe

    def restore_state(self, state: ReportedShoeState) -> None:
        """Carry on with ``state`` (as persisted: a restart, a shoe changed)."""
        self._shoe = state

    def memento(self) -> tuple[tuple[Seated, int | None], ReportedShoeState]:  # type: ignore[override]
        return super().memento(), self._shoe

    def restore(self, memento: tuple[tuple[Seated, int | None], ReportedShoeState]) -> None:  # type: ignore[override]
        base, self._shoe = memento
        super().restore(base)

    def carried(self) -> CarryShoe | None:
        """The action a coup beginning now deals on with (``None``: a full shoe)."""
        state = self._shoe
        if not state.gone and not state.burned:
            return None
        return CarryShoe(gone=state.gone, burned=state.burned)

    def new_round(self, *, cut_at: int | None = None) -> Round:
        rnd = super().new_round(cut_at=cut_at)
        carry = self.carried()
        if carry is not None:
            rnd.apply(carry)
        return rnd

    def coup_over(self, rnd: Round) -> ReportedShoeState:
        """The coup ``rnd`` is over (or void): its cards are gone from the shoe."""
        shoe = _shoe_of(rnd)
        if shoe is None:
            raise IllegalAction("the coup does not deal from a shoe of real cards")
        state = self._shoe
        self._shoe = replace(
            state, gone=state.gone + shoe.dealt + shoe.burned, coups=state.coups + 1
        )
        return self._shoe

    def opened(self, first: Card) -> ReportedShoeState:
        """The shoe the dealer opens now, ``first`` turned up and as many more burned as its
        value (ten for a ten or a picture card; casino practice, as
        :func:`croupier.games.baccarat.open_shoe`); the table's state unchanged."""
        burned = card_value(first) or 10
        return ReportedShoeState(number=self._shoe.number + 1, gone=(first,), burned=burned)
