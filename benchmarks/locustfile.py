"""A casino floor's people as a Locust load: dealers, players and pit viewers using a croupier
server as its pages do.

Point it at any deployment (``--host``): ``locust -f benchmarks/locustfile.py --host URL``
(headless: add ``--headless --users N --spawn-rate R --run-time 60s``).  Each table is enrolled
as its user arrives (with a supervisor's account: ``CROUPIER_SUPERVISOR`` as
``username:password``, default the demo floor's), then:

- **A table** (:class:`Table`, ``CROUPIER_TABLES`` of them, Three and Four Card Poker in turn)
  is one Locust user: its dealer and ``CROUPIER_SEATS`` seated players, each a person with their
  own client, token and event stream (WebSocket) held open and read for the whole run, as the web
  page reads it (``carry=state``: the last event of each batch carries the person's view and
  actions, which the page applies instead of asking the routes again; ``CROUPIER_CARRY=events``
  for the events alone, as a client that applies them and fetches a view only on connecting).
  Rounds follow one another, every command after the person's think time (``CROUPIER_THINK``
  seconds on average: a dealer's step half of it; 2 s gives a 400-table floor's real pace of
  about 7 rounds a second).  What each player wagers and decides is
  :mod:`croupier.faces.bots`' house play; a player takes its decision among those its
  stream's carried actions offer, as the page's player does (with ``CROUPIER_CARRY=events``,
  none carried, the house play tries its decisions in turn).
- **A pit viewer** (:class:`PitViewer`, ``CROUPIER_PIT`` of them): a supervisor holding the floor
  stream open and looking at the table list now and then.

Each command is reported to Locust by its route (``POST /api/tables/{table}/wagers``...), with
the latency the person saw, think time excluded; a command refused (409, 422: nothing changed,
as when the house play tries a decision the game has not, with the events alone) is counted
apart, under its route
and ``(refused)``; any other error is a failure.  Every stream
checks its events arrive in order (``seq`` 1, 2, ...): a gap or a stream error is reported as a
failure of ``WS stream``.  ``CROUPIER_LOCUST_READY`` names a file written once every table is
enrolled and its people connected (the benchmark, :mod:`bench_locust`, measures from then).

For the benchmark's search of the fastest pace: ``CROUPIER_LOCUST_PACE`` names a file holding
the mean think time now (read again at most once a second: the pace changes without enrolling
again), and ``CROUPIER_LOCUST_SAMPLES`` a file each request reported is appended to (the time it
ended, its type and name, its latency in ms, 1 if it succeeded, a refusal's detail), so that a
window of the run is measured apart from the others.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

import gevent
import gevent.event
import orjson
from locust import User, between, events, task
from locust.env import Environment
from websockets.sync.client import ClientConnection, connect

from croupier.faces.bots import Crew, approve_pending, enrol, offered_decision, play_round
from croupier.faces.client import ApiError, Client
from croupier.server.app import GC_YOUNG
from croupier.server.demo import demo_rules

TABLES = int(os.environ.get("CROUPIER_TABLES", "10"))
SEATS = int(os.environ.get("CROUPIER_SEATS", "7"))
PIT = int(os.environ.get("CROUPIER_PIT", "2"))
THINK = float(os.environ.get("CROUPIER_THINK", "2.0"))
CARRY = os.environ.get("CROUPIER_CARRY", "state")
"""What each person's stream carries: ``state`` (as the table page reads it) or ``events``."""
"""A person's mean think time before a command, in seconds (a dealer's step: half)."""
PACE_FILE = os.environ.get("CROUPIER_LOCUST_PACE")
SAMPLES_FILE = os.environ.get("CROUPIER_LOCUST_SAMPLES")
SUPERVISOR = tuple(os.environ.get("CROUPIER_SUPERVISOR", "supervisor:supervisor-demo").split(":"))
GAMES = ("three-card-poker", "four-card-poker")

