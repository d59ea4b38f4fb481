"""Baccarat family par sheet: every wager exact over every coup of the shoe.

The coups come from :func:`croupier.analysis.baccarat_exact.coups` (by card composition, weights
in ordered six-card sequences).  Banker: 1 to 1 less the commission (at the exact rate; the
rounding of § 541.13(f) to 5 cents depends on the stake and is left out), or, under the tie
vigorish of § 541.13(h), 25% of the wager lost on a tie; on EZ tables a Dragon 7 pushes the
Banker and loses the Player (§ 541.8(a)).  Ties push Banker and Player.  Tie, Dragon 7 and
Dragon Bonus are paid by the tables the Rules Submission names.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from croupier.analysis.baccarat_exact import Coup, coups
from croupier.analysis.par import Outcome, ParSheet, WagerSheet, merge_outcomes
from croupier.games._baccarat_tables import DRAGON_7
from croupier.games.baccarat import BaccaratGame
from croupier.games.paytables import PayTable

__all__ = ["par_baccarat"]


def _dragon_7(c: Coup) -> bool:
    return c.banker == 7 and c.banker_cards == 3 and c.player < 7


def _winner(c: Coup) -> str:
    return "banker" if c.banker > c.player else "player" if c.player > c.banker else "tie"


def _sheet(
    wager: str, table: str | None, all_coups: dict[Coup, int], rule: Callable[[Coup], Outcome]
) -> WagerSheet:
    rows = []
    for coup, weight in all_coups.items():
        o = rule(coup)
        rows.append(Outcome(name=o.name, net=o.net, pays=o.pays, weight=weight))
    return WagerSheet(wager=wager, paytable=table, outcomes=merge_outcomes(rows))


def _margin_key(mine: int, theirs: int, my_two: int, their_two: int, cards: int) -> str:
    natural = cards == 2 and my_two >= 8
    if mine > theirs:
        return "natural_win" if natural else f"win_by_{mine - theirs}"
    if mine == theirs:
        return "natural_tie" if natural and their_two >= 8 else "tie"
    return "lose"


def _dragon_bonus(table: PayTable, side: str) -> Callable[[Coup], Outcome]:
    def rule(c: Coup) -> Outcome:
        if side == "banker":
            key = _margin_key(c.banker, c.player, c.banker_two, c.player_two, c.banker_cards)
        else:
            key = _margin_key(c.player, c.banker, c.player_two, c.banker_two, c.player_cards)
        line = table.line_for({key})
        if line is not None and line.odds is not None:
            return Outcome(name=key, net=line.odds.net, weight=0, pays=str(line.odds))
        if key == "natural_tie":
            return Outcome(name=key, net=Fraction(0), weight=0, pays="push")
        return Outcome(name="lose" if key != "tie" else "tie", net=Fraction(-1), weight=0, pays="-")

    return rule


def par_baccarat(game: BaccaratGame) -> ParSheet:
    all_coups = dict(coups(game.shoe_decks))
    vig = game.vig
    ez = game.ez

    def banker(c: Coup) -> Outcome:
        w = _winner(c)
        if ez and _dragon_7(c):
            return Outcome(name="dragon_7 (push)", net=Fraction(0), weight=0, pays="push")
        if w == "tie":
            if vig.type == "tie":
                return Outcome(name="tie (25% vig)", net=-vig.rate, weight=0, pays="-25%")
            return Outcome(name="tie", net=Fraction(0), weight=0, pays="push")
        if w == "banker":
            rate = vig.rate if vig.type == "commission" else Fraction(0)
            return Outcome(name="banker wins", net=1 - rate, weight=0, pays=f"1 to 1 less {rate}")
        return Outcome(name="player wins", net=Fraction(-1), weight=0, pays="-")

    def player(c: Coup) -> Outcome:
        w = _winner(c)
        if ez and _dragon_7(c):
            return Outcome(name="dragon_7 (loses)", net=Fraction(-1), weight=0, pays="-")
        if w == "tie":
            return Outcome(name="tie", net=Fraction(0), weight=0, pays="push")
        if w == "player":
            return Outcome(name="player wins", net=Fraction(1), weight=0, pays="1 to 1")
        return Outcome(name="banker wins", net=Fraction(-1), weight=0, pays="-")

    vig_name = "none" if vig.type == "none" else f"{vig.type} {vig.rate}"
    wagers: dict[str, WagerSheet] = {
        "banker": _sheet("banker", f"vig {vig_name}", all_coups, banker),
        "player": _sheet("player", None, all_coups, player),
    }
    tie_table = game.paytable("tie")
    if tie_table is not None and tie_table.lines[0].odds is not None:
        tie_odds = tie_table.lines[0].odds

        def tie(c: Coup) -> Outcome:
            if _winner(c) == "tie":
                return Outcome(name="tie", net=tie_odds.net, weight=0, pays=str(tie_odds))
            return Outcome(name="no tie", net=Fraction(-1), weight=0, pays="-")

        wagers["tie"] = _sheet("tie", tie_table.letter, all_coups, tie)
    if "dragon_7" in game.offered_wagers():
        d7 = game.paytable("dragon_7") or DRAGON_7  # § 541.13(e): 40 to 1
        odds = d7.lines[0].odds
        if odds is not None:
            d7_odds = odds

            def dragon(c: Coup) -> Outcome:
                if _dragon_7(c):
                    return Outcome(name="dragon_7", net=d7_odds.net, weight=0, pays=str(d7_odds))
                return Outcome(name="no dragon_7", net=Fraction(-1), weight=0, pays="-")

            wagers["dragon_7"] = _sheet("dragon_7", None, all_coups, dragon)
    for side in ("banker", "player"):
        table = game.paytable(f"dragon_bonus_{side}")
        if table is not None:
            wagers[f"dragon_bonus_{side}"] = _sheet(
                f"dragon_bonus_{side}", table.letter, all_coups, _dragon_bonus(table, side)
            )
    return ParSheet(
        game=game.slug,
        method="exact",
        base=None,
        wagers=wagers,
        notes=(
            f"every coup of a {game.shoe_decks}-deck shoe, weighted by ordered six-card "
            "sequences; ties push Banker and Player",
        ),
    )
