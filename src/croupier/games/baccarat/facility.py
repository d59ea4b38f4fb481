"""One baccarat table's dealing shoe over many rounds (:class:`BaccaratShoe`): open, deal rounds
down to the cut card, collect the deferred vigorish, reshuffle.  Re-exported by
:mod:`croupier.games.baccarat`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.baccarat.markers import CollectReason, MarkerCollected, VigLedger
from croupier.games.baccarat.paytables import CutCardOut, ShoeOpened
from croupier.games.records import Record
from croupier.hands.baccarat import card_value
from croupier.rules.progressive import MeterBank
from croupier.table.shoe import Shoe, Shuffler, shoe_cards

if TYPE_CHECKING:
    from croupier.games.baccarat.game import BaccaratGame, BaccaratRound
    from croupier.games.base import Round

__all__ = ["CUT_CARD", "BaccaratShoe", "ShoeStage", "open_shoe", "stage_after"]

CUT_CARD = 16
"""Cards under the cut card: casino practice (a player guide places it 16 cards from the bottom;
the shuffle-and-cut section, § 541.5 / § 627a.5, is not in the texts at hand)."""

OPENING_NOTE = "casino practice: the first card turned up, as many more burned"


class ShoeStage(StrEnum):
    """Where a shoe stands between rounds."""

    DEALING = "dealing"
    LAST_ROUND = "last_round"
    """The cut card came out: one more round (casino practice)."""
    DONE = "done"
    """The shoe is finished: the markers are collected and the cards reshuffled."""


def open_shoe(order: Sequence[Card], *, decks: int, cut_card: int) -> tuple[Shoe, ShoeOpened]:
    """A new shoe of ``decks`` full decks in ``order`` (top first), the cut card ``cut_card``
    cards from the bottom: the first card turned up and as many more burned as its value (ten
    for a ten or a picture card), casino practice; the shoe and its record."""
    shoe = Shoe(order, decks=decks, cut_card=cut_card)
    first = shoe.burn(1)[0]
    value = card_value(first) or 10
    shoe.burn(value)
    opened = ShoeOpened(
        decks=decks, first_card=first, burned=value, cut_card=cut_card, note=OPENING_NOTE
    )
    return shoe, opened


def stage_after(
    stage: ShoeStage, *, cards_left: int, cut_card: int
) -> tuple[ShoeStage, tuple[Record, ...]]:
    """The stage once a round dealt from a shoe at ``stage`` is over, ``cards_left`` in the
    shoe: the round after the cut card came out is the last (casino practice)."""
    if stage is ShoeStage.LAST_ROUND:
        return ShoeStage.DONE, ()
    if stage is ShoeStage.DEALING and cards_left <= cut_card:
        return ShoeStage.LAST_ROUND, (CutCardOut(rounds_left=1),)
    return stage, ()


class BaccaratShoe:
    """One table's dealing shoe over many rounds: open, deal rounds, reshuffle.

    The shuffle-and-cut sections (§ 541.5 / § 627a.5) are not in the texts at hand; this follows
    casino practice (player guides in ../shared/regs/baccarat.md and the stored pages): the
    decks are shuffled together, the cut card goes :data:`CUT_CARD` cards from the bottom, the
    first card is turned up and as many more cards burned as its value (ten for a ten or a
    picture card).  When the cut card comes out the round is completed, one more round is dealt,
    and the shoe is done.  Deferred vigorish is collected before the reshuffle (§ 541.13(g)).
    """

    def __init__(
        self,
        game: BaccaratGame,
        shuffler: Shuffler,
        *,
        cut_card: int = CUT_CARD,
        ledger: VigLedger | None = None,
    ) -> None:
        total = 52 * game.shoe_decks
        if isinstance(cut_card, bool) or not isinstance(cut_card, int) or not 6 <= cut_card < total:
            raise InvalidInput(
                f"cut card {cut_card!r} cards from the bottom: at least 6 (one full round) and "
                f"within the {total}-card shoe"
            )
        self.game = game
        self.shuffler = shuffler
        self.cut_card = cut_card
        self.ledger = ledger if ledger is not None else VigLedger(game)
        self.shoe: Shoe | None = None
        self.records: list[Record] = []
        self.rounds = 0
        self._current: BaccaratRound | None = None
        self._stage = ShoeStage.DONE

    @property
    def done(self) -> bool:
        """Whether the shoe is finished (or not yet opened): reshuffle before the next round."""
        return self._stage is ShoeStage.DONE

    def reshuffle(self) -> tuple[Record, ...]:
        """Collect every marker (§ 541.13(g)), then shuffle and burn a new shoe."""
        if self._current is not None:
            raise IllegalAction("the round in progress must finish before the reshuffle")
        new: list[Record] = list(self.ledger.collect_all(reason=CollectReason.RESHUFFLE))
        cards = self.shuffler.shuffle(shoe_cards(self.game.shoe_decks))
        shoe, opened = open_shoe(cards, decks=self.game.shoe_decks, cut_card=self.cut_card)
        new.append(opened)
        self.shoe = shoe
        self.rounds = 0
        self._stage = ShoeStage.DEALING
        self.records += new
        return tuple(new)

    def new_round(
        self,
        *,
        players: Mapping[int, str] | None = None,
        meters: MeterBank | None = None,
    ) -> BaccaratRound:
        if self._stage is ShoeStage.DONE or self.shoe is None:
            raise IllegalAction("the shoe is done: reshuffle before the next round")
        if self._current is not None:
            raise IllegalAction("the round in progress must finish before the next one")
        from croupier.games.baccarat.game import BaccaratRound  # the game module imports this one

        rnd = self.game.new_round(shoe=self.shoe, players=players, meters=meters)
        assert isinstance(rnd, BaccaratRound)
        self._current = rnd
        return rnd

    def finish(self, rnd: Round) -> tuple[Record, ...]:
        """Close a finished round: its markers go to the ledger; the cut card is checked."""
        if rnd is not self._current:
            raise IllegalAction("that round was not dealt from this shoe now")
        self.ledger.record(rnd)
        self._current = None
        self.rounds += 1
        assert self.shoe is not None
        self._stage, new = stage_after(
            self._stage, cards_left=len(self.shoe), cut_card=self.cut_card
        )
        self.records += new
        return new

    def leave(self, seat: int) -> MarkerCollected | None:
        """A player leaves the table: the seat's vigorish marker is collected (§ 541.13(g))."""
        if self.ledger.owed(seat) == 0:
            return None
        rec = self.ledger.collect(seat, reason=CollectReason.PLAYER_LEAVES)
        self.records.append(rec)
        return rec
