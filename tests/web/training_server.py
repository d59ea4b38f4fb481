"""A training floor for the browser tests: ``croupier serve``'s app (the demo floor, every page)
whose tables are all training tables (``[table] training = true``) on a
:class:`~croupier.server.live_floor.Floor` whose shuffler stacks the deck: the cards named in
the file ``$CROUPIER_WEB_STACK`` (``As 2c Ah ...``, top first) go on top of each shuffle, the rest
follow in a seeded order.  A real table refuses such a shuffler (the floor checks it when each
table is set up) and every round dealt here is recorded as ``training``.

Run: ``python tests/web/training_server.py DB_URL PORT`` (loopback only).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import uvicorn

from croupier.core.cards import Card, parse_cards
from croupier.server.app import create_app
from croupier.server.auth import FloorMode
from croupier.server.db import connect
from croupier.server.live_floor import Floor
from croupier.table.shoe import SeededShuffler

T = TypeVar("T")
STACK_ENV = "CROUPIER_WEB_STACK"


class TopStacker:
    """A training shuffler: the stack file's cards on top (those in the deck shuffled; for
    single-deck games), then the rest as a seeded shuffler orders them."""

    def __init__(self, stack_file: Path, seed: str) -> None:
        self.stack_file = stack_file
        self.rest = SeededShuffler(seed)

    def _top(self) -> list[Card]:
        text = self.stack_file.read_text() if self.stack_file.exists() else ""
        return list(parse_cards(text)) if text.strip() else []

    def shuffle(self, cards: Sequence[T]) -> list[T]:
        mixed = self.rest.shuffle(cards)
        wanted: list[object] = [*self._top()]  # single-deck games: each card once
        top = sorted((c for c in mixed if c in wanted), key=wanted.index)
        return [*top, *(c for c in mixed if c not in wanted)]

    def randbelow(self, n: int) -> int:
        return self.rest.randbelow(n)

    def __repr__(self) -> str:
        return f"TopStacker({str(self.stack_file)!r})"


def main(db_url: str, port: int) -> None:
    stacker = TopStacker(Path(os.environ[STACK_ENV]), seed="web-training")
    floor = Floor(connect(db_url), shuffler=stacker)
    floor.load()
    # a training floor: every demo table a training table, the demo accounts
    app = create_app(db_url, mode=FloorMode.TRAINING, floor=floor)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
