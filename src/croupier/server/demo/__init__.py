"""The demo floor of ``croupier serve``: one table of every game from the Rules Submission files
in this directory (a progressive meter linked across tables: ``stud-mega`` by Mississippi Stud and
Ultimate Texas Hold 'Em, with one reset and rate; Three and Four Card Poker each have their own,
as their pay tables differ and a linked meter has one configuration), demo accounts for every
role, and chips for the demo players.  Every table posts its limits (``[limits.<wager>]``); a demo
table stored before limits were required takes its file's rules again between rounds.  A training
demo floor (``mode=PlayMode.TRAINING``: ``croupier serve --training``, the browser tests) declares
every table a training table (``[table] training = true``).

The demo accounts' passwords are published (``<name>-demo``): they are marked demo and sign in
only on a floor started as a demo or for training (:class:`croupier.server.auth.FloorMode`);
the demo is refused on a database that has an administrator of its own (a real floor)."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from fractions import Fraction
from importlib.resources import files
from typing import Any

from sqlalchemy import Connection, func, select, update

from croupier.core.errors import IllegalAction
from croupier.core.modes import PlayMode
from croupier.games import get_game
from croupier.rules.submission import load_rules
from croupier.server.auth import Auth, Role
from croupier.server.ledger import CAGE, Entry, player_account
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable
from croupier.server.table_registry import rules_json
from croupier.store.schema import accounts, live_tables

__all__ = ["DEMO_BUY_IN", "demo_rules", "setup_demo"]

DEMO_BUY_IN = 1_000_000
"""Chips each demo player starts with: $10,000."""

DEMO_PLAYERS = 7


def demo_rules(mode: PlayMode = PlayMode.REAL) -> dict[str, dict[str, Any]]:
    """Table id -> Rules Submission (as JSON) of every file in the demo directory; a training
    table's (``[table] training = true``) for ``PlayMode.TRAINING``."""
    out: dict[str, dict[str, Any]] = {}
    for entry in sorted(files(__name__).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text())
            if mode is PlayMode.TRAINING:
                data["table"] = {**data.get("table", {}), "training": True}
            out[entry.name.removesuffix(".toml")] = rules_json(load_rules(data))
    return out


def _repost(floor: Floor, conn: Connection, lt: LiveTable, rules: Mapping[str, Any]) -> None:
    """A demo table stored before limits were required takes its file's rules (with them)
    between rounds, keeping its seats, numbers and events; one with a round in play stays
    closed (the supervisor finishes or voids that round first)."""
    if lt.round is not None and not lt.round.is_over:
        return
    row = conn.execute(select(live_tables).where(live_tables.c.id == lt.id)).one()
    conn.execute(
        update(live_tables).where(live_tables.c.id == lt.id).values(rules=json.dumps(rules))
    )
    new = floor.registry.place(lt.id, lt.name, rules, row.status)
    for seat, player in lt.seats().items():
        new.table.sit(seat, player)
    new.seq, new.numbers = lt.seq, lt.numbers


def _credentials() -> list[tuple[str, str, Role, str | None]]:
    people: list[tuple[str, str, Role, str | None]] = [
        ("dealer", "dealer-demo", Role.DEALER, None),
        ("supervisor", "supervisor-demo", Role.SUPERVISOR, None),
        ("observer", "observer-demo", Role.OBSERVER, None),
        ("auditor", "auditor-demo", Role.AUDITOR, None),
        ("admin", "admin-demo", Role.ADMIN, None),
        ("trainee", "trainee-demo", Role.TRAINEE, None),
    ]
    people += [
        (f"player{n}", f"player{n}-demo", Role.PLAYER, f"P{n}") for n in range(1, DEMO_PLAYERS + 1)
    ]
    return people


def setup_demo(floor: Floor, auth: Auth, mode: PlayMode = PlayMode.REAL) -> dict[str, str]:
    """Create what is missing of the demo floor (its tables training tables for
    ``PlayMode.TRAINING``); returns username -> password of the accounts still demo accounts."""
    creds: dict[str, str] = {}
    with floor.engine.begin() as conn:
        _refuse_real_floor(conn)
        for table_id, rules in demo_rules(mode).items():
            found = floor.tables.get(table_id)
            if found is None:
                name = get_game(rules).spoken_name()  # the game as people say it
                floor.registry.create(conn, table_id, name, rules)
            elif found.unposted is not None and found.game.slug == get_game(rules).slug:
                _repost(floor, conn, found, rules)
        for username, password, role, player in _credentials():
            if auth.exists(conn, username):
                if auth.account(conn, username).demo:
                    creds[username] = password
                continue
            if player is not None:
                floor.cage.create_player(conn, player, f"Demo player {player}")
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
