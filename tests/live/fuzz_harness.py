"""The hidden-information fuzzer (tests/live/test_chaos_fuzz.py, benchmarks/bench_fuzz.py).

Random commands from every role over the API and the WebSocket streams, at every game's table of
a real server: legal and illegal wagers and decisions, dealer steps out of turn, a player naming
another player's seat, a player reading tables, rounds and deals that are not theirs, a second
connection for one player's seat, streams dropped and reconnected from their last event.  Half
the commands are a bot's next legal one, so rounds play to their end and every phase is seen.

Every response and every stream event is checked against the server's own truth, the
database (each round's full records and its persisted shoe order), not against the server's
redaction: each card in a message (any JSON string that is a card) is read in the context of
its round (the nearest ``round_id`` above it, else the table's round of the moment) and must
not be a card that account may not see:

- no one but a supervisor or an auditor of a finished round sees a card still in the shoe;
- a player sees no face-down card dealt to another seat or to the dealer (nor a hand shown only
  to its seat) unless a later public record turned it up (the dealer's reveal, a community card
  turned, a baccarat result), before or after the round;
- the dealer and observers see no face-down card not turned up while the round is in play.

Cards are told apart by identity, so the card checks run on single-deck games (every game but
baccarat, whose cards are all dealt face up; its shoe order is checked by count).
"""

from __future__ import annotations

import json
import queue
import random
import re
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, create_engine, select

from croupier.faces.client import ApiError, Client
from live.live_harness import Server

__all__ = ["Fuzz", "FuzzFigures"]

CARD = re.compile(r"^(10|[2-9TJQKA])([cdhs])$")
PUBLIC_KINDS = frozenset(
    {"dealer_revealed", "community_card_turned", "six_card_bonus_cards_turned"}
)
"""Records that turn their cards up for everyone (besides cards dealt face up)."""
DEAL_KINDS = frozenset({"card_dealt", "card_discarded"})
ROLES = ("dealer", "supervisor", "observer", "auditor", *(f"player{n}" for n in range(1, 8)))
WAGERS = ("ante", "blind", "trips", "pair_plus", "play", "bet1", "banker", "player", "tie")
DECISIONS = ("check", "play 1", "play 3", "play 4", "ride", "pull", "play", "bet 1", "fold")


def card_of(text: str) -> str | None:
    match = CARD.match(text)
    if match is None:
        return None
    rank = "T" if match.group(1) == "10" else match.group(1)
    return rank + match.group(2)


def _strings(data: Any, context: str | None, out: list[tuple[str | None, str]]) -> None:
    """Every card string in ``data`` with its round context."""
    if isinstance(data, dict):
        rid = data.get("round_id")
        here = rid if isinstance(rid, str) and rid else context
        for value in data.values():
            _strings(value, here, out)
    elif isinstance(data, list):
        for value in data:
            _strings(value, context, out)
    elif isinstance(data, str):
        card = card_of(data)
        if card is not None:
            out.append((context, card))


@dataclass
class Truth:
    """One round as the database holds it."""

    players: dict[int, str]
    open: bool
    decks: int
    dealt: list[dict[str, Any]]
    undealt: Counter[str]
    public: set[str]
    shown_to: dict[str, set[int]]
    """Cards shown to one seat only (a hand shown, § 571.11(h))."""


@dataclass
class FuzzFigures:
    messages: int = 0
    requests: int = 0
    events: int = 0
    refused: Counter[int] = field(default_factory=Counter)
    cards_checked: int = 0
    reconnects: int = 0
    rounds_finished: int = 0
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "messages": self.messages,
            "requests": self.requests,
            "events": self.events,
            "refused_by_status": dict(sorted(self.refused.items())),
            "cards_checked": self.cards_checked,
            "stream_reconnects": self.reconnects,
            "rounds_finished": self.rounds_finished,
            "problems": self.problems[:50],
        }


