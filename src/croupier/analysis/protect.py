"""Game protection: what information the rules forbid is worth to a player, exactly.

A table-games department polices some leaks harder than others (a dealer flashing a card, a
burn card exposed, players sharing their hands).  The value of a leak is the house edge the
player reaches with that information under the best strategy that uses it, beside the edge
without it.  Each figure here is exact: every deal is walked and the decision is re-optimised in
every information state.

Each game prices its own information states: its analysis entry's ``protect`` face
(:attr:`croupier.analysis.registry.GameAnalysis.protect`, in the game's ``protect`` module, its
kernels in ``protect_kernels``).  Sampled values are ``edge without - mean gain`` over the
sample (:class:`Gains`), with the gain's standard error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from math import sqrt
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.analysis import par_sheet
from croupier.analysis.par import exact
from croupier.core.errors import InvalidInput
from croupier.games import Game

__all__ = [
    "KNOWN",
    "MAX_SAMPLES",
    "Ask",
    "Gains",
    "Protect",
    "Protection",
    "from_gains",
    "mask",
    "protect",
    "sample_deals",
]

KNOWN = ("dealer-card", "burn-card", "dealer-cards")
"""The kinds of forbidden information priced (``dealer-cards``: both of Ultimate Texas Hold
'Em's hole cards)."""


@dataclass(frozen=True, slots=True)
class Protection:
    """The edge with and without one piece of forbidden information."""

    game: str
    known: str
    colluders: int
    edge_without: Fraction
    edge_with: Fraction
    changed: Fraction | None
    """Share of information states in which the information changes the optimal decision
    (None: not measured)."""
    states: int
    note: str
    std_error: float | None = None
    """The standard error of ``edge_with`` (None: every state counted, exact)."""
    samples: int | None = None
    """Sampled deals (None: exact)."""

    @property
    def value(self) -> Fraction:
        """What the information is worth to the player, per unit of the initial wager."""
        return self.edge_without - self.edge_with

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "known": self.known,
            "colluders": self.colluders,
            "house_edge_without": float(self.edge_without),
            "house_edge_without_exact": exact(self.edge_without),
            "house_edge_with": float(self.edge_with),
            "house_edge_with_exact": exact(self.edge_with),
            "value_to_player": float(self.value),
            "value_to_player_exact": exact(self.value),
            "decisions_changed": None if self.changed is None else float(self.changed),
            "information_states": self.states,
            "method": "exact" if self.std_error is None else "sampled",
            "std_error": self.std_error,
            "samples": self.samples,
            "note": self.note,
        }


@dataclass(slots=True)
class Gains:
    """The paired gains of a sample (or of every state, ``exact``), in units of ``1 / denom``
    of the initial wager."""

    denom: int
    total: int = 0
    states: int = 0
    changed: int = 0
    squares: list[float] = field(default_factory=list)
    exact: bool = False

    def add(self, gain: int, states: int = 1, changed: int = 0) -> None:
        """One sampled unit: its summed gain over ``states`` equally weighted states."""
        self.total += gain
        self.states += states
        self.changed += changed
        self.squares.append(gain / (self.denom * states))

    @property
    def samples(self) -> int:
        return len(self.squares)

    @property
    def mean(self) -> Fraction:
        return Fraction(self.total, self.denom * self.states)

    @property
    def std_error(self) -> float | None:
        """The standard error of the mean gain (None when every state was counted)."""
        n = self.samples
        if self.exact or n < 2:
            return None
        values = np.array(self.squares)
        return float(values.std(ddof=1) / sqrt(n))


def sample_deals(rng: np.random.Generator, n: int, size: int) -> Iterator[npt.NDArray[np.int64]]:
    """``n`` random deals of ``size`` different cards (indices)."""
    for _ in range(n):
        yield rng.permutation(52)[:size].astype(np.int64)


def mask(cards: npt.ArrayLike) -> int:
    """The bit set of ``cards`` (indices)."""
    return int(sum(1 << int(c) for c in np.asarray(cards).tolist()))


@dataclass(frozen=True, kw_only=True, slots=True)
class Ask:
    """One question put to a game's :class:`Protect` face, verified."""

    known: str | None
    """``--known`` as given (``None``: colluders)."""
    kind: str
    """The information: one of :data:`KNOWN`, or ``shared-cards``."""
    colluders: int
    samples: int | None
    """``--samples`` as given (``None``: the game's default)."""
    n: int
    """The sample to draw: ``samples``, else the face's default."""
    seed: int
    share: str
    """The note's words for the colluders' shared cards."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Protect:
    """A game's protection face: it prices the information states of its own rules."""

    price: Callable[[Game, Ask], Protection]
    samples: int = 0
    """Sampled deals by default where the states are too many to count (0: the game chooses by
    the information)."""
    both_dealer_cards: str | None = None
    """The game's name where the dealer has two hole cards to see (``--known dealer-cards``);
    ``None``: not this game's information."""


