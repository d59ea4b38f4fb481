"""``croupier db upgrade`` and ``croupier recall`` on a database (library faces of the server)."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from croupier.cli import main


def test_db_upgrade_migrates_once_then_is_up_to_date(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'floor.sqlite'}"
    out = io.StringIO()
    assert main(["db", "upgrade", "--db", url, "--json"], out=out) == 0
    assert json.loads(out.getvalue()) == {"database": url, "applied": ["0006"]}
    out = io.StringIO()
    assert main(["db", "upgrade", "--db", url], out=out) == 0
    assert out.getvalue().strip().endswith("up to date")


def test_db_upgrade_of_a_file_that_is_no_database_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(bytes(range(256)) * 16)
    assert main(["db", "upgrade", "--db", f"sqlite:///{junk}"], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be migrated: (sqlite3.DatabaseError)" in err
    assert junk.read_bytes() == bytes(range(256)) * 16


def test_db_upgrade_of_an_unknown_migration_history_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "floor.sqlite"
    url = f"sqlite:///{db}"
    assert main(["db", "upgrade", "--db", url], out=io.StringIO()) == 0
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'zzz'")
    assert main(["db", "upgrade", "--db", url], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Can't locate revision identified by 'zzz'" in err
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("zzz",)]


@pytest.mark.parametrize(
    "argv",
    [
        ["db", "upgrade", "--db"],
        ["play", "mini-baccarat", "--db"],
        ["audit", "verify", "--db"],
        ["recall", "--table", "T1", "--db"],
    ],
    ids=lambda a: a[0],
)
@pytest.mark.parametrize(
    ("url", "needle"),
    [
        # nothing listens on port 1 of the loopback: refused at once
        ("postgresql+psycopg://croupier:s3cret@127.0.0.1:1/floor", "Connection refused"),
        ("not a url", "is not a URL"),
    ],
)
def test_a_database_that_cannot_be_opened_is_one_line_and_its_password_is_masked(
    argv: list[str], url: str, needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, url], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("croupier: ") and needle in err
    assert "s3cret" not in err


def test_recall_refuses_a_table_not_on_the_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'floor.sqlite'}"
    assert main(["db", "upgrade", "--db", url], out=io.StringIO()) == 0  # the floor's schema
    assert main(["recall", "--db", url, "--table", "no-such-table"], out=io.StringIO()) == 2
    assert "'no-such-table'" in capsys.readouterr().err
