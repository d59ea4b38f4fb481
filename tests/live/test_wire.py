"""The streams' JSON text (:func:`croupier.server.wire.compact`, written by orjson) is the text the
standard library writes with ``separators=(",", ":")`` and ``ensure_ascii=False``: for any value
of the kinds the streams send, and for every message and carried state of rounds played on a
floor, as each of the table's people is sent them."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.server.live_floor import Floor
from croupier.server.streams import messages_in_memory, with_state
from croupier.server.wire import compact
from live.test_view_answer_shared import PEOPLE, PLAYERS, Checked, _sit

_INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_TEXT = st.text(st.characters(codec="utf-8"))  # no lone surrogate: not UTF-8
_JSON = st.recursive(
    st.none() | st.booleans() | _INT64 | _TEXT,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(_TEXT | _INT64, inner, max_size=6)
        | st.tuples(inner, inner)
    ),
    max_leaves=30,
)


def _stdlib(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@given(_JSON)
def test_compact_writes_the_standard_librarys_text(value: Any) -> None:
    assert compact(value) == _stdlib(value)


class Sent(Checked):
    """After each command, every message of the table's stream and its carried state, as each
    person is sent them, compared with the standard library's text of the same value."""

    texts = 0

    def check(self) -> None:
        for person in PEOPLE:
            batch = messages_in_memory(self.floor, person, self.lt, 0)
            if not batch:
                continue
            for _seq, text in with_state(self.floor, person, self.lt, batch):
                assert text == _stdlib(json.loads(text)), (person.username, _seq)
                self.texts += 1


@pytest.mark.parametrize("table", ["three-card-poker", "mini-baccarat", "let-it-ride"])
def test_every_stream_message_is_the_standard_librarys_text(floor: Floor, table: str) -> None:
    sent = Sent(floor, table)
    for seat, player in enumerate(PLAYERS, start=1):
        sent.do(player, partial(_sit, floor, sent.lt, player, seat))
    sent.play_round()
    assert sent.texts > len(PEOPLE) * sent.commands
