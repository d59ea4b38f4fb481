"""Four Card Poker's game protection (§ 641a, the Ante Bonus of § 641a.12(b)), per unit Ante:

* ``dealer-card``: one of the dealer's five face-down cards seen (a second dealer card flashed
  beside the up card);
* ``burn-card``: one card out of play seen;
* ``colluders`` N: the other N - 1 seats' five cards each shared.

Each sampled (player hand, up card) is counted over all 1,370,754 hidden completions and split
by the card seen, so the information is exact given the deal; the deals are sampled.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
import numpy.typing as npt

from croupier.analysis.block_solver import dense_tables
from croupier.analysis.four_card_poker.protect_kernels import fcp_hidden_counts
from croupier.analysis.four_card_poker.solver import (
    HIDDEN_COMPLETIONS,
    AntePlayTables,
    ante_play_tables,
)
from croupier.analysis.protect import (
    Ask,
    Gains,
    Protect,
    Protection,
    from_gains,
    mask,
    sample_deals,
)
from croupier.games import Game
from croupier.hands import Ranking

I64 = npt.NDArray[np.int64]

__all__ = ["PROTECT", "FcpState", "fcp_gains", "fcp_state", "fcp_values"]


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
    for deal in sample_deals(rng, samples, 6):
        player, up = deal[:5], int(deal[5])
        others = np.setdiff1d(np.arange(52), deal)
        dead = []
        if colluders > 1:
            dead = [mask(rng.permutation(others)[: 5 * (colluders - 1)]) for _ in range(per)]
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


def price(game: Game, ask: Ask) -> Protection:
    """§ 641a: the dealer's five face-down cards and the cards out of play are never shown."""
    gains = fcp_gains(ask.kind, ask.colluders, ask.n, ask.seed)
    what = {
        "dealer-card": "one of the dealer's five face-down cards seen",
        "burn-card": "one card out of play seen",
    }.get(ask.kind, ask.share)
    note = what + "; Ante/Play/Ante Bonus per unit Ante, exact given each sampled deal"
    return from_gains(game, ask.kind, ask.colluders, gains, note)


PROTECT = Protect(price=price, samples=300)
"""Sampled deals: each is 1,370,754 completions counted."""