class Oracle:
    """What each account may not see, from the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._cache: dict[str, tuple[int, Truth]] = {}

    def truth(self, round_id: str) -> Truth | None:
        from croupier.store.database import round_records, round_shoes, rounds

        with self.engine.connect() as conn:
            row = conn.execute(
                select(rounds.c.players, rounds.c.status, rounds.c.records).where(
                    rounds.c.id == round_id
                )
            ).one_or_none()
            if row is None:
                return None
            cached = self._cache.get(round_id)
            if cached is not None and cached[0] == row.records and row.status != "open":
                return cached[1]
            shoe = conn.execute(
                select(round_shoes.c.cards, round_shoes.c.taken, round_shoes.c.decks).where(
                    round_shoes.c.round_id == round_id
                )
            ).one_or_none()
            recs = [
                json.loads(r.data)
                for r in conn.execute(
                    select(round_records.c.data)
                    .where(round_records.c.round_id == round_id)
                    .order_by(round_records.c.seq)
                )
            ]
        dealt = [r for r in recs if r["kind"] in DEAL_KINDS]
        undealt: Counter[str] = Counter()
        decks = 1
        if shoe is not None:
            order = shoe.cards.split()
            decks = int(shoe.decks)
            undealt = Counter(order[int(shoe.taken) + len(dealt) :])
        public = {r["card"] for r in dealt if r.get("face_up")}
        shown_to: dict[str, set[int]] = {}
        for rec in recs:
            found: list[tuple[str | None, str]] = []
            if rec["kind"] in PUBLIC_KINDS or (
                rec["kind"] not in DEAL_KINDS and rec["kind"] != "hand_shown"
            ):
                _strings(rec, None, found)
                public |= {c for _, c in found}
            elif rec["kind"] == "hand_shown":
                _strings(rec, None, found)
                for _, c in found:
                    shown_to.setdefault(c, set()).add(int(rec["seat"]))
        truth = Truth(
            players={int(s): p for s, p in json.loads(row.players).items()},
            open=row.status == "open",
            decks=decks,
            dealt=dealt,
            undealt=undealt,
            public=public,
            shown_to=shown_to,
        )
        self._cache[round_id] = (row.records, truth)
        return truth

    def forbidden(self, truth: Truth, role: str, player: str | None) -> set[str]:
        """The cards of the round this account (``role``: its username) may not see now."""
        role = "player" if role.startswith("player") else role
        full = role in ("supervisor", "auditor")
        if full and not truth.open:
            return set()
        out = set(truth.undealt) if truth.decks == 1 else set()
        if full or truth.decks != 1:
            return out
        mine = {s for s, p in truth.players.items() if p == player} if role == "player" else set()
        if role != "player" and not truth.open:
            return out
        for rec in truth.dealt:
            card, to = rec["card"], str(rec.get("to", ""))
            if rec.get("face_up") or card in truth.public:
                continue
            if to.isdigit() and int(to) in mine:
                continue
            if mine & truth.shown_to.get(card, set()):
                continue
            if role != "player" and card in truth.shown_to:
                continue  # a hand turned face up to settle it: on the layout for every non-player
            out.add(card)
        return out


class Fuzz:
    """The fuzzer: accounts, streams, random commands, and the oracle on every message."""

    def __init__(self, server: Server, seed: int) -> None:
        self.server = server
        self.rng = random.Random(seed)
        self.figures = FuzzFigures()
        self.engine = create_engine(server.db_url)
        self.oracle = Oracle(self.engine)
        self.clients: list[tuple[str, Client]] = [(r, server.client(r)) for r in ROLES]
        self.clients.append(("player1", server.client("player1")))  # a second connection
        self.tables = [t["id"] for t in self.clients[0][1].tables()]
        self.details = {t: self.clients[0][1].table(t) for t in self.tables}
        self.current: dict[str, str | None] = dict.fromkeys(self.tables)
        self.rounds: list[str] = []
        self.inbox: queue.Queue[tuple[str, str, str | None, dict[str, Any]]] = queue.Queue()
        self.streams: list[_Stream] = []

    # -- streams -----------------------------------------------------------------------------

    def open_streams(self, per_table: int) -> None:
        for table in self.tables:
            for role, client in self.rng.sample(self.clients, per_table):
                stream = _Stream(self, role, client, table)
                stream.start()
                self.streams.append(stream)

    def close(self) -> None:
        for stream in self.streams:
            stream.stop()
        self.engine.dispose()

    # -- checks ------------------------------------------------------------------------------

    def check(
        self,
        role: str,
        client: Client,
        table: str | None,
        data: Any,
        where: str,
        round_id: str | None = None,
    ) -> None:
        found: list[tuple[str | None, str]] = []
        default = round_id or (self.current.get(table) if table else None)
        _strings(data, default, found)
        for rid, card in found:
            self.figures.cards_checked += 1
            if rid is None:
                continue
            truth = self.oracle.truth(rid)
            if truth is None:
                continue
            if card in self.oracle.forbidden(truth, role, client.player_id):
                to = [r.get("to") for r in truth.dealt if r["card"] == card]
                self.figures.problems.append(
                    f"{role} ({client.player_id}) got {card} (dealt to {to}) of round {rid} "
                    f"(seats {truth.players}) in {where}"
                )

    def drain(self) -> None:
        while True:
            try:
                role, table, rid, event = self.inbox.get_nowait()
            except queue.Empty:
                return
            self.figures.events += 1
            self.figures.messages += 1
            client = next(c for r, c in self.clients if r == role)
            saved = self.current.get(table)
            if rid is not None:
                self.current[table] = rid
            self.check(role, client, table, event, f"event {event.get('seq')} of {table}")
            self.current[table] = saved

    # -- commands ----------------------------------------------------------------------------

    def request(
        self, role: str, client: Client, method: str, path: str, body: Any, table: str | None
    ) -> Any:
        try:
            data = client.request(
                method, path, body, key=uuid.uuid4().hex if method == "POST" else None
            )
        except ApiError as exc:
            self.figures.refused[exc.status] += 1
            if exc.status >= 500:
                self.figures.problems.append(f"{role} {method} {path}: {exc}")
            data = exc.problem
        self.figures.requests += 1
        self.figures.messages += 1
        if (
            isinstance(data, dict)
            and table is not None
            and data.get("round_id")
            and path.startswith("/api/tables/")
        ):
            rid = str(data["round_id"])
            if rid != self.current.get(table):
                self.current[table] = rid
                self.rounds.append(rid)
        about = path.split("/")[3] if path.startswith("/api/rounds/") else None
        self.check(role, client, table, data, f"{method} {path}", about)
        return data

    def random_command(self) -> None:
        role, client = self.rng.choice(self.clients)
        table = self.rng.choice(self.tables)
        base = f"/api/tables/{table}"
        rid = self.rng.choice(self.rounds) if self.rounds else "none"
        seat = self.rng.randint(0, 8)
        wager = self.rng.choice([*self.details[table]["wagers"], *WAGERS])
        menu: list[tuple[str, str, Any]] = [
            ("GET", f"{base}/view", None),
            ("GET", f"{base}/view", None),
            ("GET", "/api/tables", None),
            ("GET", base, None),
            ("GET", f"{base}/rounds", None),
            ("GET", f"/api/rounds/{rid}/deal", None),
            ("GET", f"/api/rounds/{rid}/records", None),
            ("GET", f"/api/rounds/{rid}/scenario", None),
            ("GET", f"{base}/seats/{seat}/rounds", None),
            ("GET", "/api/meters", None),
            ("POST", f"/api/rounds/{rid}/void", {"reason": "fuzz"}),
            ("POST", f"{base}/sit", {"seat": seat}),
            ("POST", f"{base}/leave", None),
            (
                "POST",
                f"{base}/wagers",
                {"wager": wager, "amount": self.rng.choice([0, 100, 500, -5]), "seat": seat},
            ),
            ("POST", f"{base}/decisions", {"decision": self.rng.choice(DECISIONS), "seat": seat}),
            ("POST", f"{base}/rounds", {}),
            ("POST", f"{base}/no-more-bets", {"progressive_chips": self.rng.randint(0, 3)}),
            ("POST", f"{base}/{self.rng.choice(('deal', 'reveal', 'settle'))}", None),
            ("POST", f"{base}/stub-count", {"count": self.rng.randint(0, 60)}),
        ]
        method, path, body = self.rng.choice(menu)
        self.request(role, client, method, path, body, table)

    def bot_command(self) -> None:
        """A legal next command at a random table (rounds reach their end)."""
        table = self.rng.choice(self.tables)
        dealer = self.clients[0][1]
        view = self.request("dealer", dealer, "GET", f"/api/tables/{table}/view", None, table)
        rnd = view.get("round") if isinstance(view, dict) else None
        seats = (
            {int(s): p for s, p in (view.get("seats") or {}).items()}
            if isinstance(view, dict)
            else {}
        )
        by_player = {c.player_id: (r, c) for r, c in self.clients if c.player_id}
        if not seats:
            role, client = self.rng.choice([(r, c) for r, c in self.clients if c.player_id])
            self.request(
                role,
                client,
                "POST",
                f"/api/tables/{table}/sit",
                {"seat": self.rng.randint(1, 7)},
                table,
            )
            return
        base = f"/api/tables/{table}"
        if rnd is None or rnd["phase"] in ("over", "void"):
            if rnd is not None and rnd["phase"] == "over":
                self.figures.rounds_finished += 1
            self.request("dealer", dealer, "POST", f"{base}/rounds", {}, table)
            return
        phase = rnd["phase"]
        if phase == "betting":
            wagers = self.details[table]["house_wagers"]
            for seat, player in sorted(seats.items()):
                staked = rnd["stakes"].get(str(seat), {})
                missing = [w for w in wagers if w not in staked]
                if missing and player in by_player:
                    role, client = by_player[player]
                    body = {"wager": missing[0], "amount": wagers[missing[0]], "seat": seat}
                    self.request(role, client, "POST", f"{base}/wagers", body, table)
                    return
            chips = sum(w.endswith("progressive") for w in wagers) * len(rnd["stakes"])
            self.request(
                "dealer",
                dealer,
                "POST",
                f"{base}/no-more-bets",
                {"progressive_chips": chips},
                table,
            )
        elif phase == "decisions" and rnd.get("to_act_seat") is not None:
            seat = int(rnd["to_act_seat"])
            player = rnd["players"].get(str(seat))
            role, client = by_player[player]
            for decision in ("check", "play 1", "ride", "play", "bet 1", "fold"):
                answer = self.request(
                    role,
                    client,
                    "POST",
                    f"{base}/decisions",
                    {"decision": decision, "seat": seat},
                    table,
                )
                if "status" not in answer or answer.get("status") is None:
                    return
        elif phase == "stub_count":
            cards = sum(
                1
                for r in rnd["records"]
                if r["kind"] in ("card_dealt", "card_hidden", "card_discarded")
            )
            decks = int(self.details[table]["rules"].get("table", {}).get("decks", 1))
            self.request(
                "dealer", dealer, "POST", f"{base}/stub-count", {"count": 52 * decks - cards}, table
            )
        else:
            step = {
                "dealing": "deal",
                "decisions": "deal",
                "reveal": "reveal",
                "settlement": "settle",
            }[phase]
            self.request("dealer", dealer, "POST", f"{base}/{step}", None, table)

    def run(self, messages: int, *, streams: int = 3, reconnect_every: int = 400) -> FuzzFigures:
        self.open_streams(streams)
        n = 0
        while self.figures.messages < messages:
            n += 1
            if self.rng.random() < 0.5:
                self.bot_command()
            else:
                self.random_command()
            self.drain()
            if n % reconnect_every == 0:
                stream = self.rng.choice(self.streams)
                stream.stop()
                self.figures.reconnects += 1
                stream.start()
        time.sleep(0.5)
        self.drain()
        for stream in self.streams:
            self.figures.problems += stream.problems
        return self.figures


class _Stream:
    """One account's stream of one table; reconnects from its last event."""

    def __init__(self, fuzz: Fuzz, role: str, client: Client, table: str) -> None:
        self.fuzz, self.role, self.client, self.table = fuzz, role, client, table
        self.last = 0
        self.round_id: str | None = None
        self.problems: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _run(self) -> None:
        from websockets.sync.client import connect

        ws = self.client.base_url.replace("http://", "ws://")
        url = f"{ws}/api/tables/{self.table}/stream?since={self.last}"
        headers = self.client.stream_headers()
        with connect(url, additional_headers=headers, open_timeout=30) as conn:
            while not self._stop.is_set():
                try:
                    raw = conn.recv(timeout=0.2)
                except TimeoutError:
                    continue
                event = json.loads(raw)
                seq = int(event["seq"])
                if seq != self.last + 1:
                    self.problems.append(
                        f"{self.role} at {self.table}: event {seq} after {self.last}"
                    )
                self.last = seq
                data = event.get("data") or {}
                if event.get("type") == "round" and data.get("round_id"):
                    self.round_id = str(data["round_id"])  # the events after it are its round's
                self.fuzz.inbox.put((self.role, self.table, self.round_id, event))


def fuzz(server: Server, *, messages: int, seed: int, streams: int = 3) -> FuzzFigures:
    harness = Fuzz(server, seed)
    try:
        return harness.run(messages, streams=streams)
    finally:
        harness.close()
