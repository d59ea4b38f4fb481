"""One conformance test run on every game in the registry (OpenSpiel style).

Random legal rounds (seeded) must: settle every wager placed exactly once with a consistent
result; keep the progressive meter's books; refuse every illegal action without changing
anything; and rebuild from their records into an equal round.
"""

from __future__ import annotations

import itertools
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from croupier.core.errors import CroupierError
from croupier.games import GAMES, Game, Round, get_game
from croupier.games.baccarat import VigCollected, VigMarked
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    Action,
    EnvyPaid,
    Fold,
    IrregularityKind,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    Play,
    PlayWagered,
    ProgressivePaid,
    ReportIrregularity,
    Result,
    VoidRound,
    WagerPlaced,
    WagerSettled,
)
from croupier.games.round import ActorKind, Phase
from croupier.rules.progressive import MemoryMeters
from croupier.store.codec import record_from_json
from croupier.table import scenario_events as events
from croupier.table.scenario import LIBRARY, load_scenario, run_scenario
from croupier.table.shoe import SeededShuffler, Shoe

ROUNDS = int(os.environ.get("CROUPIER_CONFORMANCE_ROUNDS", "60"))
"""Random rounds per game and rule set (raise it for a longer run of the same test)."""
PROBES: Counter[str] = Counter()
"""Illegal probes refused so far, by action name (read by a measuring script; printed never)."""


def rule_sets(cls: type[Game]) -> list[dict[str, Any]]:
    return (
        [{"game": cls.slug}, dict(cls.example_rules)] if cls.example_rules else [{"game": cls.slug}]
    )


CASES = [(slug, i) for slug, cls in GAMES.items() for i in range(len(rule_sets(cls)))]


def snapshot(rnd: Round) -> tuple[Any, ...]:
    meters = rnd.meters.snapshot() if isinstance(rnd.meters, MemoryMeters) else None
    return (
        len(rnd.records),
        repr(rnd.stakes),
        rnd.phase,
        rnd.cards_left,
        repr(supervisor_hands(rnd)),
        meters,
    )


def illegal_probes(rnd: Round, rng: SeededShuffler) -> list[Action]:
    """Actions of every kind, most of them illegal now."""
    seat = 1 + rng.randbelow(7)
    probes: list[Action] = [
        PlaceWager(seat=seat, wager=rnd.game.wagers[0], amount=0),
        PlaceWager(seat=seat, wager="no_such_wager", amount=500),
        PlaceWager(seat=seat, wager=rnd.game.wagers[0], amount=-5),
        Play(seat=seat, multiple=9),
        Fold(seat=seat),
        NoMoreBets(),
        *(ReportIrregularity(kind=k) for k in IrregularityKind),
        VoidRound(by="probe", reason="probe"),
        Play(seat=seat, amount=1),
        Play(seat=seat, multiple=1, amount=100),
    ]
    tampered = PlaceWager(seat=seat, wager=rnd.game.wagers[0], amount=500)
    object.__setattr__(tampered, "amount", 2.5)  # made, then forged: refused all the same
    probes.append(tampered)
    for action in rnd.legal_actions():
        if isinstance(action, Play):
            probes.append(Play(seat=action.seat % 7 + 1, multiple=action.multiple))
    return probes


def play_random_round(game: Game, rng: SeededShuffler, meters: MemoryMeters) -> Round:
    players = {s: f"P{s}" for s in (1, 2, 3, 4, 5, 6, 7)}
    rnd = game.new_round(shoe=Shoe.shuffled(rng), meters=meters, players=players)
    seats = [s for s in players if rng.randbelow(3)] or [4]
    for seat in seats:
        for action in rnd.house_wagers(seat, unit=100 * (1 + rng.randbelow(10))):
            rnd.apply(action)
        for wager in rnd.game.offered_wagers():
            if wager in rnd.game.decision_wagers or wager in rnd.stakes[seat] or rng.randbelow(2):
                continue
            amount = (
                rnd.game.rules.progressive.wager
                if wager == "progressive" and rnd.game.rules.progressive
                else 500
            )
            action = PlaceWager(seat=seat, wager=wager, amount=amount)
            if rnd.can(action):
                rnd.apply(action)
    rnd.apply(rnd.dealer_no_more_bets())
    while not rnd.is_over:
        for probe in illegal_probes(rnd, rng):
            if not rnd.can(probe):
                before = snapshot(rnd)
                with pytest.raises(CroupierError):
                    rnd.apply(probe)
                assert snapshot(rnd) == before, probe
                PROBES[probe.name] += 1
        if rng.randbelow(400) == 0:
            irregular = [a for a in rnd.legal_actions() if isinstance(a, ReportIrregularity)]
            if irregular:
                rnd.apply(irregular[rng.randbelow(len(irregular))])
                continue
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT:
            choices = [a for a in rnd.legal_actions() if not isinstance(a, ReportIrregularity)]
            rnd.apply(choices[rng.randbelow(len(choices))])
        else:
            rnd.apply(rnd.dealer_step())
    return rnd


