"""Seeded play of every game, digested: what ``tests/test_native.py`` compares between the
compiled engine and the source (``CROUPIER_PURE=1``), in two processes.

Run ``python tests/native_play.py ROUNDS``: prints one JSON object, the modules imported from
their compiled builds and, per game, the SHA-256 of everything the rounds produced: each record,
each point of view's view after every step (two players, the dealer, the public, the
supervisor), the text of two refusals at each decision (a reveal before the
decisions are made, a wager after "no more bets") and ``simulate``'s whole JSON result.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from croupier._native import compiled_modules
from croupier.analysis.simulate import simulate
from croupier.core.errors import CroupierError
from croupier.games import GAMES, Round, get_game
from croupier.games.pov import Pov
from croupier.games.records import PlaceWager, ReportIrregularity, Reveal, record_to_json
from croupier.games.round import ActorKind
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import SeededShuffler, Shoe


def _views(rnd: Round) -> list[Any]:
    seats = rnd.active_seats
    povs = [Pov.dealer(), Pov.public(), Pov.supervisor(), *(Pov.player(s) for s in seats[:2])]
    return [rnd.view(pov).to_json() for pov in povs]


def _refused(rnd: Round, action: Any) -> str:
    try:
        rnd.apply(action)
    except CroupierError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "applied"


def _play(slug: str, rng: SeededShuffler, out: list[Any]) -> None:
    rnd = get_game(slug).new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters())
    for seat in [s for s in rnd.players if rng.randbelow(2)] or [3]:
        for action in rnd.house_wagers(seat, unit=100 * (1 + rng.randbelow(10))):
            rnd.apply(action)
    rnd.apply(rnd.dealer_no_more_bets())
    while not rnd.is_over:
        out.append(_views(rnd))
        if rnd.to_act().kind is ActorKind.SEAT:
            out.append(_refused(rnd, Reveal()))  # not yet: a seat decides
            out.append(_refused(rnd, PlaceWager(seat=1, wager="ante", amount=100)))
            choices = [a for a in rnd.legal_actions() if not isinstance(a, ReportIrregularity)]
            rnd.apply(choices[rng.randbelow(len(choices))])
        elif rng.randbelow(40) == 0 and (
            irregular := [a for a in rnd.legal_actions() if isinstance(a, ReportIrregularity)]
        ):
            rnd.apply(irregular[rng.randbelow(len(irregular))])
        else:
            rnd.apply(rnd.dealer_step())
    out.append(_views(rnd))
    out.append([record_to_json(r) for r in rnd.records])


def digests(rounds: int) -> dict[str, str]:
    found = {}
    for slug in sorted(GAMES):
        out: list[Any] = []
        rng = SeededShuffler(f"native-{slug}")
        for _ in range(rounds):
            _play(slug, rng, out)
        out.append(simulate(get_game(slug), rounds=rounds, seed=11).to_json())
        text = json.dumps(out, sort_keys=True, default=str)
        found[slug] = hashlib.sha256(text.encode()).hexdigest()
    return found


if __name__ == "__main__":
    count = int(sys.argv[1])
    print(json.dumps({"compiled": list(compiled_modules()), "digests": digests(count)}))
