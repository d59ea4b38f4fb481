"""Game protection for Four Card Poker, Mississippi Stud and colluding Three Card Poker seats.

Each information state is counted exactly (every completion of the deal, in integers, by the
kernels of :mod:`croupier.analysis._protect_kernels`), and the optimal decision with the
information is found there.  Where the states are too many to walk, they are sampled and the
value is the mean *gain* over the sample: in each sampled state, the best decision's value with
the information minus the value of the solver's own decision without it, both exact over the
same completions.  The solver's decision has, averaged over the states, exactly the edge of the
par sheet, so ``edge with = edge without - mean gain`` is unbiased, and the paired gain has a
far smaller spread than either value (the standard error is the gain's).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, lcm, sqrt

import numpy as np
import numpy.typing as npt

from croupier.analysis._protect_kernels import (
    fcp_hidden_counts,
    ms_state_values,
    uth_info_sets,
    uth_known_dealer,
    uth_seen_dealer,
)
from croupier.analysis.block_solver import dense_tables
from croupier.analysis.four_card_poker.solver import (
    HIDDEN_COMPLETIONS,
    AntePlayTables,
    ante_play_tables,
)
from croupier.analysis.stud_counts import BINOM
from croupier.cards import DECK
from croupier.games.paytables import PayTable
from croupier.hands import Ranking, evaluate

__all__ = [
    "FcpState",
    "Gains",
    "MsState",
    "UthSeen",
    "UthState",
    "fcp_gains",
    "fcp_state",
    "ms_exact",
    "ms_gains",
    "ms_state",
    "tcp_colluder_gains",
    "uth_dead_gains",
    "uth_info",
    "uth_seen",
    "uth_seen_gains",
    "uth_state",
]

I64 = npt.NDArray[np.int64]


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


def _deals(rng: np.random.Generator, n: int, size: int) -> Iterator[npt.NDArray[np.int64]]:
    for _ in range(n):
        yield rng.permutation(52)[:size].astype(np.int64)


def _mask(cards: npt.ArrayLike) -> int:
    return int(sum(1 << int(c) for c in np.asarray(cards).tolist()))


# --------------------------------------------------------------------------------------------
# Four Card Poker


@dataclass(frozen=True, slots=True)
class FcpState:
    """One (player hand, up card) counted: the dealer completions below, equal to and above the
    player's hand, over all of them, by each card they hold, and avoiding each dead set."""

    strength: int
    all_counts: I64
    per_card: I64
    live: I64


def fcp_state(player: npt.ArrayLike, up: int, dead_sets: npt.ArrayLike = ()) -> FcpState:
    """Count the 1,370,754 hidden completions of one deal (cards as indices)."""
    dense = dense_tables(Ranking.FOUR_CARD)
    sets = np.asarray(dead_sets, dtype=np.int64).reshape(-1)
    per_card = np.zeros((52, 3), dtype=np.int64)
    all_counts = np.zeros(3, dtype=np.int64)
    live = np.zeros((sets.size, 3), dtype=np.int64)
    cards = np.asarray(player, dtype=np.int64)
    s = fcp_hidden_counts(cards, int(up), sets, *dense.args(), per_card, all_counts, live)
    return FcpState(strength=int(s), all_counts=all_counts, per_card=per_card, live=live)


def fcp_values(tabs: AntePlayTables, s: int, counts: I64) -> I64:
    """The summed net of each decision (fold, 1x, 2x, 3x) over completions ``counts[..., r]``
    (the dealer below, equal, above), in units of ``1 / tabs.scale`` Ante."""
    counts = np.asarray(counts, dtype=np.int64)
    n = counts.sum(axis=-1)
    return tabs.bonus[:, s] * n[..., None] + counts @ tabs.stakes.T  # type: ignore[no-any-return]