def check_books(rnd: Round) -> None:
    placed = Counter(
        (r.seat, r.wager) for r in rnd.records if isinstance(r, WagerPlaced | PlayWagered)
    )
    settled = [r for r in rnd.records if isinstance(r, WagerSettled) and r.stake > 0]
    assert Counter((r.seat, r.wager) for r in settled) == placed
    for r in settled:
        if r.result in (Result.LOSE, Result.FORFEIT):
            assert (r.paid, r.returned) == (0, 0), r
        elif r.result in (Result.PUSH, Result.VOID):
            assert (r.paid, r.returned) == (0, r.stake), r
        else:
            assert r.paid > 0 and r.returned in (0, r.stake), r
    if rnd.phase is Phase.VOID:
        # A void returns only what is still open: a seat loses exactly what it forfeited
        # before the void, and nothing is paid.
        forfeited: Counter[int] = Counter()
        for r in settled:
            if r.result is Result.FORFEIT:
                forfeited[r.seat] += r.stake
            else:  # returned by the void, or taken back before it (Let It Ride's pull)
                assert r.result in (Result.VOID, Result.PUSH), r
        assert {int(s): -v["net"] for s, v in rnd.settlement().items() if v["net"]} == {
            s: n for s, n in forfeited.items() if n
        }
        assert not [r for r in rnd.records if isinstance(r, EnvyPaid)]
    # the chip books: every accepted wager's stake is returned or collected, exactly once
    accepted = sum(r.amount for r in rnd.records if isinstance(r, WagerPlaced | PlayWagered))
    returned = sum(r.returned for r in settled)
    collected = sum(r.stake - r.returned for r in settled)
    assert returned + collected == accepted
    paid = sum(r.paid for r in rnd.records if isinstance(r, WagerSettled))
    paid += sum(r.amount for r in rnd.records if isinstance(r, EnvyPaid))
    if type(rnd).books is Round.books:  # baccarat's nets also take the commission
        assert sum(v["net"] for v in rnd.settlement().values()) == paid + returned - accepted
    moves = [r for r in rnd.records if isinstance(r, MeterChanged)]
    for before, after in itertools.pairwise(moves):
        if before.meter == after.meter:
            assert after.before == before.after


def house_result(rnd: Round) -> int:
    """What the house's chip tray won in the round, read from the records on the house's side.

    The tray keeps every stake not returned and pays every payout except a share of a meter
    (paid from the meter), every Envy Bonus, and takes the commission (collected, or marked as
    owed).  It funds the meter: each contribution or void take-back moves chips between the tray
    and the meter, and after an award the tray brings the meter back up to its reset amount
    (§ 641a.12(d)(3) and the other chapters' reset rules).
    """
    resets = {spec.name: spec.reset for _, spec in rnd.contribution_meters()}
    if rnd.game.meter_spec is not None:
        resets[rnd.game.meter_spec.name] = rnd.game.meter_spec.reset
    tray = 0
    award: MeterChanged | None = None
    for r in rnd.records:
        if isinstance(r, WagerSettled):
            tray += r.stake - r.returned - r.paid
        elif isinstance(r, EnvyPaid):
            tray -= r.amount
        elif isinstance(r, VigCollected | VigMarked):
            tray += r.amount
        elif isinstance(r, MeterChanged) and r.reason == "award":
            award = r
        elif isinstance(r, MeterChanged):  # a contribution, or a void taking it back
            assert r.reason in ("contribution", "void"), r
            tray -= r.after - r.before
        elif isinstance(r, ProgressivePaid) and award is not None:
            assert award.meter == r.meter, (award, r)
            tray += r.amount  # the meter paid it, not the tray
            tray -= max(0, resets[r.meter] - (award.before - r.amount))  # the reset
            award = None
    assert award is None, f"{award} paid nobody"
    return tray


