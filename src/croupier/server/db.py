"""The live table system's database: engines, migrations, durability settings.

SQLite by default (a file; WAL journal, ``synchronous=FULL``: a commit is on disk before the
command that made it is acknowledged), PostgreSQL by URL (``postgresql+psycopg://...``).
The schema is only changed by the Alembic migrations in :mod:`croupier.store.migrations`;
:func:`upgrade` applies them.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.util.exc import CommandError
from sqlalchemy import Engine, event, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from croupier.core.errors import InvalidInput
from croupier.store import error_line, open_engine, parse_url, prepare, shown_url
from croupier.store.schema import metadata  # every table, the live server's too

__all__ = ["DEFAULT_SERVER_URL", "alembic_config", "connect", "schema_diff", "upgrade"]

DEFAULT_SERVER_URL = "sqlite:///croupier-floor.sqlite"
"""``croupier serve`` with no ``--db``: a SQLite file in the working directory."""


def alembic_config(engine: Engine | None = None) -> Config:
    """Alembic's configuration for the packaged migrations (``engine``: where they run)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(files("croupier.store") / "migrations"))
    if engine is not None:
        cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return cfg


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _raw_engine(url: str) -> Engine:
    from sqlalchemy import create_engine

    parsed = parse_url(url)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise InvalidInput(
            f"database {shown_url(url)}: only sqlite:/// and postgresql+psycopg:// URLs"
        )
    if backend == "sqlite":
        # ``?timeout=`` in the URL is the wait for SQLite's write lock (as in open_engine).
        waits = {} if "timeout" in parsed.query else {"timeout": 30.0}
        engine = create_engine(parsed, connect_args=waits)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(parsed, pool_size=20, max_overflow=20)


def upgrade(url: str) -> list[str]:
    """Apply every migration to the database at ``url``; returns the revisions applied.

    A database made before migrations existed (tables created from the metadata, no
    ``alembic_version``) is stamped at the head when its schema already equals the metadata.
    """
    engine = _raw_engine(url)
    try:
        return _upgrade(engine, url)
    except (SQLAlchemyError, CommandError) as exc:
        # not a database, not croupier's, or a migration history this version does not know:
        # one line naming the database, nothing applied (each migration is its own transaction)
        raise InvalidInput(
            f"database {shown_url(url)} cannot be migrated: {error_line(exc)}"
        ) from None
    finally:
        engine.dispose()


def _upgrade(engine: Engine, url: str) -> list[str]:
    """:func:`upgrade` on an open engine (its errors reported there)."""
    with engine.begin() as conn:
        ctx = MigrationContext.configure(conn)
        before = ctx.get_current_revision()
        tables = set(inspect(conn).get_table_names())
    cfg = alembic_config(engine)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        if before is None and tables & set(metadata.tables):
            if schema_diff(engine):
                raise InvalidInput(
                    f"database {shown_url(url)} has croupier tables but no migration history, and "
                    "they differ from the schema: migrate it by hand"
                )
            command.stamp(cfg, "head")
        else:
            command.upgrade(cfg, "head")
    with engine.begin() as conn:
        after = MigrationContext.configure(conn).get_current_revision()
    return [] if after == before else [str(after)]


def schema_diff(engine: Engine) -> list[Any]:
    """Differences between the database's schema and the metadata (empty: they agree)."""
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(ctx, metadata))


def connect(url: str) -> Engine:
    """The migrated database at ``url``, configured for croupier (SQLite: WAL, FULL sync)."""
    upgrade(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = open_engine(url)
        event.listen(engine, "connect", _sqlite_pragmas)
        engine.dispose()  # connections made from here on carry the pragmas
        return engine
    from sqlalchemy import create_engine

    engine = create_engine(parsed, pool_size=20, max_overflow=20)
    prepare(engine)
    return engine
