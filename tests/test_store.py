"""Tests of persistence (croupier.store): exact shared progressive meters with their § 605a.7(a)
payout meter and ledger, and every round's records surviving restarts and crashes."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from dataclasses import fields
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

import pytest
from sqlalchemy import Engine

from croupier.audit.chains import verify
from croupier.core.cards import DECK, Card
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.games import get_game
from croupier.games.base import Game
from croupier.games.records import (
    CardDealt,
    IrregularityKind,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    Play,
    ProgressivePaid,
    Record,
    ReportIrregularity,
    Result,
    Reveal,
    RoundVoided,
    Settle,
    WagerPlaced,
    WagerSettled,
    record_to_json,
)
from croupier.games.round import Phase, Round
from croupier.rules.progressive import MemoryMeters, MeterSpec, pay_share
from croupier.rules.submission import load_rules
from croupier.store import (
    RoundStatus,
    RoundStore,
    SqlMeters,
    TrackedRound,
    commitment,
    open_engine,
    record_classes,
    record_from_json,
    rules_to_json,
)
from croupier.store import rounds as store_rounds
from croupier.table.shoe import SeededShuffler, Shoe, StackedShoe
from store_play import GAME_FILES, RULES_DIR

RESET = 500_000
RULES: dict[str, Any] = {
    "game": "four-card-poker",
    "paytables": {"aces_up": "B"},
    "progressive": {
        "paytable": "A",
        "envy": "A",
        "wager": 100,
        "reset": RESET,
        "rate": "0.25",
        "meter": "4cp",
    },
}
SPEC = MeterSpec(name="4cp", reset=RESET, rate=Fraction(1, 4))
FOUR_ACES = "As Kd Ah Qd Ad Jd Ac 9d 2c 8d 7s"
"""Seat 1 alone: As Ah Ad Ac 2c; the dealer Kd Qd Jd 9d 8d and 7s face up."""


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'casino.sqlite'}"


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    engine = open_engine(url)
    yield engine
    engine.dispose()


@pytest.fixture
def game() -> Game:
    return get_game(RULES)


def play_to_decision(rnd: Round | TrackedRound) -> None:
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(NoMoreBets())
    rnd.run_dealer()


# --- the record codec -------------------------------------------------------------------------


def _sample(hint: Any) -> Any:
    origin = get_origin(hint)
    if origin is tuple:
        return (Card.parse("As"), Card.parse("10h"))
    if get_args(hint) and type(None) in get_args(hint):
        return _sample(next(a for a in get_args(hint) if a is not type(None)))
    if hint is Card:
        return Card.parse("Kd")
    if isinstance(hint, type) and issubclass(hint, Enum):
        return list(hint)[-1]
    return {bool: True, int: 7, str: "§ 641a.11"}[hint]


def test_record_from_json_inverts_record_to_json_for_every_record_class() -> None:
    classes = record_classes()
    assert {"wager_placed", "card_dealt", "dealer_revealed", "wager_settled"} <= set(classes)
    for kind, cls in classes.items():
        hints = get_type_hints(cls)
        record = cls(**{f.name: _sample(hints[f.name]) for f in fields(cls)})
        data = json.loads(json.dumps(record_to_json(record)))
        assert data["kind"] == kind
        back = record_from_json(data)
        assert back == record and type(back) is cls


def test_record_from_json_decodes_a_played_round(game: Game) -> None:
    rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(7)))
    play_to_decision(rnd)
    rnd.apply(Play(seat=1, multiple=3))
    rnd.run_dealer()
    assert rnd.is_over
    assert [record_from_json(record_to_json(r)) for r in rnd.records] == list(rnd.records)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "no_such_record"},
        {"kind": "wager_placed", "seat": 1, "wager": "ante"},
        {"kind": "wager_placed", "seat": True, "wager": "ante", "amount": 5},
        {"kind": "wager_placed", "seat": 1, "wager": "ante", "amount": 5, "extra": 1},
        {"kind": "card_dealt", "card": "Zz", "to": "1"},
        {"kind": "irregularity", "irregularity": "gremlins", "section": "", "consequence": ""},
        ["wager_placed"],
    ],
)
def test_record_from_json_refuses_what_no_record_wrote(data: Any) -> None:
    with pytest.raises(InvalidInput):
        record_from_json(data)


def test_rules_to_json_round_trips_the_rules_submission(game: Game) -> None:
    data = json.loads(json.dumps(rules_to_json(game.rules)))
    assert load_rules(data) == game.rules
    assert get_game(data).rules == game.rules


# --- exact meters -----------------------------------------------------------------------------


def test_meter_is_created_once_at_its_reset_amount(url: str) -> None:
    with SqlMeters(url) as meters:
        assert meters.ensure(SPEC) == RESET
        meters.contribute("4cp", Fraction(25))
        assert meters.ensure(SPEC) == RESET + 25
        assert meters.snapshot() == {"4cp": RESET + 25}
        state = meters.state("4cp")
        assert (state.reset, state.rate, state.amount) == (RESET, Fraction(1, 4), RESET + 25)


def test_contributions_of_a_third_of_a_cent_thrice_add_exactly_one_cent(url: str) -> None:
    with SqlMeters(url) as meters:
        meters.ensure(SPEC)
        moves = [meters.contribute("4cp", Fraction(1, 3)) for _ in range(3)]
        assert [(m.before, m.after) for m in moves] == [
            (RESET, RESET),
            (RESET, RESET),
            (RESET, RESET + 1),
        ]
        assert meters.exact("4cp") == RESET + 1
        assert meters.amount("4cp") == RESET + 1


def test_fraction_of_a_cent_survives_reopening_the_database(url: str) -> None:
    with SqlMeters(url) as meters:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(2, 3))
        meters.contribute("4cp", Fraction(7, 40))
    with SqlMeters(url) as reopened:
        assert reopened.exact("4cp") == RESET + Fraction(2, 3) + Fraction(7, 40)
        assert reopened.amount("4cp") == RESET


def test_void_reversal_restores_the_exact_amount(url: str) -> None:
    with SqlMeters(url) as meters:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(1, 3))
        before = meters.exact("4cp")
        meters.contribute("4cp", Fraction(5, 4))
        move = meters.contribute("4cp", Fraction(-5, 4))
        assert meters.exact("4cp") == before
        assert (move.before, move.after) == (RESET + 1, RESET)
        assert meters.ledger("4cp")[-1].reason == "void"
        with pytest.raises(InvalidInput):
            meters.contribute("4cp", Fraction(-RESET - 2))


def test_full_award_pays_the_meter_and_resets_it_to_the_reset(url: str) -> None:
    with SqlMeters(url) as meters:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(12_345) + Fraction(1, 4))
        move = meters.pay("4cp", Fraction(1), RESET)
        assert (move.before, move.paid, move.after) == (RESET + 12_345, RESET + 12_345, RESET)
        assert meters.exact("4cp") == RESET


def test_569_12_ten_percent_award_takes_ten_percent_never_below_reset(url: str) -> None:
    spec = MeterSpec(name="lir", reset=2_500_000, rate=Fraction(1, 10))
    with SqlMeters(url) as meters:
        meters.ensure(spec)
        meters.contribute("lir", Fraction(500_000) + Fraction(1, 2))
        exact = meters.exact("lir")
        move = meters.pay("lir", Fraction(1, 10), spec.reset)
        assert (move.paid, meters.exact("lir")) == pay_share(exact, Fraction(1, 10), spec.reset)
        assert move.paid == 300_000
        assert meters.exact("lir") == 2_700_000 + Fraction(1, 2)
        # 10% of 2,700,000.50 is 270,000: taking it off would leave the meter below its reset,
        # so the meter stops at the reset.
        move = meters.pay("lir", Fraction(1, 10), spec.reset)
        assert (move.paid, move.after) == (270_000, spec.reset)
        assert meters.exact("lir") == spec.reset
        assert meters.paid_total("lir") == 570_000


def test_605a_7_cumulative_payout_meter_records_every_award(url: str) -> None:
    with SqlMeters(url) as meters:
        meters.ensure(SPEC)
        paid = []
        for contribution in (Fraction(100_000), Fraction(3, 4), Fraction(40_000)):
            meters.contribute("4cp", contribution)
            paid.append(meters.pay("4cp", Fraction(1, 10), RESET).paid)
        paid.append(meters.pay("4cp", Fraction(1), RESET).paid)
        assert meters.paid_total("4cp") == sum(paid)
        assert meters.state("4cp").awards == 4
        awards = [e for e in meters.ledger("4cp") if e.reason == "award"]
        assert [e.paid for e in awards] == paid
    with SqlMeters(url) as reopened:
        assert reopened.paid_total("4cp") == sum(paid)


def test_605a_7_ledger_explains_every_change_of_the_meter(url: str) -> None:
    with SqlMeters(url) as meters:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(1, 3))
        meters.contribute("4cp", Fraction(50))
        meters.contribute("4cp", Fraction(-50))
        meters.pay("4cp", Fraction(1, 10), RESET)
        meters.pay("4cp", Fraction(1), RESET)
        ledger = meters.ledger("4cp")
        assert [e.reason for e in ledger] == [
            "created",
            "contribution",
            "contribution",
            "void",
            "award",
            "award",
        ]
        assert ledger[0].before_exact == 0 and ledger[0].after_exact == RESET
        for earlier, later in itertools.pairwise(ledger):
            assert later.before_exact == earlier.after_exact
        assert sum(e.change for e in ledger) == meters.exact("4cp")
        for entry in ledger:
            assert entry.before == int(entry.before_exact) and entry.after == int(entry.after_exact)
            assert entry.round_id is None and entry.at.tzinfo is not None


def test_a_meter_that_does_not_exist_is_refused(url: str) -> None:
    with SqlMeters(url) as meters:
        with pytest.raises(IllegalAction):
            meters.amount("nowhere")
        with pytest.raises(IllegalAction):
            meters.contribute("nowhere", Fraction(1))
        with pytest.raises(IllegalAction):
            meters.pay("nowhere", Fraction(1), 100)
        with pytest.raises(InvalidInput):
            meters.contribute("4cp", 0.25)  # type: ignore[arg-type]


def test_two_tables_sharing_a_meter_in_threads_never_lose_an_increment(url: str) -> None:
    rounds_each = 150
    step = Fraction(25) + Fraction(1, 3)
    with SqlMeters(url) as setup:
        setup.ensure(SPEC)
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def table() -> None:
        try:
            with SqlMeters(url) as meters:
                start.wait()
                for _ in range(rounds_each):
                    meters.contribute("4cp", step)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=table) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with SqlMeters(url) as meters:
        assert meters.exact("4cp") == RESET + 2 * rounds_each * step
        ledger = meters.ledger("4cp")
        assert len(ledger) == 1 + 2 * rounds_each
        for earlier, later in itertools.pairwise(ledger):
            assert later.before_exact == earlier.after_exact


def test_two_processes_sharing_a_meter_never_lose_an_increment(url: str, tmp_path: Path) -> None:
    rounds_each = 60
    with SqlMeters(url) as setup:
        setup.ensure(SPEC)
    script = tmp_path / "table.py"
    script.write_text(
        textwrap.dedent(
            f"""
            from fractions import Fraction
            from croupier.store import SqlMeters
            with SqlMeters({url!r}) as meters:
                for _ in range({rounds_each}):
                    meters.contribute("4cp", Fraction(1, 7))
            """
        )
    )
    procs = [subprocess.Popen([sys.executable, str(script)]) for _ in range(2)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    with SqlMeters(url) as meters:
        assert meters.exact("4cp") == RESET + Fraction(2 * rounds_each, 7)


# --- rounds -----------------------------------------------------------------------------------


def test_round_records_survive_closing_and_reopening_the_database(url: str, game: Game) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        rnd = game.new_round(
            shoe=Shoe.shuffled(SeededShuffler(7)), meters=meters, players={1: "Ann", 2: "Bob"}
        )
        tracked = store.track("T1-0001", rnd)
        play_to_decision(tracked)
        tracked.apply(Play(seat=1, multiple=3))
        tracked.run_dealer()
        assert tracked.is_over and tracked.status is RoundStatus.OVER
        records = list(rnd.records)
    with RoundStore(url) as reopened:
        loaded = reopened.load("T1-0001")
        assert loaded == records
        info = reopened.info("T1-0001")
        assert (info.game, info.status, info.records) == ("four-card-poker", "over", len(records))
        assert info.players == {1: "Ann", 2: "Bob"}
        assert get_game(info.rules).rules == game.rules
        assert reopened.open_rounds() == []
        assert list(reopened.rebuild("T1-0001").records) == records


def test_crashed_round_is_listed_open_and_rebuilds_to_the_same_records(
    url: str, game: Game
) -> None:
    meters = SqlMeters(url)
    store = RoundStore(url)
    tracked = store.track(
        "T1-0002", game.new_round(shoe=Shoe.shuffled(SeededShuffler(3)), meters=meters)
    )
    play_to_decision(tracked)
    assert tracked.phase is Phase.DECISIONS
    before_crash = list(tracked.records)
    # The process "crashes": the objects go away without the round finishing.
    del tracked
    meters.close()
    store.close()

    with RoundStore(url) as store, SqlMeters(url) as meters:
        assert [r.round_id for r in store.open_rounds()] == ["T1-0002"]
        loaded = store.load("T1-0002")
        assert loaded == before_crash
        rebuilt = Round.rebuild(store.game("T1-0002"), loaded)
        assert list(rebuilt.records) == loaded
        assert rebuilt.phase is Phase.DECISIONS
        # The contribution committed before the crash is on the meter, marked with the round.
        assert meters.exact("4cp") == RESET + 25
        (entry,) = meters.ledger("4cp", round_id="T1-0002")
        assert (entry.reason, entry.before, entry.after) == ("contribution", RESET, RESET + 25)

        resumed = store.resume("T1-0002", meters)
        resumed.apply(Play(seat=1, multiple=1))
        resumed.run_dealer()
        assert resumed.is_over
        assert store.open_rounds() == []
        assert store.load("T1-0002") == list(resumed.records)
        assert meters.exact("4cp") == RESET + 25


def test_hard_killed_process_leaves_its_round_open_and_its_meter_moves_kept(
    url: str, tmp_path: Path
) -> None:
    script = tmp_path / "dealer.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import os
            from croupier.games import get_game
            from croupier.games.records import DealNext, NoMoreBets, PlaceWager
            from croupier.table.shoe import SeededShuffler, Shoe
            from croupier.store import RoundStore, SqlMeters
            game = get_game({RULES!r})
            meters, store = SqlMeters({url!r}), RoundStore({url!r})
            rnd = store.track("T9-0001", game.new_round(
                shoe=Shoe.shuffled(SeededShuffler(11)), meters=meters))
            rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
            rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
            rnd.apply(NoMoreBets())
            for _ in range(4):
                rnd.apply(DealNext())
            os._exit(9)
            """
        )
    )
    assert subprocess.run([sys.executable, str(script)], check=False).returncode == 9
    with RoundStore(url) as store, SqlMeters(url) as meters:
        (info,) = store.open_rounds()
        assert (info.round_id, info.records) == ("T9-0001", 2 + 2 + 4)
        loaded = store.load("T9-0001")
        rebuilt = Round.rebuild(get_game(info.rules), loaded)
        assert list(rebuilt.records) == loaded and rebuilt.phase is Phase.DEALING
        assert meters.exact("4cp") == RESET + 25
        resumed = store.resume("T9-0001", meters)
        resumed.run_dealer()
        resumed.apply(Play(seat=1, multiple=2))
        resumed.run_dealer()
        assert resumed.status is RoundStatus.OVER
        assert store.load("T9-0001") == list(resumed.records)