def check_chips_balance(rnd: Round, meters_before: dict[str, int], meters: MemoryMeters) -> None:
    """The books balance in chips, to the cent: the players' nets (the settlement they are
    shown), the house's tray and the meters' movement (the meter bank itself) sum to zero."""
    players = sum(int(v["net"]) for v in rnd.settlement().values())
    resets = {spec.name: spec.reset for _, spec in rnd.contribution_meters()}
    after = meters.snapshot()
    moved = sum(after[m] - meters_before.get(m, resets.get(m, 0)) for m in after)
    assert players + house_result(rnd) + moved == 0, (players, house_result(rnd), moved)
    if rnd.phase is not Phase.VOID:  # each accepted progressive wager fed its meter's rate
        placed = [r for r in rnd.records if isinstance(r, WagerPlaced)]
        for wager, spec in rnd.contribution_meters():
            stakes = sum(r.amount for r in placed if r.wager == wager)
            assert rnd.contributions.get(spec.name, 0) == spec.rate * stakes, (wager, spec)


@pytest.mark.parametrize(("slug", "rules_index"), CASES)
def test_random_rounds_conserve_chips_refuse_illegal_actions_and_rebuild(
    slug: str, rules_index: int
) -> None:
    rules = rule_sets(GAMES[slug])[rules_index]
    game = get_game(rules)
    rng = SeededShuffler(f"conformance-{slug}-{rules_index}")
    meters = MemoryMeters()
    phases: Counter[str] = Counter()
    for _ in range(ROUNDS):
        before = meters.snapshot()
        rnd = play_random_round(game, rng, meters)
        phases[rnd.phase.value] += 1
        check_books(rnd)
        check_chips_balance(rnd, before, meters)
        rebuilt = Round.rebuild(game, rnd.records, players=rnd.players)
        assert rebuilt.records == rnd.records
        assert rebuilt.settlement() == rnd.settlement()
    assert phases["over"] > ROUNDS // 2


SCENARIOS = sorted(LIBRARY.glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_balances_its_books_in_chips_and_rebuilds(path: Path) -> None:
    """The stacked scenarios reach what random rounds rarely do (a meter award and its reset,
    Envy Bonuses, a void after the deal): each round, rebuilt from its JSON hand history, is
    the round replayed, and its books balance."""
    data = load_scenario(path)
    result = run_scenario(data)
    happened = events.parse_events(data.get("events"))
    game, _ = events.table_before(
        get_game({**data.get("rules", {}), "game": data["game"]}), happened
    )
    records = [record_from_json(r) for r in result["records"]]
    rnd = Round.rebuild(game, records, stub_check=events.stub_check(happened))
    assert rnd.history() == result["records"] and rnd.settlement() == result["seats"]
    assert isinstance(rnd.meters, MemoryMeters)
    assert rnd.meters.snapshot() == {m: v["after"] for m, v in result["meters"].items()}
    check_books(rnd)
    check_chips_balance(rnd, dict(data.get("meters", {})), rnd.meters)


def test_every_record_kind_names_one_class() -> None:
    """The hand history is decoded by ``kind``: no two record classes may share one."""
    from croupier.store import record_classes

    classes = record_classes()
    assert {"wager_placed", "wager_settled", "card_dealt"} <= set(classes)


def test_every_alias_names_one_game() -> None:
    from croupier.games import game_class

    seen: dict[str, str] = {}
    for slug, cls in GAMES.items():
        for alias in cls.aliases:
            assert alias not in GAMES and seen.setdefault(alias, slug) == slug, alias
            assert game_class(alias).slug == slug
