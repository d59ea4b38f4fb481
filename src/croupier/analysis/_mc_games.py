"""Each game's fast Monte Carlo kernel record
(:class:`~croupier.analysis.registry.MonteCarloKernel`), named by the game's analysis entry:
the block kernel of :mod:`croupier.analysis.mc_kernels` or :mod:`croupier.analysis._mc_more`,
its tables, the exact value it is compared with, and the
report's words.  The decision tables and solvers are imported on first use."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from croupier.analysis import _mc_more, mc_kernels
from croupier.analysis.registry import MonteCarloKernel
from croupier.games import Game
from croupier.games.paytables import PayTable

__all__ = [
    "BACCARAT",
    "FOUR_CARD_POKER",
    "LET_IT_RIDE",
    "MISSISSIPPI_STUD",
    "THREE_CARD_POKER",
    "ULTIMATE_TEXAS_HOLDEM",
]


def _base(game: Game) -> Fraction:
    """The exact mean net per unit initial wager of the base game, from the par sheet."""
    from croupier.analysis import par_sheet

    sheet = par_sheet(game)
    assert sheet.base is not None
    return sheet.base.expected


# --------------------------------------------------------------------------------------------
# Four Card Poker and Ultimate Texas Hold 'Em: the decision tables of analysis.decisions


def _fcp_tables(game: Game, wager: str) -> tuple[Any, ...]:
    from croupier.analysis.decisions import four_card_tables

    fcp = four_card_tables()
    return (fcp.ev, fcp.kernel_args)


def _fcp_exact(game: Game, wager: str, progress: bool | None) -> tuple[Fraction, int]:
    from croupier.analysis.decisions import four_card_tables

    fcp = four_card_tables(progress=progress)
    return fcp.expected, fcp.scale


FOUR_CARD_POKER = MonteCarloKernel(
    block=mc_kernels.fcp_block,
    tables=_fcp_tables,
    exact=_fcp_exact,
    paytable=lambda game, wager: "ante bonus § 641a.12(b)",
    actions=("fold", "1x", "2x", "3x"),
    note="one player, base game only, a fresh 52-card deck every round; the mean counts Ante, "
    "Play and Ante Bonus results per unit Ante",
)


def _uth_tables(game: Game, wager: str) -> tuple[Any, ...]:
    from croupier.analysis.decisions import blind_table, uth_tables

    uth = uth_tables(blind_table(game))
    return (uth.ev, uth.kernel_args)


def _uth_exact(game: Game, wager: str, progress: bool | None) -> tuple[Fraction, int]:
    from croupier.analysis.decisions import blind_table, uth_tables

    uth = uth_tables(blind_table(game), progress=progress)
    return uth.expected, int(uth.kernel_args[3])


def _uth_paytable(game: Game, wager: str) -> str:
    blind = game.paytable("blind")
    assert blind is not None
    return f"blind table {blind.letter} § 653a.12(b)"


ULTIMATE_TEXAS_HOLDEM = MonteCarloKernel(
    block=mc_kernels.uth_block,
    tables=_uth_tables,
    exact=_uth_exact,
    paytable=_uth_paytable,
    actions=("fold", "1x", "2x", "3x", "4x"),
    note="one player, base game only, a fresh 52-card deck every round; the mean counts Ante, "
    "Play and Blind results per unit Ante",
)


# --------------------------------------------------------------------------------------------
# The games of analysis._mc_more


def _tcp_paytable(game: Game, wager: str) -> str:
    table = game.paytable("ante_bonus")
    assert table is not None
    return f"ante bonus {table.letter} § 649a.12(b)"


THREE_CARD_POKER = MonteCarloKernel(
    block=_mc_more.tcp_block,
    tables=lambda game, wager: _mc_more.three_card_args(),
    exact=lambda game, wager, progress: (_base(game), int(_mc_more.three_card_args()[4])),
    paytable=_tcp_paytable,
    actions=("fold", "play"),
    note="one player, Ante/Play only, a fresh 52-card deck every round; the mean counts Ante, "
    "Play and Ante Bonus results per unit Ante",
)


def _lir_paytable(game: Game, wager: str) -> str:
    table: Any = game
    return f"pay table {table.base_table.letter} § 643a.12"


LET_IT_RIDE = MonteCarloKernel(
    block=_mc_more.lir_block,
    tables=lambda game, wager: _mc_more.let_it_ride_args(),
    exact=lambda game, wager, progress: (_base(game), 1),
    paytable=_lir_paytable,
    actions=("1 bet riding", "2 bets riding", "3 bets riding"),
    unit="one bet",
    note="one player, the three bets only, a fresh 52-card deck every round; the mean is per "
    "unit of one bet; the payout limit is left out",
)


def _ms_table(game: Game) -> PayTable:
    from croupier.games.mississippi_stud import MississippiStud

    assert isinstance(game, MississippiStud)
    return game.base_table


def _ms_paytable(game: Game, wager: str) -> str:
    table = _ms_table(game)
    return f"pay table {table.letter or ''} {table.section}".replace("  ", " ")


MISSISSIPPI_STUD = MonteCarloKernel(
    block=_mc_more.ms_block,
    tables=lambda game, wager: _mc_more.mississippi_args(_ms_table(game)),
    exact=lambda game, wager, progress: (_base(game), 1),
    paytable=_ms_paytable,
    actions=("fold 3rd street", "fold 4th street", "fold 5th street", "showdown"),
    note="one player, Ante and street bets only, a fresh 52-card deck every round; the mean is "
    "per unit Ante",
)


def _bac_exact(game: Game, wager: str, progress: bool | None) -> tuple[Fraction, int]:
    from croupier.analysis import par_sheet

    return par_sheet(game).wagers[wager].expected, _mc_more.baccarat_nets(game, wager)[1]


def _bac_paytable(game: Game, wager: str) -> str:
    table: Any = game
    vig = table.vig
    rule = "no vigorish" if vig.type == "none" else f"{vig.type} vigorish {vig.rate}"
    return f"{wager} wager, {rule}" + (", EZ" if table.ez else "")


BACCARAT = MonteCarloKernel(
    block=_mc_more.baccarat_block,
    tables=_mc_more.baccarat_tables,
    exact=_bac_exact,
    paytable=_bac_paytable,
    actions=_mc_more.BACCARAT_CLASSES,
    unit="wager",
    wagers=("banker", "player"),
    note="one wager, a fresh shoe every coup; the commission at the exact rate (the rounding to "
    "5 cents is left out); the mean is per unit wagered",
)
