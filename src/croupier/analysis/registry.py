"""The analysis registry: one :class:`GameAnalysis` entry per game, the only place the analysis
faces (``par``, ``strategy``, ``simulate``, the fast Monte Carlo) find a game's analysis.

Each entry lives in its game's analysis package (``ANALYSIS`` of
:mod:`croupier.analysis.four_card_poker`, and so on), found through the game's one registration
(:func:`croupier.games.registry.entry_for`); the packages are imported on first use, so
``import croupier.analysis`` stays light.  Adding a game: its game folder, its analysis folder
(with its entry), one line in :mod:`croupier.games.registry`, its example Rules Submission.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from croupier.core.errors import InvalidInput

if TYPE_CHECKING:
    from croupier.analysis import Strategy
    from croupier.analysis.designer_base import DesignSpace
    from croupier.analysis.floor_strategies import Typical
    from croupier.analysis.par import ParSheet
    from croupier.analysis.protect import Protect
    from croupier.analysis.strategy_table import StrategyTable
    from croupier.games import Game

__all__ = [
    "NO_DECISIONS",
    "GameAnalysis",
    "MonteCarloKernel",
    "NoDecisions",
    "RoundsPerHour",
    "analysis_for",
    "registered",
]


@dataclass(frozen=True)
class NoDecisions:
    """The strategy face of a game whose player makes no decision after the wagers (baccarat):
    an explicit marker, so a missing strategy is never an oversight."""

    text: str
    """Why there is nothing to decide (the readable strategy of such a game)."""


NO_DECISIONS: Final = NoDecisions("the player makes no decision after the wagers")


@dataclass(frozen=True, slots=True)
class RoundsPerHour:
    """A default pace of play (rounds an hour at a full table) and where the figure comes from."""

    rounds: int
    source: str


TYPICAL_PACE: Final = (
    "industry-typical figure (casino rating practice: the pace pit supervisors assume for a "
    "full table); no published study of it is in the project's references"
)
"""The source of most default paces: they are the paces commonly used to rate table-games
players, not figures from a published study (adjust with ``--rounds-per-hour``)."""


@dataclass(frozen=True, kw_only=True)
class MonteCarloKernel:
    """A game's fast Monte Carlo (:mod:`croupier.analysis.montecarlo`): its block kernel (of
    :func:`croupier.analysis.mc_kernels.make_block`) and what the face needs around it."""

    block: Callable[..., None]
    """``block(seed, rounds, decks, tables, stats)``."""
    tables: Callable[[Game, str], tuple[Any, ...]]
    """``(game, wager) -> the block's tables`` (loaded or solved once, cached)."""
    exact: Callable[[Game, str, bool | None], tuple[Fraction, int]]
    """``(game, wager, progress) -> (the exact mean net per unit of the same strategy, the
    kernel's scale)``: nets are integers in ``1 / scale`` units."""
    paytable: Callable[[Game, str], str]
    """``(game, wager) -> the pay table the run plays``, for the report."""
    actions: tuple[str, ...]
    """The names of the kernel's action columns (the decision taken, or the result class)."""
    note: str
    """What the run leaves out, for the report."""
    unit: str = "Ante"
    """What the nets are counted in: ``Ante``, ``one bet`` (Let It Ride), ``wager``."""
    wagers: tuple[str, ...] = ()
    """The wagers a run may choose (baccarat: ``banker``, ``player``); empty: the base game."""


@dataclass(frozen=True, kw_only=True)
class GameAnalysis:
    """Every analysis face of one game."""

    par: Callable[..., ParSheet]
    """``par(game)`` (and ``par(game, scheduler=...)`` when :attr:`solved_by_blocks`): the exact
    par sheet under the game's Rules Submission."""
    strategy: Callable[[Game], Strategy] | NoDecisions
    """The optimal strategy as a decision rule (the decisions the par sheet assumes), or
    :data:`NO_DECISIONS`."""
    strategy_text: Callable[[Game], str]
    """The optimal strategy as a readable table."""
    kernel: MonteCarloKernel
    """The fast Monte Carlo."""
    notes: str
    """What the exact analysis covers, in a line (``croupier par`` shows the sheet's own)."""
    pace: RoundsPerHour
    """The default rounds per hour (``croupier theo``, the floor forecast), with its source."""
    strategy_rows: Callable[[Game], StrategyTable] | None = None
    """The optimal strategy as rows where the game has its own (every starting hand, ...);
    ``None``: one row per line of :attr:`strategy_text`."""
    solved_by_blocks: bool = False
    """Whether the par sheet comes from a block solver a Dask cluster can share
    (``--scheduler``)."""
    typical: tuple[Typical, ...] = ()
    """The typical players of the floor forecast (:mod:`croupier.analysis.floor_strategies`), on
    the fast kernel; every game also plays ``optimal``."""
    protect: Protect | None = None
    """The value of forbidden information (:mod:`croupier.analysis.protect`); ``None``: not
    priced for this game."""
    designer: DesignSpace | None = None
    """The base-table designer's search space (:mod:`croupier.analysis.designer_base`): the
    wager it re-solves and that table of a game; ``None``: no base table is designed."""


def _games() -> dict[str, type[Game]]:
    """Each game with an analysis package, by slug, in the games registry's order."""
    from croupier.games.registry import ENTRIES

    return {cls.slug: cls for entry in ENTRIES if entry.analysis for cls in entry.classes()}


def registered() -> tuple[str, ...]:
    """The slugs of the games with an analysis entry."""
    return tuple(_games())


def analysis_for(game: Game | str) -> GameAnalysis:
    """The analysis entry of ``game`` (a game or its slug): the ``ANALYSIS`` of the analysis
    package its registration names (:func:`croupier.games.registry.entry_for`), or
    ``BY_GAME[its class]`` in a package of several games."""
    from croupier.games.registry import entry_for

    slug = game if isinstance(game, str) else game.slug
    cls = _games().get(slug)
    if cls is None:
        raise InvalidInput(f"no exact analysis for {slug} yet (have: {', '.join(registered())})")
    module = entry_for(cls).analysis_module()
    by_game: Mapping[type[Game], GameAnalysis] = getattr(module, "BY_GAME", {})
    analysis = by_game.get(cls) or module.ANALYSIS
    if not isinstance(analysis, GameAnalysis):  # pragma: no cover - a broken analysis package
        raise TypeError(f"{module.__name__} has no GameAnalysis for {slug}")
    return analysis