_RUN = f"{int(time.time())}-{os.getpid()}"
"""This run's name, in its tables' names (runs against one deployment do not collide)."""
_tables_made = itertools.count()
_tables_ready = itertools.count()
_random = random.Random()  # think times only: no card or outcome depends on it


class Pace:
    """The mean think time now: :data:`THINK`, or the number the pace file holds (read again at
    most once a second)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.think = THINK
        self._read_at = -1.0

    def now(self) -> float:
        if self.path is None:
            return THINK
        at = time.monotonic()
        if at - self._read_at >= 1.0:
            self._read_at = at
            with contextlib.suppress(OSError, ValueError):
                self.think = float(Path(self.path).read_text())
        return self.think


PACE = Pace(PACE_FILE)


def _sampled(environment: Environment) -> None:
    """Every request reported, appended to the samples file (one line each, written whole)."""
    if SAMPLES_FILE is None:
        return
    # line-buffered: the benchmark reads the file while Locust runs; closed as Locust quits
    samples = Path(SAMPLES_FILE).open("a", buffering=1)  # noqa: SIM115

    def sample(
        request_type: str,
        name: str,
        response_time: float,
        exception: object,
        context: dict[str, str] | None = None,
        **_: object,
    ) -> None:
        if samples.closed:
            return
        ok = int(exception is None)
        why = " ".join((context or {}).get("why", "").split())  # one line, no tab
        samples.write(
            f"{time.time():.3f}\t{request_type} {name}\t{response_time:.1f}\t{ok}\t{why}\n"
        )

    environment.events.request.add_listener(sample)  # type: ignore[no-untyped-call]
    environment.events.quitting.add_listener(lambda **_: samples.close())  # type: ignore[no-untyped-call]


def _on_init(environment: Environment, **_: object) -> None:
    _sampled(environment)


events.init.add_listener(_on_init)  # type: ignore[no-untyped-call]


def _route(path: str, table_id: str) -> str:
    """The route of ``path`` (its table named by a placeholder): Locust's name of the request."""
    return path.replace(f"/{table_id}/", "/{table}/")


class Person(Client):
    """A person at a table: thinks before each command, reports its latency to Locust."""

    def __init__(self, base_url: str, environment: Environment, think: float) -> None:
        super().__init__(base_url, timeout=120)
        self.environment = environment
        self.think = think
        """The person's share of the mean think time (a dealer's step: half)."""
        self.table_id = ""

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        key: str | None = None,
        params: Any = None,
    ) -> Any:
        think = self.think * PACE.now()
        if method == "POST" and think > 0 and path != "/api/login":
            gevent.sleep(_random.expovariate(1 / think))
        name = _route(path, self.table_id)
        started = time.perf_counter()
        try:
            answer = super().request(method, path, body, key=key, params=params)
        except ApiError as exc:
            if exc.status in (409, 422):
                # refused, nothing changed: the house play tries its decisions in turn
                # (croupier.faces.bots.DECISIONS), so a refusal is an answer, counted apart
                self._report(method, f"{name} (refused)", started, None, why=exc.detail)
            else:
                self._report(method, name, started, exc)
            raise
        self._report(method, name, started, None)
        return answer

    def _report(
        self, method: str, name: str, started: float, exc: Exception | None, *, why: str = ""
    ) -> None:
        """The request to Locust; ``why``: a refusal's detail (the samples file keeps it)."""
        if not self.table_id:
            return  # enrolment and sign-in are not the load
        self.environment.events.request.fire(  # type: ignore[no-untyped-call]
            request_type=method,
            name=name,
            response_time=(time.perf_counter() - started) * 1000,
            response_length=0,
            exception=exc,
            context={"why": why} if why else {},
        )


