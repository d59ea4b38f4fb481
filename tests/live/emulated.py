"""Tables of real cards in the live tests: a demo table's rules made a table of real cards
(:func:`of_real_cards`), and rounds dealt by ``croupier device shoe`` (the reader emulator)
through a real server (:func:`emulated_rounds`): the emulator runs its CLI on a thread while the
dealer's client plays each round, waiting while the reader deals (and, when due, reports the
stub)."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from croupier.cli import main
from croupier.faces.bots import RoundPlayed, play_round
from croupier.faces.client import Client

__all__ = ["emulated_rounds", "of_real_cards"]


def of_real_cards(rules: Mapping[str, Any], cards: str) -> dict[str, Any]:
    """``rules`` (a demo table's, as the API gives them) for a table whose cards come from
    ``cards``: a baccarat commission deferred by markers is taken at payout instead (a table of
    real cards keeps no markers: the baccarat game's check_table)."""
    made = {**rules, "table": {**rules.get("table", {}), "cards": cards}}
    vig = rules.get("vig")
    if isinstance(vig, Mapping) and vig.get("collect") == "deferred":
        made["vig"] = {**vig, "collect": "at_payout"}
    return made


def emulated_rounds(
    dealer: Client,
    players: Mapping[int, Client],
    table_id: str,
    detail: Mapping[str, Any],
    argv: Sequence[str],
    rounds: int,
) -> tuple[list[int], list[RoundPlayed]]:
    """``rounds`` rounds at ``table_id`` while ``croupier device shoe`` runs with ``argv``
    (its token in ``CROUPIER_READER_TOKEN``): the emulator's exit statuses and the rounds."""
    status: list[int] = []
    emulator = threading.Thread(target=lambda: status.append(main(list(argv), out=io.StringIO())))
    emulator.start()

    def dealt_by_the_reader() -> dict[str, Any]:
        """The dealer waits while the reader deals and, when due, reports the stub."""
        for _ in range(400):
            now = dealer.view(table_id)["round"]
            if now["phase"] not in ("dealing", "stub_count"):
                return {"phase": now["phase"], "to_act": now["to_act"]}
            time.sleep(0.05)
        raise AssertionError("the reader dealt no card")

    played = [
        play_round(dealer, players, table_id, detail, deal=dealt_by_the_reader)
        for _ in range(rounds)
    ]
    emulator.join(timeout=60)
    return status, played