def fcp_gains(known: str, colluders: int, samples: int, seed: int) -> Gains:
    """Four Card Poker: the sampled (player hand, up card), exact over the flashed card, the
    burn card, or ``8`` sets of the colluders' cards per sample."""
    tabs = ante_play_tables()
    hidden = HIDDEN_COMPLETIONS
    rng = np.random.default_rng(seed)
    per = 8
    if known == "dealer-card":
        gains = Gains(denom=5 * hidden * tabs.scale)
    elif known == "burn-card":
        gains = Gains(denom=41 * hidden * tabs.scale)
    else:
        gains = Gains(denom=comb(46 - 5 * (colluders - 1), 5) * tabs.scale)
    for deal in _deals(rng, samples, 6):
        player, up = deal[:5], int(deal[5])
        others = np.setdiff1d(np.arange(52), deal)
        dead = []
        if colluders > 1:
            dead = [_mask(rng.permutation(others)[: 5 * (colluders - 1)]) for _ in range(per)]
        state = fcp_state(player, up, dead)
        base = fcp_values(tabs, state.strength, state.all_counts)
        a0 = int(np.argmax(base))  # the solver's decision: the first of the largest
        if known == "dealer-card":
            values = fcp_values(tabs, state.strength, state.per_card[others])
            extra = 5 * int(base[a0])
        elif known == "burn-card":
            values = fcp_values(tabs, state.strength, state.all_counts - state.per_card[others])
            extra = 41 * int(base[a0])
        else:
            values = fcp_values(tabs, state.strength, state.live)
            extra = int(values[:, a0].sum())
        best = values.max(axis=1)
        changed = int((values.argmax(axis=1) != a0).sum())
        gains.add(int(best.sum()) - extra, states=len(values), changed=changed)
    return gains


# --------------------------------------------------------------------------------------------
# Mississippi Stud


@cache
def _ms_tables() -> tuple[I64, ...]:
    from croupier.analysis.mississippi_stud.sheet import kernel_tables

    return kernel_tables()


@dataclass(frozen=True, slots=True)
class MsState:
    """One (two cards, dead cards) state: the summed nets, in Antes over the ordered community
    deals, of the best bets with the dead cards known and of the solver's policy; the best 3rd
    Street bet, the best 4th Street bets ``bets4[c, t]`` and the summed results of the last
    card ``sum5[c, d]`` (:func:`croupier.analysis._protect_kernels.ms_state_values`)."""

    best: int
    fixed: int
    left: int
    """The cards the three community cards come from."""
    bet3: int
    bets4: I64
    sum5: I64

    def bet(self, board: list[int], units: int) -> int:
        """The best bet (0: fold) with ``board`` turned so far and ``units`` wagered."""
        if not board:
            return self.bet3
        if len(board) == 1:
            return int(self.bets4[board[0], units])
        best_val, best = -units * (self.left - 2), 0  # a fold, over the cards left
        s = int(self.sum5[board[0], board[1]])
        for k in (1, 2, 3):
            if (units + k) * s > best_val:
                best_val, best = (units + k) * s, k
        return best


def ms_state(own: npt.ArrayLike, dead: npt.ArrayLike = ()) -> MsState:
    line_of, mult, sums, k3, k4 = _ms_tables()
    bets4 = np.zeros((52, 5), dtype=np.int64)
    sum5 = np.zeros((52, 52), dtype=np.int64)
    best, fixed, deals, bet3 = ms_state_values(
        np.asarray(own, dtype=np.int64),
        np.asarray(dead, dtype=np.int64).reshape(-1),
        line_of,
        mult,
        sums,
        k3,
        k4,
        BINOM,
        bets4,
        sum5,
    )
    left = 50 - int(np.asarray(dead).size)
    assert int(deals) == left * (left - 1) * (left - 2)
    return MsState(int(best), int(fixed), left, int(bet3), bets4, sum5)


def ms_gains(dead_cards: int, samples: int, seed: int) -> Gains:
    """Mississippi Stud with ``dead_cards`` cards known out of play (a burn card, or the
    colluders' two cards each), over a sample of (two cards, dead cards)."""
    n = 50 - dead_cards
    gains = Gains(denom=n * (n - 1) * (n - 2))
    for deal in _deals(np.random.default_rng(seed), samples, 2 + dead_cards):
        state = ms_state(deal[:2], deal[2:])
        gains.add(state.best - state.fixed, changed=int(state.best != state.fixed))
    return gains