def test_progressive_award_from_the_meter_is_stored_with_the_round(url: str, game: Game) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(99_975))
        tracked = store.track("T1-0003", game.new_round(shoe=StackedShoe(FOUR_ACES), meters=meters))
        play_to_decision(tracked)
        tracked.apply(Play(seat=1, multiple=3))
        tracked.run_dealer()
        (award,) = [r for r in tracked.records if isinstance(r, ProgressivePaid)]
        assert (award.line, award.amount, award.from_meter) == ("four_aces", 600_000, True)
        assert meters.exact("4cp") == RESET
        assert meters.paid_total("4cp") == 600_000
        moves = [(e.reason, e.before, e.after, e.paid) for e in meters.ledger(round_id="T1-0003")]
        assert moves == [
            ("contribution", 599_975, 600_000, 0),
            ("award", 600_000, RESET, 600_000),
        ]
        changed = [r for r in store.load("T1-0003") if isinstance(r, MeterChanged)]
        assert [(r.reason, r.before, r.after) for r in changed] == [
            (e[0], e[1], e[2]) for e in moves
        ]


def test_voided_round_takes_its_contribution_off_the_meter_and_is_not_open(
    url: str, game: Game
) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(1, 3))
        tracked = store.track(
            "T1-0004", game.new_round(shoe=Shoe.shuffled(SeededShuffler(5)), meters=meters)
        )
        tracked.apply(PlaceWager(seat=1, wager="ante", amount=500))
        tracked.apply(PlaceWager(seat=1, wager="progressive", amount=100))
        tracked.apply(NoMoreBets())
        assert meters.exact("4cp") == RESET + 25 + Fraction(1, 3)
        tracked.apply(ReportIrregularity(kind=IrregularityKind.DEALER_CARD_EXPOSED))
        assert tracked.status is RoundStatus.VOID
        assert any(isinstance(r, RoundVoided) for r in store.load("T1-0004"))
        assert meters.exact("4cp") == RESET + Fraction(1, 3)
        reasons = [e.reason for e in meters.ledger(round_id="T1-0004")]
        assert reasons == ["contribution", "void"]
        assert store.open_rounds() == []
        assert store.info("T1-0004").status is RoundStatus.VOID
        assert list(store.rebuild("T1-0004").records) == store.load("T1-0004")


