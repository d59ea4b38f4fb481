"""``croupier audit verify [--db URL]``: tamper evidence of a croupier database.

Exit 0 when every hash chain, meter and settlement matches and every seat's chips reconcile
with its settlement (:mod:`croupier.audit.reconcile`); 1 with the findings (one a line: table, key,
what differs) when something was changed outside croupier or a chip moved that the rules did
not pay; 2 on bad input (no such database, not croupier's).
"""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.cli.app import DbOption, JsonOption, app, emit_json
from croupier.core.extras import require

__all__ = ["audit_app"]

audit_app = typer.Typer(help="Audit a database: hash chains, meters, settlements.")
app.add_typer(audit_app, name="audit")

EXIT_TAMPERED = 1


@audit_app.command("verify")
def verify(
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Recompute every hash chain, each meter from its ledger and each round's settlement
    from its records, and reconcile each seat's chip-ledger rows with that settlement; exit 1
    naming the first row of each chain that does not match and each seat whose chips differ."""
    require("server", "audit verify")
    from croupier.audit.chains import verify as run
    from croupier.faces.terminal import database_url

    report = run(database_url(db))
    if json_out:
        emit_json(report.to_json())
    else:
        checked = report.to_json()["checked"]
        typer.echo(", ".join(f"{n} {k.replace('_', ' ')}" for k, n in checked.items()))
        for finding in report.findings:
            typer.echo(str(finding))
        if report.ok:
            typer.echo("clean: every chain, meter and settlement matches, every chip reconciles")
    if not report.ok:
        raise typer.Exit(EXIT_TAMPERED)


@audit_app.command("verify-deal")
def verify_deal(
    round_id: Annotated[str, typer.Argument(metavar="ROUND", help="the round's id")],
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """A finished round's deal against its commitment: the shoe order and nonce hash to it
    and every card dealt came from that order, a baccarat coup where the coup before it left
    the shoe (exit 1 otherwise; refused while the round, or its shoe, is being dealt)."""
    require("server", "audit verify-deal")
    from croupier.audit.chains import verify_deal as run
    from croupier.faces.terminal import database_url

    check = run(database_url(db), round_id)
    if json_out:
        emit_json(check.to_json())
    else:
        typer.echo(f"round {check.round_id}: commitment {check.commitment}")
        typer.echo(f"published before the first wager: {check.published or 'not on record'}")
        typer.echo(f"nonce {check.nonce}")
        typer.echo("order " + " ".join(check.order))
        for finding in check.findings:
            typer.echo(str(finding))
        if check.ok:
            typer.echo(f"the {check.dealt} cards dealt follow the committed order")
    if not check.ok:
        raise typer.Exit(EXIT_TAMPERED)
