"""The shared rules of a wager placed before the cards (a
:class:`~croupier.games.records.PlaceWager`).

:func:`verify_place_wager` is the one check of every game's wagers: the phase, the seat, the
wager and its amount, the posted limits (and a wager it must equal can match it within
them, :mod:`croupier.games.limits`); then the game's own rules (``_verify_wager``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.errors import IllegalAction, InvalidInput, shown_value
from croupier.games.limits import verify_equal_wagers
from croupier.games.records import PlaceWager
from croupier.games.states import Phase
from croupier.money import MAX_WAGER, verify_amount

if TYPE_CHECKING:
    from croupier.games.round import Round

__all__ = ["verify_place_wager"]


def verify_place_wager(rnd: Round, action: PlaceWager) -> None:
    """Raise the typed error that refuses ``action`` in ``rnd`` now; return if it is allowed."""
    amount = action.amount
    if type(amount) is not int or amount <= 0:  # refused there (or an int subclass taken)
        amount = verify_amount(amount, what=f"{action.wager} wager")
    if amount > MAX_WAGER:
        # not a rule of the regulations: the largest wager whose every win croupier can record
        # exactly (croupier.money.MAX_WAGER); a table posts its own maximum below it
        raise InvalidInput(
            f"{action.wager} wager of {shown_value(amount)} cents at seat {action.seat} is above "
            f"{MAX_WAGER:,} cents, the largest wager croupier accepts"
        )
    if rnd._phase is not Phase.BETTING:
        raise IllegalAction(
            f"{action.wager} wager of {amount} cents at seat {action.seat} refused: "
            f'"no more bets" has been called (phase {rnd._phase.value})',
            section=rnd.sections.get("no_more_bets"),
        )
    if action.seat not in rnd._players:
        raise IllegalAction(
            f"seat {action.seat!r} has no seated player; only seated players may wager",
            section=rnd.sections.get("seated"),
        )
    game = rnd.game
    if action.wager not in game.offered_set and action.wager not in game.wagers:
        raise InvalidInput(
            f"wager {action.wager!r} is not a {game.slug} wager (wagers: {', '.join(game.wagers)})"
        )
    if action.wager not in game.offered_set:
        raise IllegalAction(
            f"the {action.wager} wager is not offered by this table's Rules Submission"
        )
    if action.wager in rnd._stakes.get(action.seat, {}):
        raise IllegalAction(
            f"seat {action.seat} already has a {action.wager} wager; a wager is placed once",
        )
    if action.wager == "progressive":
        prog = game.rules.progressive
        assert prog is not None
        if amount != prog.wager:
            raise IllegalAction(
                f"progressive wager {amount} cents at seat {action.seat} must be "
                f"{prog.wager} cents",
                section=game.progressive_wager_amounts[1] or None,
            )
    if game.rules.limits:
        game.verify_limit(action.seat, action.wager, amount)  # the posted [limits]
        if game.equal_wagers:  # a wager it must equal can be matched within its limits
            placed = rnd._stakes.get(action.seat, {})
            verify_equal_wagers(game, placed, action.seat, action.wager, amount)
    rnd._verify_wager(action.seat, action.wager, amount)
