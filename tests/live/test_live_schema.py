"""The schema is only ever changed by a migration: the migrated database equals the metadata."""

from __future__ import annotations

from sqlalchemy import create_engine, inspect

from croupier.server.db import schema_diff, upgrade
from croupier.store.database import metadata


def test_migrations_build_exactly_the_metadata_schema(db_url: str) -> None:
    assert upgrade(db_url) == ["0006"]
    engine = create_engine(db_url)
    try:
        assert schema_diff(engine) == []
        tables = set(inspect(engine).get_table_names())
        assert set(metadata.tables) <= tables
        assert "alembic_version" in tables
    finally:
        engine.dispose()
    assert upgrade(db_url) == []  # a second upgrade has nothing to do


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path: object) -> None:
    from croupier.server.db import connect

    engine = connect(f"sqlite:///{tmp_path}/floor.sqlite")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    finally:
        engine.dispose()
