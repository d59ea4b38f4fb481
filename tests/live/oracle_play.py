"""The money oracle's player: rounds at a live table, as an outside client plays them.

The supervisor enrols the oracle's own players (``POST /api/players``, a buy-in each); they
sit (one at two adjacent boxes where the table allows it), and every round is driven by the
table's stream: the dealer acts when the latest ``phase`` event names the dealer (or chance),
a seat's player when it names the seat, each through ``GET /api/tables/{id}/actions`` and one
``POST``.  Around each round the oracle reads what an outsider can: each player's balance
(``GET /api/me``), the chip books (the auditor's ``GET /api/audit/verify``), the meters, the
server's settlement (``GET /api/rounds/{id}/records``) and the round as a scenario
(``GET /api/rounds/{id}/scenario``, as the auditor).  Only :mod:`live.oracle_client` talks to
the server.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import httpx

from live.oracle_client import STEP_ENDPOINTS, Account, Event, Refused, Stream
from live.oracle_games import Path

__all__ = ["DEMO_PASSWORDS", "Floor", "PlayedRound", "SeatPlay", "TableSession"]

DEMO_PASSWORDS = {r: f"{r}-demo" for r in ("dealer", "supervisor", "auditor", "observer")}
"""The demo floor's staff accounts, as ``croupier serve`` prints them (README)."""

BUY_IN = 1_000_000
"""Each oracle player's buy-in, cents."""


@dataclass
class SeatPlay:
    """One seat's part of a round: who, what it wagered, which path it meant and sent."""

    seat: int
    player: str
    target: Path
    sent: list[str] = field(default_factory=list)
    wagers: dict[str, int] = field(default_factory=dict)


