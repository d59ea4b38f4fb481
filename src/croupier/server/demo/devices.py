"""The demo floor's tables of real cards (issue 39): ``croupier serve --demo-devices`` (``make
run``) adds two tables of the demo's rules (Four Card Poker's: the first demo game that takes
every device), one whose cards a card reader
reports and one whose cards the dealer keys, and deals the reader table's cards from the reader
emulator (:class:`~croupier.faces.reader.ShoeReader`, a real shuffled deck from the OS CSPRNG)
in a thread of the server's process, so a newcomer can watch both: a card whenever the table
asks for one, a heartbeat while it does not.  A demo or training floor only."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from croupier.core.errors import CroupierError
from croupier.core.shapes import CardSource
from croupier.faces.client import ApiError
from croupier.games import get_game
from croupier.server.auth import Account, Role
from croupier.server.demo import demo_rules
from croupier.server.devices import HEARTBEAT_SECONDS, Devices
from croupier.server.live_floor import Floor

__all__ = ["DEVICE_TABLES", "add_device_tables", "start_demo_reader"]


def _device_demo() -> tuple[str, dict[str, Any]]:
    """The demo table whose rules the tables of real cards take, and those rules: the first demo
    table (in the demo's order) whose game takes every device of issue 39, its winning hands
    declared at the felt included (the games say which: ``declared_cards``)."""
    for table_id, rules in demo_rules().items():
        if get_game(rules).round_class.declared_cards:
            return table_id, rules
    raise LookupError("no demo table's game takes a declared hand")


_DEMO, _ = _device_demo()
DEVICE_TABLES = {f"{_DEMO}-reader": CardSource.READER, f"{_DEMO}-keypad": CardSource.KEYPAD}
"""The demo's tables of real cards (named after the demo table whose rules they take) and where
each one's cards come from."""
READER_TABLE = f"{_DEMO}-reader"


def add_device_tables(floor: Floor) -> None:
    """Create the demo's tables of real cards where missing (the rules of :func:`_device_demo`)."""
    _, rules = _device_demo()
    name = get_game(rules).spoken_name()
    with floor.engine.begin() as conn:
        for table_id, source in DEVICE_TABLES.items():
            if table_id in floor.tables:
                continue
            data = {**rules, "table": {**rules.get("table", {}), "cards": source.value}}
            shown = f"{name} ({'card reader' if source is CardSource.READER else 'keypad'})"
            floor.registry.create(conn, table_id, shown, data)


def start_demo_reader(floor: Floor, url: str) -> threading.Thread:
    """A reader of the demo's reader table, its token issued here (shown to nobody), dealing
    in a daemon thread for as long as the server runs."""
    devices = Devices(floor.commands)
    issued = devices.issue(Account("demo-reader", Role.SUPERVISOR), READER_TABLE)

    def last_seq() -> int:
        """The number of the reader's last message the server holds (the floor's own read)."""
        found = [s.last_seq for s in devices.statuses(READER_TABLE) if s.device == issued.device]
        return found[0] if found else 0

    thread = threading.Thread(
        target=_deal_forever, args=(url, issued.token, last_seq), name="demo-reader", daemon=True
    )
    thread.start()
    return thread


def _deal_forever(
    url: str, token: str, last_seq: Callable[[], int], sleep: Callable[[float], None] = time.sleep
) -> None:
    from croupier.faces.reader import ShoeReader, run

    while True:
        reader = ShoeReader(url, READER_TABLE, token)
        try:
            reader.seq = last_seq()  # a fresh reader after a refusal continues the numbering
            run(reader, rounds=1_000_000, faults={}, interval=1.0, say=lambda _: None)
        except (httpx.HTTPError, ApiError, CroupierError):
            sleep(HEARTBEAT_SECONDS)  # the server not up yet, or a message refused: again
        finally:
            reader.close()