def ms_exact(dead_cards: int) -> Gains:
    """Mississippi Stud with ``dead_cards`` (1 or 2) cards known out of play, every state: the
    169 suit classes of the two cards (with their weights) times every set of dead cards of the
    other 50 (50 burn cards; 1,225 pairs of a colluding seat's cards)."""
    from croupier.kernels import canonical_hands

    hands, weights = canonical_hands(2)
    n = 50 - dead_cards
    gains = Gains(denom=n * (n - 1) * (n - 2), exact=True)
    per_hand = comb(50, dead_cards)
    for hand, weight in zip(hands.tolist(), weights.tolist(), strict=True):
        total = changed = 0
        rest = [c for c in range(52) if c not in hand]
        for dead in combinations(rest, dead_cards):
            state = ms_state(hand, list(dead))
            total += state.best - state.fixed
            changed += int(state.best != state.fixed)
        gains.add(weight * total, states=per_hand * weight, changed=weight * changed)
    return gains


# --------------------------------------------------------------------------------------------
# Three Card Poker colluders


def tcp_colluder_gains(table: PayTable | None, colluders: int, samples: int, seed: int) -> Gains:
    """Three Card Poker with the other ``colluders - 1`` seats' three cards each known, over a
    sample of (player hand, colluders' cards): exact over the dealer's hands of the rest."""
    from croupier.analysis.three_card_poker import solver as tabulated
    from croupier.games import three_card_poker as tcp

    _, values, masks = tabulated.all_hands()
    qualifies = tabulated.qualifying()
    bonus_of: dict[int, Fraction] = {}
    rng = np.random.default_rng(seed)
    deals = list(_deals(rng, samples, 3 * colluders))
    ranks = [evaluate([DECK[int(c)] for c in d[:3]], Ranking.THREE_CARD) for d in deals]
    for rank in ranks:
        bonus_of.setdefault(
            rank.value, tcp.ante_bonus_net(table, tcp.hand_keys(rank), tcp.Decision.PLAY)
        )
    scale = lcm(1, *(b.denominator for b in bonus_of.values()))
    fold = tabulated.fold_net() * scale
    n_live = comb(49 - 3 * (colluders - 1), 3)
    gains = Gains(denom=n_live * scale)
    for deal, rank in zip(deals, ranks, strict=True):
        own, dead = np.uint64(_mask(deal[:3])), np.uint64(_mask(deal[3:]))
        net = tabulated.played_net(rank.value, values, qualifies) * scale
        net += int(bonus_of[rank.value] * scale)
        avoid_own = (masks & own) == 0
        live = avoid_own & ((masks & dead) == 0)
        plays = int(net[avoid_own].sum()) > fold * int(avoid_own.sum())
        play_live = int(net[live].sum())
        fixed = play_live if plays else fold * n_live
        best = max(play_live, fold * n_live)
        gains.add(best - fixed, changed=int(best != fixed))
    return gains


# --------------------------------------------------------------------------------------------
# Ultimate Texas Hold 'Em


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
    (:func:`croupier.analysis._protect_kernels.uth_info_sets`): per set ``(best, fixed,
    completions)``, then the no-information preflop decision and summed best net."""
    from croupier.analysis.ultimate_texas_holdem.settle import settle_tables

    dense = dense_tables(Ranking.POKER5)
    p = settle_tables(blind)
    need = np.array([_mask(seen) for seen, _ in sets], dtype=np.int64)
    avoid = np.array([_mask(out) for _, out in sets], dtype=np.int64)
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
    """Count one state (:func:`croupier.analysis._protect_kernels.uth_seen_dealer`)."""
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
    for deal in _deals(np.random.default_rng(seed), samples, 4):
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
    for deal in _deals(rng, samples, 2):
        others = np.setdiff1d(np.arange(52), deal)
        sets: list[tuple[list[int], list[int]]] = [
            ([], rng.permutation(others)[:dead].tolist()) for _ in range(per)
        ]
        out, _, _ = uth_info(deal, sets, blind)
        assert (out[:, 2] == completions).all()
        gain = int((out[:, 0] - out[:, 1]).sum())
        gains.add(gain, states=per, changed=int((out[:, 0] != out[:, 1]).sum()))
    return gains