def test_refused_action_stores_nothing(url: str, game: Game) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        tracked = store.track(
            "T1-0005", game.new_round(shoe=Shoe.shuffled(SeededShuffler(1)), meters=meters)
        )
        tracked.apply(PlaceWager(seat=1, wager="ante", amount=500))
        with pytest.raises(IllegalAction):
            tracked.apply(Play(seat=1, multiple=3))
        assert store.info("T1-0005").records == 1
        tracked.apply(NoMoreBets())
        assert store.load("T1-0005") == list(tracked.records)


def test_meter_move_rolls_back_with_the_records_when_the_write_fails(
    url: str, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        tracked = store.track(
            "T1-0006", game.new_round(shoe=Shoe.shuffled(SeededShuffler(2)), meters=meters)
        )
        tracked.apply(PlaceWager(seat=1, wager="ante", amount=500))
        tracked.apply(PlaceWager(seat=1, wager="progressive", amount=100))

        def broken(*args: object) -> int:
            raise OSError("disk full")

        with monkeypatch.context() as patch:
            patch.setattr(store, "append_in", broken)
            with pytest.raises(OSError, match="disk full"):
                tracked.apply(NoMoreBets())
        # The contribution joined the records' transaction: neither was kept.
        assert meters.exact("4cp") == RESET
        assert meters.ledger(round_id="T1-0006") == []
        assert store.info("T1-0006").records == 2
        with pytest.raises(IllegalAction, match="resume"):
            tracked.apply(NoMoreBets())
        resumed = store.resume("T1-0006", meters)
        resumed.apply(NoMoreBets())
        assert meters.exact("4cp") == RESET + 25


def test_round_is_stored_once_and_a_second_writer_is_refused(url: str, game: Game) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(4)), meters=meters)
        first = store.track("T1-0007", rnd)
        with pytest.raises(IllegalAction):
            store.begin("T1-0007", game, players=rnd.players)
        first.apply(PlaceWager(seat=1, wager="ante", amount=500))
        other = game.new_round(shoe=Shoe.shuffled(SeededShuffler(4)), meters=meters)
        other.apply(PlaceWager(seat=2, wager="ante", amount=100))
        with pytest.raises(IllegalAction, match="differ"):
            store.track("T1-0007", other)
        same = game.new_round(shoe=Shoe.shuffled(SeededShuffler(4)), meters=meters)
        same.apply(PlaceWager(seat=1, wager="ante", amount=500))
        second = store.track("T1-0007", same)
        first.apply(PlaceWager(seat=2, wager="ante", amount=500))
        with pytest.raises(IllegalAction, match="another writer"):
            second.apply(PlaceWager(seat=3, wager="ante", amount=500))
        with pytest.raises(IllegalAction):
            store.load("no-such-round")


