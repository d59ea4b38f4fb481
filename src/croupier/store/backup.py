"""Backup and restore of a croupier database while its tables play (GLI-19's backup and
recovery, as issue 38 asks; the project holds no text of GLI-19, so no clause is cited).

Each backend's own tool takes the copy, so a backup is one consistent moment of the database:
every command acknowledged before it began is in it (a command is committed before it is
acknowledged), and no command is there in part (a command is one transaction).

- **SQLite**: the online backup API (:meth:`sqlite3.Connection.backup`) copies every page in one
  step under one read transaction; in write-ahead-log mode the server's writers go on meanwhile.
  The copy is a single SQLite file (rollback journal, no ``-wal``), checked with ``PRAGMA
  quick_check`` before it takes its name.
- **PostgreSQL**: ``pg_dump --format=custom``, which reads one snapshot of the database; the
  URL's password reaches it in ``PGPASSWORD`` (never on a command line, never printed).

A restore writes a backup into a fresh, empty database of the same backend (SQLite: the backup
API again; PostgreSQL: ``pg_restore`` in one transaction) and refuses a database holding any
table.  A server started on it finds exactly what a server restarted after ``kill -9`` at the
moment of the backup finds: each open round resumes or is held by :mod:`croupier.server.recovery`.

A backup never overwrites a file unless told (:attr:`Existing.REPLACE`); it is written beside its
name and renamed when complete, so no partial backup ever bears the name.
"""

from __future__ import annotations

import contextlib
import enum
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from glob import glob
from pathlib import Path
from typing import Any
from urllib.parse import quote

from croupier.core.errors import InvalidInput
from croupier.store.database import error_line, masked_url, parse_url, shown_url
from croupier.store.schema import metadata

__all__ = [
    "PG_DUMP_FORMAT",
    "SQLITE_FORMAT",
    "BackupFile",
    "Existing",
    "Restored",
    "backup",
    "backup_format",
    "restore",
]

SQLITE_FORMAT = "sqlite"
"""A backup of a SQLite database: itself a SQLite database file."""
PG_DUMP_FORMAT = "pg_dump-custom"
"""A backup of a PostgreSQL database: ``pg_dump``'s custom archive format."""

_MAGIC = {b"SQLite format 3\x00": SQLITE_FORMAT, b"PGDMP": PG_DUMP_FORMAT}
_BACKEND_FORMAT = {"sqlite": SQLITE_FORMAT, "postgresql": PG_DUMP_FORMAT}


class Existing(enum.Enum):
    """What :func:`backup` does with a file already at its output path."""

    REFUSE = "refuse"
    REPLACE = "replace"


@dataclass(frozen=True, slots=True)
class BackupFile:
    """A backup written: the database it copies (password masked), where, its format and size."""

    database: str
    path: Path
    format: str
    size: int

    def to_json(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "backup": str(self.path),
            "format": self.format,
            "bytes": self.size,
        }


@dataclass(frozen=True, slots=True)
class Restored:
    """A backup restored: the database written (password masked), the backup and its format."""

    database: str
    path: Path
    format: str

    def to_json(self) -> dict[str, Any]:
        return {"database": self.database, "backup": str(self.path), "format": self.format}


# --- the URL ----------------------------------------------------------------------------------


def _backend(url: str) -> tuple[Any, str]:
    """``url`` parsed, and its backend (``sqlite`` or ``postgresql``); any other is refused."""
    parsed = parse_url(url)
    backend = parsed.get_backend_name()
    if backend not in _BACKEND_FORMAT:
        raise InvalidInput(
            f"database {shown_url(url)}: only sqlite:/// and postgresql+psycopg:// URLs "
            "can be backed up and restored"
        )
    return parsed, str(backend)


def _sqlite_path(parsed: Any, url: str) -> Path:
    database = str(parsed.database or "")
    if database in ("", ":memory:") or parsed.query.get("mode") == "memory":
        raise InvalidInput(f"database {shown_url(url)} is in memory: it has no file to copy")
    return Path(database.removeprefix("file:"))


