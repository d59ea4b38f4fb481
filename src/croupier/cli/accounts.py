"""``croupier accounts create|list|disable|enable|password|role|bind|unlock|locks``: a floor's
accounts on its database (``--db``, as ``croupier serve``), the same operations as the
administrator's API (:mod:`croupier.server.accounts`), each written to the security log with
the operating-system user who ran it (``cli:<user>``).

A password is never an option (a command line is seen by every user of the machine): it is
asked twice on a terminal, else read from the first line of standard input.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from croupier.cli.app import JsonOption, app, emit_json
from croupier.cli.serve import DbOption, floor_url
from croupier.core.extras import require

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from croupier.server.auth import Auth

__all__ = ["accounts_app"]

accounts_app = typer.Typer(
    help="A floor's accounts: staff, dealers' tables, players, sign-in locks.",
    no_args_is_help=True,
)
app.add_typer(accounts_app, name="accounts")

T = TypeVar("T")

NameArgument = Annotated[str, typer.Argument(metavar="NAME", help="the account's username")]
ROLES = "player, dealer, supervisor, observer, auditor, admin or trainee"


def _actor() -> str:
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # no user name known to the system
        return "cli"


@contextmanager
def _floor(db: str | None) -> Iterator[tuple[Auth, Connection]]:
    """The floor's database (migrated) and one transaction on it."""
    from croupier.server.auth import Auth
    from croupier.server.db import connect

    engine = connect(floor_url(db))
    try:
        auth = Auth(engine)  # before the transaction: it prepares the engine on its own
        with engine.begin() as conn:
            yield auth, conn
    finally:
        engine.dispose()


def _run(db: str | None, work: Callable[[Auth, Connection], T]) -> T:
    with _floor(db) as (auth, conn):
        return work(auth, conn)


def _role(text: str) -> Any:
    from croupier.core.errors import InvalidInput
    from croupier.server.auth import Role

    try:
        return Role(text.strip().lower())
    except ValueError:
        raise InvalidInput(f"role {text!r} is not one of {ROLES}") from None


def _password(name: str) -> str:
    """The new password: asked twice on a terminal, else the first line of standard input."""
    import getpass

    from croupier.core.errors import InvalidInput

    if sys.stdin.isatty():
        first = getpass.getpass(f"new password for {name}: ")
        if getpass.getpass("again: ") != first:
            raise InvalidInput("the two passwords differ; nothing was changed")
        return first
    line = sys.stdin.readline()
    if not line.strip():
        raise InvalidInput("no password on standard input (one line); nothing was changed")
    return line.rstrip("\r\n")


def _show(info: Any, json_out: bool, said: str) -> None:
    if json_out:
        emit_json(info.to_json())
    else:
        typer.echo(f"{said}: {_line(info)}")


def _line(info: Any) -> str:
    extra = []
    if info.player_id:
        extra.append(f"player {info.player_id}")
    if info.role == "dealer":
        extra.append("tables " + (", ".join(info.tables) or "none"))
    if info.demo:
        extra.append("demo")
    more = f" ({'; '.join(extra)})" if extra else ""
    return f"{info.username} {info.role} {info.status}{more}"


