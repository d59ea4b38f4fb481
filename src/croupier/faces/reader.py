"""A card reader's emulator (issue 39): a real shuffled deck dealt over the reader protocol
(docs/reader-protocol.md), the faults of a physical reader on demand.

:class:`ShoeReader` holds a shoe of ``decks`` decks shuffled by the OS CSPRNG
(:class:`~croupier.table.shoe.SecureShuffler`; a seed only for tests), numbers its messages and
sends them with its token to its one table.  Each move is one message, or a fault:

- :meth:`card`: the next card of the shoe is dealt and reported;
- :meth:`misread`: the next card is dealt but reported as another (one of the deck still
  unseen); :meth:`correct` is the dealer's correction; :meth:`misread_seen` reports it as a
  card already dealt;
- :meth:`skip`: the next card is dealt and never reported;
- :meth:`duplicate`: the last message sent again, its number unchanged (the same answer);
- :meth:`gap`: a message numbered past the next (refused, naming the one expected);
- :meth:`disconnect` / :meth:`reconnect`: the connection dropped (the last message possibly
  unanswered) and made again; the unanswered message is sent again under its number;
- :meth:`stub`: the cards left in the shoe, counted;
- :meth:`new_shoe`: a baccarat shoe changed (``cut_card``: one shoe dealt coup after coup, a
  new one once no more than ``cut_card`` cards are left when a coup begins): shuffled, the first
  card turned up and reported in a ``shoe`` message, as many more burned face down;
- :meth:`sense`: a progressive sensor at a betting position lit or dark (a table with the
  progressive table game system's sensors: the same token and numbering);
- :meth:`chips`: a chip-reading layout's amount on a wager at a betting position;
- :meth:`heartbeat`.

``croupier device shoe`` runs it against a server (:func:`run`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import httpx

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.faces.client import ApiError
from croupier.hands.baccarat import card_value
from croupier.table.shoe import SecureShuffler, Shuffler, shoe_cards

__all__ = ["FAULTS", "ShoeReader", "parse_faults", "run"]


class ShoeReader:
    """One reader at one table: a shoe of real cards and its numbered messages."""

    def __init__(
        self,
        base_url: str,
        table_id: str,
        token: str,
        *,
        decks: int = 1,
        shuffler: Shuffler | None = None,
        timeout: float = 30.0,
        cut_card: int | None = None,
    ) -> None:
        self.base_url, self.table_id, self.token = base_url.rstrip("/"), table_id, token
        self.decks = decks
        self.cut_card = cut_card
        """A baccarat shoe dealt across coups: a new shoe once no more cards than this are left
        when a coup begins (``None``: a fresh shoe each round)."""
        self.opened = False
        self.shuffler = shuffler or SecureShuffler()
        self.timeout = timeout
        self.http: httpx.Client | None = None
        self.seq = 0
        self.last: dict[str, Any] | None = None
        """The last message sent (``duplicate`` and ``reconnect`` send it again)."""
        self.shoe: list[Card] = []
        self.dealt: list[Card] = []
        self.shuffle()
        self.reconnect()

    @property
    def path(self) -> str:
        return f"/api/tables/{self.table_id}/reader/messages"

    def shuffle(self) -> None:
        """A new shoe of real cards, shuffled (between rounds, as the table's procedure says)."""
        self.shoe = list(self.shuffler.shuffle(shoe_cards(self.decks)))
        self.dealt = []

    def new_shoe(self) -> dict[str, Any]:
        """A new baccarat shoe: shuffled, the first card turned up and reported (a ``shoe``
        message), as many more burned face down as its value (ten for a ten or a picture card;
        casino practice, as :func:`croupier.games.baccarat.open_shoe`)."""
        self.shuffle()
        first = self.shoe.pop(0)
        del self.shoe[: card_value(first) or 10]
        self.opened = True
        return self._next("shoe", card=str(first))

    def next_round(self) -> dict[str, Any] | None:
        """A round begins: a fresh shoe, or (``cut_card``) the shoe dealt on, a new one opened
        when it is down to its cut card; the ``shoe`` message's answer where one was sent."""
        if self.cut_card is None:
            self.shuffle()
            return None
        if self.opened and len(self.shoe) > self.cut_card:
            return None
        return self.new_shoe()

    # -- the wire ------------------------------------------------------------------------------

    def send(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """POST one message; its acknowledgement (:class:`ApiError` for a refusal)."""
        if self.http is None:
            raise IllegalAction("the reader is disconnected: reconnect first")
        response = self.http.post(
            self.path, json=dict(message), headers={"Authorization": f"Bearer {self.token}"}
        )
        if response.status_code >= 400:
            raise ApiError(response.status_code, response.json())
        ack: dict[str, Any] = response.json()
        return ack

    def _next(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        self.last = {"seq": self.seq, "type": kind, **fields}
        return self.send(self.last)

    # -- moves ---------------------------------------------------------------------------------

    def _take(self) -> Card:
        if not self.shoe:
            raise IllegalAction("the emulated shoe is empty")
        card = self.shoe.pop(0)
        self.dealt.append(card)
        return card

    def card(self) -> dict[str, Any]:
        return self._next("card", card=str(self._take()))

    def face_up(self) -> dict[str, Any]:
        """The next card is found face up in the shoe."""
        return self._next("face_up", card=str(self._take()))

    def misread(self) -> dict[str, Any]:
        """The next card is dealt, reported as the shoe's last card (one not yet seen)."""
        self._take()
        return self._next("card", card=str(self.shoe[-1]))

    def misread_seen(self) -> dict[str, Any]:
        """The next card is dealt, reported as a card already dealt (one deck holds it once)."""
        seen = self.dealt[0] if self.dealt else None
        self._take()
        return self._next("card", card=str(seen if seen is not None else self.shoe[-1]))

    def correct(self) -> dict[str, Any]:
        """The dealer's correction of the last card: the card really dealt."""
        return self._next("correct", card=str(self.dealt[-1]))

    def skip(self) -> Card:
        """The next card is dealt and never reported."""
        return self._take()

    def duplicate(self) -> dict[str, Any]:
        if self.last is None:
            raise IllegalAction("no message has been sent to duplicate")
        return self.send(self.last)

    def gap(self) -> dict[str, Any]:
        """A message numbered one past the next (refused: a gap)."""
        return self.send({"seq": self.seq + 2, "type": "heartbeat"})

    def heartbeat(self) -> dict[str, Any]:
        return self._next("heartbeat")

    def sense(self, seat: int, light: str, wager: str | None = None) -> dict[str, Any]:
        """The sensor at ``seat``: a chip recognised (``lit``) or taken off (``dark``); ``wager``
        names the progressive where the game has several (Let It Ride)."""
        named = {"wager": wager} if wager is not None else {}
        return self._next("wager", seat=seat, light=light, **named)

    def chips(self, seat: int, wager: str, amount: int) -> dict[str, Any]:
        """A chip-reading layout at ``seat``: ``amount`` cents of chips on ``wager`` (``0``:
        taken off)."""
        return self._next("wager", seat=seat, wager=wager, amount=amount)

    def stub(self) -> dict[str, Any]:
        return self._next("stub", count=len(self.shoe))

    def disconnect(self) -> None:
        if self.http is not None:
            self.http.close()
        self.http = None

    def reconnect(self) -> dict[str, Any] | None:
        """A new connection; the last message sent again (its answer may have been lost)."""
        self.disconnect()
        self.http = httpx.Client(base_url=self.base_url, timeout=self.timeout)
        return self.send(self.last) if self.last is not None else None

    def close(self) -> None:
        self.disconnect()

    def __enter__(self) -> ShoeReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _reconnected(reader: ShoeReader) -> dict[str, Any] | None:
    """A card reported, the connection dropped before its answer, and made again: the card's
    message sent again under its number (the same answer, nothing dealt twice)."""
    reader.card()
    reader.disconnect()
    return reader.reconnect()


FAULTS: Mapping[str, Callable[[ShoeReader], Any]] = {
    "misread": lambda r: (r.misread(), r.correct())[-1],
    "misread-seen": ShoeReader.misread_seen,
    "face-up": ShoeReader.face_up,
    "skip": lambda r: (r.skip(), r.card())[-1],
    "duplicate": lambda r: (r.card(), r.duplicate())[-1],
    "reconnect": _reconnected,
}
"""What ``croupier device shoe --fault NAME@N`` does in place of the N-th card it deals."""


def run(
    reader: ShoeReader,
    *,
    rounds: int,
    faults: Mapping[int, str],
    interval: float,
    say: Callable[[str], None],
) -> int:
    """Deal ``rounds`` rounds as the table asks: a card whenever one is due (a fresh shoe for
    each round, or a baccarat shoe across coups: :meth:`ShoeReader.next_round`), the stub when
    the round counts it, else a heartbeat every ``interval`` seconds; ``faults``: card number
    -> fault (:data:`FAULTS`).  Returns the messages sent."""
    finished: set[str] = set()
    dealing: str | None = None
    card_no = 0
    ack = reader.heartbeat()
    while len(finished) < rounds:
        round_id, phase = ack.get("round_id"), ack.get("phase")
        if phase in ("over", "void") and round_id is not None and round_id == dealing:
            finished.add(round_id)
        elif dealing is not None and round_id != dealing:
            finished.add(dealing)  # the next round already begun: the one dealt is over
        if phase == "stub_count" and round_id == dealing:
            # the round counts the stub (every fifth, § 641a.8(f)): the shoe reports what it holds
            ack = reader.stub()
            say(f"{round_id} stub of {len(reader.shoe)} cards: {ack['phase']}")
            continue
        if phase == "dealing" and int(ack.get("due", 0)) > 0:
            if round_id != dealing:
                reader.next_round()
                dealing = round_id
            card_no += 1
            fault = faults.get(card_no)
            ack = FAULTS[fault](reader) if fault else reader.card()
            say(f"{round_id} card {card_no}{f' ({fault})' if fault else ''}: {ack['phase']}")
            continue
        time.sleep(interval)
        ack = reader.heartbeat()
    return reader.seq


def parse_faults(texts: Sequence[str]) -> dict[int, str]:
    """``["misread@3", "skip@7"]`` -> ``{3: "misread", 7: "skip"}``."""
    out: dict[int, str] = {}
    for text in texts:
        name, _, at = text.partition("@")
        if name not in FAULTS or not at.isdigit() or int(at) < 1:
            raise InvalidInput(
                f"fault {text!r} is not NAME@N with NAME one of {', '.join(FAULTS)} and N >= 1"
            )
        out[int(at)] = name
    return out
