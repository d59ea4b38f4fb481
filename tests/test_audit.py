"""Tamper evidence (issue 13): every stored record and meter-ledger row is chained by SHA-256;
``croupier.audit.verify`` recomputes the chains, each meter from its ledger and each round's
settlement from its records, and names the first row that does not match.  The tampering is
done the way an insider would: directly in SQLite, with ``sqlite3`` UPDATEs."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.audit import verify, verify_deal
from croupier.cli import main
from croupier.core.cards import DECK, Card, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games import Round, get_game
from croupier.games.records import (
    CardDealt,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    ProgressivePaid,
    WagerSettled,
)
from croupier.store import RoundStore, SqlMeters, TableEventStore, TrackedRound, commitment
from croupier.store.chain import GENESIS, canonical, link, record_link, record_payload
from croupier.table.shoe import SecureShuffler, SeededShuffler, Shoe, StackedShoe
from croupier.table.table import Table
from store_play import GAME_FILES, drive, game_for

METER = "four-card-poker"


ROUNDS = 3


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with three rounds of every game, played with their progressives."""
    path = tmp_path_factory.mktemp("audit") / "casino.sqlite"
    url = f"sqlite:///{path}"
    rng = random.Random(13)
    with SqlMeters(url) as meters, RoundStore(url) as store:
        for name in GAME_FILES:
            game = game_for(name)
            for i in range(ROUNDS):
                shoe = Shoe.shuffled(SeededShuffler(rng.getrandbits(32)), decks=game.deck_count)
                rnd = game.new_round(shoe=shoe, meters=meters)
                drive(store.track(f"{name}-{i}", rnd), rnd, rng)
    return path


