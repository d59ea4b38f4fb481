"""The read model: what the floor's readers see, committed state only.

- A table's view and list entry (:meth:`ReadModel.view`, :func:`committed_out`) are read under
  the table's lock, which a command holds from its first change until its transaction
  committed (or its changes were undone): no reader sees what did not commit.
- The pit summary (:class:`PitSummary`): each table's last event ``seq`` (the floor stream's
  version is their sum), kept up to date by the events each commit publishes
  (:meth:`EventLog.listen <croupier.server.event_log.EventLog.listen>`), read once from the
  database when the floor loads; never recomputed per request or per stream connection.  A
  process serving only some tables (several processes on one database) reads the other
  tables' counts at most once a second, shared by every connection.
  :meth:`ReadModel.pit_message` is the whole floor message at a version, encoded once for every
  connection; each table's part is encoded again only when the table changed
  (:class:`PitMessage`), so a floor of hundreds of tables costs its changes, not its size.
- The pit's figures (:class:`~croupier.server.pit_figures.PitFigures`, ``figures``): each
  table's shift (drop, win, hold, theoretical win) and the seated players' ratings, from the
  chip ledger and the round records; a finished round's facts read once.
- Recall: a table's (or a seat's) last finished rounds, a round's records and scenario, its
  deal (:mod:`croupier.server.deals`), each as the access policy lets the caller see it; the
  players of a round (cached); hand-pays, meters, the caller's chips, the audit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from croupier.audit.chains import verify
from croupier.core.errors import IllegalAction
from croupier.games.round import Phase, Round
from croupier.rules.progressive import MemoryMeters
from croupier.server import postings
from croupier.server.api_models import (
    DealOut,
    HandPayOut,
    MeterOut,
    TableDetail,
    TableOut,
    TableView,
    WhoAmI,
)
from croupier.server.auth import Account, Role
from croupier.server.deals import TableDeals, deal_for
from croupier.server.event_log import EventLog, Written
from croupier.server.ledger import Ledger, player_account
from croupier.server.live_tables import LiveTable
from croupier.server.pit_figures import PitFigures
from croupier.server.policy import Access, Stage, resource, round_seats, stage_of, table_pov
from croupier.server.round_recall import recall, scenario_of
from croupier.server.shoe_floor import owed as commission_owed
from croupier.server.shoe_floor import shoe_view
from croupier.server.table_registry import TableRegistry, rules_json
from croupier.server.views import SIGHT, ViewPov, round_sight, round_view
from croupier.server.wire import compact
from croupier.store import Database, RoundStore, SqlMeters, StoredRound
from croupier.store.schema import handpays, live_rounds
from croupier.table.shoe import SecureShuffler, Shoe

if TYPE_CHECKING:
    from croupier.server.live_floor import Floor

__all__ = [
    "Listing",
    "PitMessage",
    "PitSummary",
    "ReadModel",
    "committed_out",
    "floor_versions",
    "table_out",
]

PLAYERS_CACHED = 4096
"""Rounds whose players the read model keeps (a stream's point of view of each event)."""

FOREIGN_REFRESH = 1.0
"""Seconds between two reads of the tables another process serves (their event counts)."""


VIEW_ROUTE = resource("GET", "/api/tables/{table_id}/view")


def committed_out(lt: LiveTable, snapshot: Mapping[str, int]) -> TableOut:
    """The table as committed (read under its lock, which a command holds until it commits;
    never from inside a command, which holds it already)."""
    with lt.lock:
        return table_out(lt, snapshot)


def table_out(lt: LiveTable, snapshot: Mapping[str, int]) -> TableOut:
    """The table's list entry (``snapshot``: the meters' amounts)."""
    rnd = lt.round
    seats: dict[str, str | None] = {str(s): None for s in range(1, 8)}
    for s, p in lt.seats().items():
        seats[str(s)] = p
    return TableOut(
        id=lt.id,
        name=lt.name,
        game=lt.game.slug,
        game_name=lt.game.spoken_name(),
        status=lt.status,
        phase=rnd.phase.value if rnd is not None else None,
        round_id=lt.round_id,
        held=lt.held,
        seats=seats,
        meters=_meter_amounts(lt.meters, snapshot),
        training=lt.game.rules.table.training,
        limits=lt.game.posted_limits(),
    )


def _meter_amounts(names: Iterable[str], snapshot: Mapping[str, int]) -> dict[str, int]:
    """A table list entry's meters: the amounts ``snapshot`` holds of ``names``."""
    return {m: snapshot[m] for m in names if m in snapshot}


@dataclass(frozen=True, slots=True)
class Listing:
    """A table's list entry as another server process committed it at ``seq``, told with its
    notification (:mod:`croupier.server.table_sync`): :func:`table_out` but the meters'
    amounts (``entry``), and the meters it shows (read from this process's snapshot).  The
    pit and the table list show a table another process moved from it, instead of rebuilding
    the whole table from the database for each change (a replay of its round: at 400 tables on
    two processes, a fifth of each process's CPU went to it)."""

    seq: int
    entry: dict[str, Any]
    meters: tuple[str, ...]

    @classmethod
    def of(cls, lt: LiveTable) -> Listing:
        """``lt``'s entry now (its command's lock held: the state that commits)."""
        entry = table_out(lt, {}).model_dump()
        del entry["meters"]
        return cls(lt.seq, entry, lt.meters)

    def out(self, snapshot: Mapping[str, int]) -> TableOut:
        return TableOut(**self.entry, meters=_meter_amounts(self.meters, snapshot))

    def wire(self) -> dict[str, Any]:
        """As the notification carries it (:meth:`parse` reads it back)."""
        return {"seq": self.seq, "entry": self.entry, "meters": list(self.meters)}

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Listing:
        return cls(int(data["seq"]), dict(data["entry"]), tuple(data["meters"]))


def floor_versions(floor: Floor) -> dict[str, int]:
    """Each table's committed event count (its stream's last ``seq``): the pit summary's,
    kept by the events (:class:`PitSummary`)."""
    return floor.reads.pit.versions()


class PitSummary:
    """Each table's last committed event ``seq``, kept up to date by the published events."""

    def __init__(self, log: EventLog, serves: frozenset[str] | None) -> None:
        self._log = log
        self._serves = serves
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._foreign_at = 0.0
        log.listen(self._published)

    def load(self) -> None:
        """Every table's count as the database holds it (once, when the floor loads)."""
        found = dict(self._log.last_seqs())
        with self._lock:
            self._versions = found
            self._foreign_at = time.monotonic()

    def _published(self, written: Written) -> None:
        with self._lock:
            for stream, events in written.items():
                if events:
                    last = max(seq for seq, *_ in events)
                    self._versions[stream] = max(self._versions.get(stream, 0), last)

    def heard(self, table_id: str, seq: int) -> None:
        """Another server process committed ``table_id``'s events up to ``seq``."""
        with self._lock:
            self._versions[table_id] = max(self._versions.get(table_id, 0), seq)

    def versions(self) -> dict[str, int]:
        """Each table's count now (the tables another process serves: as of at most
        :data:`FOREIGN_REFRESH` seconds ago)."""
        if self._serves is not None and time.monotonic() - self._foreign_at > FOREIGN_REFRESH:
            found = self._log.last_seqs()
            with self._lock:
                for table_id, seq in found.items():
                    if table_id not in self._serves or table_id not in self._versions:
                        self._versions[table_id] = seq
                self._foreign_at = time.monotonic()
        with self._lock:
            return dict(self._versions)

    def version(self) -> int:
        """The floor's version: the sum of every table's count."""
        return sum(self.versions().values())


class PitMessage:
    """The pit stream's message: the whole floor (its tables as :func:`table_out` lists them,
    the meters and each table's ``seq``) at a version, as the text every connection sends.

    A table's part is encoded again only when what :func:`table_out` reads of it changed (its
    status, round, phase, hold, seats, meters; its name and rules), read under its lock as
    committed; a message is assembled again only when a part, the meters or a version did.  At
    400 tables the whole floor built and encoded for each connection at each command left the
    server a fifth of the commands it answered without the pit (``benchmarks/bench_pit.py``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._parts: dict[str, tuple[tuple[object, ...], str]] = {}
        """Each table's ``(what table_out read, the encoded entry)``."""
        self._encoded = 0
        """Counts the parts encoded (a message's key: the parts it joined)."""
        self._message: tuple[tuple[object, ...], str] | None = None

    def message(
        self,
        tables: list[tuple[LiveTable, Listing | None]],
        snapshot: Mapping[str, int],
        versions: dict[str, int],
    ) -> str:
        """The floor message at ``versions`` (sum: its ``seq``), ``tables`` as committed: each
        read from the table, or from its listing where another process moved it."""
        with self._lock:
            parts = [self._part(lt, listing, snapshot) for lt, listing in tables]
            key = (
                self._encoded,
                tuple(lt.id for lt, _ in tables),
                tuple(snapshot.items()),
                tuple(versions.items()),
            )
            if self._message is None or self._message[0] != key:
                head = f'{{"seq":{sum(versions.values())},"type":"floor","data":{{"tables":['
                text = (
                    f"{head}{','.join(parts)}],"
                    f'"meters":{compact(snapshot)},"tables_seq":{compact(versions)}}}}}'
                )
                self._message = (key, text)
                live = {lt.id for lt, _ in tables}
                for gone in [t for t in self._parts if t not in live]:
                    del self._parts[gone]
            return self._message[1]

    def _part(self, lt: LiveTable, listing: Listing | None, snapshot: Mapping[str, int]) -> str:
        if listing is not None:
            amounts = tuple(snapshot.get(m) for m in listing.meters)
            told: tuple[object, ...] = ("listed", listing.seq, amounts)
            return self._kept(lt.id, told, lambda: listing.out(snapshot))
        with lt.lock:
            rnd = lt.round
            read = (
                lt.name,
                lt.game,  # its rules (a game compares by identity)
                lt.status,
                rnd.phase if rnd is not None else None,
                lt.round_id,
                lt.held,
                tuple(sorted(lt.seats().items())),
                tuple(snapshot.get(m) for m in lt.meters),
            )
            return self._kept(lt.id, read, lambda: table_out(lt, snapshot))

    def _kept(self, table_id: str, read: tuple[object, ...], entry: Callable[[], TableOut]) -> str:
        """The table's part kept while ``read`` (what its entry was made from) stays the same;
        else ``entry()`` encoded and kept."""
        held = self._parts.get(table_id)
        if held is None or held[0] != read:
            held = (read, compact(entry().model_dump()))
            self._parts[table_id] = held
            self._encoded += 1
        return held[1]


class ReadModel:
    """The readers' side of the floor: views, lists, recall and the pit summary."""

    def __init__(
        self,
        db: Database,
        store: RoundStore,
        meters: SqlMeters,
        ledger: Ledger,
        registry: TableRegistry,
        log: EventLog,
    ) -> None:
        self.db = db
        self.store = store
        self.meters = meters
        self.ledger = ledger
        self.registry = registry
        self.log = log
        self.pit = PitSummary(log, registry.serves)
        self.figures = PitFigures(db, store, registry)
        self._players: dict[str, Mapping[int, str]] = {}
        self._pit = PitMessage()
        self._deals = TableDeals(db, store)
        self._shared: dict[str, _Shared] = {}
        """By table: its view at its last state read for a table stream (:meth:`view_answer`)."""
        self._firsts: dict[str, threading.Lock] = {}
        self._firsts_lock = threading.Lock()
        self.current: Callable[[LiveTable], LiveTable] = lambda lt: lt
        """A table as committed: rebuilt first where another server process moved it
        (:meth:`TableSync.current <croupier.server.table_sync.TableSync.current>`)."""
        self.listed: Callable[[LiveTable], Listing | None] = lambda lt: None
        """A table's list entry as another server process committed it, where that process
        moved it past what this one holds and said how it left it
        (:meth:`TableSync.listed <croupier.server.table_sync.TableSync.listed>`)."""

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        with self.db.read() as conn:
            yield conn

    # -- tables ------------------------------------------------------------------------------

    def tables(self) -> list[TableOut]:
        snapshot = self.meters.snapshot()
        out = []
        for lt, listing in self._listings():
            out.append(committed_out(lt, snapshot) if listing is None else listing.out(snapshot))
        return out

    def pit_message(self) -> tuple[int, str]:
        """The floor's version and the pit stream's message at it (:class:`PitMessage`: its
        tables, meters and each table's ``seq``), one text shared by every connection."""
        versions = self.pit.versions()
        message = self._pit.message(self._listings(), self.meters.snapshot(), versions)
        return sum(versions.values()), message

    def _listings(self) -> list[tuple[LiveTable, Listing | None]]:
        """Each table as committed: its listing where another process moved it and told how,
        else the table (rebuilt first where another process moved it without telling)."""
        out: list[tuple[LiveTable, Listing | None]] = []
        for lt in self.registry.all():
            listing = self.listed(lt)
            out.append((lt, listing) if listing is not None else (self.current(lt), None))
        return out

    def table_detail(self, table_id: str) -> TableDetail:
        lt = self.registry.table(table_id)
        out = committed_out(lt, self.meters.snapshot())
        return TableDetail(
            **out.model_dump(),
            title=lt.game.title,
            chapter=lt.game.chapter,
            rules=rules_json(lt.game.rules),
            sign=lt.game.posted_sign(),
            wagers=list(lt.game.offered_wagers()),
            house_wagers=_house_wagers(lt),
            names=lt.game.spoken_names(),
        )

    def meter_list(self) -> list[MeterOut]:
        out = []
        for name in self.meters.snapshot():
            state = self.meters.state(name)
            linked = [lt.id for lt in self.registry.all() if name in lt.meters]
            out.append(
                MeterOut(
                    name=name,
                    amount=state.amount,
                    exact=str(state.exact),
                    reset=state.reset,
                    rate=str(state.rate),
                    paid_total=state.paid_total,
                    awards=state.awards,
                    tables=linked,
                )
            )
        return out

    def view(self, account: Account, lt: LiveTable) -> dict[str, Any]:
        """The table and its round as the access policy lets ``account`` see them, committed
        state only (read under the table's lock)."""
        return self._view_at(account, lt)[0]

    def _view_at(self, account: Account, lt: LiveTable) -> tuple[dict[str, Any], _At]:
        """:meth:`view`, and the table's state it was read at."""
        with lt.lock:
            at = _At.of(lt)
            data: dict[str, Any] = {
                "table_id": lt.id,
                "training": postings.is_training(lt.game),
                "round_id": lt.round_id,
                "seq": lt.seq,
                "held": lt.held,
                "seats": {str(s): p for s, p in sorted(lt.seats().items())},
            }
            if lt.round is not None:
                pov = table_pov(VIEW_ROUTE, account, lt)
                data["round"] = round_view(lt.round, pov)
            data.update(shoe_view(lt))
        data["meters"] = self._table_meters(lt, data.get("round"))
        return data, at

    def _table_meters(self, lt: LiveTable, rnd: dict[str, Any] | None) -> dict[str, int]:
        """The amounts of the meters ``lt``'s wagers move: read with its round's view (``rnd``,
        which holds every one of them once the round has opened them), else read now (a meter
        exists once a table has first opened a round on it)."""
        read: dict[str, int] = rnd["meters"] if rnd is not None else {}
        if any(m not in read for m in lt.meters):
            read = self.meters.snapshot()
        return {m: read[m] for m in lt.meters if m in read}

    def view_with_deal(self, access: Access, table_id: str) -> dict[str, Any]:
        """:meth:`view`, with the round's deal as the caller may read it (where committed; the
        stored deal read once per table ``seq``, :class:`~croupier.server.deals.TableDeals`)."""
        return self._view_with_deal_at(access, self.registry.table(table_id))[0]

    def _view_with_deal_at(self, access: Access, lt: LiveTable) -> tuple[dict[str, Any], _At]:
        data, at = self._view_at(access.account, lt)
        if at.round_id is not None:
            data["deal"] = self._deal(access, lt.id, at)
        return data, at

    def _deal(self, access: Access, table_id: str, at: _At) -> dict[str, Any] | None:
        """The deal of the round of ``table_id`` at ``at`` as ``access`` may read it; ``None``
        where none is committed (or the table has no round)."""
        if at.round_id is None:
            return None
        with suppress(LookupError):
            return self._deals.at(table_id, at.round_id, at.seq, access.pov, at.phase)
        return None

    def view_answer(self, access: Access, table_id: str) -> dict[str, Any]:
        """What ``GET /api/tables/{id}/view`` answers ``access`` (:meth:`view_with_deal` as the
        route's model sends it), for the state a table stream carries
        (:mod:`croupier.server.table_state`), which every person at the table is sent after
        each event.

        Only a viewer's sight of the round (:func:`~croupier.server.views.round_sight`: its
        point of view, the layout and the records as it sees them) and the deal differ from
        one person to the next: the rest of the answer is the same for each at one state of the
        table, so the first caller at that state is answered in full and the others share the
        rest of its answer (:class:`_Shared`, kept until the table moves).  The meters are
        as that first caller read them, after the event every caller of the state answers.
        The callers woken by one event wait for the first one's answer rather than each
        making a full one (:meth:`_first`)."""
        lt = self.registry.table(table_id)
        joined = self._joined(access, lt)
        if joined is not None:
            return joined
        with self._first(table_id):
            joined = self._joined(access, lt)  # made meanwhile by another caller
            if joined is not None:
                return joined
            data, at = self._view_with_deal_at(access, lt)
            full = TableView.model_validate(data).model_dump(mode="json", by_alias=True)
            self._shared[table_id] = _Shared(at, full)
            return full

    def _joined(self, access: Access, lt: LiveTable) -> dict[str, Any] | None:
        """``access``'s answer from what is shared at ``lt``'s state now; ``None`` where
        nothing is shared at that state."""
        kept = self._shared.get(lt.id)
        if kept is None:
            return None
        with lt.lock:
            if not kept.at.holds(lt):
                return None
            sight: dict[str, Any] | None = None
            if lt.round is not None:
                sight = round_sight(lt.round, table_pov(VIEW_ROUTE, access.account, lt))
        deal = kept.deal if kept.deal_shared else self._deal_out(access, lt.id, kept.at)
        return kept.joined(sight, deal)

    def _first(self, table_id: str) -> threading.Lock:
        """The lock the first caller at a state of ``table_id`` holds while it makes the
        answer the others share."""
        with self._firsts_lock:
            lock = self._firsts.get(table_id)
            if lock is None:
                lock = self._firsts[table_id] = threading.Lock()
            return lock

    def _deal_out(self, access: Access, table_id: str, at: _At) -> dict[str, Any] | None:
        """:meth:`_deal` as the route's model sends it."""
        deal = self._deal(access, table_id, at)
        if deal is None:
            return None
        return DealOut.model_validate(deal).model_dump(mode="json", by_alias=True)

    def me(self, account: Account) -> WhoAmI:
        balance = owed = None
        seats: dict[str, list[int]] = {}
        if account.player_id is not None:
            with self.reading() as conn:
                value = self.ledger.balance(conn, player_account(account.player_id))
                owed = commission_owed(self.ledger, conn, account.player_id)
            balance = int(value)
            seats = self.registry.seated_at(account.player_id)
        return WhoAmI(
            username=account.username,
            role=account.role.value,
            player_id=account.player_id,
            table_id=account.sole_table,
            tables=sorted(account.tables),
            demo=account.demo,
            balance=balance,
            commission_owed=owed,
            seats=seats,
        )

    def handpay_list(self) -> list[HandPayOut]:
        with self.reading() as conn:
            rows = conn.execute(select(handpays).order_by(handpays.c.id)).all()
        return [HandPayOut.model_validate(dict(r._mapping)) for r in rows]

    def handpay_table(self, handpay_id: int) -> str | None:
        """The table of hand-pay ``handpay_id`` (``LookupError`` where there is none)."""
        with self.reading() as conn:
            row = conn.execute(
                select(handpays.c.table_id).where(handpays.c.id == handpay_id)
            ).first()
        if row is None:
            raise LookupError(f"hand-pay {handpay_id} does not exist")
        table_id: str | None = row.table_id
        return table_id

    # -- rounds ------------------------------------------------------------------------------

    def players_of(self, round_id: str) -> Mapping[int, str]:
        """Who sat where in the committed round ``round_id`` (its stored header; cached)."""
        found = self._players.get(round_id)
        if found is None:
            found = self.store.info(round_id).players
            if len(self._players) >= PLAYERS_CACHED:
                self._players.pop(next(iter(self._players)), None)
            self._players[round_id] = found
        return found

    def players_cached(self, round_id: str) -> Mapping[int, str] | None:
        """:meth:`players_of` if this process holds it already (no database read), else
        ``None``."""
        return self._players.get(round_id)

    def round_at(self, round_id: str) -> tuple[str | None, Mapping[int, str], Callable[[], Stage]]:
        """A round's table, players and stage: the table's round in play from memory, else the
        store's (``LookupError`` where the round is not stored)."""
        for lt in self.registry.all():
            rnd = lt.round
            if lt.round_id == round_id and rnd is not None:
                return lt.id, rnd.players, partial(_stage_at, lt, rnd)
        info = self._stored(round_id)
        with self.reading() as conn:
            table_id = conn.execute(
                select(live_rounds.c.table_id).where(live_rounds.c.round_id == round_id)
            ).scalar()
        status = info.status.value
        if status == "over":
            return table_id, info.players, lambda: Stage.SETTLED
        if status == "void":
            return table_id, info.players, lambda: Stage.VOIDED
        return table_id, info.players, lambda: stage_of(self.store.rebuild(round_id), None)

    def in_play(self, round_id: str) -> LiveTable:
        """The table where ``round_id`` is in play (``LookupError`` where none is)."""
        lt = next((t for t in self.registry.all() if t.round_id == round_id), None)
        if lt is None:
            raise LookupError(f"round {round_id!r} is not in play at any table")
        return lt

    def scenario(self, round_id: str) -> dict[str, Any]:
        info = self._finished(round_id)
        return scenario_of(info, self.store.load(round_id))

    def records(self, round_id: str) -> dict[str, Any]:
        self._finished(round_id)
        return recall(self.store, round_id)

    def deal(self, round_id: str, pov: ViewPov) -> dict[str, Any]:
        return deal_for(self.db, self.store, round_id, pov)

    def recall_rounds(
        self, table_id: str, access: Access, last: int, seat: int | None
    ) -> list[dict[str, Any]]:
        """The table's last finished rounds (at ``seat`` where given), each as the access
        policy lets the caller see it; a player: only the rounds they played at the seat,
        each from every seat they held in it."""
        lt = self.registry.table(table_id)
        account = access.account
        with self.reading() as conn:
            ids = (
                conn.execute(
                    select(live_rounds.c.round_id)
                    .where(live_rounds.c.table_id == lt.id, live_rounds.c.state != "open")
                    .order_by(live_rounds.c.number.desc())
                    .limit(last if seat is None else last * 20)
                )
                .scalars()
                .all()
            )
        out: list[dict[str, Any]] = []
        for rid in ids:
            info = self.store.info(rid)
            if seat is not None and seat not in info.players:
                continue
            if account.role is Role.PLAYER and (
                seat is None or info.players[seat] != account.player_id
            ):
                # A player recalls the seat's rounds they played: never a round an earlier
                # occupant of the seat played.
                continue
            pov = access.pov_with(round_seats(account, info.players))
            view = round_view(self.store.rebuild(rid), pov)
            view["round_id"] = rid
            view["mode"] = info.mode.value  # the record header's (a rebuilt round is a replay)
            out.append(view)
            if len(out) >= last:
                break
        return out

    def _stored(self, round_id: str) -> StoredRound:
        try:
            return self.store.info(round_id)
        except IllegalAction:
            raise LookupError(f"round {round_id[:80]!r} is not stored") from None

    def _finished(self, round_id: str) -> StoredRound:
        try:
            info = self.store.info(round_id)
        except IllegalAction:
            raise LookupError(f"round {round_id!r} is not stored") from None
        if info.status.value == "open":
            raise IllegalAction(f"round {round_id!r} is still in play; it is recalled once over")
        return info

    # -- the books ---------------------------------------------------------------------------

    def audit(self, scope: str) -> dict[str, Any]:
        """The chip ledger (every transaction and the whole ledger sum to zero, every balance
        equals its rows, every meter's account holds the meter) and, for ``scope="all"``,
        ``croupier audit verify`` on the database (:func:`croupier.audit.verify`)."""
        chains = verify(self.db.engine) if scope == "all" else None
        with self.reading() as conn:
            problems = self.ledger.check(conn) if chains is None else []
            balances = self.ledger.balances(conn)
        for name in self.meters.snapshot():
            exact = self.meters.exact(name)
            held = balances.get(f"meter:{name}")
            if held != exact:
                problems.append(f"meter {name} holds {exact} but its ledger account {held}")
        if chains is not None:
            problems += [str(f) for f in chains.findings]
        return {
            "ok": not problems,
            "problems": problems,
            "balances": {k: str(v) for k, v in sorted(balances.items())},
            "audit": None if chains is None else chains.to_json(),
        }


@dataclass(frozen=True, slots=True)
class _At:
    """A table's state a view was read at: its ``seq`` and what may change without it (a
    failed write puts the round back as committed and holds it; another server process's
    moves rebuild it)."""

    seq: int
    round_id: str | None
    round: Round | None
    held: str | None
    status: str
    phase: Phase | None
    """The round's phase at ``seq`` (the same while the rest holds)."""

    @classmethod
    def of(cls, lt: LiveTable) -> _At:
        phase = lt.round.phase if lt.round is not None else None
        return cls(lt.seq, lt.round_id, lt.round, lt.held, lt.status, phase)

    def holds(self, lt: LiveTable) -> bool:
        """Whether ``lt`` is still at this state (read under its lock)."""
        return (
            lt.seq == self.seq
            and lt.round is self.round
            and lt.round_id == self.round_id
            and lt.held == self.held
            and lt.status == self.status
        )


class _Shared:
    """A table's view at one state as its route answers it (:meth:`ReadModel.view_answer`),
    less what differs between viewers: joined to another viewer's sight of the round and its
    deal, it is that viewer's answer."""

    def __init__(self, at: _At, full: dict[str, Any]) -> None:
        self.at = at
        self.deal: dict[str, Any] | None = full.get("deal")
        self.deal_shared = self.deal is None or not self.deal["revealed"]
        """Whether every viewer's deal is :attr:`deal`: none committed, or only its commitment
        (the order and the cards dealt, once revealed, are each viewer's own sight)."""
        rest = {k: v for k, v in full.items() if k != "deal"}
        rnd = rest.get("round")
        if rnd is not None:
            rest["round"] = {k: v for k, v in rnd.items() if k not in SIGHT}
        self._rest = rest

    def joined(self, sight: dict[str, Any] | None, deal: dict[str, Any] | None) -> dict[str, Any]:
        """The answer of a viewer whose sight of the round is ``sight`` and deal ``deal``."""
        out = {**self._rest, "deal": deal}
        rnd = out.get("round")
        if rnd is not None:
            assert sight is not None
            out["round"] = {**rnd, **sight}
        return out


def _stage_at(lt: LiveTable, rnd: Round) -> Stage:
    return stage_of(rnd, lt.held)


def _house_wagers(lt: LiveTable) -> dict[str, int]:
    shoe = Shoe.shuffled(SecureShuffler(), decks=lt.game.deck_count)
    probe = lt.game.new_round(shoe=shoe, meters=MemoryMeters(), players={1: "house"})
    return {w.wager: w.amount for w in probe.house_wagers(1)}