@accounts_app.command("create")
def create(
    name: NameArgument,
    role: Annotated[str, typer.Option("--role", help=f"the account's role: {ROLES}.")],
    player: Annotated[
        str | None, typer.Option("--player", help="a player account's player id.")
    ] = None,
    player_name: Annotated[
        str | None, typer.Option("--player-name", help="the player's name (a new player).")
    ] = None,
    table: Annotated[
        list[str] | None, typer.Option("--table", help="a dealer's table (repeatable).")
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """A new account (the first administrator too: --role admin); its password asked twice
    or read from standard input."""
    require("server", "accounts create")
    from croupier.server.accounts import create_account

    wanted = _role(role)
    password = _password(name)
    info = _run(
        db,
        lambda auth, conn: create_account(
            auth,
            conn,
            username=name,
            password=password,
            role=wanted,
            actor=_actor(),
            player_id=player,
            player_name=player_name,
            tables=table or (),
        ),
    )
    _show(info, json_out, "created")


@accounts_app.command("list")
def list_(db: DbOption = None, json_out: JsonOption = False) -> None:
    """Every account: name, role, status, a dealer's tables, a player's id, demo or not."""
    require("server", "accounts list")
    from croupier.server.accounts import list_accounts

    found = _run(db, lambda auth, conn: list_accounts(conn))
    if json_out:
        emit_json([a.to_json() for a in found])
        return
    for info in found:
        typer.echo(_line(info))


def _status(name: str, db: str | None, json_out: bool, value: str) -> None:
    from croupier.server.accounts import set_status
    from croupier.server.auth import AccountStatus

    status = AccountStatus(value)
    info = _run(db, lambda auth, conn: set_status(auth, conn, name, status, actor=_actor()))
    _show(info, json_out, "disabled" if status is AccountStatus.DISABLED else "enabled")


@accounts_app.command("disable")
def disable(name: NameArgument, db: DbOption = None, json_out: JsonOption = False) -> None:
    """Disable an account: it signs in nowhere, every session of it ends."""
    require("server", "accounts disable")
    _status(name, db, json_out, "disabled")


@accounts_app.command("enable")
def enable(name: NameArgument, db: DbOption = None, json_out: JsonOption = False) -> None:
    """Enable a disabled account."""
    require("server", "accounts enable")
    _status(name, db, json_out, "active")


@accounts_app.command("password")
def password(name: NameArgument, db: DbOption = None, json_out: JsonOption = False) -> None:
    """A new password (asked twice, or read from standard input); every session ends."""
    require("server", "accounts password")
    from croupier.server.accounts import set_password

    new = _password(name)
    info = _run(db, lambda auth, conn: set_password(auth, conn, name, new, actor=_actor()))
    _show(info, json_out, "password changed")


@accounts_app.command("role")
def role(
    name: NameArgument,
    new: Annotated[str, typer.Argument(metavar="ROLE", help=f"{ROLES} (staff only).")],
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Another staff role; every session of the account ends."""
    require("server", "accounts role")
    from croupier.server.accounts import set_role

    wanted = _role(new)
    info = _run(db, lambda auth, conn: set_role(auth, conn, name, wanted, actor=_actor()))
    _show(info, json_out, "role changed")


@accounts_app.command("bind")
def bind(
    name: NameArgument,
    tables: Annotated[
        list[str] | None,
        typer.Argument(metavar="[TABLE]...", help="every table the dealer deals (none: none)."),
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Bind a dealer to the tables it deals (replacing its tables; none unbinds it)."""
    require("server", "accounts bind")
    from croupier.server.accounts import bind_tables

    wanted = tables or []
    info = _run(db, lambda auth, conn: bind_tables(auth, conn, name, wanted, actor=_actor()))
    _show(info, json_out, "bound")


@accounts_app.command("unlock")
def unlock(
    name: Annotated[
        str | None, typer.Argument(metavar="[NAME]", help="the account name to release.")
    ] = None,
    address: Annotated[
        str | None, typer.Option("--address", help="the client address to release instead.")
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Release a sign-in lock (and the failures counted) of an account name or an address."""
    require("server", "accounts unlock")
    from croupier.server.accounts import unlock as release

    lock = _run(
        db,
        lambda auth, conn: release(auth, conn, actor=_actor(), username=name, address=address),
    )
    if json_out:
        emit_json(lock.to_json())
    else:
        typer.echo(f"released {lock.key} ({lock.failures} failures, {lock.refused} refused)")


@accounts_app.command("locks")
def locks(db: DbOption = None, json_out: JsonOption = False) -> None:
    """Every account name and client address with failed sign-ins counted, locked first
    (with the server's default limits' memory of failures)."""
    require("server", "accounts locks")
    found = _run(db, lambda auth, conn: auth.limiter.locks(conn))
    if json_out:
        emit_json([lock.to_json() for lock in found])
        return
    for lock in found:
        until = lock.locked_until.isoformat() if lock.locked_until else "not locked"
        typer.echo(f"{lock.key} {lock.failures} failures, {until}, {lock.refused} refused")
