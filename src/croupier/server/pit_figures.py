"""The pit's figures (issue 40): each table's shift and the players' ratings, read from the chip
ledger and the round records, computed once on the server (the page only shows them).

=====================  ====================================================================
shift                  a fixed 8-hour window of the floor's clock (:data:`ZONE`, Pennsylvania's
                       Eastern time): graveyard 00:00-08:00, day 08:00-16:00, swing
                       16:00-24:00.  A round counts in the shift in which it was opened
                       (``live_rounds.created_at``) once it is over; a round in play joins when
                       it ends.  Fixed windows need no one to open or close a shift, give every
                       reader the same figures and let any past shift be counted again from
                       the ledger alone (``back``: shifts before the current one)
drop                   the wagers the table took in the shift's rounds: the ledger's ``wager``
                       rows into ``table:<id>``, less the bets taken back (``withdrawn``, a Let
                       It Ride bet pulled, § 643a.11(b)).  Chips are bought at the cage, not
                       at the table, so the floor has no drop box: its drop is the wagers taken
                       (the issue's definition; a department's "handle" or turnover)
win                    what the house took from the table at the end of its rounds: the
                       ledger's ``round_won`` rows less ``round_lost`` (wagers and commission
                       in, payouts, Envy Bonuses and meter contributions out)
hold                   win / drop (as a table-games department counts it: "Hold % = Win/Drop
                       x 100", A. MacDonald, *False Drop and Hold*, urbino.net; on wagers
                       taken it is comparable with the games' house edges)
rounds, voids          the rounds over, and those voided (no drop, no win)
hands                  each seat dealt into a round over (a seat with a wager in it)
hands per hour         rounds / hours from the shift's first round's opening to now (to the
                       shift's end, for a past shift): the pace since the table's play began
                       (a department's "hands per hour" at a table counts rounds)
average wager          drop / hands
theoretical win        the exact par sheet's house edge times each wager placed (MacDonald:
                       "Theoretical win = Turnover (handle) x game edge"): the base sheet's
                       edge times the initial required wager (its convention: UTH's Ante, one
                       of Let It Ride's bets), each optional wager's own edge times it
                       (baccarat: each wager's); a wager no sheet prices is named
                       (``unpriced``), never guessed
player rating          each seated player's session at the table since they sat: hands,
                       wagered (drop), average bet, theoretical win, balance, time seated
=====================  ====================================================================

Money is exact (``Fraction`` cents where a meter's share makes a fraction) and sent as integer
cents (nearest cent) with the exact value beside it; ratios are exact, floats only for display.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select

from croupier.games import Game
from croupier.games.records import WagerPlaced
from croupier.server.ledger import HOUSE, player_account, table_account
from croupier.server.live_tables import LiveTable
from croupier.server.table_registry import TableRegistry
from croupier.store import Database, RoundStore
from croupier.store.database import as_utc
from croupier.store.schema import accounts, chip_accounts, chip_ledger, live_rounds, table_events
from croupier.store.schema import players as player_rows

__all__ = [
    "SHIFT_HOURS",
    "ZONE",
    "Edges",
    "PitFigures",
    "PlayerRating",
    "RoundFacts",
    "Shift",
    "TableShift",
    "shift_at",
    "theoretical",
]

ZONE = ZoneInfo("America/New_York")
"""The floor's clock: Pennsylvania's casinos keep Eastern time."""

SHIFT_HOURS = 8
"""A shift's length: three a gaming day (graveyard, day, swing)."""

SHIFT_NAMES = ("graveyard", "day", "swing")

FACTS_CACHED = 20000
"""Finished rounds whose facts are kept (they never change once over)."""

Edges = Mapping[str, Fraction]
"""A table's par sheet: each sheet's exact house edge by name (``base``, or a wager's)."""