@pytest.fixture
def db(played: Path, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A fresh copy of the played database, to tamper with."""
    path = tmp_path / "casino.sqlite"
    shutil.copyfile(played, path)
    yield f"sqlite:///{path}", path


def _sql(path: Path, statement: str, *args: object) -> None:
    with sqlite3.connect(path) as conn:
        assert conn.execute(statement, args).rowcount == 1
    conn.close()


def _first_card(path: Path, round_id: str) -> tuple[int, str]:
    with sqlite3.connect(path) as conn:
        seq, data = conn.execute(
            "SELECT seq, data FROM round_records WHERE round_id = ? AND kind = 'card_dealt' "
            "ORDER BY seq LIMIT 1",
            (round_id,),
        ).fetchone()
    conn.close()
    return int(seq), str(json.loads(data)["card"])


def test_audit_of_untouched_rounds_of_every_game_is_clean(db: tuple[str, Path]) -> None:
    report = verify(db[0])
    assert report.findings == []
    assert report.ok and report.rounds == ROUNDS * len(GAME_FILES)
    assert report.records > 20 * ROUNDS * len(GAME_FILES) and report.meters > 0
    assert report.ledger_rows > report.meters


def test_record_link_hashes_the_payload_the_audit_recomputes(played: Path) -> None:
    """The store chains a record with :func:`record_link` (its canonical JSON not decoded and
    encoded again); the audit recomputes ``link(record_payload(...))``: the same hash for every
    record of every game, and for text outside ASCII."""
    with sqlite3.connect(played) as conn:
        rows = conn.execute("SELECT round_id, seq, data, at FROM round_records").fetchall()
    conn.close()
    at = datetime(2026, 12, 6, 10, 0, 0, 123456, tzinfo=UTC)
    rows.append(("tablé-ü-000001", 3, canonical({"kind": "note", "text": "señor ♠"}), at))
    assert len(rows) > 20 * ROUNDS * len(GAME_FILES)
    for round_id, seq, data, stored_at in rows:
        when = stored_at if isinstance(stored_at, datetime) else datetime.fromisoformat(stored_at)
        expected = link(GENESIS, record_payload(round_id, seq, json.loads(data), when))
        assert record_link(GENESIS, round_id, seq, data, when) == expected


def test_audit_finds_a_dealt_card_edited_in_sqlite(db: tuple[str, Path]) -> None:
    url, path = db
    seq, card = _first_card(path, "four-card-poker-2")
    other = "2c" if card != "2c" else "3c"
    _sql(
        path,
        "UPDATE round_records SET data = replace(data, ?, ?) WHERE round_id = ? AND seq = ?",
        f'"card":"{card}"',
        f'"card":"{other}"',
        "four-card-poker-2",
        seq,
    )
    (finding,) = verify(url).findings
    assert finding.table == "round_records"
    assert finding.key == f"round 'four-card-poker-2' seq {seq}"
    assert "card_dealt record does not match its hash" in finding.what


def test_audit_finds_a_settlement_rewritten_with_its_chain_recomputed(
    db: tuple[str, Path],
) -> None:
    # An insider who also recomputes the hashes is caught by the rebuild: the records replay
    # to a different settlement than the one stored.
    url, path = db
    with RoundStore(url) as store:
        records = store.load("three-card-poker-1")
        seq = next(i for i, r in enumerate(records) if isinstance(r, WagerSettled))
        info = store.info("three-card-poker-1")
        forged = list(records)
        settled = records[seq]
        assert isinstance(settled, WagerSettled)
        forged[seq] = WagerSettled(
            seat=settled.seat,
            wager=settled.wager,
            stake=settled.stake,
            result=settled.result,
            paid=settled.paid + 100_000,
            returned=settled.returned,
            line=settled.line,
        )
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM round_records WHERE round_id = 'three-card-poker-1'")
        conn.execute(
            "UPDATE rounds SET records = 0, head = hash, status = 'open' WHERE id = ?",
            (info.round_id,),
        )
    conn.close()
    with RoundStore(url) as store:
        store.append("three-card-poker-1", forged)
        with sqlite3.connect(path) as conn:
            conn.execute(
                "UPDATE rounds SET status = ? WHERE id = 'three-card-poker-1'", (info.status,)
            )
        conn.close()
    (finding,) = verify(url).findings
    assert finding.table == "round_records"
    assert finding.key == f"round 'three-card-poker-1' seq {seq}"
    assert "the rebuilt round has" in finding.what and str(settled.paid + 100_000) in finding.what


def test_605a_7_audit_finds_a_meter_amount_edited_in_sqlite(db: tuple[str, Path]) -> None:
    url, path = db
    _sql(path, "UPDATE meters SET cents = cents + 100000 WHERE name = ?", METER)
    (finding,) = verify(url).findings
    assert (finding.table, finding.key) == ("meters", f"meter {METER!r}")
    assert "its ledger gives" in finding.what


def test_605a_7_audit_finds_a_ledger_row_edited_in_sqlite(db: tuple[str, Path]) -> None:
    url, path = db
    with sqlite3.connect(path) as conn:
        (row_id,) = conn.execute(
            "SELECT id FROM meter_ledger WHERE meter = ? AND reason = 'contribution' "
            "ORDER BY id LIMIT 1",
            (METER,),
        ).fetchone()
    conn.close()
    _sql(path, "UPDATE meter_ledger SET amount = '1000' WHERE id = ?", row_id)
    findings = verify(url).findings
    assert findings[0].table == "meter_ledger"
    assert findings[0].key == f"meter {METER!r} id {row_id}"
    assert "does not match its hash" in findings[0].what


def test_audit_finds_a_meter_configuration_edited_in_sqlite(db: tuple[str, Path]) -> None:
    url, path = db
    _sql(path, "UPDATE meters SET reset = 1 WHERE name = ?", METER)
    (finding,) = verify(url).findings
    assert finding.key == f"meter {METER!r}" and '"reset":500000' in finding.what


def test_audit_finds_a_deleted_last_record_and_a_persisted_shoe_edited(
    db: tuple[str, Path],
) -> None:
    url, path = db
    with sqlite3.connect(path) as conn:
        (last,) = conn.execute(
            "SELECT max(seq) FROM round_records WHERE round_id = 'let-it-ride-0'"
        ).fetchone()
        conn.execute(
            "DELETE FROM round_records WHERE round_id = 'let-it-ride-0' AND seq = ?", (last,)
        )
        cards = conn.execute(
            "SELECT cards FROM round_shoes WHERE round_id = 'ultimate-texas-holdem-0'"
        ).fetchone()[0]
        swapped = " ".join(reversed(cards.split()))
        conn.execute(
            "UPDATE round_shoes SET cards = ? WHERE round_id = 'ultimate-texas-holdem-0'",
            (swapped,),
        )
    conn.close()
    found = {(f.table, f.key): f.what for f in verify(url).findings}
    assert "the last record is not the chain's head" in found["rounds", "round 'let-it-ride-0'"]
    assert "commitment" in found["round_shoes", "round 'ultimate-texas-holdem-0'"]


def test_audit_finds_an_edited_table_event(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    url = f"sqlite:///{path}"
    table = Table(game_for("four-card-poker"), shuffler=SecureShuffler())
    table.sit(1, "Ann")
    with TableEventStore(url) as events:
        events.append("T1", table.events)
    assert verify(url).ok
    _sql(path, "UPDATE table_log SET data = replace(data, 'Ann', 'Bob') WHERE kind = 'seated'")
    (finding,) = verify(url).findings
    assert finding.table == "table_log" and "seated event does not match" in finding.what


def test_audit_verify_cli_exits_0_clean_1_tampered_2_bad_input(
    db: tuple[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url, path = db
    assert main(["audit", "verify", "--db", url]) == 0
    assert "clean" in capsys.readouterr().out
    _sql(path, "UPDATE meters SET cents = cents + 1 WHERE name = ?", METER)
    assert main(["audit", "verify", "--db", url, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["findings"][0]["table"] == "meters"
    missing = f"sqlite:///{tmp_path / 'none.sqlite'}"
    assert main(["audit", "verify", "--db", missing]) == 2
    err = capsys.readouterr().err
    assert err.startswith("croupier: no SQLite database file") and err.count("\n") == 1
    assert not (tmp_path / "none.sqlite").exists()
    assert main(["audit", "verify", "--db", "::not a url::"]) == 2


def test_audit_verify_refuses_a_database_that_is_not_croupiers(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    sqlite3.connect(path).close()
    with pytest.raises(InvalidInput, match="cannot be read as croupier's"):
        verify(f"sqlite:///{path}")
    result = subprocess.run(
        [sys.executable, "-m", "croupier", "audit", "verify", "--db", f"sqlite:///{path}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and result.stderr.count("\n") == 1


def test_a_tampered_card_also_stops_the_round_resuming(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    url = f"sqlite:///{path}"
    game = game_for("four-card-poker")
    with SqlMeters(url) as meters, RoundStore(url) as store:
        rnd = game.new_round(shoe=Shoe.shuffled(SeededShuffler(5)), meters=meters)
        drive(store.track("R1", rnd), rnd, random.Random(2), irregular=0, stop_after=12)
        seq, card = next((i, r.card) for i, r in enumerate(rnd.records) if isinstance(r, CardDealt))
    other = "2c" if str(card) != "2c" else "3c"
    _sql(
        path,
        "UPDATE round_records SET data = replace(data, ?, ?) WHERE round_id = 'R1' AND seq = ?",
        f'"card":"{card}"',
        f'"card":"{other}"',
        seq,
    )
    with (
        SqlMeters(url) as meters,
        RoundStore(url) as store,
        pytest.raises(IllegalAction, match="persisted shoe"),
    ):
        store.resume("R1", meters)


def test_a_finished_deal_checks_against_its_commitment_and_an_open_one_stays_secret(
    db: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    url, path = db
    check = verify_deal(url, "four-card-poker-0")
    assert check.ok and check.dealt > 0 and len(check.order) == 52
    assert commitment(tuple(Card.parse(c) for c in check.order), check.nonce) == check.commitment
    assert main(["audit", "verify-deal", "four-card-poker-0", "--db", url]) == 0
    assert "follow the committed order" in capsys.readouterr().out
    _sql(path, "UPDATE rounds SET status = 'open' WHERE id = 'four-card-poker-0'")
    with pytest.raises(IllegalAction, match="stays secret"):
        verify_deal(url, "four-card-poker-0")
    assert main(["audit", "verify-deal", "four-card-poker-0", "--db", url]) == 2
    assert "stays secret" in capsys.readouterr().err


def test_audit_finds_a_round_header_edited_in_sqlite(db: tuple[str, Path]) -> None:
    url, path = db
    _sql(path, "UPDATE rounds SET players = '{\"1\": \"Mallory\"}' WHERE id = 'mini-baccarat-1'")
    (finding,) = verify(url).findings
    assert (finding.table, finding.key) == ("rounds", "round 'mini-baccarat-1'")
    assert "header" in finding.what


def test_605a_7_linked_meter_award_after_another_tables_contribution_audits_clean(
    tmp_path: Path,
) -> None:
    """Two tables share one meter: between round A's contribution (at "no more bets") and its
    award (a spade mini royal takes the meter), round B at the other table contributes.  The
    award's record shows the meter as it stood then, B's quarter included; the audit replays A
    from the meter's own ledger (where the meter stood before each of A's moves) and finds it
    clean."""
    path = tmp_path / "linked.sqlite"
    url = f"sqlite:///{path}"
    game = get_game(
        {
            "game": "three-card-poker",
            "progressive": {
                "paytable": "jackpot-500-100-50",
                "envy": "100-25",
                "wager": 100,
                "reset": 500_000,
                "rate": "0.25",
                "meter": "linked",
            },
        }
    )

    def stacked(order: str) -> StackedShoe:
        top = list(parse_cards(order))
        return StackedShoe(top + [c for c in DECK if c not in set(top)])

    def bet(tracked: TrackedRound, seat: int) -> None:
        """An Ante and the $1 progressive, then "no more bets" (the meter's contribution)."""
        tracked.apply(PlaceWager(seat=seat, wager="ante", amount=500))
        tracked.apply(PlaceWager(seat=seat, wager="progressive", amount=100))
        tracked.apply(NoMoreBets(progressive_chips=1))

    with SqlMeters(url) as meters, RoundStore(url) as store:
        # One card at a time: seat 1, the dealer, seat 1, ... (§ 649a.8).
        a_round = game.new_round(shoe=stacked("As 2c Ks 2d Qs 2h"), meters=meters)
        a = store.track("table-a-1", a_round)
        bet(a, 1)  # A's contribution
        b_round = game.new_round(shoe=stacked("7c 3d 5h 9s Jd 4c"), meters=meters)
        bet(store.track("table-b-1", b_round), 2)  # B's, before A's award
        while not a_round.is_over:
            step = a_round.to_act()
            a.apply(a_round.parse_decision(1, "play") if step.seat == 1 else a_round.dealer_step())
    award = next(r for r in a_round.records if isinstance(r, MeterChanged) and r.reason == "award")
    assert (award.before, award.after) == (500_050, 500_000)  # A's 25 cents and B's 25
    report = verify(url)
    assert report.ok, [f.to_json() for f in report.findings]
    with RoundStore(url) as store:  # the recall's replay reads the same ledger
        assert store.rebuild("table-a-1").records == a_round.records
    # The replay starts each move where the meter stood: from the ledger's exact amounts, or
    # from the records' whole cents; given another amount, its award record differs.
    records = list(a_round.records)
    for stood in ([Fraction(500_000), Fraction(500_050)], None):
        assert Round.rebuild(game, records, meters_stood=stood).records == a_round.records
    wrong = Round.rebuild(game, records, meters_stood=[Fraction(500_000), Fraction(500_025)])
    paid = {r.amount for r in wrong.records if isinstance(r, ProgressivePaid) and r.from_meter} | {
        r.amount for r in a_round.records if isinstance(r, ProgressivePaid) and r.from_meter
    }
    assert paid == {500_025, 500_050}  # the replay pays the meter it was told of
    assert MeterChanged(meter="linked", before=500_025, after=500_000, reason="award") in (
        wrong.records
    )
