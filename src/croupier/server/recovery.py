"""Crash recovery: every round left open when the server stopped, resumed or held.

On start (:meth:`Floor.load <croupier.server.live_floor.Floor.load>`) every open round is
replayed from its committed records, dealing from the shoe order persisted when it began
(:meth:`RoundStore.replay <croupier.store.RoundStore.replay>`, :mod:`croupier.store.shoes`): the
round continues with exactly the cards it was dealing from, on the real meters, to the same
settlement an uninterrupted round would have reached.  Each command's records, ledger rows and
meter moves were committed in one transaction, so the replayed round and the books agree.

Where the chapter says such a round is void, it is held instead for a supervisor's void (every
wager returned exactly once, its meter contributions taken back):

- the records do not replay from the persisted shoe, or no shoe order was persisted (but at a
  table of real cards, issue 39, which keeps none: its records hold every card reported): the
  cards on the layout cannot be accounted for, the case of a wrong number of cards dealt
  (§ 641a.13(c) and the game's parallel, the ``wrong_card_count`` section);
- an automated dealing shoe stopped in the middle of the deal (cards dealt, the deal not
  complete): the round is void and the cards go back to be reshuffled (§ 641a.13(f) and its
  parallels, the ``automated_shoe_jam`` section; for chapters the project holds no text of, by
  analogy with § 641a.13(f)).

Every other phase resumes: betting (wagers stand), no more bets, decisions, the reveal,
settlement and the stub count.

A table another server process moved (:func:`recover_table`, several processes on one
PostgreSQL) is rebuilt the same way with one difference: the automated shoe's deal is not held.
Its order is the database's, persisted when the round began, and the process now serving the
table deals on from it within seconds, whether the other process is still serving or was killed
(the database cannot tell the two apart); holding it would also hold a round that a live
process is dealing whenever a pit view or a redispatched request rebuilds the table elsewhere.
Records that do not replay are held as on a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from sqlalchemy import Engine, select

from croupier.core.errors import IllegalAction
from croupier.games.records import CardDealt
from croupier.games.round import Phase, Round
from croupier.rules.progressive import MeterBank
from croupier.rules.submission import DealMethod
from croupier.server.live_tables import LiveTable
from croupier.server.table_registry import TableRegistry
from croupier.store import RoundStatus, RoundStore
from croupier.store.schema import live_rounds

__all__ = [
    "Recovered",
    "Resumed",
    "hold_reason",
    "recover",
    "recover_table",
    "recover_tables",
]


@dataclass(frozen=True, slots=True)
class Recovered:
    """An open round after a restart: ``held`` names why a supervisor must void it (with its
    section), ``None`` when it resumes."""

    round: Round
    held: str | None


def _section(rnd: Round, name: str, fallback: str) -> str:
    section = rnd.sections.get(name, "")
    return section or f"{fallback}, by analogy"


def hold_reason(rnd: Round, *, unreplayable: str | None = None) -> str | None:
    """Why the chapter voids ``rnd`` after the server stopped during it (``None``: it resumes).

    ``unreplayable`` is why its records did not replay from its persisted shoe, if they did
    not."""
    if unreplayable is not None:
        section = _section(rnd, "wrong_card_count", "§ 641a.13(c)")
        return (
            f"the server stopped during this round and its cards cannot be accounted for from "
            f"the persisted shoe ({unreplayable}); the round is void ({section})"
        )
    dealt = any(isinstance(r, CardDealt) for r in rnd.records)
    if (
        rnd.game.rules.table.deal is DealMethod.AUTOMATED_SHOE
        and rnd.phase is Phase.DEALING
        and dealt
    ):
        section = _section(rnd, "automated_shoe_jam", "§ 641a.13(f)")
        return (
            "the server stopped while the automated dealing shoe was dealing this round: the "
            f"round is void and its wagers are returned ({section})"
        )
    return None


class Resumed(Enum):
    """Why an open round is rebuilt from the database."""

    RESTART = "restart"
    """The server started again (every table; the automated shoe's deal stopped)."""
    MOVED = "moved"
    """Another process moved the table (the deal goes on from the persisted shoe)."""


def recover(
    store: RoundStore, meters: MeterBank, round_id: str, cause: Resumed = Resumed.RESTART
) -> Recovered:
    """The open round ``round_id`` as it stood, on ``meters``: replayed from its records and
    its persisted shoe (it resumes), or rebuilt from its records alone and held."""
    try:
        rnd = store.replay(round_id)
        problem = None
    except IllegalAction as exc:
        rnd = store.rebuild(round_id)
        problem = str(exc)
    rnd.attach_meters(meters)
    if cause is Resumed.MOVED and problem is None:
        return Recovered(rnd, None)
    return Recovered(rnd, hold_reason(rnd, unreplayable=problem))


def recover_tables(engine: Engine, store: RoundStore, registry: TableRegistry) -> None:
    """Every table's round after a restart: each round left open resumes or is held
    (:func:`recover`); a table whose last round is over shows it, as it did before."""
    with engine.begin() as conn:
        rows = conn.execute(
            select(live_rounds.c.round_id, live_rounds.c.table_id, live_rounds.c.number).where(
                live_rounds.c.state == "open"
            )
        ).all()
        open_at = {str(r.round_id): str(r.table_id) for r in rows}
        last = {
            lt.id: conn.execute(
                select(live_rounds.c.round_id).where(
                    live_rounds.c.table_id == lt.id, live_rounds.c.number == lt.numbers
                )
            ).scalar()
            for lt in registry.all()
            if lt.numbers
        }
    for info in store.open_rounds():
        lt = registry.tables.get(open_at.get(info.round_id, ""))
        if lt is None:
            continue
        found = recover(store, registry.meters, info.round_id)
        lt.round, lt.round_id, lt.stored = found.round, info.round_id, len(found.round.records)
        lt.held = found.held
    for table_id, rid in last.items():
        lt = registry.tables[table_id]
        if lt.round is None and rid is not None:
            rnd = store.rebuild(str(rid))
            rnd.attach_meters(registry.meters)
            lt.round, lt.round_id, lt.stored = rnd, str(rid), len(rnd.records)


def recover_table(
    engine: Engine, store: RoundStore, registry: TableRegistry, lt: LiveTable
) -> None:
    """One table's last round as the database holds it, after another server process moved
    the table (:mod:`croupier.server.table_sync`): the path of a restart for that table, an
    open round resumed or held (:func:`recover`), a round over shown as it ended."""
    lt.round, lt.round_id, lt.stored, lt.held = None, None, 0, None
    if not lt.numbers:
        return
    with engine.begin() as conn:
        rid = conn.execute(
            select(live_rounds.c.round_id).where(
                live_rounds.c.table_id == lt.id, live_rounds.c.number == lt.numbers
            )
        ).scalar()
    if rid is None:
        return
    rid = str(rid)
    if store.info(rid).status is RoundStatus.OPEN:
        found = recover(store, registry.meters, rid, Resumed.MOVED)
        rnd, lt.held = found.round, found.held
    else:
        rnd = store.rebuild(rid)
        rnd.attach_meters(registry.meters)
    lt.round, lt.round_id, lt.stored = rnd, rid, len(rnd.records)