class Reader:
    """One person's stream, read on a greenlet until closed: events counted, order checked,
    the last actions it carried kept (``carry=state``: what the page offers its person)."""

    def __init__(self, environment: Environment, client: Client, url: str) -> None:
        self.environment = environment
        self.client = client
        self.url = url
        self.last = 0
        self.actions: tuple[int, dict[str, Any]] | None = None
        """The last actions carried, with the ``seq`` they stand at."""
        self._carried = gevent.event.Event()
        self._closing = threading.Event()
        self._conn: ClientConnection | None = None
        self.greenlet = gevent.spawn(self._read)

    def in_order(self, seq: int) -> bool:
        """A table's events are numbered 1, 2, ...: none missed, none twice."""
        return seq == self.last + 1

    def _read(self) -> None:
        try:
            with connect(
                self.url, additional_headers=self.client.stream_headers(), open_timeout=120
            ) as conn:
                self._conn = conn
                if self._closing.is_set():
                    return
                # no timeout: a reader waits for its next message (closing the connection
                # ends it), not a timer a second on each of thousands of streams
                for raw in conn:
                    # orjson: json.loads took a third of the Locust process (py-spy, 400 tables)
                    message = orjson.loads(raw)
                    seq = int(message["seq"])
                    if not self.in_order(seq):
                        self._fail(f"event {seq} after {self.last}")
                    self.last = seq
                    if "actions" in message:
                        self.actions = (seq, message["actions"])
                        self._carried.set()
        except Exception as exc:
            if not self._closing.is_set():
                self._fail(repr(exc))

    def actions_at(self, seq: int, timeout: float) -> dict[str, Any] | None:
        """The actions carried at ``seq`` or later (waiting up to ``timeout`` seconds for the
        stream to bring them); ``None`` where none came."""
        deadline = time.monotonic() + timeout
        while True:
            self._carried.clear()  # before looking: a message carried meanwhile sets it again
            if self.actions is not None and self.actions[0] >= seq:
                return self.actions[1]
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._carried.wait(timeout=left)

    def _fail(self, why: str) -> None:
        self.environment.events.request.fire(  # type: ignore[no-untyped-call]
            request_type="WS",
            name="stream",
            response_time=0,
            response_length=0,
            exception=RuntimeError(why),
            context={},
        )

    def close(self) -> None:
        self._closing.set()
        if self._conn is not None:
            self._conn.close()
        self.greenlet.join(timeout=5)


class FloorReader(Reader):
    """The pit's stream: the floor's state at each new version (versions only increase)."""

    def in_order(self, seq: int) -> bool:
        return seq > self.last


SIGN_IN_WAIT = 600.0
"""Most seconds a person keeps trying to sign in while the server holds sign-ins back."""


def _signed_in(client: Client, username: str, password: str) -> None:
    """``client`` signed in as ``username``, trying again while the server holds sign-ins
    back (429: too many at once from one address, as when a whole floor arrives together) or
    answers that it is busy (503: nothing written; the client's own retries spent while the
    first tables play and the floor's sign-ins wait for the database's write lock in turn)."""
    deadline = time.monotonic() + SIGN_IN_WAIT
    while True:
        try:
            client.login(username, password)
            return
        except ApiError as exc:
            if exc.status not in (429, 503) or time.monotonic() > deadline:
                raise
            gevent.sleep(_random.uniform(1.0, 3.0))


def _enrol(host: str) -> Crew:
    """A new table and its players (one Locust user's: not part of the load)."""
    supervisor = Client(host, timeout=120)
    _signed_in(supervisor, *SUPERVISOR)

    def connect(username: str, password: str) -> Client:
        client = Client(host, timeout=120)
        _signed_in(client, username, password)
        return client

    n = next(_tables_made)
    [crew] = enrol(
        supervisor,
        connect,
        [demo_rules()[GAMES[n % len(GAMES)]]],
        tables=1,
        seats=SEATS,
        prefix=f"locust-{_RUN}-{n + 1}",
        workers=1,
    )
    supervisor.close()
    return crew


def _enrolled() -> None:
    """One more table is ready; once all are, what they hold is kept out of the collector's
    scans (:func:`_steady`) and the ready file says so."""
    if next(_tables_ready) + 1 == TABLES:
        _steady()
        ready = os.environ.get("CROUPIER_LOCUST_READY")
        if ready:
            Path(ready).write_text(f"{TABLES} tables\n")


