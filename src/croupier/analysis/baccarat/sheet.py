"""Baccarat family par sheet: every wager exact over every coup of the shoe.

The coups come from :func:`croupier.analysis.baccarat.exact.coups` (by card composition, weights
in ordered six-card sequences); each wager is settled on each coup by the game's own settlement,
:func:`croupier.games.baccarat.wager_pay` (the vigorish at its exact rate: the rounding of
§ 541.13(f) to 5 cents depends on the stake and is left out).  Tie, Dragon 7 and Dragon Bonus
are paid by the tables the Rules Submission names.

:data:`CLASS_COUPS` and :func:`class_nets` give the Monte Carlo kernel its nets per result class
(:data:`croupier.analysis.baccarat.montecarlo.BACCARAT_CLASSES`) from the same settlement.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from croupier.analysis.baccarat.exact import coups
from croupier.analysis.par import Outcome, ParSheet, WagerSheet, merge_outcomes
from croupier.games.baccarat import (
    BANKER,
    PLAYER,
    BaccaratGame,
    Coup,
    WagerPay,
    wager_settlement,
)
from croupier.games.records import Result

__all__ = ["CLASS_COUPS", "class_nets", "coup_class", "par_baccarat", "wager_outcome"]

CLASS_COUPS = (
    Coup(player=0, banker=9, player_cards=2, banker_cards=2, player_two=0, banker_two=9),
    Coup(player=6, banker=7, player_cards=2, banker_cards=3, player_two=6, banker_two=3),
    Coup(player=9, banker=0, player_cards=2, banker_cards=2, player_two=9, banker_two=0),
    Coup(player=5, banker=5, player_cards=3, banker_cards=3, player_two=2, banker_two=1),
)
"""One coup of each class the Monte Carlo kernel counts, in the order of its classes: the
Banker's Hand wins (not a Dragon 7), a Dragon 7, the Player's Hand wins, a tie.  The Banker and
Player wagers settle alike on every coup of a class (the test checks every coup)."""

_LOSING = {"tie": "no tie", "dragon_7": "no dragon_7"}


def wager_outcome(wager: str, pay: WagerPay) -> Outcome:
    """The par-sheet row of one settlement of ``wager`` (weight 0: the caller weighs it)."""
    if pay.result is Result.WIN:
        assert pay.odds is not None
        pays = f"1 to 1 less {pay.vig}" if wager == BANKER else str(pay.odds)
        name = pay.line.replace("_wins", " wins")
    elif pay.result is Result.PUSH:
        pct = pay.vig * 100
        pays = f"-{pct}%" if pay.vig else "push"
        name = f"tie ({pct}% vig)" if pay.vig else pay.line
        name = "dragon_7 (push)" if pay.line == "dragon_7" else name
    else:
        pays = "-"
        if wager in _LOSING:
            name = _LOSING[wager]
        elif wager not in (BANKER, PLAYER):
            name = "tie" if pay.line == "tie" else "lose"  # the Dragon Bonus
        else:
            name = "dragon_7 (loses)" if pay.line == "dragon_7" else pay.line.replace("_", " ")
    return Outcome(name=name, net=pay.net, weight=0, pays=pays)


def _sheet(game: BaccaratGame, wager: str, table: str | None) -> WagerSheet:
    settle = wager_settlement(game, wager)
    # for one wager at one table the line settles alike wherever it is reached
    pays: dict[tuple[Result, str], tuple[WagerPay, int]] = {}
    for coup, weight in coups(game.shoe_decks).items():
        pay = settle(coup)
        seen = pays.get((pay.result, pay.line))
        pays[pay.result, pay.line] = (pay, weight + (seen[1] if seen else 0))
    rows = [replace(wager_outcome(wager, pay), weight=weight) for pay, weight in pays.values()]
    return WagerSheet(wager=wager, paytable=table, outcomes=merge_outcomes(rows))


def coup_class(coup: Coup) -> int:
    """The Monte Carlo result class of ``coup``: its index in :data:`CLASS_COUPS`."""
    if coup.winner == BANKER:
        return 1 if coup.dragon_7 else 0
    return 2 if coup.winner == PLAYER else 3


def class_nets(game: BaccaratGame, wager: str) -> list[Fraction]:
    """The net of ``wager`` (banker or player) per Monte Carlo result class at ``game``'s
    table, per unit staked."""
    settle = wager_settlement(game, wager)
    return [settle(coup).net for coup in CLASS_COUPS]


def par_baccarat(game: BaccaratGame) -> ParSheet:
    vig = game.vig
    vig_name = "none" if vig.type == "none" else f"{vig.type} {vig.rate}"
    wagers: dict[str, WagerSheet] = {
        BANKER: _sheet(game, BANKER, f"vig {vig_name}"),
        PLAYER: _sheet(game, PLAYER, None),
    }
    tie_table = game.paytable("tie")
    if tie_table is not None:
        wagers["tie"] = _sheet(game, "tie", tie_table.letter)
    if "dragon_7" in game.offered_wagers():
        wagers["dragon_7"] = _sheet(game, "dragon_7", None)
    for side in (BANKER, PLAYER):
        table = game.paytable(f"dragon_bonus_{side}")
        if table is not None:
            wagers[f"dragon_bonus_{side}"] = _sheet(game, f"dragon_bonus_{side}", table.letter)
    return ParSheet(
        game=game.slug,
        method="exact",
        base=None,
        wagers=wagers,
        notes=(
            f"every coup of the {game.shoe_decks}-deck shoe, weighted by ordered six-card "
            "sequences; ties push Banker and Player",
        ),
    )


def baccarat_strategy_text(game: BaccaratGame) -> str:
    """The readable strategy of a baccarat game: there is none to choose."""
    return (
        f"{game.title}: the player makes no decision after the wagers; the Player's and "
        "Banker's third cards follow the fixed rules of § 631a.11 and Table 1 "
        "(`croupier par` prices every wager)."
    )
