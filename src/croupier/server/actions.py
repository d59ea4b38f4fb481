"""What the caller may do now at a table, for the pages' buttons: ``GET
/api/tables/{id}/actions``.

Every answer comes from the engine's one legality rule (``Round.legal_actions`` and
``Round.can``), asked for the caller's seats only; the page offers nothing else and holds no game
rule.  A player gets the wagers open to their seats with the chip amounts the round accepts now,
and the decisions of the seat to act, each with the text the decision endpoint reads (checked by
``Round.parse_decision`` giving back the same action).  The dealer gets the dealer's steps and
the irregularities the chapter lets them report now.  Nothing here reveals a card.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from fastapi import APIRouter, Depends, Request

from croupier.core.errors import CroupierError, IllegalAction
from croupier.core.shapes import CardSource
from croupier.games.records import Action, PlaceWager, Record, ReportIrregularity
from croupier.games.round import Phase, Round
from croupier.server.auth import Account, Role
from croupier.server.live_tables import LiveTable
from croupier.server.policy import resource, table_seats
from croupier.server.reported_table import ReportedAcrossCoups

__all__ = [
    "ACTIONS",
    "CHIP_LADDER",
    "COPIES",
    "RoundCopies",
    "RoundCopy",
    "actions_answer",
    "actions_router",
    "dealer_actions",
    "seat_actions",
]

CHIP_LADDER: tuple[int, ...] = (100, 200, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000)
"""Chip amounts (cents) offered for a wager where the round accepts them."""

DEALER_STEPS = ("no_more_bets", "deal", "turn_community_card", "count_stub", "reveal", "settle")


def _decision_text(action: Action) -> str:
    multiple = getattr(action, "multiple", None)
    wager = getattr(action, "wager", None)
    if action.name == "play":
        return f"play {multiple}" if multiple is not None else "play"
    if action.name == "withdraw":
        return f"pull {wager}" if wager else "pull"
    if action.name == "ride":
        return f"ride {wager}" if wager else "ride"
    return action.name.replace("_", " ")


def _decision(rnd: Round, action: Action, seat: int) -> dict[str, Any] | None:
    text = _decision_text(action)
    try:
        if rnd.parse_decision(seat, text) != action:
            return None
    except CroupierError:
        return None
    out: dict[str, Any] = {"name": action.name, "seat": seat, "decision": text}
    for key in ("multiple", "wager"):
        value = getattr(action, key, None)
        if value is not None:
            out[key] = value
    out["label"] = rnd.describe(action)
    return out


def _ladder(rnd: Round, seat: int) -> list[int]:
    """The chip amounts asked of the round for ``seat``: the chips, the ends of each posted
    limit (a fixed progressive wager's amount among them) and the seat's own stakes (a Blind
    equal to any Ante placed, at the table's maximum or between chips, is always offered)."""
    ends = {v for limit in rnd.game.posted_limits().values() for v in limit.values()}
    return sorted({*CHIP_LADDER, *ends, *rnd.stakes.get(seat, {}).values()})


def _worth_asking(rnd: Round, wager: str, ladder: list[int]) -> list[int]:
    """The amounts of ``ladder`` worth asking the round for ``wager``: the amount the Rules
    Submission fixes for it (a progressive wager), else those within its posted limits.  The
    round refuses every other amount by the same figures (:meth:`Game.fixed_wager
    <croupier.games.base.Game.fixed_wager>`, :meth:`Game.wager_bounds
    <croupier.games.base.Game.wager_bounds>`); each amount asked is still the round's to
    accept (``Round.can``)."""
    fixed = rnd.game.fixed_wager(wager)
    if fixed is not None:
        return [fixed[0]] if fixed[0] in ladder else []
    low, high = rnd.game.wager_bounds(wager)
    return [a for a in ladder if low <= a <= high]


def seat_actions(
    rnd: Round, seats: frozenset[int], legal: Sequence[Action] | None = None
) -> dict[str, Any]:
    """The wagers (with the chip amounts the round accepts now) and the decisions open now to
    ``seats``.  Amounts are asked of ``Round.can`` one by one (an Ante fixes the Blind's).
    ``legal``: ``rnd.legal_actions()`` where the caller has it already."""
    wagers: list[dict[str, Any]] = []
    decisions: list[dict[str, Any]] = []
    if rnd.phase is Phase.BETTING:
        for seat in sorted(seats & set(rnd.players)):
            ladder = _ladder(rnd, seat)
            for wager in rnd.game.offered_wagers():
                if wager in rnd.game.decision_wagers:
                    continue
                amounts = [
                    a
                    for a in _worth_asking(rnd, wager, ladder)
                    if rnd.can(PlaceWager(seat=seat, wager=wager, amount=a))
                ]
                if amounts:
                    wagers.append({"seat": seat, "wager": wager, "amounts": amounts})
    for action in rnd.legal_actions() if legal is None else legal:
        who = getattr(action, "seat", None)
        if who in seats and not isinstance(action, PlaceWager):
            found = _decision(rnd, action, who)
            if found is not None:
                decisions.append(found)
    return {"wagers": wagers, "decisions": decisions}


def dealer_actions(rnd: Round, legal: Sequence[Action] | None = None) -> dict[str, Any]:
    """The dealer's steps allowed now and the irregularities that may be reported; while
    betting, the progressive wagers the system accepted (``progressive_chips``: the count the
    dealer's chips must match at "no more bets", § 641a.8(b)).  ``legal``: ``rnd.legal_actions()``
    where the caller has it already."""
    steps: list[str] = []
    irregularities: list[str] = []
    for action in rnd.legal_actions() if legal is None else legal:
        if isinstance(action, ReportIrregularity):
            irregularities.append(action.kind.value)
        elif action.name in DEALER_STEPS and action.name not in steps:
            steps.append(action.name)
    out: dict[str, Any] = {
        "steps": steps,
        "irregularities": irregularities,
        "waiting": _waiting(rnd, steps),
    }
    if rnd.phase is Phase.BETTING:
        out["progressive_chips"] = rnd.progressive_chip_count()
    held = rnd.count_held()
    if held is not None:  # a sensor table's count differs: a supervisor recounts (issue 39)
        out["count_held"] = {"counted": held.counted, "accepted": held.accepted}
    if rnd.phase is Phase.DECLARING:  # cards at the felt: hands declared, then verified
        out["declared"] = rnd.declared_seats()
    due = rnd.next_card() if rnd.game.rules.table.cards is not CardSource.SHUFFLE else None
    if due is not None:  # a reader's or the keypad's next card (issue 39)
        out["next_card"] = {"to": due[0], "number": due[1], "face_up": due[2]}
    return out


def _waiting(rnd: Round, steps: list[str]) -> list[dict[str, Any]]:
    """Why the dealer's next step is not allowed yet, in the engine's words: "no more bets"
    refused while betting (no wager, a required wager missing: the refusal the step itself
    would get, with its section), or the seat whose decision the deal waits for."""
    if rnd.phase is Phase.BETTING and "no_more_bets" not in steps:
        try:
            rnd.verify(rnd.dealer_no_more_bets())
        except CroupierError as refused:
            return [{"step": "no_more_bets", "reason": refused.message, "section": refused.section}]
    seat = rnd.to_act().seat
    if rnd.phase is Phase.DECISIONS and seat is not None:
        reason = f"seat {seat} has not decided yet"
        return [{"step": "deal", "reason": reason, "section": None}]
    return []


ACTIONS = "/api/tables/{table_id}/actions"


def _guarded(request: Request) -> None:
    """The access policy's row of the route (:mod:`croupier.server.policy`), as every API
    route is guarded."""
    from croupier.server.commands import guard

    guard(resource("GET", ACTIONS))(request)


def actions_router() -> APIRouter:
    """``GET /api/tables/{table_id}/actions`` over the server's floor and accounts."""
    row = resource("GET", ACTIONS)
    router = APIRouter(tags=["web"])

    @router.get(
        ACTIONS,
        summary="What the caller may do now",
        dependencies=[Depends(_guarded)],
        openapi_extra={"x-roles": row.roles(), "x-access": row.cells()},
    )
    def actions(request: Request, table_id: str) -> dict[str, Any]:
        answer, _seq = actions_answer(
            request.state.account, request.app.state.floor.table(table_id)
        )
        return answer

    return router


def actions_answer(account: Account, lt: LiveTable) -> tuple[dict[str, Any], int]:
    """What ``account`` may do now at ``lt`` (the answer of ``GET
    /api/tables/{table_id}/actions``) and the table stream's ``seq`` it stands at, both of the
    committed state only.

    The table's lock is held only to take what the answer is computed from (the round's
    records, players and the table's state: a few microseconds); every seat x wager x chip is
    then tried on a copy of the round rebuilt from those records (:class:`RoundCopies`), so a
    command on the table never waits behind this read.  Where the copy cannot be made, the
    answer is computed under the lock as before."""
    out: dict[str, Any] = {
        "table_id": lt.id,
        "round_id": lt.round_id,
        "phase": None,
        "role": account.role.value,
        "wagers": [],
        "decisions": [],
        "steps": [],
        "irregularities": [],
    }
    with lt.lock:
        out["round_id"] = lt.round_id
        rnd, seq = lt.round, lt.seq
        if rnd is None or rnd.is_over or lt.held is not None:
            out["phase"] = rnd.phase.value if rnd is not None else None
            ready = lt.status == "open" and lt.held is None
            out["steps"] = ["new_round"] if account.role is Role.DEALER and ready else []
            if account.role is Role.DEALER and isinstance(lt.table, ReportedAcrossCoups):
                out["shoe_change"] = True  # between coups the keypad may open a new shoe
            if account.role is Role.DEALER and not ready:
                why = f"the round is held: {lt.held}" if lt.held else "the table is closed"
                out["waiting"] = [{"step": "new_round", "reason": why, "section": None}]
            return out, seq
        out["phase"] = rnd.phase.value
        seats = table_seats(account, lt)
        if account.role not in (Role.PLAYER, Role.DEALER):
            return out, seq
        records, players = rnd.records, dict(rnd.players)
    try:
        copy = COPIES.of(lt, rnd, records, players)
    except CroupierError:  # not replayed: tried on the table's round, under its lock
        with lt.lock:
            if lt.round is not rnd or lt.seq != seq:
                return actions_answer(account, lt)
            out.update(_for_role(account.role, rnd, seats, None))
        return out, seq
    out.update(_for_role(account.role, copy.round, seats, copy.legal))
    return out, seq


def _for_role(
    role: Role, rnd: Round, seats: frozenset[int], legal: Sequence[Action] | None
) -> dict[str, Any]:
    if role is Role.PLAYER:
        return seat_actions(rnd, seats, legal)
    return dealer_actions(rnd, legal)


class RoundCopy:
    """A copy of a table's round (:class:`RoundCopies`) and what the engine allows on it now,
    asked once and shared by every caller answered from the copy (a table's dealer and each
    of its players, after one event)."""

    def __init__(self, rnd: Round) -> None:
        self.round = rnd

    @cached_property
    def legal(self) -> tuple[Action, ...]:
        """``Round.legal_actions()`` of the copy (which is never applied to)."""
        return tuple(self.round.legal_actions())


class _Kept:
    """A table's round at some records and players, and the copy made of it: made by the first
    caller, under its own lock, while the others answered after the same event wait for it
    (they are woken together: each making its own would cost as many rebuilds as callers)."""

    def __init__(
        self, lt: LiveTable, rnd: Round, records: tuple[Record, ...], players: dict[int, str]
    ) -> None:
        self.table = weakref.ref(lt)
        self.round = weakref.ref(rnd)
        self.count = len(records)
        self.players = players
        self._records = records
        self._lock = threading.Lock()
        self._copy: RoundCopy | None = None

    def holds(self, lt: LiveTable, rnd: Round, count: int, players: dict[int, str]) -> bool:
        return (
            self.table() is lt
            and self.round() is rnd
            and self.count == count
            and self.players == players
        )

    def copy(self) -> RoundCopy:
        """The copy (made now where not yet); the engine's refusal where the records do not
        replay."""
        with self._lock:
            if self._copy is None:
                rnd = self.round()
                if rnd is None:
                    raise IllegalAction("the round copied is no longer the table's")
                self._copy = RoundCopy(
                    Round.rebuild(
                        rnd.game, self._records, players=self.players, stub_check=rnd.stub_check
                    )
                )
                self._records = ()
            return self._copy


class RoundCopies:
    """Per table, the copy of its round the actions are tried on: rebuilt from the round's
    committed records (:meth:`Round.rebuild`, as the audit replays a hand), and kept while the
    round has the same records and players, so the callers answered after one event share one
    copy, made once.  A copy is only read (``can``, ``legal_actions``): never applied to."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_table: dict[int, _Kept] = {}

    def of(
        self, lt: LiveTable, rnd: Round, records: tuple[Record, ...], players: dict[int, str]
    ) -> RoundCopy:
        """The copy of ``rnd`` at ``records`` with ``players`` (made once, then shared); the
        engine's refusal where the records do not replay."""
        with self._lock:
            kept = self._by_table.get(id(lt))
            if kept is None or not kept.holds(lt, rnd, len(records), players):
                if kept is None:  # a table new here: the copies of tables gone go
                    for table, old in list(self._by_table.items()):
                        if old.table() is None:
                            del self._by_table[table]
                kept = self._by_table[id(lt)] = _Kept(lt, rnd, records, players)
        return kept.copy()


COPIES = RoundCopies()
"""The process's copies of its tables' rounds for :func:`actions_answer`."""
