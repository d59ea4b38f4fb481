"""``croupier db upgrade`` and ``croupier recall`` on a database (library faces of the server)."""

from __future__ import annotations

import io
import json
from pathlib import Path

from croupier.cli import main


def test_db_upgrade_migrates_once_then_is_up_to_date(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'floor.sqlite'}"
    out = io.StringIO()
    assert main(["db", "upgrade", "--db", url, "--json"], out=out) == 0
    assert json.loads(out.getvalue()) == {"database": url, "applied": ["0002"]}
    out = io.StringIO()
    assert main(["db", "upgrade", "--db", url], out=out) == 0
    assert out.getvalue().strip().endswith("up to date")


def test_recall_refuses_a_table_not_on_the_floor(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'floor.sqlite'}"
    assert main(["recall", "--db", url, "--table", "no-such-table"], out=io.StringIO()) == 2
