"""Game protection: what information the rules forbid is worth to a player, exactly.

A table-games department polices some leaks harder than others (a dealer flashing a card, a
burn card exposed, players sharing their hands).  The value of a leak is the house edge the
player reaches with that information under the best strategy that uses it, beside the edge
without it.  Each figure here is exact: every deal is walked and the decision is re-optimised in
every information state.

Three Card Poker (the Ante/Play decision, § 649a; the Ante Bonus as in force):

* ``dealer-card``: one of the dealer's three cards is seen before the decision (a flashed
  card); each dealer hand counts once for each of its cards, so the flashed card is any of the
  three alike.
* ``burn-card``: one card that will not be in play is seen (a burn card or a card exposed from
  the stub); the dealer's hand is three of the other 48.

Sharing hands among colluding seats, and the heavier games (Four Card Poker's second dealer
card, Ultimate Texas Hold 'Em's hole cards, Mississippi Stud's shared cards of § 571.11(k)), need
their solvers re-run per information state; :func:`protect` refuses them with that reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from typing import Any

import numpy as np

from croupier.analysis.par import exact
from croupier.errors import InvalidInput
from croupier.games import Game
from croupier.games.three_card_poker import ThreeCardPoker

__all__ = ["KNOWN", "Protection", "protect"]

KNOWN = ("dealer-card", "burn-card")
"""The kinds of forbidden information priced."""


@dataclass(frozen=True, slots=True)
class Protection:
    """The edge with and without one piece of forbidden information."""

    game: str
    known: str
    colluders: int
    edge_without: Fraction
    edge_with: Fraction
    changed: Fraction
    """Share of information states in which the information changes the optimal decision."""
    states: int
    note: str

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
            "decisions_changed": float(self.changed),
            "information_states": self.states,
            "note": self.note,
        }


def _three_card(game: ThreeCardPoker, known: str, colluders: int) -> Protection:
    from croupier.analysis import _three_card as tabulated

    if colluders != 1:
        raise InvalidInput(
            "three-card-poker: sharing hands among colluders is not priced yet (the 18,424 "
            "dealer hands per shared set make it a solver run of its own)"
        )
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


def protect(game: Game, known: str, colluders: int = 1) -> Protection:
    """The house edge of ``game`` with the forbidden information ``known`` (one of
    :data:`KNOWN`), against the edge without it; ``colluders``: seats sharing their hands."""
    if known not in KNOWN:
        raise InvalidInput(f"--known {known!r}: one of {', '.join(KNOWN)}")
    if isinstance(colluders, bool) or not isinstance(colluders, int) or not 1 <= colluders <= 6:
        raise InvalidInput(f"--colluders {colluders!r} must be from 1 to 6")
    if not isinstance(game, ThreeCardPoker):
        raise InvalidInput(
            f"{game.slug}: the value of forbidden information is not priced yet (have: "
            f"{ThreeCardPoker.slug}); it needs the game's solver re-run per information state"
        )
    return _three_card(game, known, colluders)
