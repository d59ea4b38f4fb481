"""Three Card Poker's game protection (the Ante/Play decision, § 649a; the Ante Bonus as in
force):

* ``dealer-card``: one of the dealer's three cards is seen before the decision (a flashed
  card); each dealer hand counts once for each of its cards, so the flashed card is any of the
  three alike.
* ``burn-card``: one card that will not be in play is seen (a burn card or a card exposed from
  the stub); the dealer's hand is three of the other 48.
* ``colluders`` N (sampled, exact over the dealer's hands of the rest).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, lcm

import numpy as np
import numpy.typing as npt

from croupier.analysis.protect import (
    Ask,
    Gains,
    Protect,
    Protection,
    from_gains,
    mask,
    sample_deals,
)
from croupier.core.cards import DECK
from croupier.games import Game
from croupier.games.paytables import PayTable
from croupier.games.three_card_poker import ThreeCardPoker
from croupier.hands import Ranking, evaluate

I64 = npt.NDArray[np.int64]

__all__ = ["PROTECT", "tcp_colluder_gains"]


def tcp_colluder_gains(table: PayTable | None, colluders: int, samples: int, seed: int) -> Gains:
    """Three Card Poker with the other ``colluders - 1`` seats' three cards each known, over a
    sample of (player hand, colluders' cards): exact over the dealer's hands of the rest."""
    from croupier.analysis.three_card_poker import solver as tabulated
    from croupier.games import three_card_poker as tcp

    _, values, masks = tabulated.all_hands()
    qualifies = tabulated.qualifying()
    bonus_of: dict[int, Fraction] = {}
    rng = np.random.default_rng(seed)
    deals = list(sample_deals(rng, samples, 3 * colluders))
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
        own, dead = np.uint64(mask(deal[:3])), np.uint64(mask(deal[3:]))
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


def _exact(game: ThreeCardPoker, known: str, colluders: int) -> Protection:
    from croupier.analysis.three_card_poker import solver as tabulated

    bonus = tabulated.ante_bonus_by_class(game.paytable("ante_bonus"))
    scale = lcm(*(b.denominator for b in bonus))
    hands, values, masks = tabulated.all_hands()
    member = np.zeros((len(hands), 52), dtype=np.float64)
    for i in range(3):
        member[np.arange(len(hands)), hands[:, i]] = 1.0
    qualifies = tabulated.qualifying()
    canon = tabulated.canonical()
    reps, weights, rep_masks, rep_values = canon.cards, canon.weights, canon.masks, canon.values
    own = np.zeros((len(reps), 52), dtype=bool)
    for i in range(3):
        own[np.arange(len(reps)), reps[:, i]] = True
    extra = np.array([int(b * scale) for b in bonus], dtype=np.int64)
    fold = tabulated.fold_net() * scale
    base = info = changed = states = 0
    for start in range(0, len(reps), 128):  # every sum is an integer below 2**53: exact in floats
        rows = slice(start, start + 128)
        value = rep_values[rows, None]
        live = (masks[None, :] & rep_masks[rows, None]) == 0
        # net of a played hand against each dealer hand, in 1/scale Ante (the Play = the Ante)
        net = tabulated.played_net(value, values[None, :], qualifies[None, :])
        contrib = np.where(live, net * scale + extra[rows, None], 0).astype(np.float64)
        total = contrib.sum(axis=1).round().astype(np.int64)
        count = live.sum(axis=1).astype(np.int64)
        by_card = (contrib @ member).round().astype(np.int64)
        n_card = (live.astype(np.float64) @ member).round().astype(np.int64)
        if known == "dealer-card":
            play, n = by_card, n_card
        else:
            play, n = total[:, None] - by_card, count[:, None] - n_card
        seen = ~own[rows]
        w = weights[rows].astype(np.int64)
        best = np.maximum(play, fold * n)
        base += int((w * np.maximum(total, fold * count)).sum())
        info += int((w[:, None] * np.where(seen, best, 0)).sum())
        flips = ((play > fold * n) != (total > fold * count)[:, None]) & seen
        changed += int((w[:, None] * flips).sum())
        states += int((w[:, None] * seen).sum())
    per_rep = 3 * comb(49, 3) if known == "dealer-card" else 49 * comb(48, 3)
    edge_without = Fraction(-base, comb(52, 3) * comb(49, 3) * scale)
    edge_with = Fraction(-info, comb(52, 3) * per_rep * scale)
    note = (
        "one of the dealer's three cards seen before the decision"
        if known == "dealer-card"
        else "one card out of play seen before the decision"
    )
    return Protection(
        game=game.slug,
        known=known,
        colluders=colluders,
        edge_without=edge_without,
        edge_with=edge_with,
        changed=Fraction(changed, states),
        states=states,
        note=note + "; Ante/Play per unit Ante, the Ante Bonus in force; ties fold",
    )


def price(game: Game, ask: Ask) -> Protection:
    """§ 649a: the dealer's cards and the cards out of play are never shown."""
    assert isinstance(game, ThreeCardPoker)  # this game's face
    if ask.known is not None:
        return _exact(game, ask.known, ask.colluders)
    gains = tcp_colluder_gains(game.paytable("ante_bonus"), ask.colluders, ask.n, ask.seed)
    return from_gains(game, ask.kind, ask.colluders, gains, ask.share + "; Ante/Play per unit Ante")


PROTECT = Protect(price=price, samples=3000)
"""Sampled deals for the colluders (the seen cards are counted exactly)."""