def _conninfo(parsed: Any) -> tuple[str, dict[str, str]]:
    """libpq's connection string for ``parsed`` (host, port, user, database and the URL's query
    parameters) and the environment carrying its password."""

    def value(text: object) -> str:
        return "'" + str(text).replace("\\", "\\\\").replace("'", "\\'") + "'"

    pairs = {
        "host": parsed.host,
        "port": parsed.port,
        "user": parsed.username,
        "dbname": parsed.database,
        **{k: v for k, v in parsed.query.items() if isinstance(v, str)},
    }
    conninfo = " ".join(f"{k}={value(v)}" for k, v in pairs.items() if v not in (None, ""))
    env = {**os.environ, "PGCONNECT_TIMEOUT": os.environ.get("PGCONNECT_TIMEOUT", "10")}
    env.pop("PGPASSWORD", None)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    return conninfo, env


def _pg_tool(name: str) -> str:
    """PostgreSQL's ``pg_dump`` or ``pg_restore``: on the path, else the newest Debian build."""
    built = glob(f"/usr/lib/postgresql/*/bin/{name}")
    newest = max(built, key=lambda p: [int(n) for n in re.findall(r"\d+", p)], default=None)
    found = shutil.which(name) or newest
    if found is None:
        raise InvalidInput(
            f"{name} is not installed: install PostgreSQL's client tools (Debian: "
            "postgresql-client) to back up or restore a PostgreSQL database"
        )
    return found