def from_gains(game: Game, known: str, colluders: int, gains: Gains, note: str) -> Protection:
    """The protection figure of ``gains`` against the game's exact house edge (its par sheet)."""
    sheet = par_sheet(game).base
    assert sheet is not None
    edge = sheet.house_edge
    return Protection(
        game=game.slug,
        known=known,
        colluders=colluders,
        edge_without=edge,
        edge_with=edge - gains.mean,
        changed=Fraction(gains.changed, gains.states),
        states=gains.states,
        note=note,
        std_error=gains.std_error,
        samples=None if gains.exact else gains.samples,
    )


MAX_SAMPLES = 10**6
"""The largest sample accepted (the defaults are hundreds to thousands, each deal counted over
every completion: a million is already days of work; a larger one is a typing error)."""


def _verify(known: str | None, colluders: int, samples: int | None) -> str:
    if known is not None and known not in KNOWN:
        raise InvalidInput(f"--known {known!r}: one of {', '.join(KNOWN)}")
    if isinstance(colluders, bool) or not isinstance(colluders, int) or not 1 <= colluders <= 6:
        raise InvalidInput(f"--colluders {colluders!r} must be from 1 to 6")
    if known is None and colluders == 1:
        raise InvalidInput("give --known (dealer-card, burn-card) or --colluders 2 to 6")
    if known is not None and colluders > 1:
        raise InvalidInput(
            f"--known {known} with --colluders {colluders}: one kind of information at a time"
        )
    if samples is not None and (
        isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= MAX_SAMPLES
    ):
        raise InvalidInput(
            f"--samples {samples!r} must be a whole number from 2 to {MAX_SAMPLES:,}"
        )
    return known or "shared-cards"


def _face(game: Game) -> Protect | None:
    from croupier.analysis.registry import analysis_for, registered

    return analysis_for(game).protect if game.slug in registered() else None


def protect(
    game: Game,
    known: str | None = None,
    colluders: int = 1,
    *,
    samples: int | None = None,
    seed: int = 0,
) -> Protection:
    """The house edge of ``game`` with the forbidden information, against the edge without it.

    ``known``: one of :data:`KNOWN`; or ``colluders`` (2 to 6): seats sharing their hands, the
    player's value when it sees the other ``colluders - 1`` hands.  ``samples``: sample that
    many deals (default: every state where the size allows, else the game's default sample);
    ``seed`` seeds the sample (an analysis generator, never a deal).
    """
    from croupier.analysis.registry import analysis_for, registered

    kind = _verify(known, colluders, samples)
    face = _face(game)
    if kind == "dealer-cards" and (face is None or not face.both_dealer_cards):
        faces = [analysis_for(s).protect for s in registered()]
        both = [f.both_dealer_cards for f in faces if f is not None and f.both_dealer_cards]
        raise InvalidInput(
            f"{game.slug}: --known dealer-cards (both hole cards) is {' and '.join(both)}'s; "
            "use --known dealer-card"
        )
    if face is None:
        priced = [s for s in registered() if analysis_for(s).protect is not None]
        raise InvalidInput(
            f"{game.slug}: the value of forbidden information is not priced yet (have: "
            f"{', '.join(priced)}); it needs the game's solver re-run per information state"
        )
    others = "the other colluding seat's" if colluders == 2 else f"the {colluders - 1} others'"
    ask = Ask(
        known=known,
        kind=kind,
        colluders=colluders,
        samples=samples,
        n=samples or face.samples,
        seed=seed,
        share=f"{others} cards seen",
    )
    return face.price(game, ask)