def test_one_engine_serves_meters_and_rounds(engine: Engine, game: Game) -> None:
    meters, store = SqlMeters(engine), RoundStore(engine)
    tracked = store.track(
        "T2-0001", game.new_round(shoe=Shoe.shuffled(SeededShuffler(8)), meters=meters)
    )
    play_to_decision(tracked)
    meters.close()
    store.close()  # a borrowed engine stays open
    assert SqlMeters(engine).amount("4cp") == RESET + 25
    assert store_rounds.RoundStore(engine).info("T2-0001").status is RoundStatus.OPEN


def test_in_memory_database_keeps_meters_and_rounds_for_a_session(game: Game) -> None:
    with SqlMeters("sqlite://") as meters:
        store = RoundStore(meters.engine)
        tracked = store.track(
            "M-1", game.new_round(shoe=Shoe.shuffled(SeededShuffler(9)), meters=meters)
        )
        play_to_decision(tracked)
        assert meters.ledger(round_id="M-1")[0].reason == "contribution"
        assert store.load("M-1") == list(tracked.records)
        assert isinstance(store.load("M-1")[0], Record)


# --- one configuration per linked meter -------------------------------------------------------


def _other(**changes: Any) -> Game:
    progressive = {**RULES["progressive"], **changes}
    return get_game({**RULES, "progressive": progressive})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"rate": "0.20"}, "rate of progression 1/5, the meter's is 1/4"),
        ({"reset": 600_000}, "reset 600000 cents, the meter's is 500000"),
        ({"wager": 500}, "wager 500, the meter's is 100"),
    ],
)
def test_605a_7_a_table_naming_a_meter_with_another_configuration_is_refused(
    url: str, game: Game, change: dict[str, Any], words: str
) -> None:
    with SqlMeters(url) as meters:
        game.new_round(shoe=Shoe.shuffled(SeededShuffler(1)), meters=meters)
        before = meters.ledger("4cp")
        with pytest.raises(RulesViolation, match="'4cp'") as refused:
            _other(**change).new_round(shoe=Shoe.shuffled(SeededShuffler(2)), meters=meters)
        assert words in refused.value.message
        assert meters.ledger("4cp") == before
        assert meters.spec("4cp") == game.meter_spec
    memory = MemoryMeters()
    game.new_round(shoe=Shoe.shuffled(SeededShuffler(1)), meters=memory)
    with pytest.raises(RulesViolation, match=words):
        _other(**change).new_round(shoe=Shoe.shuffled(SeededShuffler(2)), meters=memory)


