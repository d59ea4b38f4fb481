"""Mississippi Stud's game protection (§ 571), per unit Ante: ``burn-card`` (exact: the 169 suit
classes of two cards times the 50 burnt) and ``colluders`` N, the others' two cards each shared,
which § 571.11(k) forbids (exact for two seats: 169 classes times the 1,225 pairs; sampled for
more).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from croupier.analysis.mississippi_stud.protect_kernels import ms_state_values
from croupier.analysis.protect import Ask, Gains, Protect, Protection, from_gains, sample_deals
from croupier.analysis.stud_counts import BINOM
from croupier.core.errors import InvalidInput
from croupier.games import Game

I64 = npt.NDArray[np.int64]

__all__ = ["PROTECT", "MsState", "ms_exact", "ms_gains", "ms_state"]


@cache
def _ms_tables() -> tuple[I64, ...]:
    from croupier.analysis.mississippi_stud.sheet import kernel_tables

    return kernel_tables()


@dataclass(frozen=True, slots=True)
class MsState:
    """One (two cards, dead cards) state: the summed nets, in Antes over the ordered community
    deals, of the best bets with the dead cards known and of the solver's policy; the best 3rd
    Street bet, the best 4th Street bets ``bets4[c, t]`` and the summed results of the last
    card ``sum5[c, d]``
    (:func:`croupier.analysis.mississippi_stud.protect_kernels.ms_state_values`)."""

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
    for deal in sample_deals(np.random.default_rng(seed), samples, 2 + dead_cards):
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


def price(game: Game, ask: Ask) -> Protection:
    """§ 571: the burn cards and the other players' cards are never shown."""
    if ask.known == "dealer-card":
        raise InvalidInput(
            "mississippi-stud: there is no dealer hand (§ 571.1, §§ 571.8-571.10: two cards "
            "a player and three community cards); use --known burn-card or --colluders"
        )
    if ask.known == "burn-card":
        gains = ms_exact(1) if ask.samples is None else ms_gains(1, ask.n, ask.seed)
        return from_gains(game, ask.kind, ask.colluders, gains, "one card out of play seen")
    dead = 2 * (ask.colluders - 1)
    # two seats: 169 x 1,225 states, counted; more seats: sampled
    gains = ms_exact(dead) if ask.samples is None and dead == 2 else ms_gains(dead, ask.n, ask.seed)
    note = ask.share + " (§ 571.11(k) forbids it); street bets per unit Ante"
    return from_gains(game, ask.kind, ask.colluders, gains, note)


PROTECT = Protect(price=price, samples=4000)
"""Sampled deals where the states are too many to count (each about 110,000 completions)."""
