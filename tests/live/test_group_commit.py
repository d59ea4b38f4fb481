"""Group commit (server/commit.py) on a real SQLite file and a real floor: a command is answered
only after its batch commits; a refusal rolls back alone; a failed batch applies nothing, in the
database or in memory, and its commands run again one by one."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, create_engine, event, text

from croupier.core.errors import IllegalAction
from croupier.games.records import CardDealt, CardDiscarded, CountStub, NoMoreBets, PlaceWager
from croupier.games.round import Phase
from croupier.server.auth import Account, Role
from croupier.server.commit import GroupCommitter, Work
from croupier.server.ledger import player_account
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable, Txn
from croupier.table.table import Table

TABLE = "three-card-poker"
DEALER = Account("dealer", Role.DEALER, demo=True)  # the demo dealer deals every table
PLAYER = Account("player1", Role.PLAYER, player_id="P1")
SUPERVISOR = Account("supervisor", Role.SUPERVISOR)


def _hold_writer(committer: GroupCommitter) -> threading.Event:
    """Keep the writer busy until the returned event is set (so what is queued meanwhile is
    one batch)."""
    release, started = threading.Event(), threading.Event()

    def block(conn: Connection) -> tuple[None, None]:
        started.set()
        release.wait(timeout=60)
        return None, None

    threading.Thread(
        target=committer.submit, args=(Work(block, lambda _: None),), daemon=True
    ).start()
    assert started.wait(timeout=60)
    return release


def _queued(committer: GroupCommitter, count: int) -> None:
    for _ in range(6000):
        with committer._cond:
            if len(committer._queue) >= count:
                return
        time.sleep(0.01)
    raise AssertionError(f"{count} commands were not queued")


def _in_threads(calls: list[Callable[[], Any]]) -> list[Any]:
    out: list[Any] = [None] * len(calls)

    def one(i: int) -> None:
        try:
            out[i] = calls[i]()
        except BaseException as exc:
            out[i] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return out


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Engine]:
    from croupier.store.database import prepare

    engine = create_engine(f"sqlite:///{tmp_path / 'scratch.sqlite'}")
    prepare(engine)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE moves (k INTEGER PRIMARY KEY)"))
    try:
        yield engine
    finally:
        engine.dispose()


def _rows(engine: Engine) -> set[int]:
    with engine.connect() as conn:
        return {int(r[0]) for r in conn.execute(text("SELECT k FROM moves"))}


def test_group_commit_one_batch_refusal_rolls_back_alone(scratch: Engine) -> None:
    committer = GroupCommitter(scratch)
    undone: list[int] = []
    seen_after_commit: dict[int, bool] = {}

    def move(k: int, refuse: bool) -> Callable[[], Any]:
        def run(conn: Connection) -> tuple[int, Callable[[], None]]:
            conn.execute(text("INSERT INTO moves (k) VALUES (:k)"), {"k": k})
            if refuse:
                raise IllegalAction(f"move {k} is refused")

            def after() -> None:
                seen_after_commit[k] = k in _rows(scratch)

            return k, after

        return lambda: committer.submit(Work(run, lambda _conn: undone.append(k)))

    try:
        release = _hold_writer(committer)
        calls = [move(k, refuse=k == 3) for k in range(1, 9)]
        results: list[Any] = []
        runner = threading.Thread(target=lambda: results.extend(_in_threads(calls)))
        runner.start()
        _queued(committer, 8)
        batches = committer.batches
        release.set()
        runner.join(timeout=120)
    finally:
        committer.close()
    assert committer.batches == batches + 1  # the eight commands shared one commit
    assert isinstance(results[2], IllegalAction)
    assert [r for i, r in enumerate(results) if i != 2] == [1, 2, 4, 5, 6, 7, 8]
    assert _rows(scratch) == {1, 2, 4, 5, 6, 7, 8}
    assert undone == [3]
    # Each answer was released only once its rows were committed (seen from another connection).
    assert seen_after_commit == dict.fromkeys([1, 2, 4, 5, 6, 7, 8], True)


def test_group_commit_failed_batch_applies_nothing_then_runs_each_alone(scratch: Engine) -> None:
    committer = GroupCommitter(scratch)
    undone: list[int] = []
    attempts: dict[int, int] = {}

    def move(k: int) -> Callable[[], Any]:
        def run(conn: Connection) -> tuple[int, None]:
            attempts[k] = attempts.get(k, 0) + 1
            conn.execute(text("INSERT INTO moves (k) VALUES (:k)"), {"k": k})
            if k == 5:
                raise RuntimeError("the disk is full")
            return k, None

        return lambda: committer.submit(Work(run, lambda _conn: undone.append(k)))

    try:
        release = _hold_writer(committer)
        results: list[Any] = []
        runner = threading.Thread(
            target=lambda: results.extend(_in_threads([move(k) for k in range(1, 7)]))
        )
        runner.start()
        _queued(committer, 6)
        release.set()
        runner.join(timeout=120)
    finally:
        committer.close()
    assert isinstance(results[4], RuntimeError)
    assert [r for i, r in enumerate(results) if i != 4] == [1, 2, 3, 4, 6]
    assert _rows(scratch) == {1, 2, 3, 4, 6}
    # The batch rolled back at command 5: commands 1-5 were undone in memory (newest first),
    # then every command ran again alone; 5 failed again and was undone again.
    assert undone[:5] == [5, 4, 3, 2, 1]
    assert undone[5:] == [5]
    assert attempts == {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1}


def _do(floor: Floor, account: Account, key: str, table: str | None, run: Any) -> dict[str, Any]:
    return floor.commands.transact(account, key, key, table, run)


def _seated(floor: Floor) -> LiveTable:
    """The table with the player seated at box 1 (a command of its own)."""
    lt = floor.table(TABLE)

    def sit(txn: Txn) -> dict[str, Any]:
        floor.registry.sit(txn, lt, PLAYER, 1)
        return {}

    _do(floor, PLAYER, "sit", TABLE, sit)
    return lt


def _round_to_deal(floor: Floor) -> LiveTable:
    lt = _seated(floor)
    _do(floor, DEALER, "round", TABLE, lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)})
    ante = PlaceWager(seat=1, wager="ante", amount=500)
    _do(floor, PLAYER, "ante", TABLE, lambda txn: {"n": len(floor.rounds.apply(txn, lt, ante))})
    nmb = NoMoreBets(progressive_chips=0)
    _do(floor, DEALER, "nmb", TABLE, lambda txn: {"n": len(floor.rounds.apply(txn, lt, nmb))})
    return lt


def test_group_commit_failed_command_leaves_the_round_as_committed(floor: Floor) -> None:
    lt = _round_to_deal(floor)
    assert lt.round is not None
    before = list(lt.round.records)
    seq = lt.seq

    def deal_then_fail(txn: Txn) -> dict[str, Any]:
        floor.rounds.dealer_steps(txn, lt, (Phase.DEALING, Phase.DECISIONS))
        assert lt.round is not None and len(lt.round.records) > len(before)
        raise RuntimeError("the database went away after the deal")

    with pytest.raises(RuntimeError):
        _do(floor, DEALER, "deal-1", TABLE, deal_then_fail)
    # Nothing of the failed deal is in memory: the round was replayed from its committed
    # records and its persisted shoe, and it is not held.
    assert lt.round is not None and list(lt.round.records) == before
    assert lt.held is None and lt.seq == seq and lt.stored == len(before)
    assert floor.store.load(str(lt.round_id)) == before
    # The same deal goes on from the persisted shoe: the cards the failed attempt dealt.
    _do(
        floor,
        DEALER,
        "deal-2",
        TABLE,
        lambda txn: {
            "n": len(floor.rounds.dealer_steps(txn, lt, (Phase.DEALING, Phase.DECISIONS)))
        },
    )
    assert floor.store.load(str(lt.round_id)) == list(lt.round.records)
    with floor.reading() as conn:
        assert floor.ledger.check(conn) == []


def test_group_commit_retried_key_in_one_batch_moves_chips_once(floor: Floor) -> None:
    with floor.reading() as conn:
        start = floor.ledger.balance(conn, player_account("P1"))

    def buy_in(txn: Txn) -> dict[str, Any]:
        return {"balance": int(floor.cage.buy_in(txn, "P1", 2500))}

    release = _hold_writer(floor.committer)
    results: list[Any] = []
    calls = [lambda: _do(floor, SUPERVISOR, "buy-in-once", None, buy_in) for _ in range(3)]
    runner = threading.Thread(target=lambda: results.extend(_in_threads(calls)))
    runner.start()
    _queued(floor.committer, 3)
    release.set()
    runner.join(timeout=120)
    assert results == [{"balance": int(start) + 2500}] * 3
    with floor.reading() as conn:
        assert floor.ledger.balance(conn, player_account("P1")) == start + 2500
        assert floor.ledger.check(conn) == []


def test_group_commit_batch_writes_its_appended_rows_together_after_its_last_command(
    floor: Floor,
) -> None:
    """A batch's ledger rows, round records and table events are held back and written, in
    multi-row INSERTs, after its last command ran and before its one commit; the rows of a
    command refused within the batch are never written; the database holds what memory does."""
    lt = floor.table(TABLE)
    players = [Account(f"player{i}", Role.PLAYER, player_id=f"P{i}") for i in (1, 2, 3)]
    for seat, player in enumerate(players, 1):

        def sit(txn: Txn, player: Account = player, seat: int = seat) -> dict[str, Any]:
            return {"seats": floor.registry.sit(txn, lt, player, seat)}

        _do(floor, player, f"sit-{seat}", TABLE, sit)
    _do(floor, DEALER, "round", TABLE, lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)})
    with floor.reading() as conn:
        p2 = floor.ledger.balance(conn, player_account("P2"))
    traced: list[str] = []

    def trace(dbapi: Any, _record: object) -> None:
        dbapi.set_trace_callback(
            lambda sql: (
                traced.append(sql)
                if threading.current_thread().name.startswith("croupier-writer")
                else None
            )
        )

    event.listen(floor.engine, "connect", trace)
    floor.engine.dispose()

    def ante(seat: int) -> Callable[[], Any]:
        wager = PlaceWager(seat=seat, wager="ante", amount=500)
        return lambda: _do(
            floor,
            players[seat - 1],
            f"ante-{seat}",
            TABLE,
            lambda txn: {"n": len(floor.rounds.apply(txn, lt, wager))},
        )

    def buy_in_refused(txn: Txn) -> dict[str, Any]:
        floor.cage.buy_in(txn, "P2", 2500)  # its ledger rows appended, then refused
        raise IllegalAction("refused after its ledger rows")

    release = _hold_writer(floor.committer)
    calls = [
        ante(1),
        lambda: _do(floor, SUPERVISOR, "buy-in", None, buy_in_refused),
        ante(2),
        ante(3),
    ]
    results: list[Any] = []
    runner = threading.Thread(target=lambda: results.extend(_in_threads(calls)))
    runner.start()
    _queued(floor.committer, 4)
    traced.clear()
    release.set()
    runner.join(timeout=120)
    assert results[0] == results[2] == results[3] == {"n": 1}
    assert isinstance(results[1], IllegalAction)
    releases = [i for i, sql in enumerate(traced) if sql.startswith("RELEASE SAVEPOINT")]
    commit = len(traced) - 1 - traced[::-1].index("COMMIT")  # the batch's (after the hold's)
    appended = [
        i
        for i, sql in enumerate(traced)
        if sql.startswith(
            ("INSERT INTO chip_ledger", "INSERT INTO round_records", "INSERT INTO table_events")
        )
    ]
    assert len(releases) == 4 and appended
    assert releases[-1] < min(appended) and max(appended) < commit
    # each table's rows in multi-row INSERTs: 6 ledger rows (two a wager; the refused
    # buy-in's four dropped) as 4 + 2, 3 records as 2 + 1, 6 events (two a wager) as 4 + 2
    for table in ("chip_ledger", "round_records", "table_events"):
        assert sum(traced[i].startswith(f"INSERT INTO {table}") for i in appended) == 2
    assert lt.round is not None
    assert floor.store.load(str(lt.round_id)) == list(lt.round.records)
    with floor.reading() as conn:
        assert floor.ledger.balance(conn, player_account("P2")) == p2 - 500
        assert floor.ledger.check(conn) == []
        seqs = (
            conn.execute(
                text("SELECT seq FROM table_events WHERE table_id = :t ORDER BY seq"), {"t": TABLE}
            )
            .scalars()
            .all()
        )
    assert seqs == list(range(1, lt.seq + 1))


def test_group_commit_failed_round_start_restores_the_tables_decks(floor: Floor) -> None:
    """A batch that began a round and failed leaves the table's seats, decks and their counts
    as committed (§ 641a.8(f) stub counts and the deck rotation are the table's bookkeeping):
    the next round begins as if the failed one never had."""
    lt = _seated(floor)
    dealing = lt.table
    assert isinstance(dealing, Table)
    before = (dealing.rounds_played, dealing.events, dealing.history, dealing.seats)

    def begin_then_fail(txn: Txn) -> dict[str, Any]:
        floor.rounds.begin_round(txn, lt, None)
        assert dealing.rounds_played == before[0] + 1
        raise RuntimeError("the disk is full")

    with pytest.raises(RuntimeError):
        _do(floor, DEALER, "round-1", TABLE, begin_then_fail)
    assert (dealing.rounds_played, dealing.events, dealing.history, dealing.seats) == before
    assert dealing.current is None and lt.round is None and lt.numbers == 0
    # The next round begins (the table does not hold the failed one as unfinished) and plays.
    _do(
        floor,
        DEALER,
        "round-2",
        TABLE,
        lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)},
    )
    assert dealing.rounds_played == before[0] + 1 and dealing.current is lt.round


def test_group_commit_failed_step_then_the_round_finishes_and_the_next_begins(
    floor: Floor,
) -> None:
    """After a failed deal the round replayed from its committed records is the table's round
    in progress: once it is over the table begins the next one."""
    lt = _round_to_deal(floor)
    steps = (Phase.DEALING, Phase.DECISIONS)

    def deal_then_fail(txn: Txn) -> dict[str, Any]:
        floor.rounds.dealer_steps(txn, lt, steps)
        raise RuntimeError("the database went away after the deal")

    with pytest.raises(RuntimeError):
        _do(floor, DEALER, "deal-1", TABLE, deal_then_fail)
    _do(
        floor,
        DEALER,
        "deal-2",
        TABLE,
        lambda txn: {"n": len(floor.rounds.dealer_steps(txn, lt, steps))},
    )
    assert lt.round is not None
    fold = lt.round.parse_decision(1, "fold")
    _do(floor, PLAYER, "fold", TABLE, lambda txn: {"n": len(floor.rounds.apply(txn, lt, fold))})
    for n, phases in enumerate(((Phase.REVEAL,), (Phase.SETTLEMENT,))):
        if not lt.round.is_over:
            _do(
                floor,
                DEALER,
                f"s{n}",
                TABLE,
                lambda txn, p=phases: {"n": len(floor.rounds.dealer_steps(txn, lt, p))},
            )
    assert lt.round.is_over
    dealing = lt.table
    assert isinstance(dealing, Table) and dealing.current is None
    _do(
        floor,
        DEALER,
        "round-2",
        TABLE,
        lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)},
    )
    assert lt.numbers == 2 and dealing.current is lt.round


def test_view_shows_only_committed_state_while_a_command_is_in_flight(floor: Floor) -> None:
    """``GET /tables/{id}/view`` (:meth:`Floor.view`) never shows a move whose transaction has
    not committed: here the deal is applied in memory, then its transaction fails."""
    lt = _round_to_deal(floor)
    assert lt.round is not None
    committed = len(lt.round.records)
    applied, release = threading.Event(), threading.Event()

    def deal_wait_fail(txn: Txn) -> dict[str, Any]:
        floor.rounds.dealer_steps(txn, lt, (Phase.DEALING, Phase.DECISIONS))
        applied.set()
        release.wait(timeout=60)
        raise RuntimeError("the commit failed")

    failed: list[BaseException] = []

    def deal() -> None:
        try:
            _do(floor, DEALER, "deal", TABLE, deal_wait_fail)
        except RuntimeError as exc:
            failed.append(exc)

    dealer = threading.Thread(target=deal)
    dealer.start()
    assert applied.wait(timeout=60)
    seen: list[dict[str, Any]] = []
    viewer = threading.Thread(target=lambda: seen.append(floor.reads.view(DEALER, lt)))
    viewer.start()
    viewer.join(timeout=0.5)  # a view that does not wait for the commit is done by now
    release.set()
    dealer.join(timeout=60)
    viewer.join(timeout=60)
    assert len(failed) == 1 and len(seen) == 1
    records = seen[0]["round"]["records"]
    assert len(records) == committed
    assert not any(r["kind"] == "card_dealt" for r in records)


def _play_to_the_end(floor: Floor, lt: LiveTable, n: int) -> None:
    """Round ``n`` (seat 1 already seated): ante, deal, fold, reveal and settle."""
    _do(floor, DEALER, f"r{n}", TABLE, lambda txn: {"rid": floor.rounds.begin_round(txn, lt, None)})
    ante = PlaceWager(seat=1, wager="ante", amount=500)
    _do(floor, PLAYER, f"a{n}", TABLE, lambda txn: {"n": len(floor.rounds.apply(txn, lt, ante))})
    nmb = NoMoreBets(progressive_chips=0)
    _do(floor, DEALER, f"m{n}", TABLE, lambda txn: {"n": len(floor.rounds.apply(txn, lt, nmb))})
    steps = (Phase.DEALING, Phase.DECISIONS)
    _do(
        floor,
        DEALER,
        f"d{n}",
        TABLE,
        lambda txn: {"n": len(floor.rounds.dealer_steps(txn, lt, steps))},
    )
    assert lt.round is not None
    if lt.round.phase is Phase.STUB_COUNT:  # § 641a.8(f): the cards left after the deal
        out = sum(isinstance(r, (CardDealt, CardDiscarded)) for r in lt.round.records)
        count = CountStub(count=52 - out)
        _do(
            floor,
            DEALER,
            f"c{n}",
            TABLE,
            lambda txn: {"n": len(floor.rounds.apply(txn, lt, count))},
        )
        _do(
            floor,
            DEALER,
            f"e{n}",
            TABLE,
            lambda txn: {"n": len(floor.rounds.dealer_steps(txn, lt, steps))},
        )
    fold = lt.round.parse_decision(1, "fold")
    _do(floor, PLAYER, f"f{n}", TABLE, lambda txn: {"n": len(floor.rounds.apply(txn, lt, fold))})
    for phases in ((Phase.REVEAL,), (Phase.SETTLEMENT,)):
        if not lt.round.is_over:
            _do(
                floor,
                DEALER,
                f"s{n}{phases[0].value}",
                TABLE,
                lambda txn, p=phases: {"n": len(floor.rounds.dealer_steps(txn, lt, p))},
            )
    assert lt.round.is_over


def test_live_table_holds_only_its_last_rounds_in_memory(floor: Floor) -> None:
    """The store holds every round: a live table lets go of the rounds before the last one
    each time it begins a round (a table open for days does not grow), and a round start
    that fails to commit puts back what it let go with the rest."""
    lt = _seated(floor)
    dealing = lt.table
    assert isinstance(dealing, Table)
    for n in range(1, 7):
        _play_to_the_end(floor, lt, n)
        assert len(dealing.history) == min(n, 2)
        assert dealing.rounds_played == lt.numbers == n
    before = (dealing.rounds_played, dealing.events, dealing.history, dealing.seats)

    def begin_then_fail(txn: Txn) -> dict[str, Any]:
        floor.rounds.begin_round(txn, lt, None)
        assert len(dealing.history) == 2 and dealing.rounds_played == 7
        raise RuntimeError("the disk is full")

    with pytest.raises(RuntimeError):
        _do(floor, DEALER, "r7-failed", TABLE, begin_then_fail)
    assert (dealing.rounds_played, dealing.events, dealing.history, dealing.seats) == before
    _play_to_the_end(floor, lt, 7)
    assert [p.number for p in dealing.history] == [6, 7]
    with floor.reading() as conn:
        query = text("SELECT count(*) FROM live_rounds WHERE table_id = :t")
        stored = conn.execute(query, {"t": TABLE}).scalar_one()
    assert stored == 7