def _steady() -> None:
    """The people's clients, streams and greenlets, made once, frozen out of the garbage
    collector's scans.  Unfrozen, the Locust process of a 400-table floor held some 900,000
    objects, and each full collection (every 10 to 15 s) stopped every person for 0.6 to 0.7 s:
    the requests in flight then were measured that much slower, a p99 of 300 to 500 ms at an
    eighth of the real pace that the server had no part in."""
    gc.collect()
    gc.freeze()
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, GC_YOUNG), *older)  # the server's young generation


def _person(environment: Environment, client: Client, share: float, table_id: str) -> Person:
    """``client``'s session carried over to a :class:`Person` (the same token)."""
    person = Person(client.base_url, environment, share)
    person.token, person.role, person.player_id = client.token, client.role, client.player_id
    person.table_id = table_id
    client.close()
    return person


class Table(User):
    """One table: its dealer and seated players, each with their own stream."""

    fixed_count = TABLES

    def wait_time(self) -> float:
        """Between rounds (the felt cleared): half to one and a half think times."""
        return _random.uniform(0.5, 1.5) * PACE.now()

    def on_start(self) -> None:
        crew = _enrol(self.host or "")
        table = crew.table_id
        self.dealer = _person(self.environment, crew.dealer, 0.5, table)
        self.players = {
            seat: _person(self.environment, client, 1.0, table)
            for seat, client in crew.players.items()
        }
        self.table_id, self.detail = table, crew.detail
        self.supervisor = Client(self.host or "", timeout=120)  # approves hand-pays (unreported)
        _signed_in(self.supervisor, *SUPERVISOR)
        people: list[Client] = [self.dealer, *self.players.values()]
        # as the table page reads it (CARRY "state"): each batch's last event carries the view
        # and actions
        self.readers = [
            Reader(self.environment, p, p.stream_url(table, since=0) + f"&carry={CARRY}")
            for p in people
        ]
        self.seat_readers = dict(zip(self.players, self.readers[1:], strict=True))
        _enrolled()

    def choose(self, seat: int, seq: int) -> str | None:
        """The decision ``seat``'s person takes at ``seq``, as the page offers it: one of the
        decisions its stream carried (:func:`offered_decision`); ``None`` where the stream
        carries no actions (``carry=events``), and the house play tries its decisions."""
        if CARRY != "state":
            return None
        actions = self.seat_readers[seat].actions_at(seq, timeout=30.0)
        return offered_decision(actions, seat) if actions is not None else None

    @task
    def play(self) -> None:
        try:
            play_round(self.dealer, self.players, self.table_id, self.detail, choose=self.choose)
        except ApiError as exc:
            # reported as the failure of the command refused; a round refused at its start
            # while a hand-pay waits (§ 641a.11(c)(5)) goes on once the supervisor approves it
            if exc.status == 409:
                approve_pending(self.supervisor, self.table_id)

    def on_stop(self) -> None:
        for reader in self.readers:
            reader.close()
        for person in [self.dealer, *self.players.values(), self.supervisor]:
            person.close()


class PitViewer(User):
    """A supervisor in the pit: the floor stream open, the table list looked at now and then."""

    fixed_count = PIT
    wait_time = between(5, 15)

    def on_start(self) -> None:
        self.client_ = Person(self.host or "", self.environment, 0)
        _signed_in(self.client_, *SUPERVISOR)
        self.client_.table_id = "-"
        ws = self.client_.base_url.replace("http://", "ws://").replace("https://", "wss://")
        self.reader = FloorReader(self.environment, self.client_, f"{ws}/api/floor/stream")

    @task
    def look(self) -> None:
        with contextlib.suppress(ApiError):  # a refusal is reported as the request's failure
            self.client_.tables()

    def on_stop(self) -> None:
        self.reader.close()
        self.client_.close()