@dataclass(frozen=True, slots=True)
class Shift:
    """One shift: ``[start, end)`` on the floor's clock."""

    start: datetime
    end: datetime

    @property
    def name(self) -> str:
        return SHIFT_NAMES[self.start.hour // SHIFT_HOURS]


def shift_at(at: datetime, back: int = 0) -> Shift:
    """The shift holding ``at`` (``back``: that many shifts before it)."""
    local = at.astimezone(ZONE)
    start = local.replace(
        hour=local.hour // SHIFT_HOURS * SHIFT_HOURS, minute=0, second=0, microsecond=0
    )
    for _ in range(back):
        before = (start - timedelta(seconds=1)).astimezone(ZONE)
        start = before.replace(
            hour=before.hour // SHIFT_HOURS * SHIFT_HOURS, minute=0, second=0, microsecond=0
        )
    # wall-clock arithmetic: a shift ends at the next boundary (7 or 9 hours across DST)
    end = (start.replace(tzinfo=None) + timedelta(hours=SHIFT_HOURS)).replace(tzinfo=ZONE)
    return Shift(start, end)


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """A finished round as the pit counts it (from its ledger rows and its records)."""

    round_id: str
    table_id: str
    state: str
    """``over`` or ``void``."""
    opened: datetime
    ended: datetime
    players: Mapping[int, str]
    wagers: tuple[tuple[int, str, int], ...]
    """Each wager placed: (seat, wager, cents), from its ``wager_placed`` records."""
    drop: Fraction
    win: Fraction
    dropped_by: Mapping[str, Fraction]
    """Each player's part of the drop."""

    @property
    def seats(self) -> frozenset[int]:
        """The seats dealt in: those with a wager placed."""
        return frozenset(seat for seat, _, _ in self.wagers)


def theoretical(
    game: Game, edges: Edges, wagers: Iterable[tuple[int, str, int]]
) -> tuple[Fraction, frozenset[str]]:
    """The exact theoretical win of ``wagers`` (seat, wager, cents) and the wagers no sheet
    prices: the base sheet's edge times the initial required wager (the sheet's convention;
    the other required and the decision wagers are inside it), else the wager's own sheet."""
    required = game.required_wagers
    inside = set(required[1:]) | set(game.decision_wagers)
    total, unpriced = Fraction(0), set()
    for _seat, wager, amount in wagers:
        if required and wager == required[0] and "base" in edges:
            total += edges["base"] * amount
        elif wager in edges:
            total += edges[wager] * amount
        elif wager not in inside:
            unpriced.add(wager)
    return total, frozenset(unpriced)


def cents(value: Fraction) -> int:
    """Exact cents to the nearest cent (for the page; the exact value is sent beside it)."""
    return round(value)


def exact_text(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


@dataclass(frozen=True, slots=True)
class TableShift:
    """One table's figures for a shift."""

    table_id: str
    name: str
    game_name: str
    rounds: int
    voids: int
    hands: int
    drop: Fraction
    win: Fraction
    theo: Fraction | None
    unpriced: frozenset[str]
    first_opened: datetime | None
    last_ended: datetime | None
    until: datetime
    """Now, or the shift's end for a past shift: where the pace is counted to."""

    @property
    def hold(self) -> Fraction | None:
        return self.win / self.drop if self.drop else None

    @property
    def hands_per_hour(self) -> Fraction | None:
        if self.first_opened is None:
            return None
        seconds = Fraction((self.until - self.first_opened).total_seconds())
        return self.rounds * 3600 / seconds if seconds > 0 else None

    @property
    def average_wager(self) -> Fraction | None:
        return self.drop / self.hands if self.hands else None

    def to_json(self) -> dict[str, Any]:
        hold, pace, average = self.hold, self.hands_per_hour, self.average_wager
        return {
            "table_id": self.table_id,
            "name": self.name,
            "game_name": self.game_name,
            "rounds": self.rounds,
            "voids": self.voids,
            "hands": self.hands,
            "drop": cents(self.drop),
            "win": cents(self.win),
            "win_exact": exact_text(self.win),
            "hold_percent": None if hold is None else float(hold * 100),
            "hold_exact": None if hold is None else exact_text(hold),
            "hands_per_hour": None if pace is None else float(pace),
            "average_wager": None if average is None else cents(average),
            "theo": None if self.theo is None else cents(self.theo),
            "theo_exact": None if self.theo is None else exact_text(self.theo),
            "unpriced": sorted(self.unpriced),
            "first_opened": self.first_opened,
            "last_ended": self.last_ended,
        }


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A seated player's session at a table (the rating a table-games department keeps)."""

    player_id: str
    name: str
    username: str | None
    table_id: str
    table_name: str
    seats: tuple[int, ...]
    balance: Fraction
    seated_since: datetime | None
    hands: int
    wagered: Fraction
    theo: Fraction | None

    def to_json(self, at: datetime) -> dict[str, Any]:
        minutes = None
        if self.seated_since is not None:
            minutes = max(0, int((at - self.seated_since).total_seconds() // 60))
        average = self.wagered / self.hands if self.hands else None
        return {
            "player_id": self.player_id,
            "name": self.name,
            "username": self.username,
            "table_id": self.table_id,
            "table_name": self.table_name,
            "seats": list(self.seats),
            "balance": cents(self.balance),
            "seated_since": self.seated_since,
            "minutes_seated": minutes,
            "hands": self.hands,
            "wagered": cents(self.wagered),
            "average_bet": None if average is None else cents(average),
            "theo": None if self.theo is None else cents(self.theo),
            "theo_exact": None if self.theo is None else exact_text(self.theo),
        }


@dataclass
class _Seating:
    """When each player now at a table sat down (its ``seats`` events, read up to ``seq``)."""

    seq: int = 0
    since: dict[str, datetime] = field(default_factory=dict)


class PitFigures:
    """The shift figures and the player list, from the ledger and the records (finished rounds'
    facts are kept: they never change)."""

    def __init__(self, db: Database, store: RoundStore, registry: TableRegistry) -> None:
        self.db = db
        self.store = store
        self.registry = registry
        self._lock = threading.Lock()
        self._facts: dict[str, RoundFacts] = {}
        self._seating: dict[str, _Seating] = {}

    # -- rounds ------------------------------------------------------------------------------

    def rounds(self, start: datetime, end: datetime | None = None) -> list[RoundFacts]:
        """The finished rounds opened in ``[start, end)`` (``end`` ``None``: up to now)."""
        # UTC, as every time is stored (SQLite keeps a naive text: a bound time's zone is lost)
        start = start.astimezone(UTC)
        query = select(
            live_rounds.c.round_id,
            live_rounds.c.table_id,
            live_rounds.c.state,
            live_rounds.c.created_at,
        ).where(live_rounds.c.created_at >= start, live_rounds.c.state != "open")
        if end is not None:
            query = query.where(live_rounds.c.created_at < end.astimezone(UTC))
        with self.db.read() as conn:
            rows = conn.execute(query.order_by(live_rounds.c.created_at)).all()
        with self._lock:
            known = {r.round_id: self._facts[r.round_id] for r in rows if r.round_id in self._facts}
        found = self._read_facts([r for r in rows if r.round_id not in known])
        with self._lock:
            if len(self._facts) + len(found) > FACTS_CACHED:
                self._facts.clear()
            self._facts.update(found)
        known.update(found)
        return [known[r.round_id] for r in rows]

    def _read_facts(self, rows: Sequence[Any]) -> dict[str, RoundFacts]:
        out: dict[str, RoundFacts] = {}
        for chunk in range(0, len(rows), 500):
            part = rows[chunk : chunk + 500]
            ids = [r.round_id for r in part]
            with self.db.read() as conn:
                legs = conn.execute(
                    select(
                        chip_ledger.c.round_id,
                        chip_ledger.c.account,
                        chip_ledger.c.amount,
                        chip_ledger.c.reason,
                        chip_ledger.c.at,
                    ).where(chip_ledger.c.round_id.in_(ids))
                ).all()
            by_round: dict[str, list[Any]] = {}
            for leg in legs:
                by_round.setdefault(leg.round_id, []).append(leg)
            for row in part:
                out[row.round_id] = self._facts_of(row, by_round.get(row.round_id, []))
        return out

    def _facts_of(self, row: Any, legs: Sequence[Any]) -> RoundFacts:
        table = table_account(row.table_id)
        drop, win = Fraction(0), Fraction(0)
        dropped_by: dict[str, Fraction] = {}
        opened = as_utc(row.created_at)
        ended = opened
        for leg in legs:
            amount = Fraction(leg.amount)
            ended = max(ended, as_utc(leg.at))
            if leg.account == table and leg.reason in ("wager", "withdrawn"):
                drop += amount
            elif leg.account.startswith("player:") and leg.reason in ("wager", "withdrawn"):
                player = leg.account.removeprefix("player:")
                dropped_by[player] = dropped_by.get(player, Fraction(0)) - amount
            elif leg.account == HOUSE and leg.reason in ("round_won", "round_lost"):
                win += amount
        info = self.store.info(row.round_id)
        records = self.store.load(row.round_id) if row.state == "over" else []
        wagers = tuple((r.seat, r.wager, r.amount) for r in records if isinstance(r, WagerPlaced))
        if row.state != "over":  # a void round: its wagers went back
            drop, win, dropped_by = Fraction(0), Fraction(0), {}
        return RoundFacts(
            round_id=row.round_id,
            table_id=row.table_id,
            state=row.state,
            opened=opened,
            ended=ended,
            players=dict(info.players),
            wagers=wagers,
            drop=drop,
            win=win,
            dropped_by=dropped_by,
        )

    # -- the shift ---------------------------------------------------------------------------

    def shift(
        self, shift: Shift, edges: Callable[[LiveTable], Edges | None], at: datetime
    ) -> list[TableShift]:
        """Every table's figures for ``shift`` as of ``at`` (``edges``: a table's par sheet,
        ``None`` while it is computed or where none can be)."""
        until = min(at, shift.end)
        by_table: dict[str, list[RoundFacts]] = {}
        for facts in self.rounds(shift.start, shift.end):
            by_table.setdefault(facts.table_id, []).append(facts)
        out = []
        for lt in self.registry.all():
            mine = by_table.get(lt.id, [])
            over = [f for f in mine if f.state == "over"]
            sheet = edges(lt) if over else {}
            theo: Fraction | None = None
            unpriced: frozenset[str] = frozenset()
            if sheet is not None:
                theo, unpriced = theoretical(lt.game, sheet, (w for f in over for w in f.wagers))
            out.append(
                TableShift(
                    table_id=lt.id,
                    name=lt.name,
                    game_name=lt.game.spoken_name(),
                    rounds=len(over),
                    voids=len(mine) - len(over),
                    hands=sum(len(f.seats) for f in over),
                    drop=sum((f.drop for f in over), Fraction(0)),
                    win=sum((f.win for f in over), Fraction(0)),
                    theo=theo,
                    unpriced=unpriced,
                    first_opened=min((f.opened for f in over), default=None),
                    last_ended=max((f.ended for f in over), default=None),
                    until=until,
                )
            )
        return out

    # -- the players -------------------------------------------------------------------------

    def players(self, edges: Callable[[LiveTable], Edges | None]) -> list[PlayerRating]:
        """Every seated player's session at their table (see the module)."""
        seated = [(lt, lt.seats()) for lt in self.registry.all()]
        ids = sorted({p for _, seats in seated for p in seats.values()})
        if not ids:
            return []
        names, balances = self._people(ids)
        out = []
        for lt, seats in seated:
            if not seats:
                continue
            since = self._seated_since(lt.id)
            start = min((since[p] for p in seats.values() if p in since), default=None)
            facts = [f for f in self.rounds(start) if f.table_id == lt.id] if start else []
            for player in sorted(set(seats.values())):
                rating = self._rating(lt, seats, player, since.get(player), facts, edges)
                name, username = names.get(player, (player, None))
                balance = balances.get(player_account(player), Fraction(0))
                out.append(replace(rating, name=name, username=username, balance=balance))
        return out

    def _rating(
        self,
        lt: LiveTable,
        seats: Mapping[int, str],
        player: str,
        since: datetime | None,
        facts: Sequence[RoundFacts],
        edges: Callable[[LiveTable], Edges | None],
    ) -> PlayerRating:
        mine = [f for f in facts if f.state == "over" and since is not None and f.opened >= since]
        held = [(f, {s for s in f.seats if f.players.get(s) == player}) for f in mine]
        held = [(f, s) for f, s in held if s]
        wagered = sum((f.dropped_by.get(player, Fraction(0)) for f, _ in held), Fraction(0))
        sheet = edges(lt) if held else {}
        theo = None
        if sheet is not None:
            placed = (w for f, s in held for w in f.wagers if w[0] in s)
            theo, _ = theoretical(lt.game, sheet, placed)
        return PlayerRating(
            player_id=player,
            name=player,
            username=None,
            table_id=lt.id,
            table_name=lt.name,
            seats=tuple(sorted(s for s, p in seats.items() if p == player)),
            balance=Fraction(0),
            seated_since=since,
            hands=sum(len(s) for _, s in held),
            wagered=wagered,
            theo=theo,
        )

    def _people(
        self, ids: Sequence[str]
    ) -> tuple[dict[str, tuple[str, str | None]], dict[str, Fraction]]:
        """Each player's name and user name, and the players' chip balances."""
        with self.db.read() as conn:
            named = conn.execute(
                select(player_rows.c.id, player_rows.c.name).where(player_rows.c.id.in_(ids))
            ).all()
            users = conn.execute(
                select(accounts.c.player_id, accounts.c.username).where(
                    accounts.c.player_id.in_(ids)
                )
            ).all()
            wanted = [player_account(p) for p in ids]
            held = conn.execute(
                select(chip_accounts.c.name, chip_accounts.c.num, chip_accounts.c.den).where(
                    chip_accounts.c.name.in_(wanted)
                )
            ).all()
        usernames = {r.player_id: r.username for r in users}
        names = {r.id: (r.name, usernames.get(r.id)) for r in named}
        return names, {r.name: Fraction(r.num, r.den) for r in held}

    def _seated_since(self, table_id: str) -> dict[str, datetime]:
        """When each player now at the table sat down (their first ``seats`` event of the run
        in which they have stayed at it), read on from where it was last read."""
        with self._lock:
            seating = self._seating.setdefault(table_id, _Seating())
            seq = seating.seq
        with self.db.read() as conn:
            rows = conn.execute(
                select(table_events.c.seq, table_events.c.data, table_events.c.at)
                .where(
                    table_events.c.table_id == table_id,
                    table_events.c.type == "seats",
                    table_events.c.seq > seq,
                )
                .order_by(table_events.c.seq)
            ).all()
        with self._lock:
            if seating.seq != seq:  # another reader went on meanwhile
                return dict(seating.since)
            for row in rows:
                present = set(json.loads(row.data).get("seats", {}).values())
                for gone in set(seating.since) - present:
                    del seating.since[gone]
                for player in present - set(seating.since):
                    seating.since[player] = as_utc(row.at)
                seating.seq = row.seq
            return dict(seating.since)