def _run_pg_tool(argv: list[str], parsed: Any, url: str) -> None:
    """Run ``argv`` (``pg_dump`` or ``pg_restore`` with ``--dbname`` last) on ``parsed``'s
    database; its last line of errors, password masked, in the refusal when it fails."""
    conninfo, env = _conninfo(parsed)
    done = subprocess.run(
        [*argv, "--no-password", f"--dbname={conninfo}"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        line = lines[-1] if lines else f"exit status {done.returncode}"
        if parsed.password:
            line = line.replace(str(parsed.password), "***")
        raise InvalidInput(f"database {shown_url(url)}: {line.strip()[:200]}")


# --- whose database ---------------------------------------------------------------------------


def _pg_tables(url: Any) -> set[str]:
    """The tables of the PostgreSQL database at ``url`` (every schema but the system's)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError

    try:
        engine = create_engine(url.set(drivername="postgresql+psycopg"), poolclass=_null_pool())
    except ImportError as exc:
        raise InvalidInput(f"PostgreSQL's driver is not installed: {exc}") from None
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema "
                    "NOT IN ('pg_catalog', 'information_schema')"
                )
            )
            return {str(r[0]) for r in rows}
    except SQLAlchemyError as exc:
        shown = shown_url(url.render_as_string(hide_password=True))
        raise InvalidInput(f"database {shown} cannot be opened: {error_line(exc)}") from None
    finally:
        engine.dispose()


def _null_pool() -> Any:
    from sqlalchemy.pool import NullPool

    return NullPool


def _sqlite_tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    return {str(r[0]) for r in rows}


def _require_croupier(tables: set[str], what: str) -> None:
    if not tables & set(metadata.tables):
        raise InvalidInput(f"{what} holds no croupier table: it is not a croupier database")


@contextlib.contextmanager
def _sqlite(path: Path, mode: str, what: str) -> Iterator[sqlite3.Connection]:
    """A connection to the SQLite file ``path`` (``mode``: ``ro``, ``rw`` or ``rwc``); a file
    that is not a database, or cannot be opened, is refused naming ``what``."""
    uri = f"file:{quote(str(path.absolute()))}?mode={mode}"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=30.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise InvalidInput(f"{what} cannot be opened: {exc}") from None
    try:
        yield conn
    except sqlite3.Error as exc:
        raise InvalidInput(f"{what}: {exc}") from None
    finally:
        conn.close()


# --- backup -----------------------------------------------------------------------------------


def backup(url: str, output: Path, *, existing: Existing = Existing.REFUSE) -> BackupFile:
    """Back up the croupier database at ``url`` into the file ``output`` while it is in use.

    Refused, writing nothing: a URL of another backend, a database that does not exist or is
    not croupier's, a file already at ``output`` (unless ``existing`` is
    :attr:`Existing.REPLACE`), a folder of ``output`` that does not exist."""
    parsed, backend = _backend(url)
    if output.is_dir() or (output.exists() and existing is Existing.REFUSE):
        raise InvalidInput(
            f"backup file {str(output)[:80]!r} exists: choose a new name (or --replace it)"
        )
    if not output.parent.is_dir():
        raise InvalidInput(f"backup file {str(output)[:80]!r}: its folder does not exist")
    partial = output.with_name(f".{output.name}.{os.getpid()}.partial")
    try:
        if backend == "sqlite":
            _backup_sqlite(_sqlite_path(parsed, url), partial, output, url)
        else:
            _require_croupier(_pg_tables(parsed), f"database {shown_url(url)}")
            _run_pg_tool([_pg_tool("pg_dump"), "--format=custom", f"--file={partial}"], parsed, url)
        _sync(partial)
        _name(partial, output, existing)
    finally:
        partial.unlink(missing_ok=True)
    _sync(output.parent)
    return BackupFile(masked_url(url), output, _BACKEND_FORMAT[backend], output.stat().st_size)


def _backup_sqlite(source: Path, partial: Path, output: Path, url: str) -> None:
    if not source.is_file():
        raise InvalidInput(f"database {shown_url(url)}: no SQLite database file there")
    if output.exists() and output.samefile(source):
        raise InvalidInput(f"backup file {str(output)[:80]!r} is the database itself")
    with _sqlite(source, "rw", f"database {shown_url(url)}") as src:
        _require_croupier(_sqlite_tables(src), f"database {shown_url(url)}")
        with _sqlite(partial, "rwc", f"backup file {str(partial)[:80]!r}") as dst:
            # pages=-1: every page in one step, under one read transaction of the source
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            check = dst.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise InvalidInput(f"the backup of {shown_url(url)} does not check: {check}")


def _name(partial: Path, output: Path, existing: Existing) -> None:
    """Give the complete backup ``partial`` its name; a file that appeared there meanwhile is
    kept unless ``existing`` says replace."""
    if existing is Existing.REPLACE:
        os.replace(partial, output)
        return
    try:
        os.link(partial, output)  # fails, atomically, where a file has the name
    except FileExistsError:
        raise InvalidInput(
            f"backup file {str(output)[:80]!r} exists: choose a new name (or --replace it)"
        ) from None


def _sync(path: Path) -> None:
    """Make ``path`` (a file or a folder's entries) durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- restore ----------------------------------------------------------------------------------


def backup_format(path: Path) -> str:
    """The format of the backup file ``path`` (:data:`SQLITE_FORMAT` or
    :data:`PG_DUMP_FORMAT`); anything else is refused."""
    if not path.is_file():
        raise InvalidInput(f"backup file {str(path)[:80]!r} does not exist")
    with path.open("rb") as handle:
        head = handle.read(16)
    for magic, kind in _MAGIC.items():
        if head.startswith(magic):
            return kind
    raise InvalidInput(
        f"backup file {str(path)[:80]!r} is neither a SQLite database nor a pg_dump archive"
    )


def restore(path: Path, url: str) -> Restored:
    """Restore the backup ``path`` into the fresh database at ``url`` (a SQLite file that does
    not exist or holds no table; a PostgreSQL database made by ``createdb`` and holding no table).

    Refused, changing nothing: a missing file or one that is no backup, a backup of the other
    backend, a target that holds any table."""
    kind = backup_format(path)
    parsed, backend = _backend(url)
    if _BACKEND_FORMAT[backend] != kind:
        raise InvalidInput(
            f"backup file {str(path)[:80]!r} is a {kind} backup: it restores into a "
            f"{'sqlite:///' if kind == SQLITE_FORMAT else 'postgresql+psycopg://'} database, "
            f"not {shown_url(url)}"
        )
    if backend == "sqlite":
        _restore_sqlite(path, _sqlite_path(parsed, url), url)
    else:
        if _pg_tables(parsed):
            raise InvalidInput(f"database {shown_url(url)} is not empty: restore into a new one")
        argv = [_pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error"]
        _run_pg_tool([*argv, "--single-transaction", str(path)], parsed, url)
    return Restored(masked_url(url), path, kind)


def _restore_sqlite(path: Path, target: Path, url: str) -> None:
    shown = f"database {shown_url(url)}"
    if not target.parent.is_dir():
        raise InvalidInput(f"{shown}: its folder does not exist")
    with _sqlite(path, "ro", f"backup file {str(path)[:80]!r}") as src:
        _require_croupier(_sqlite_tables(src), f"backup file {str(path)[:80]!r}")
        created = not target.exists()
        try:
            with _sqlite(target, "rwc", shown) as dst:
                if _sqlite_tables(dst):
                    raise InvalidInput(f"{shown} is not empty: restore into a new file")
                src.backup(dst, pages=-1)
        except InvalidInput:
            if created:
                target.unlink(missing_ok=True)
            raise
    _sync(target)
