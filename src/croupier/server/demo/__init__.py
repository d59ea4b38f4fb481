"""The demo floor of ``croupier serve``: one table of every game from the Rules Submission files
in this directory (a progressive meter linked across tables: ``stud-mega`` by Mississippi Stud and
Ultimate Texas Hold 'Em, with one reset and rate; Three and Four Card Poker each have their own,
as their pay tables differ and a linked meter has one configuration), demo accounts for every
role, and chips for the demo players."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from importlib.resources import files

from croupier.rules import load_rules
from croupier.server.auth import Auth, Role
from croupier.server.floor import Floor, rules_json
from croupier.server.ledger import CAGE, Entry, player_account

__all__ = ["DEMO_BUY_IN", "demo_rules", "setup_demo"]

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
    ]
    people += [
        (f"player{n}", f"player{n}-demo", Role.PLAYER, f"P{n}") for n in range(1, DEMO_PLAYERS + 1)
    ]
    return people


def setup_demo(floor: Floor, auth: Auth) -> dict[str, str]:
    """Create what is missing of the demo floor; returns username -> password."""
    creds: dict[str, str] = {}
    with floor.engine.begin() as conn:
        for table_id, rules in demo_rules().items():
            if table_id not in floor.tables:
                name = str(rules["game"]).replace("-", " ").title()
                floor.create_table(conn, table_id, name, rules)
        for username, password, role, player in _credentials():
            creds[username] = password
            if auth.exists(conn, username):
                continue
            if player is not None:
                floor.create_player(conn, player, f"Demo player {player}")
                floor.ledger.post(
                    conn, [Entry(CAGE, player_account(player), Fraction(DEMO_BUY_IN), "buy_in")]
                )
            auth.create(conn, username, password, role, player_id=player)
    return creds
