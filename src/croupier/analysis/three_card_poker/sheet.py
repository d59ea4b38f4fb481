"""Three Card Poker par sheet: Ante/Play with the optimal strategy, Pair Plus, Six Card Bonus and
the progressive, exact.

Ante/Play: every player hand (by suit class, weighted) against every dealer hand of the 49 cards
left (:mod:`croupier.analysis.three_card_poker.solver`).  Pair Plus: every three-card hand.  Six
Card Bonus:
the player's three and the dealer's three cards are a uniformly random six-card set, so the
wager has the best-of-six distribution over all C(52, 6) sets.  The fold that forfeits Pair Plus
(§ 649a.11(b)(1) per the digest) never meets a winning Pair Plus under the optimal strategy,
which plays every pair or better, so the wagers' sheets are independent.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import numpy as np

from croupier.analysis import decided
from croupier.analysis.par import ParSheet, WagerSheet
from croupier.analysis.sidebets import category_keys, wager_sheet
from croupier.analysis.three_card_poker.solver import solve_three_card
from croupier.core.progress import Task
from croupier.games.pov import seat_cards
from croupier.games.records import Action
from croupier.games.round import Round
from croupier.games.three_card_poker import ThreeCardPoker, hand_keys
from croupier.hands import Ranking

__all__ = ["par_three_card_poker", "three_card_strategy", "three_card_strategy_text"]

_NAMES = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}


def _show(ranks: tuple[int, ...]) -> str:
    return "-".join(_NAMES.get(r, str(r)) for r in ranks)


def par_three_card_poker(game: ThreeCardPoker) -> ParSheet:
    with Task(4, "three card poker: every deal, every wager") as task:
        return _par(game, task)


def _par(game: ThreeCardPoker, task: Task) -> ParSheet:
    solved = solve_three_card(game.paytable("ante_bonus"))
    shown = _show(solved.play_threshold)
    base = WagerSheet(
        wager="base",
        outcomes=solved.outcomes,
        paytable=getattr(game.paytable("ante_bonus"), "letter", None),
        notes=(f"optimal strategy: play {shown} or better (by suit class, card removal exact)",),
    )
    task.update()
    wagers: dict[str, WagerSheet] = {}
    pair_plus = game.paytable("pair_plus")
    if pair_plus is not None:
        wagers["pair_plus"] = wager_sheet(
            "pair_plus", pair_plus, ranking=Ranking.THREE_CARD, ncards=3, keys=hand_keys
        )
    task.update()
    six = game.paytable("six_card_bonus")
    if six is not None:
        wagers["six_card_bonus"] = wager_sheet(
            "six_card_bonus", six, ranking=Ranking.POKER5, ncards=6, keys=category_keys
        )
    task.update()
    prog = game.rules.progressive
    table = game.progressive_table
    if prog is not None and table is not None:
        wagers["progressive"] = wager_sheet(
            "progressive",
            table,
            ranking=Ranking.THREE_CARD,
            ncards=3,
            keys=hand_keys,
            meter=prog.reset,
            stake=prog.wager,
        )
    return ParSheet(game=game.slug, method="exact", base=base, wagers=wagers)


def three_card_strategy(game: ThreeCardPoker) -> Callable[[Round, int], Action]:
    """The decisions the exact sheet assumes: play exactly the suit classes it plays."""
    from croupier.kernels import canonical_form

    played = solve_three_card(game.paytable("ante_bonus")).played
    sets = np.array(list(combinations(range(52), 3)), dtype=np.uint8)
    plays = {
        sum(1 << int(i) for i in own): sum(1 << int(i) for i in canon) in played
        for own, canon in zip(sets.tolist(), canonical_form(sets).tolist(), strict=True)
    }
    """Whether to play, by the hand's card set (a bit per card), for every three cards."""

    def decide(rnd: Round, seat: int) -> Action:
        play = plays[sum(1 << i for i in set(decided.indices(seat_cards(rnd, seat))))]
        return decided.play(seat, 1) if play else decided.fold(seat)

    return decide


def three_card_strategy_text(game: ThreeCardPoker) -> str:
    """The optimal Ante/Play strategy as a dealer-trainee would read it, from the solver."""
    solved = solve_three_card(game.paytable("ante_bonus"))
    lines = [
        "Three Card Poker: optimal Ante/Play strategy (exact solver, card removal included)",
        f"  Make the Play wager with {_show(solved.play_threshold)} or better:",
        "    any pair, flush, straight, three of a kind or straight flush;",
        f"    a high-card hand whose three ranks are {_show(solved.play_threshold)} or higher.",
        "  Fold everything lower.",
    ]
    if solved.exceptions:
        lines.append(f"  Exceptions (folded in some suit pattern): {len(solved.exceptions)} values")
    return "\n".join(lines)