def test_605a_7_award_resets_to_the_stored_reset_whatever_the_caller_names(url: str) -> None:
    with SqlMeters(url) as meters:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(1000))
        move = meters.pay("4cp", Fraction(1), reset=1)
        assert (move.paid, move.after) == (RESET + 1000, RESET)
        assert meters.exact("4cp") == RESET
    memory = MemoryMeters()
    memory.ensure(SPEC)
    memory.contribute("4cp", Fraction(1000))
    assert memory.pay("4cp", Fraction(1), reset=1).after == RESET


def test_two_tables_on_one_meter_contribute_at_the_one_stored_rate(url: str, game: Game) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        for n in range(2):
            rnd = get_game(RULES).new_round(shoe=Shoe.shuffled(SeededShuffler(n)), meters=meters)
            play_to_decision(store.track(f"T{n}", rnd))
        assert meters.exact("4cp") == RESET + 2 * 25
        assert [e.amount for e in meters.ledger("4cp")[1:]] == [25, 25]


# --- the shoe order is persisted apart and a resumed round deals from it ----------------------


def _deal_and_die(url: str, round_id: str, deals: int) -> None:
    """A dealer process: a round shuffled securely, wagers, "no more bets", ``deals`` cards,
    then SIGKILL from itself (nothing is flushed or closed)."""
    import os
    import signal

    from croupier.games.records import DealNext
    from croupier.table.shoe import SecureShuffler

    meters, store = SqlMeters(url), RoundStore(url)
    rnd = store.track(
        round_id,
        get_game(RULES).new_round(shoe=Shoe.shuffled(SecureShuffler()), meters=meters),
    )
    play_to_decision_partly(rnd, deals)
    for _ in range(deals):
        rnd.apply(DealNext())
    os.kill(os.getpid(), signal.SIGKILL)


