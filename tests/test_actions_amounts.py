"""The chip amounts ``GET /api/tables/{id}/actions`` offers for a wager: only those the round
accepts, asked of ``Round.can`` among the chip ladder's amounts within the wager's posted limits
(or the one amount its Rules Submission fixes).  Checked against every amount of the whole
ladder asked of the round, at every step of the betting of random rounds of every game and
rule set, and of every demo table's rules, which post limits for each wager (the amounts
outside the limits are refused by the round all the same)."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.games import GAMES, Round, get_game
from croupier.games.records import PlaceWager
from croupier.games.round import Phase
from croupier.rules.progressive import MemoryMeters
from croupier.server.actions import CHIP_LADDER, seat_actions
from croupier.server.demo import demo_rules
from croupier.table.shoe import SeededShuffler, Shoe
from test_pov import CASES, rule_sets


def _every_amount(rnd: Round, seat: int) -> list[dict[str, object]]:
    """The wagers open to ``seat`` with every amount of the whole ladder the round accepts."""
    ends = {v for limit in rnd.game.posted_limits().values() for v in limit.values()}
    ladder = sorted({*CHIP_LADDER, *ends, *rnd.stakes.get(seat, {}).values()})
    out: list[dict[str, object]] = []
    for wager in rnd.game.offered_wagers():
        if wager in rnd.game.decision_wagers:
            continue
        amounts = [a for a in ladder if rnd.can(PlaceWager(seat=seat, wager=wager, amount=a))]
        if amounts:
            out.append({"seat": seat, "wager": wager, "amounts": amounts})
    return out


def _same_as_every_amount(rnd: Round) -> int:
    offered = 0
    for seat in rnd.players:
        wagers = seat_actions(rnd, frozenset({seat}))["wagers"]
        assert wagers == _every_amount(rnd, seat), (rnd.game.slug, seat)
        offered += sum(len(w["amounts"]) for w in wagers)
    return offered


DEMO = demo_rules()
RULES = [
    *((f"{slug}-{i}", rule_sets(GAMES[slug])[i]) for slug, i in CASES),
    *((f"demo-{name}", rules) for name, rules in sorted(DEMO.items())),
]


@pytest.mark.parametrize(("name", "rules"), RULES, ids=[name for name, _ in RULES])
def test_the_amounts_offered_are_every_ladder_amount_the_round_accepts(
    name: str, rules: dict[str, Any]
) -> None:
    game = get_game(rules)
    rng = SeededShuffler(f"amounts-{name}")
    offered = 0
    for _ in range(3):
        rnd = game.new_round(shoe=Shoe.shuffled(rng), meters=MemoryMeters())
        offered += _same_as_every_amount(rnd)
        for seat in [s for s in rnd.players if rng.randbelow(2)] or [4]:
            for action in rnd.house_wagers(seat, unit=500 * (1 + rng.randbelow(6))):
                rnd.apply(action)
                offered += _same_as_every_amount(rnd)
        assert rnd.phase is Phase.BETTING
    assert offered > 0
