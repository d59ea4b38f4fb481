"""``croupier device shoe``: a card reader's emulator dealing a real shuffled deck to a table
over the reader protocol (docs/reader-protocol.md)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from croupier.cli.app import JsonOption, QuietOption, app, emit_json
from croupier.core.errors import InvalidInput
from croupier.core.extras import require

__all__ = ["shoe"]

device_app = typer.Typer(help="Devices of a table of real cards (issue 39).")
app.add_typer(device_app, name="device")

TOKEN_ENV = "CROUPIER_READER_TOKEN"
"""The reader's token comes from this environment variable (a command line is visible to every
user of the machine)."""


@device_app.command("shoe")
def shoe(
    url: Annotated[str, typer.Argument(help="the server, e.g. http://127.0.0.1:8000")],
    table: Annotated[str, typer.Argument(help="the table the reader is bound to")],
    decks: Annotated[int, typer.Option("--decks", help="decks in the shoe")] = 1,
    rounds: Annotated[int, typer.Option("--rounds", help="rounds to deal, then stop")] = 1,
    cut_card: Annotated[
        int | None,
        typer.Option(
            "--cut-card",
            help="a baccarat shoe dealt across coups: a new shoe (a shoe message) once no "
            "more than this many cards are left when a coup begins",
        ),
    ] = None,
    fault: Annotated[
        list[str] | None,
        typer.Option(
            "--fault",
            help="NAME@N: the N-th card dealt with a fault (misread, misread-seen, "
            "face-up, skip, duplicate, reconnect); repeatable",
        ),
    ] = None,
    interval: Annotated[
        float, typer.Option("--interval", help="seconds between heartbeats while idle")
    ] = 1.0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="a seeded shuffle: tests only, never play")
    ] = None,
    quiet: QuietOption = False,
    json_out: JsonOption = False,
) -> None:
    """Deal a real shuffled deck (the OS CSPRNG) to TABLE as a card reader: a card whenever
    one is due, a heartbeat while none is; the token is read from $CROUPIER_READER_TOKEN."""
    require("server", "device shoe")
    from croupier.faces.reader import ShoeReader, parse_faults, run
    from croupier.table.shoe import SecureShuffler, SeededShuffler, Shuffler

    token = os.environ.get(TOKEN_ENV, "")
    if not token:
        raise InvalidInput(f"the reader's token is read from ${TOKEN_ENV}, which is not set")
    if interval <= 0:
        raise InvalidInput(f"--interval {interval} is not a positive number of seconds")
    faults = parse_faults(fault or [])
    shuffler: Shuffler = SecureShuffler() if seed is None else SeededShuffler(seed)
    if cut_card is not None and not 0 <= cut_card < 52 * decks:
        raise InvalidInput(f"--cut-card {cut_card} is not within the {decks}-deck shoe")
    reader = ShoeReader(url, table, token, decks=decks, shuffler=shuffler, cut_card=cut_card)
    try:
        say = (lambda _: None) if quiet or json_out else typer.echo
        sent = run(reader, rounds=rounds, faults=faults, interval=interval, say=say)
    finally:
        reader.close()
    if json_out:
        emit_json({"table": table, "rounds": rounds, "messages": sent})
    elif not quiet:
        typer.echo(f"{rounds} round(s) dealt to {table}: {sent} messages")