def play_to_decision_partly(rnd: TrackedRound, deals: int) -> None:
    rnd.apply(PlaceWager(seat=1, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=2, wager="ante", amount=500))
    rnd.apply(PlaceWager(seat=1, wager="progressive", amount=100))
    rnd.apply(NoMoreBets())


def test_killed_mid_deal_the_round_resumes_with_the_cards_of_its_persisted_shoe(
    url: str,
) -> None:
    context = multiprocessing.get_context("fork")
    dealer = context.Process(target=_deal_and_die, args=(url, "K1", 5))
    dealer.start()
    dealer.join(timeout=120)
    assert dealer.exitcode == -9
    with RoundStore(url) as store, SqlMeters(url) as meters:
        persisted = store.shoe("K1")
        assert persisted is not None and len(persisted.cards) == 52
        assert persisted.commitment == commitment(persisted.cards, persisted.nonce)
        assert len(persisted.nonce) == 64
        loaded = store.load("K1")
        # The order is not among the public records.
        assert persisted.text not in json.dumps([record_to_json(r) for r in loaded])
        dealt = [r.card for r in loaded if isinstance(r, CardDealt)]
        assert dealt == list(persisted.cards[:5])
        resumed = store.resume("K1", meters)
        resumed.run_dealer()
        while not resumed.is_over:
            seat = resumed.to_act().seat
            assert seat is not None
            resumed.apply(Play(seat=seat, multiple=1))
            resumed.run_dealer()
        cards = [r.card for r in store.load("K1") if isinstance(r, CardDealt)]
        assert cards == list(persisted.cards[: len(cards)]) and len(cards) > 5
        # Not the rest of the deck in index order (2c 2d 2h 2s ...), as before.
        rest = [c for c in DECK if c not in dealt]
        assert cards[5:] != rest[: len(cards) - 5]


