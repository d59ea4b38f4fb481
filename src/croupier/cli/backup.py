"""``croupier db backup`` and ``croupier db restore``: a copy of the floor's database taken while
its tables play, and its restore into a fresh database (:mod:`croupier.store.backup`).

These commands join the ``croupier db`` group of :mod:`croupier.cli.serve`; a failure is one
line on stderr and exit status 2, a PostgreSQL password is never printed."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from croupier.cli.app import JsonOption, emit_json
from croupier.cli.serve import DbOption, db_app, floor_url
from croupier.core.extras import require

__all__ = ["db_backup", "db_restore"]


@db_app.command("backup")
def db_backup(
    output: Annotated[
        Path, typer.Argument(metavar="OUTPUT", help="the backup file to write (a new file).")
    ],
    db: DbOption = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="overwrite a file already at OUTPUT.")
    ] = False,
    json_out: JsonOption = False,
) -> None:
    """Copy the database into OUTPUT while its tables play: one consistent moment, every
    command acknowledged before it began included (SQLite: the online backup API;
    PostgreSQL: pg_dump --format=custom)."""
    require("server", "db backup")
    from croupier.store.backup import Existing, backup

    done = backup(floor_url(db), output, existing=Existing.REPLACE if replace else Existing.REFUSE)
    if json_out:
        emit_json(done.to_json())
    else:
        typer.echo(f"{done.database}: backed up to {done.path} ({done.format}, {done.size} bytes)")


@db_app.command("restore")
def db_restore(
    backup_file: Annotated[
        Path, typer.Argument(metavar="BACKUP", help="a file written by croupier db backup.")
    ],
    db: Annotated[
        str,
        typer.Option(
            "--db",
            help="the fresh database to restore into: sqlite:///FILE (a new file) or "
            "postgresql+psycopg://USER@HOST:PORT/DB (made by createdb, holding no table).",
        ),
    ],
    json_out: JsonOption = False,
) -> None:
    """Restore BACKUP into a fresh, empty database (refused when it holds any table); a server
    started on it resumes or holds each open round as after a crash."""
    require("server", "db restore")
    from croupier.store.backup import restore

    done = restore(backup_file, db)
    if json_out:
        emit_json(done.to_json())
    else:
        typer.echo(
            f"{done.database}: restored from {done.path} ({done.format}); "
            "check it with croupier audit verify"
        )
