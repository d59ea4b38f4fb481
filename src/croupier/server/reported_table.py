"""The dealing of a table of real cards (issue 39, ``[table] cards = "reader"`` or
``"keypad"``): seats as any table's, and each round a fresh
:class:`~croupier.table.reported.ReportedShoe` of the game's decks, whose cards the reader or
the dealer reports as they leave the shoe (:mod:`croupier.server.devices`).

Nothing of the order is known before the deal, so no order is stored and no commitment is
published (``deal`` is ``null`` in the ``round`` event); the round's records are the whole
account of its cards, which the audit rebuilds.  A baccarat table of real cards is dealt the
same way, a shoe per coup: the cut card, the burn and the shoe's markers between coups are the
dealer's at the felt (not yet followed here).
"""

from __future__ import annotations

from croupier.core.errors import IllegalAction
from croupier.core.modes import PlayMode
from croupier.games import Game
from croupier.games.round import Round
from croupier.rules.progressive import MeterBank
from croupier.server.live_tables import ShoePerRound
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import SecureShuffler

__all__ = ["ReportedPerRound"]


class ReportedPerRound(ShoePerRound):
    """Seats, and a shoe of real cards (reported, never shuffled here) for each round."""

    def __init__(self, game: Game, meters: MeterBank, mode: PlayMode = PlayMode.REAL) -> None:
        super().__init__(game, SecureShuffler(), meters, mode)  # the shuffler is never used

    def new_round(self, *, cut_at: int | None = None) -> Round:
        if cut_at is not None:
            raise IllegalAction("the cards of a reader or keypad table are cut at the felt")
        if not self.seats:
            raise IllegalAction("no player is seated to wager")
        shoe = ReportedShoe(decks=self.game.deck_count)
        rnd = self.game.new_round(shoe=shoe, meters=self.meters, players=self.seats, mode=self.mode)
        self.resume(rnd)
        return rnd

    def stack_next(self, cards: object) -> None:
        raise IllegalAction("the cards of a reader or keypad table are real: none is stacked")