# --- a supervisor voids a crashed round ------------------------------------------------------


def test_finish_void_no_longer_marks_a_round_void_without_reversing(url: str, game: Game) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        play_to_decision(store.track("V0", game.new_round(shoe=Shoe(DECK), meters=meters)))
        with pytest.raises(IllegalAction, match=r"RoundStore\.void"):
            store.finish("V0", RoundStatus.VOID)
        with pytest.raises(IllegalAction, match="open"):
            store.finish("V0", RoundStatus.OVER)
        assert store.info("V0").status is RoundStatus.OPEN


@pytest.mark.parametrize("actions", [2, 3, 5, 9])
def test_crashed_round_voided_by_a_supervisor_returns_its_wagers_and_contributions(
    url: str, game: Game, actions: int
) -> None:
    """A crash in betting (2), right after "no more bets" (3), while dealing (5), at the
    decisions (9): the void returns exactly the open wagers and the contributions."""
    with SqlMeters(url) as meters, RoundStore(url) as store:
        meters.ensure(SPEC)
        meters.contribute("4cp", Fraction(1, 3))
        before = meters.exact("4cp")
        rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(actions)), meters=meters)
        tracked = store.track("V1", rnd)
        steps = [
            PlaceWager(seat=1, wager="ante", amount=500),
            PlaceWager(seat=1, wager="progressive", amount=100),
            NoMoreBets(),
        ]
        for action in steps[:actions]:
            tracked.apply(action)
        while len(tracked.records) < actions and not tracked.round.to_act().seat:
            tracked.apply(tracked.round.dealer_step())
    with SqlMeters(url) as meters, RoundStore(url) as store:
        with pytest.raises(InvalidInput):
            store.void("V1", meters, by="", reason="dealer system crashed")
        voided = store.void("V1", meters, by="Sup. Rivera #41", reason="dealer system crashed")
        assert voided.status is RoundStatus.VOID
        info = store.info("V1")
        assert (info.status, info.voided_by, info.void_reason) == (
            RoundStatus.VOID,
            "Sup. Rivera #41",
            "dealer system crashed",
        )
        records = store.load("V1")
        (void,) = [r for r in records if isinstance(r, RoundVoided)]
        assert (void.by, void.reason) == ("Sup. Rivera #41", "dealer system crashed")
        returned = {r.wager: (r.result, r.returned) for r in records if isinstance(r, WagerSettled)}
        placed = {r.wager: r.amount for r in records if isinstance(r, WagerPlaced)}
        assert returned == {w: (Result.VOID, a) for w, a in placed.items()}
        assert meters.exact("4cp") == before
        assert verify(url).ok
        with pytest.raises(IllegalAction, match="already void"):
            store.void("V1", meters, by="Sup. Rivera #41", reason="again")