@dataclass
class PlayedRound:
    """Everything the oracle read about one round."""

    table: str
    game: str
    round_id: str
    seats: dict[int, SeatPlay]
    balances_before: dict[str, int]
    balances_after: dict[str, int] = field(default_factory=dict)
    books_before: dict[str, Fraction] = field(default_factory=dict)
    books_after: dict[str, Fraction] = field(default_factory=dict)
    """The ledger's balances around the round (empty: not read, see ``per_round_books``)."""
    meters_after: dict[str, int] = field(default_factory=dict)
    void_at: str | None = None
    voided_at: str | None = None
    records: list[dict[str, Any]] = field(default_factory=list)
    """The round's records on the supervisor's stream."""
    seen: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Each player's stream: the round's records as that player saw them."""
    settlement: dict[str, Any] = field(default_factory=dict)
    stored: list[dict[str, Any]] = field(default_factory=list)
    """The round's records as ``GET /api/rounds/{id}/records`` gives them the supervisor."""
    scenario: dict[str, Any] = field(default_factory=dict)
    handpays: list[dict[str, Any]] = field(default_factory=list)
    void_refused: str | None = None
    """The supervisor's void, refused (its problem), where the phase does not allow one."""

    def players(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for seat in self.seats.values():
            out.setdefault(seat.player, []).append(seat.seat)
        return out


class Floor:
    """The server as the oracle sees it: the staff accounts and the players it enrols."""

    def __init__(self, url: str, passwords: Mapping[str, str] = DEMO_PASSWORDS) -> None:
        self.http = httpx.Client(base_url=url, timeout=120.0)
        self.dealer = Account(self.http, "dealer", passwords["dealer"])
        self.supervisor = Account(self.http, "supervisor", passwords["supervisor"])
        self.auditor = Account(self.http, "auditor", passwords["auditor"])
        self.openapi: dict[str, Any] = self.http.get("/openapi.json").json()
        self.accounts = [self.dealer, self.supervisor, self.auditor]

    def close(self) -> None:
        self.http.close()

    def enrol(self, tag: str, count: int) -> list[Account]:
        """``count`` new players (``POST /api/players`` as the supervisor), each bought in."""
        players = []
        for n in range(1, count + 1):
            pid = f"{tag}-{n}"
            password = secrets.token_urlsafe(16)  # strong enough (croupier.server.passwords)
            self.supervisor.post(
                "/api/players",
                {"player_id": pid, "name": f"Oracle {pid}", "username": pid, "password": password},
            )
            self.supervisor.post(f"/api/players/{pid}/buy-in", {"amount": BUY_IN})
            players.append(Account(self.http, pid, password))
        self.accounts += players
        return players

    def books(self) -> dict[str, Fraction]:
        """Every ledger account's balance (the auditor's ``/api/audit/verify``)."""
        answer = self.auditor.get("/api/audit/verify")
        return {k: Fraction(v) for k, v in answer["balances"].items()}

    def requests(self) -> int:
        return sum(a.requests for a in self.accounts)


def _record_events(events: Sequence[Event], round_id: str) -> list[dict[str, Any]]:
    """The records of ``round_id`` among a stream's events (a ``round`` event opens one)."""
    out, current = [], None
    for event in events:
        if event.type == "round":
            current = event.data.get("round_id")
        elif event.type == "record" and current == round_id:
            out.append(event.data)
    return out


class TableSession:
    """Players seated at one table with their streams open; rounds played one by one."""

    def __init__(
        self, floor: Floor, table_id: str, players: Sequence[Account], *, adjacent: bool = True
    ) -> None:
        self.floor = floor
        self.adjacent = adjacent
        """The first player takes two adjacent boxes where the table allows two."""
        self.table = table_id
        self.players = {p.player_id or p.username: p for p in players}
        self.detail: dict[str, Any] = floor.dealer.get(f"/api/tables/{table_id}")
        self.game: str = self.detail["game"]
        self.seat_of: dict[int, Account] = {}
        self.streams: dict[str, Stream] = {}
        self.initial: dict[str, int] = {}
        self.unit = 0
        self.per_round_books = (self.detail["rules"].get("vig") or {}).get("collect") == "deferred"
        """Read the ledger around every round only where commission may be owed (deferred
        vigorish): ``/api/audit/verify`` reads the whole ledger, a cost that grows with it;
        elsewhere ``/api/me`` is the player's whole account, and the ledger is read when the
        players sit and before they leave."""
        self.books: dict[str, Fraction] = {}
        """The ledger as last read: the next round's "before"."""
        self.books_start: dict[str, Fraction] = {}
        self.books_end: dict[str, Fraction] = {}
        self.phases: list[str] = []
        """The phases the table's rounds went through, in the order first seen."""

    @contextmanager
    def seated(self) -> Iterator[TableSession]:
        """Sit every player (the first at two adjacent boxes where the table allows two),
        open the streams, and on leaving stand everyone up."""
        boxes = int(self.detail["rules"].get("table", {}).get("adjacent_boxes", 1))
        seat = 1
        for n, player in enumerate(self.players.values()):
            for _ in range(2 if n == 0 and boxes >= 2 and self.adjacent else 1):
                player.post(f"/api/tables/{self.table}/sit", {"seat": seat})
                self.seat_of[seat] = player
                seat += 1
        self.initial = {pid: self._balance(p) for pid, p in self.players.items()}
        self.books = self.books_start = self.floor.books()
        since = int(self.floor.supervisor.get(f"/api/tables/{self.table}/view")["seq"])
        with ExitStack() as stack:
            self.streams["supervisor"] = stack.enter_context(
                self.floor.supervisor.stream(self.table, since)
            )
            for pid, player in self.players.items():
                self.streams[pid] = stack.enter_context(player.stream(self.table, since))
            yield self
            self.books_end = self.floor.books()
            for player in self.players.values():
                player.post(f"/api/tables/{self.table}/leave")

    def final_balances(self) -> dict[str, int]:
        return {pid: self._balance(p) for pid, p in self.players.items()}

    @staticmethod
    def _balance(player: Account) -> int:
        return int(player.get("/api/me")["balance"])

    def _catch_up(self, seq: int) -> Event | None:
        """Read the supervisor's stream to ``seq``; the last ``phase``/``round`` event."""
        last = None
        for event in self.streams["supervisor"].until(seq):
            if event.type in ("phase", "round"):
                last = event
                if event.data["phase"] not in self.phases:
                    self.phases.append(str(event.data["phase"]))
        return last

    def play(
        self,
        targets: Mapping[int, Path],
        void_at: str | None = None,
        stack: str | None = None,
        wagers: Mapping[int, Mapping[str, int]] | None = None,
    ) -> PlayedRound:
        """One round: every seat places its wagers and follows its target path; the
        supervisor voids it when the round first reaches phase ``void_at`` (at decisions,
        once a decision is made), where the game has that phase.  ``stack``: the cards the
        round deals first, top first (a training table's new-round body, contract 3);
        ``wagers``: each seat's wagers, in order (else every wager offered)."""
        floor = self.floor
        played = PlayedRound(
            self.table,
            self.game,
            "",
            {
                s: SeatPlay(s, p.player_id or p.username, tuple(targets.get(s, ())))
                for s, p in self.seat_of.items()
            },
            {pid: self._balance(p) for pid, p in self.players.items()},
            books_before=self.books if self.per_round_books else {},
            void_at=void_at,
        )
        opened = floor.dealer.post(
            f"/api/tables/{self.table}/rounds", {"stack": stack} if stack is not None else {}
        )
        played.round_id = str(opened["round_id"])
        self._catch_up(int(opened["seq"]))
        if wagers is None:
            self._wager(played)
        else:
            self._wager_fixed(played, wagers)
        self._drive(played)
        self._finish(played)
        return played

    def _wager(self, played: PlayedRound) -> None:
        """Each seat places every wager offered to it, base wagers first at one unit."""
        base = set(self.detail["house_wagers"])
        self.unit += 1
        for seat, player in self.seat_of.items():
            placed = played.seats[seat].wagers
            while True:
                actions = player.get(f"/api/tables/{self.table}/actions")
                offers = [
                    o
                    for o in actions["wagers"]
                    if o["seat"] == seat and o["wager"] not in placed and o["amounts"]
                ]
                if not offers:
                    break
                offer = offers[0]
                amount = _amount(offer["amounts"], offer["wager"] in base, self.unit + seat)
                answer = player.post(
                    f"/api/tables/{self.table}/wagers",
                    {"wager": offer["wager"], "amount": amount, "seat": seat},
                )
                placed[offer["wager"]] = amount
                self._catch_up(int(answer["seq"]))

    def _wager_fixed(self, played: PlayedRound, wagers: Mapping[int, Mapping[str, int]]) -> None:
        for seat, chosen in wagers.items():
            for wager, amount in chosen.items():
                answer = self.seat_of[seat].post(
                    f"/api/tables/{self.table}/wagers",
                    {"wager": wager, "amount": amount, "seat": seat},
                )
                played.seats[seat].wagers[wager] = amount
                self._catch_up(int(answer["seq"]))

    def _drive(self, played: PlayedRound) -> None:
        """Act as the stream says, until the round is over or voided."""
        floor = self.floor
        decided = 0
        view = floor.supervisor.get(f"/api/tables/{self.table}/view")
        phase, to_act = str(view["round"]["phase"]), str(view["round"]["to_act"])
        seat: int | None = view["round"].get("to_act_seat")
        while phase not in ("over", "void"):
            answer = None
            if (
                played.void_at == phase
                and played.void_refused is None
                and (phase != "decisions" or decided)
            ):
                answer = self._void(played, phase)
            if answer is None and seat is not None and to_act.startswith("seat"):
                answer = self._decide(played, seat)
                decided += 1
            elif answer is None:
                answer = self._step(played)
            event = self._catch_up(int(answer["seq"]))
            if event is not None:
                phase, to_act = str(event.data["phase"]), str(event.data["to_act"])
                seat = event.data.get("to_act_seat")

    def _void(self, played: PlayedRound, phase: str) -> Any:
        """The supervisor voids the round now; ``None`` (and the refusal kept) if refused."""
        try:
            answer = self.floor.supervisor.post(
                f"/api/rounds/{played.round_id}/void", {"reason": f"oracle: void at {phase}"}
            )
        except Refused as refused:
            played.void_refused = f"{refused.status} {refused.problem}"
            return None
        played.voided_at = phase
        return answer

    def _decide(self, played: PlayedRound, seat: int) -> Any:
        """The seat's next decision on its target path (a size the README's grammar allows,
        such as ``play 1.5``, is sent even where ``/actions`` lists only whole multiples)."""
        player = self.seat_of[seat]
        play = played.seats[seat]
        offered = [
            d["decision"]
            for d in player.get(f"/api/tables/{self.table}/actions")["decisions"]
            if d["seat"] == seat
        ]
        step = len(play.sent)
        if step >= len(play.target):
            raise AssertionError(
                f"{played.round_id} seat {seat}: asked to decide ({offered}) after its path "
                f"{play.target} was done"
            )
        decision = play.target[step]
        if decision not in offered and not decision.startswith("play "):
            raise AssertionError(f"{played.round_id} seat {seat}: {decision!r} not in {offered}")
        play.sent.append(decision)
        return player.post(
            f"/api/tables/{self.table}/decisions", {"decision": decision, "seat": seat}
        )

    def _step(self, played: PlayedRound) -> Any:
        """The dealer's next step, as the dealer's actions name it."""
        dealer = self.floor.dealer
        steps = dealer.get(f"/api/tables/{self.table}/actions")["steps"]
        if not steps:
            raise AssertionError(f"{played.round_id}: nobody may act, the round is stuck")
        body: dict[str, Any] = {}
        if steps[0] == "count_stub":  # the dealer counts the stub: the cards left
            body = {
                "count": int(dealer.get(f"/api/tables/{self.table}/view")["round"]["cards_left"])
            }
        return dealer.post(f"/api/tables/{self.table}/{STEP_ENDPOINTS[steps[0]]}", body)

    def _finish(self, played: PlayedRound) -> None:
        """Approve the round's hand-pays, then read everything the checks compare."""
        floor = self.floor
        for handpay in floor.supervisor.get("/api/handpays"):
            if handpay["round_id"] == played.round_id and handpay["status"] == "pending":
                floor.supervisor.post(f"/api/handpays/{handpay['id']}/approve")
                played.handpays.append(handpay)
        seq = int(floor.supervisor.get(f"/api/tables/{self.table}/view")["seq"])
        self._catch_up(seq)
        played.records = _record_events(self.streams["supervisor"].events, played.round_id)
        for pid in self.players:
            self.streams[pid].until(seq)
            played.seen[pid] = _record_events(self.streams[pid].events, played.round_id)
        played.balances_after = {pid: self._balance(p) for pid, p in self.players.items()}
        if self.per_round_books:
            played.books_after = self.books = floor.books()
        played.meters_after = dict(floor.dealer.get(f"/api/tables/{self.table}")["meters"])
        stored = floor.supervisor.get(f"/api/rounds/{played.round_id}/records")
        played.settlement = dict(stored["settlement"])
        played.stored = list(stored["records"])
        played.scenario = floor.auditor.get(f"/api/rounds/{played.round_id}/scenario")


def _amount(offered: Sequence[int], base: bool, turn: int) -> int:
    """A base wager at one of the two smallest amounts offered, a side wager at one of the
    three smallest (turning round by round and seat by seat); amounts the table offers now
    (a wager bound to another, such as the Blind to the Ante, offers only that)."""
    choices = sorted(offered)[: 2 if base else 3]
    return choices[turn % len(choices)]
