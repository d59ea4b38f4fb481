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

Four Card Poker (§ 641a, the Ante Bonus of § 641a.12(b)), per unit Ante:

* ``dealer-card``: one of the dealer's five face-down cards seen (a second dealer card flashed
  beside the up card);
* ``burn-card``: one card out of play seen;
* ``colluders`` N: the other N - 1 seats' five cards each shared.

Each sampled (player hand, up card) is counted over all 1,370,754 hidden completions and split
by the card seen, so the information is exact given the deal; the deals are sampled.

Mississippi Stud (§ 571), per unit Ante: ``burn-card`` (exact: the 169 suit classes of two
cards times the 50 burnt) and ``colluders`` N, the others' two cards each shared, which
§ 571.11(k) forbids (exact for two seats: 169 classes times the 1,225 pairs; sampled for
more).  Three Card Poker ``colluders`` N (sampled, exact over the dealer's hands of the rest).

Sampled values are ``edge without - mean gain`` over the sample
(:mod:`croupier.analysis._protect_games`), with the gain's standard error.

Ultimate Texas Hold 'Em (§ 569), per unit Ante (Ante, Blind and Play), every figure sampled
with its standard error:

* ``dealer-card``: one of the dealer's two hole cards seen; ``dealer-cards``: both.  Each
  sampled (player's two, dealer's two) is played exactly over every board (and the dealer's
  other card), flop first, with the best decision on every street
  (:func:`croupier.analysis._protect_kernels.uth_seen_dealer`); its value less the exact value
  of the player's starting hand without the information (the solver's) is the gain, so the
  spread of starting hands is not in the standard error.
* ``burn-card`` and ``colluders`` N (the other N - 1 seats' two cards each): each sampled
  player hand walks every board of the other 50 cards and every dealer holding once, for
  several sets of dead cards at a time (:func:`croupier.analysis._protect_kernels.
  uth_info_sets`): the best play with the dead cards known and the solver's play without them,
  both exact over the live cards, paired.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from typing import Any

import numpy as np

from croupier.analysis import par_sheet
from croupier.analysis._protect_games import (
    Gains,
    fcp_gains,
    ms_exact,
    ms_gains,
    tcp_colluder_gains,
    uth_dead_gains,
    uth_seen_gains,
)
from croupier.analysis.par import exact
from croupier.errors import InvalidInput
from croupier.games import Game
from croupier.games.four_card_poker import FourCardPoker
from croupier.games.mississippi_stud import MississippiStud
from croupier.games.three_card_poker import ThreeCardPoker
from croupier.games.ultimate_texas_holdem import UltimateTexasHoldem

__all__ = ["DEFAULT_SAMPLES", "KNOWN", "UTH_SAMPLES", "Protection", "protect"]

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


def _three_card(game: ThreeCardPoker, known: str, colluders: int) -> Protection:
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


DEFAULT_SAMPLES = {
    "four-card-poker": 300,
    "mississippi-stud": 4000,
    "three-card-poker": 3000,
}
"""Sampled deals per game where the states are too many to count (each Four Card Poker deal is
1,370,754 completions counted; a Mississippi Stud one about 110,000); Ultimate Texas Hold 'Em's
are :data:`UTH_SAMPLES`."""


def _from_gains(game: Game, known: str, colluders: int, gains: Gains, note: str) -> Protection:
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


UTH_SAMPLES = {"dealer-card": 60, "dealer-cards": 400, "burn-card": 3, "shared-cards": 3}
"""Ultimate Texas Hold 'Em's default sample by the information: deals for the hole cards seen
(one: about 84 million dealer hands counted per deal; both: 1.7 million), player hands for dead
cards (each walks all 2,118,760 boards times 990 dealer holdings once, for
:data:`~croupier.analysis._protect_games.UTH_SETS_PER_HAND` sets of dead cards)."""


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
    return _from_gains(game, kind, colluders, gains, note)


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
    many deals (default: every state where the size allows, else :data:`DEFAULT_SAMPLES`);
    ``seed`` seeds the sample (an analysis generator, never a deal).
    """
    kind = _verify(known, colluders, samples)
    if kind == "dealer-cards" and not isinstance(game, UltimateTexasHoldem):
        raise InvalidInput(
            f"{game.slug}: --known dealer-cards (both hole cards) is Ultimate Texas Hold 'Em's; "
            "use --known dealer-card"
        )
    others = "the other colluding seat's" if colluders == 2 else f"the {colluders - 1} others'"
    share = f"{others} cards seen"
    n = samples or DEFAULT_SAMPLES.get(game.slug, 0)
    if isinstance(game, ThreeCardPoker):
        if known is not None:
            return _three_card(game, known, colluders)
        gains = tcp_colluder_gains(game.paytable("ante_bonus"), colluders, n, seed)
        return _from_gains(game, kind, colluders, gains, share + "; Ante/Play per unit Ante")
    if isinstance(game, FourCardPoker):
        gains = fcp_gains(kind, colluders, n, seed)
        what = {
            "dealer-card": "one of the dealer's five face-down cards seen",
            "burn-card": "one card out of play seen",
        }.get(kind, share)
        note = what + "; Ante/Play/Ante Bonus per unit Ante, exact given each sampled deal"
        return _from_gains(game, kind, colluders, gains, note)
    if isinstance(game, MississippiStud):
        if known == "dealer-card":
            raise InvalidInput(
                "mississippi-stud: there is no dealer hand (§ 571.1, §§ 571.8-571.10: two cards "
                "a player and three community cards); use --known burn-card or --colluders"
            )
        if known == "burn-card":
            gains = ms_exact(1) if samples is None else ms_gains(1, n, seed)
            return _from_gains(game, kind, colluders, gains, "one card out of play seen")
        dead = 2 * (colluders - 1)
        # two seats: 169 x 1,225 states, counted; more seats: sampled
        gains = ms_exact(dead) if samples is None and dead == 2 else ms_gains(dead, n, seed)
        note = share + " (§ 571.11(k) forbids it); street bets per unit Ante"
        return _from_gains(game, kind, colluders, gains, note)
    if isinstance(game, UltimateTexasHoldem):
        return _holdem(game, kind, colluders, samples, seed)
    raise InvalidInput(
        f"{game.slug}: the value of forbidden information is not priced yet (have: "
        f"{ThreeCardPoker.slug}, {FourCardPoker.slug}, {MississippiStud.slug}, "
        f"{UltimateTexasHoldem.slug}); it needs the "
        "game's solver re-run per information state"
    )