def test_void_is_refused_once_settlement_has_begun(url: str) -> None:
    with SqlMeters(url) as meters, RoundStore(url) as store:
        rnd = get_game(RULES).new_round(shoe=StackedShoe(FOUR_ACES), meters=meters)
        tracked = store.track("V2", rnd)
        play_to_decision(tracked)
        tracked.apply(Play(seat=1, multiple=3))
        tracked.apply(Reveal())
        tracked.apply(Settle())
        assert tracked.is_over  # one seat: its settlement ends the round
        with pytest.raises(IllegalAction, match="over"):
            store.void("V2", meters, by="Sup", reason="late")
        two = get_game(RULES).new_round(shoe=Shoe.shuffled(SeededShuffler(3)), meters=meters)
        tracked = store.track("V3", two)
        tracked.apply(PlaceWager(seat=1, wager="ante", amount=500))
        tracked.apply(PlaceWager(seat=2, wager="ante", amount=500))
        tracked.apply(NoMoreBets())
        tracked.run_dealer()
        for seat in (1, 2):
            tracked.apply(Play(seat=seat, multiple=1))
        tracked.apply(Reveal())
        tracked.apply(Settle())
        assert tracked.phase is Phase.SETTLEMENT
        amount = meters.exact("4cp")
        with pytest.raises(IllegalAction, match="settlement of the round has begun"):
            store.void("V3", meters, by="Sup", reason="late")
        assert store.info("V3").status is RoundStatus.OPEN and meters.exact("4cp") == amount


@pytest.mark.parametrize("name", sorted(n for n in GAME_FILES if "baccarat" not in n))
def test_every_game_refuses_a_second_table_on_its_meter_at_another_rate(name: str) -> None:
    """One configuration per linked meter, in every game with a progressive: the same Rules
    Submission at another rate of progression is refused on the shared meters."""
    rules = load_rules(RULES_DIR / GAME_FILES[name])
    data = json.loads(json.dumps(rules_to_json(rules)))
    changed = False
    sections = [data.get("progressive"), *data.get("custom_paytables", {}).values()]
    sections += list(data.get("progressive", {}).get("meters", {}).values())
    for section in sections:
        if isinstance(section, dict) and "rate" in section:
            section["rate"] = str(Fraction(section["rate"]) / 2)
            changed = True
    assert changed, f"{name}: its test Rules Submission has a progressive meter"
    meters = MemoryMeters()
    get_game(rules).new_round(shoe=Shoe.shuffled(SeededShuffler(1), decks=8), meters=meters)
    with pytest.raises(RulesViolation, match="rate of progression"):
        get_game(data).new_round(shoe=Shoe.shuffled(SeededShuffler(1), decks=8), meters=meters)
