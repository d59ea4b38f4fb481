"""Ultimate Texas Hold 'Em (§ 569), per unit Ante (Ante, Blind and Play), every figure sampled
with its standard error:

* ``dealer-card``: one of the dealer's two hole cards seen; ``dealer-cards``: both.  Each
  sampled (player's two, dealer's two) is played exactly over every board (and the dealer's
  other card), flop first, with the best decision on every street
  (:func:`croupier.analysis.ultimate_texas_holdem.protect_kernels.uth_seen_dealer`); its value less
  the exact value
  of the player's starting hand without the information (the solver's) is the gain, so the
  spread of starting hands is not in the standard error.
* ``burn-card`` and ``colluders`` N (the other N - 1 seats' two cards each): each sampled
  player hand walks every board of the other 50 cards and every dealer holding once, for
  several sets of dead cards at a time
  (:func:`croupier.analysis.ultimate_texas_holdem.protect_kernels.
  uth_info_sets`): the best play with the dead cards known and the solver's play without them,
  both exact over the live cards, paired.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, sqrt

import numpy as np
import numpy.typing as npt

from croupier.analysis import par_sheet
from croupier.analysis.block_solver import dense_tables
from croupier.analysis.protect import (
    Ask,
    Gains,
    Protect,
    Protection,
    from_gains,
    mask,
    sample_deals,
)
from croupier.analysis.ultimate_texas_holdem.protect_kernels import (
    uth_info_sets,
    uth_known_dealer,
    uth_seen_dealer,
)
from croupier.core.cards import DECK
from croupier.games import Game
from croupier.games.paytables import PayTable
from croupier.games.ultimate_texas_holdem import UltimateTexasHoldem
from croupier.hands import Ranking

I64 = npt.NDArray[np.int64]

__all__ = [
    "PROTECT",
    "UTH_SAMPLES",
    "UthSeen",
    "UthState",
    "hand_values",
    "uth_dead_gains",
    "uth_info",
    "uth_seen",
    "uth_seen_gains",
    "uth_state",
]


def _flop_rank(rest: tuple[int, ...], flop: list[int]) -> int:
    """The colex rank of ``flop`` among the 3-card sets of ``rest`` (the kernels' flop index)."""
    x, y, z = sorted(rest.index(c) for c in flop)
    return x + y * (y - 1) // 2 + z * (z - 1) * (z - 2) // 6


@dataclass(frozen=True, slots=True)
class UthState:
    """The player's and the dealer's two cards known: the summed best net over every ordered
    board (units of ``1 / scale`` Ante), the preflop decision (0 check, 3 or 4 times the Ante)
    and, per flop (colex rank of its positions among ``rest``), the summed nets of betting 2x
    and of checking to the river."""

    best: int
    preflop: int
    rest: tuple[int, ...]
    bet2: I64
    checked: I64
    scale: int

    @property
    def value(self) -> Fraction:
        return Fraction(self.best, comb(48, 3) * comb(45, 2) * self.scale)

    def flop_bets(self, flop: list[int]) -> bool:
        """Whether the best play bets 2x after checking before ``flop``."""
        r = _flop_rank(self.rest, flop)
        return bool(self.bet2[r] > self.checked[r])


def uth_state(player: npt.ArrayLike, dealer: npt.ArrayLike, blind: PayTable | None) -> UthState:
    from croupier.analysis.ultimate_texas_holdem.settle import settle_tables

    dense = dense_tables(Ranking.POKER5)
    p = settle_tables(blind)
    mine = np.asarray(player, dtype=np.int64)
    theirs = np.asarray(dealer, dtype=np.int64)
    bet2 = np.zeros(comb(48, 3), dtype=np.int64)
    checked = np.zeros(comb(48, 3), dtype=np.int64)
    best, preflop, _ = uth_known_dealer(
        mine, theirs, *dense.args(), p.q0, p.bclass, p.net, p.fold, bet2, checked
    )
    rest = tuple(c for c in range(52) if c not in {*mine.tolist(), *theirs.tolist()})
    return UthState(int(best), int(preflop), rest, bet2, checked, p.scale)


def uth_info(
    player: npt.ArrayLike,
    sets: list[tuple[list[int], list[int]]],
    blind: PayTable | None,
) -> tuple[I64, int, int]:
    """The player's two cards and information sets ``(dealer cards seen, cards out of play)``
    (:func:`croupier.analysis.ultimate_texas_holdem.protect_kernels.uth_info_sets`): per set
    ``(best, fixed,
    completions)``, then the no-information preflop decision and summed best net."""
    from croupier.analysis.ultimate_texas_holdem.settle import settle_tables

    dense = dense_tables(Ranking.POKER5)
    p = settle_tables(blind)
    need = np.array([mask(seen) for seen, _ in sets], dtype=np.int64)
    avoid = np.array([mask(out) for _, out in sets], dtype=np.int64)
    out = np.zeros((len(sets), 3), dtype=np.int64)
    pre, best = uth_info_sets(
        np.asarray(player, dtype=np.int64),
        need,
        avoid,
        *dense.args(),
        p.q0,
        p.bclass,
        p.net,
        p.fold,
        out,
    )
    return out, int(pre), int(best)


@dataclass(frozen=True, slots=True)
class UthSeen:
    """The player's two cards and some of the dealer's hole cards seen: the summed best net over
    the ordered completions (units of ``1 / scale`` Ante), their number, the preflop decision
    (0 check, 3 or 4 times the Ante) and, per flop (colex rank of its positions among
    ``rest``), the summed nets of betting 2x and of checking to the river."""

    best: int
    completions: int
    preflop: int
    rest: tuple[int, ...]
    bet2: I64
    checked: I64
    scale: int

    @property
    def value(self) -> Fraction:
        return Fraction(self.best, self.completions * self.scale)

    def flop_bets(self, flop: list[int]) -> bool:
        """Whether the best play bets 2x after checking before ``flop``."""
        r = _flop_rank(self.rest, flop)
        return bool(self.bet2[r] > self.checked[r])


def uth_seen(player: npt.ArrayLike, seen: npt.ArrayLike, blind: PayTable | None) -> UthSeen:
    """Count one state
    (:func:`croupier.analysis.ultimate_texas_holdem.protect_kernels.uth_seen_dealer`)."""
    from croupier.analysis.ultimate_texas_holdem.settle import settle_tables

    dense = dense_tables(Ranking.POKER5)
    p = settle_tables(blind)
    mine = np.asarray(player, dtype=np.int64)
    shown = np.asarray(seen, dtype=np.int64)
    rest = tuple(c for c in range(52) if c not in {*mine.tolist(), *shown.tolist()})
    bet2 = np.zeros(comb(len(rest), 3), dtype=np.int64)
    checked = np.zeros(comb(len(rest), 3), dtype=np.int64)
    best, count, pre = uth_seen_dealer(
        mine, shown, *dense.args(), p.q0, p.bclass, p.net, p.fold, bet2, checked
    )
    return UthSeen(int(best), int(count), int(pre), rest, bet2, checked, p.scale)


def uth_seen_gains(
    seen: int,
    blind: PayTable | None,
    hand_values: dict[str, Fraction],
    samples: int,
    seed: int,
) -> tuple[Fraction, float]:
    """``seen`` (1 or 2) of the dealer's hole cards seen, over a sample of (player's two,
    dealer's two): each state exact over every board (and the dealer's other card), its value
    less the exact value of the player's starting hand without the information
    (``hand_values``, from the solver), so the mean is the information's value and the
    standard error excludes the spread of the starting hands."""
    from croupier.analysis.ultimate_texas_holdem.solver import starting_hand

    gains: list[Fraction] = []
    for deal in sample_deals(np.random.default_rng(seed), samples, 4):
        player, shown = deal[:2], deal[2 : 2 + seen]
        hand = starting_hand([DECK[int(c)] for c in player])
        gains.append(uth_seen(player, shown, blind).value - hand_values[hand])
    mean = sum(gains, Fraction(0)) / len(gains)
    return mean, float(np.std([float(g) for g in gains], ddof=1) / sqrt(len(gains)))


UTH_SETS_PER_HAND = 6
"""Sets of dead cards walked with each sampled player hand (one pass over the boards)."""


def uth_dead_gains(dead: int, blind: PayTable | None, samples: int, seed: int) -> Gains:
    """``dead`` cards known out of play (a burn card; the colluders' two cards each) over a
    sample of ``samples`` player hands, each with :data:`UTH_SETS_PER_HAND` sets of dead cards:
    the paired gain of the best play with them over the solver's play without them, both exact
    over every board and dealer holding of the live cards (one unit per player hand, so the
    standard error counts the hands)."""
    from croupier.analysis.ultimate_texas_holdem.settle import settle_tables

    per = UTH_SETS_PER_HAND
    completions = comb(50 - dead, 5) * 10 * comb(45 - dead, 2)
    gains = Gains(denom=completions * settle_tables(blind).scale)
    rng = np.random.default_rng(seed)
    for deal in sample_deals(rng, samples, 2):
        others = np.setdiff1d(np.arange(52), deal)
        sets: list[tuple[list[int], list[int]]] = [
            ([], rng.permutation(others)[:dead].tolist()) for _ in range(per)
        ]
        out, _, _ = uth_info(deal, sets, blind)
        assert (out[:, 2] == completions).all()
        gain = int((out[:, 0] - out[:, 1]).sum())
        gains.add(gain, states=per, changed=int((out[:, 0] != out[:, 1]).sum()))
    return gains


UTH_SAMPLES = {"dealer-card": 60, "dealer-cards": 400, "burn-card": 3, "shared-cards": 3}
"""Ultimate Texas Hold 'Em's default sample by the information: deals for the hole cards seen
(one: about 84 million dealer hands counted per deal; both: 1.7 million), player hands for dead
cards (each walks all 2,118,760 boards times 990 dealer holdings once, for
:data:`~croupier.analysis.ultimate_texas_holdem.protect.UTH_SETS_PER_HAND` sets of dead cards)."""


def _hand_values(game: UltimateTexasHoldem) -> dict[str, Fraction]:
    """The exact value of each starting hand without information, from the solver."""
    from croupier.analysis.ultimate_texas_holdem.sheet import solved

    return {d.hand: max(d.values.values()) for d in solved(game).strategy.preflop}


def _holdem(
    game: UltimateTexasHoldem, kind: str, colluders: int, samples: int | None, seed: int
) -> Protection:
    """§ 569: the dealer's two hole cards stay face down to the showdown; the burn cards and
    the other players' cards are never shown."""
    sheet = par_sheet(game).base
    assert sheet is not None
    blind = game.paytable("blind")
    n = samples or UTH_SAMPLES[kind]
    if kind in ("dealer-card", "dealer-cards"):
        seen = 1 if kind == "dealer-card" else 2
        mean, se = uth_seen_gains(seen, blind, _hand_values(game), n, seed)
        what = "one of the dealer's two hole cards" if seen == 1 else "both dealer hole cards"
        return Protection(
            game=game.slug,
            known=kind,
            colluders=1,
            edge_without=sheet.house_edge,
            edge_with=sheet.house_edge - mean,
            changed=None,
            states=n,
            note=f"{what} seen before the first decision; Ante, Blind and Play per unit Ante, "
            "each sampled deal exact over every board, less its starting hand's exact value",
            std_error=se,
            samples=n,
        )
    dead = 1 if kind == "burn-card" else 2 * (colluders - 1)
    gains = uth_dead_gains(dead, blind, n, seed)
    what = "one card out of play seen" if dead == 1 else f"the {colluders - 1} others' cards seen"
    note = (
        f"{what}; Ante, Blind and Play per unit Ante; each sampled player hand exact over every "
        "board and dealer holding of the live cards, paired with the solver's play"
    )
    return from_gains(game, kind, colluders, gains, note)


def hand_values(game: UltimateTexasHoldem) -> dict[str, Fraction]:
    """The exact value of each starting hand without information, from the solver."""
    from croupier.analysis.ultimate_texas_holdem.sheet import solved

    return {d.hand: max(d.values.values()) for d in solved(game).strategy.preflop}


def price(game: Game, ask: Ask) -> Protection:
    """§ 569: the dealer's two hole cards stay face down to the showdown; the burn cards and
    the other players' cards are never shown."""
    assert isinstance(game, UltimateTexasHoldem)  # this game's face
    kind, colluders, seed = ask.kind, ask.colluders, ask.seed
    sheet = par_sheet(game).base
    assert sheet is not None
    blind = game.paytable("blind")
    n = ask.samples or UTH_SAMPLES[kind]
    if kind in ("dealer-card", "dealer-cards"):
        seen = 1 if kind == "dealer-card" else 2
        mean, se = uth_seen_gains(seen, blind, hand_values(game), n, seed)
        what = "one of the dealer's two hole cards" if seen == 1 else "both dealer hole cards"
        return Protection(
            game=game.slug,
            known=kind,
            colluders=1,
            edge_without=sheet.house_edge,
            edge_with=sheet.house_edge - mean,
            changed=None,
            states=n,
            note=f"{what} seen before the first decision; Ante, Blind and Play per unit Ante, "
            "each sampled deal exact over every board, less its starting hand's exact value",
            std_error=se,
            samples=n,
        )
    dead = 1 if kind == "burn-card" else 2 * (colluders - 1)
    gains = uth_dead_gains(dead, blind, n, seed)
    what = "one card out of play seen" if dead == 1 else f"the {colluders - 1} others' cards seen"
    note = (
        f"{what}; Ante, Blind and Play per unit Ante; each sampled player hand exact over every "
        "board and dealer holding of the live cards, paired with the solver's play"
    )
    return from_gains(game, kind, colluders, gains, note)


PROTECT = Protect(price=price, both_dealer_cards="Ultimate Texas Hold 'Em")
"""Sampled by the information (:data:`UTH_SAMPLES`)."""
