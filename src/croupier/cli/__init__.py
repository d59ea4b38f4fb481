"""The ``croupier`` command line (Typer + Rich): parse, call the library, format, set exit codes.

No game logic lives here.  Every failure is one ``croupier: ...`` line on stderr and exit status 2
(library errors, usage errors, unreadable files); JSON output (``--json``) is stable.

Layout: :mod:`croupier.cli.app` holds the Typer ``app``, the error contract, the shared options
and the output helpers; each other module registers one group of commands on ``app`` when it is
imported, and this package imports them all (the list ``COMMAND_MODULES`` below).

How to add a command (say ``croupier audit verify``) from another module:

1. Create ``src/croupier/cli/audit.py``::

       from typing import Annotated
       import typer
       from croupier.cli.app import JsonOption, app, emit_json
       from croupier.core.extras import require

       audit_app = typer.Typer(help="Verify the store's hash chains.")   # a group ...
       app.add_typer(audit_app, name="audit")

       @audit_app.command("verify")                                      # ... or @app.command()
       def verify(
           db: Annotated[str | None, typer.Option("--db", help="store URL.")] = None,
           json_out: JsonOption = False,
       ) -> None:
           \"\"\"One line of help: what the command does.\"\"\"
           require("server", "audit verify")          # its extra, before importing its modules
           from croupier.audit import verify as run   # the library, lazily (fast start-up)
           result = run(db)
           if json_out:
               emit_json(result.to_json())
           else:
               typer.echo(result.render())

   A command that runs on the bare package (the engine, rules, scenarios) calls no
   ``require``; one that needs an extra (:mod:`croupier.core.extras`) calls it first, and imports
   nothing of the extra at the top of its module (``tests/test_extras.py`` lists every command
   as bare or needing its extra).
2. Add ``"audit"`` to ``COMMAND_MODULES`` below (keep the list sorted).
3. Rules of the house: raise :class:`croupier.core.errors.InvalidInput` (or another
   ``CroupierError``) for bad input and let it propagate, never print errors yourself nor call
   ``sys.exit`` (``raise typer.Exit(2)`` when you have already reported several problems with
   :func:`croupier.cli.app.fail`); use the shared options (``JsonOption``, ``RulesOption``,
   ``PaytableOption``, ``GameArgument``, ``QuietOption``); wrap long work in
   ``with progress_bars(enabled=not quiet):`` and report progress from the library through
   :mod:`croupier.core.progress`; put Rich tables in the module or in :mod:`croupier.cli.render`.
4. Test through Typer's runner: ``CliRunner().invoke(app, [...])`` (``result.stdout`` and
   ``result.stderr`` are separate), or :func:`main` with ``out=``.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Sequence
from typing import TextIO

from typer.main import get_command

from croupier.cli.app import app

__all__ = ["COMMAND_MODULES", "app", "main", "run"]

COMMAND_MODULES = (
    "accounts",
    "audit",
    "backup",
    "compliance",
    "design",
    "device",
    "floor",
    "hands",
    "par",
    "play",
    "progressive",
    "protect",
    "recall",
    "rules",
    "schema",
    "serve",
    "theo",
)
"""The modules of :mod:`croupier.cli` that register commands on ``app``, in help order."""

for _name in COMMAND_MODULES:
    importlib.import_module(f"croupier.cli.{_name}")


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); returns the exit status
    (0 ok, 2 bad input or refused action).  ``out``: where standard output goes."""
    command = get_command(app)
    args = list(sys.argv[1:] if argv is None else argv)
    with contextlib.redirect_stdout(out) if out is not None else contextlib.nullcontext():
        status: int = command.main(args=args, prog_name="croupier", standalone_mode=False)
    return status


def run() -> None:  # pragma: no cover - the console script
    """Entry point of the ``croupier`` console script."""
    sys.exit(main())
