"""The demo floor of ``croupier serve``: one table of every game from the Rules Submission files
in this directory (a progressive meter linked across tables: ``stud-mega`` by Mississippi Stud and
Ultimate Texas Hold 'Em, with one reset and rate; Three and Four Card Poker each have their own,
as their pay tables differ and a linked meter has one configuration), demo accounts for every
role, and chips for the demo players.

The demo accounts' passwords are published (``<name>-demo``): they are marked demo and sign in
only on a floor started as a demo or for training (:class:`croupier.server.auth.FloorMode`);
the demo is refused on a database that has an administrator of its own (a real floor)."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib.resources import files

from sqlalchemy import Connection, func, select

from croupier.errors import IllegalAction
from croupier.rules import load_rules
from croupier.server.auth import Auth, Role
from croupier.server.floor import Floor, rules_json
from croupier.server.ledger import CAGE, Entry, player_account
from croupier.server.schema import accounts

__all__ = ["DEMO_BUY_IN", "demo_rules", "setup_demo", "setup_demo_accounts"]

DEMO_BUY_IN = 1_000_000
"""Chips each demo player starts with: $10,000."""

DEMO_PLAYERS = 7


def demo_rules() -> dict[str, dict[str, object]]:
    """Table id -> Rules Submission (as JSON) of every file in the demo directory."""
    out: dict[str, dict[str, object]] = {}
    for entry in sorted(files(__name__).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            out[entry.name.removesuffix(".toml")] = rules_json(
                load_rules(tomllib.loads(entry.read_text()))
            )
    return out


def _credentials() -> list[tuple[str, str, Role, str | None]]:
    people: list[tuple[str, str, Role, str | None]] = [
        ("dealer", "dealer-demo", Role.DEALER, None),
        ("supervisor", "supervisor-demo", Role.SUPERVISOR, None),
        ("observer", "observer-demo", Role.OBSERVER, None),
        ("auditor", "auditor-demo", Role.AUDITOR, None),
        ("admin", "admin-demo", Role.ADMIN, None),
    ]
    people += [
        (f"player{n}", f"player{n}-demo", Role.PLAYER, f"P{n}") for n in range(1, DEMO_PLAYERS + 1)
    ]
    return people


def setup_demo(floor: Floor, auth: Auth) -> dict[str, str]:
    """Create what is missing of the demo floor; returns username -> password."""
    with floor.engine.begin() as conn:
        _refuse_real_floor(conn)
        for table_id, rules in demo_rules().items():
            if table_id not in floor.tables:
                name = str(rules["game"]).replace("-", " ").title()
                floor.create_table(conn, table_id, name, rules)
    return setup_demo_accounts(floor, auth)


def setup_demo_accounts(floor: Floor, auth: Auth) -> dict[str, str]:
    """Create the demo accounts that are missing (a training floor's: no demo table); returns
    username -> password of those still demo accounts."""
    creds: dict[str, str] = {}
    with floor.engine.begin() as conn:
        _refuse_real_floor(conn)
        for username, password, role, player in _credentials():
            if auth.exists(conn, username):
                if auth.account(conn, username).demo:
                    creds[username] = password
                continue
            if player is not None:
                floor.create_player(conn, player, f"Demo player {player}")
                floor.ledger.post(
                    conn, [Entry(CAGE, player_account(player), Fraction(DEMO_BUY_IN), "buy_in")]
                )
            auth.create_demo(conn, username, password, role, player_id=player)
            creds[username] = password
    return creds


def _refuse_real_floor(conn: Connection) -> None:
    """A database with an administrator of its own is a real floor: no demo there."""
    query = select(func.count()).where(
        accounts.c.role == Role.ADMIN.value, accounts.c.demo.is_(False)
    )
    if conn.execute(query).scalar_one():
        raise IllegalAction(
            "this database has an administrator of its own (a real floor): the demo and its "
            "published passwords are refused here; start it with --no-demo"
        )
