"""The dealer-training routes (issue 40): drills asked, answered and scored over time.

The drills are :mod:`croupier.server.drills`' (dealt and graded by the engine); here each one
asked and answered is a row of ``drills`` (:data:`croupier.store.schema.drills`, migration
0005), written as a command (an ``Idempotency-Key``, committed before it is answered): a
question's row when it is asked, its answer, grade and time (milliseconds from the asking to
the answer, measured by the server) when it is answered; a procedure drill's step, right or
refused, when it is taken.  ``GET /api/drills`` gives the games, their drills and the caller's
scores: by game and kind, by day, and the last answers.  Who may drill is the access policy's
(:func:`croupier.server.policy._drill_rows`: every staff role; a drill holds only the cards
of its own training deal, never a card of the floor).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Header, Path, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, insert, select, update

from croupier.core.errors import IllegalAction
from croupier.server.auth import Account
from croupier.server.commands import request_digest
from croupier.server.drills import DrillKind, Question, drill_games, grade, procedure, question
from croupier.server.live_floor import Floor
from croupier.server.live_tables import Txn
from croupier.store import as_utc, now
from croupier.store.schema import drills

__all__ = ["install_drills"]

Key = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200)]
Op = Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]

RECENT = 12
"""The last answers ``GET /api/drills`` lists."""

HISTORY = 5000
"""The rows of a trainee's scores read (their latest)."""


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class AskIn(_In):
    game: str = Field(min_length=1, max_length=100, description="a game's slug (GET /api/drills)")
    kind: Literal["payout", "commission", "decision", "case"] = Field(
        description="the drill asked (case: from the rulebook's edge cases, the scenario "
        "library; a procedure drill: POST /api/drills/procedure)"
    )


class AnswerIn(_In):
    answer: str = Field(min_length=1, max_length=40, description="dollars (45, $45.50) or yes / no")


class StepIn(_In):
    game: str = Field(min_length=1, max_length=100)
    seed: int | None = Field(
        default=None, ge=0, le=2**31, description="the drill's deal (none: a new deal)"
    )
    steps: list[str] = Field(
        default_factory=list, max_length=60, description="the steps accepted so far, in order"
    )
    step: str | None = Field(default=None, max_length=40, description="the step taken now")


class QuestionOut(BaseModel):
    id: int
    game: str
    game_name: str
    kind: str
    prompt: str
    hands: list[dict[str, Any]]
    facts: list[str]
    choices: list[str]


class GradeOut(BaseModel):
    id: int
    correct: bool
    answer: str
    expected: str
    section: str
    explanation: str
    millis: int


class ProcedureOut(BaseModel):
    game: str
    game_name: str
    seed: int
    steps: list[str]
    taken: dict[str, Any] | None
    phase: str
    over: bool
    hands: list[dict[str, Any]]
    buttons: list[dict[str, str]]
    log: list[str]
    net: dict[str, int]


class DrillsOut(BaseModel):
    games: list[dict[str, Any]]
    scores: list[dict[str, Any]]
    days: list[dict[str, Any]]
    recent: list[dict[str, Any]]


def _command(
    request: Request, key: Key, body: Any, run: Callable[[Connection, Account], Any]
) -> Any:
    """``run(conn, account)`` as the caller's command (committed once per key)."""
    floor: Floor = request.app.state.floor
    account: Account = request.state.account
    digest = request_digest(request.method, request.url.path, body)

    def go(txn: Txn) -> dict[str, Any]:
        out: dict[str, Any] = run(txn.conn, account)
        return out

    return floor.commands.transact(account, key, digest, None, go)


def install_drills(op: Op) -> None:
    """The drill routes, each guarded by its row of the access policy."""

    @op("GET", "/api/drills", response_model=DrillsOut)
    def overview(request: Request) -> dict[str, Any]:
        """The games and their drills, and the caller's scores over time."""
        floor: Floor = request.app.state.floor
        account: Account = request.state.account
        with floor.reading() as conn:
            rows = conn.execute(
                select(drills)
                .where(drills.c.username == account.username, drills.c.correct.is_not(None))
                .order_by(drills.c.id.desc())
                .limit(HISTORY)
            ).all()
        return {"games": drill_games(), **scores(rows)}

    _install_questions(op)
    _install_procedure(op)


def _install_questions(op: Op) -> None:
    """A drill asked, and its answer graded."""

    @op("POST", "/api/drills/questions", response_model=QuestionOut)
    def ask(request: Request, body: AskIn, key: Key) -> dict[str, Any]:
        """A drill dealt by the engine; its answer is graded by ``.../answer``."""
        asked = question(body.game, DrillKind(body.kind), secrets.randbelow(2**31))

        def run(conn: Connection, account: Account) -> dict[str, Any]:
            row = _asked_row(account.username, asked)
            drill_id = conn.execute(
                insert(drills).values(**row).returning(drills.c.id)
            ).scalar_one()
            return {"id": int(drill_id), **asked.shown()}

        out: dict[str, Any] = _command(request, key, body.model_dump(mode="json"), run)
        return out

    @op("POST", "/api/drills/questions/{drill_id}/answer", response_model=GradeOut)
    def answer(
        request: Request,
        body: AnswerIn,
        key: Key,
        drill_id: Annotated[int, Path(ge=1, le=2**62)],
    ) -> dict[str, Any]:
        """The answer graded against the engine's (the deal dealt again from its seed), with
        the section that rules it and the time it took."""

        def run(conn: Connection, account: Account) -> dict[str, Any]:
            row = conn.execute(
                select(drills).where(drills.c.id == drill_id, drills.c.username == account.username)
            ).first()
            if row is None or row.kind == DrillKind.PROCEDURE.value:
                raise LookupError(f"drill question {drill_id} is not one of yours")
            if row.answered_at is not None:
                raise IllegalAction(f"drill question {drill_id} was answered already")
            asked = question(row.game, DrillKind(row.kind), int(row.seed))
            graded = grade(asked, body.answer)
            at = now()
            millis = _millis(row.asked_at, at)
            conn.execute(
                update(drills)
                .where(drills.c.id == drill_id)
                .values(answered_at=at, answer=body.answer, correct=graded.correct, millis=millis)
            )
            return {"id": drill_id, "answer": body.answer, "millis": millis, **graded.to_json()}

        out: dict[str, Any] = _command(request, key, body.model_dump(mode="json"), run)
        return out


def _install_procedure(op: Op) -> None:
    """A procedure drill's step."""

    @op("POST", "/api/drills/procedure", response_model=ProcedureOut)
    def step(request: Request, body: StepIn, key: Key) -> dict[str, Any]:
        """A procedure drill: the steps accepted so far replayed from the seed, then the step
        taken now (each step a row: accepted, or the engine's refusal with its section)."""
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        if body.seed is None and body.steps:
            raise IllegalAction("steps are replayed on the deal they were taken on: send its seed")
        state = procedure(body.game, seed, body.steps, body.step)

        def run(conn: Connection, account: Account) -> dict[str, Any]:
            taken = state.taken
            if taken is not None:
                at = now()
                conn.execute(
                    insert(drills).values(
                        username=account.username,
                        game=state.game,
                        kind=DrillKind.PROCEDURE.value,
                        seed=seed,
                        prompt=f"{taken.to_json()['label']} while {state.phase}",
                        expected=taken.expected,
                        section=taken.section,
                        asked_at=at,
                        answered_at=at,
                        answer=taken.step,
                        correct=taken.accepted,
                        millis=None,
                    )
                )
            return state.to_json()

        out: dict[str, Any] = _command(request, key, body.model_dump(mode="json"), run)
        return out


def _asked_row(username: str, asked: Question) -> dict[str, Any]:
    return {
        "username": username,
        "game": asked.game,
        "kind": asked.kind.value,
        "seed": asked.seed,
        "prompt": asked.prompt,
        "expected": asked.expected,
        "section": asked.section,
        "asked_at": now(),
    }


def _millis(asked: datetime, answered: datetime) -> int:
    elapsed = as_utc(answered) - as_utc(asked)
    return max(0, int(elapsed.total_seconds() * 1000))


def scores(rows: Iterable[Any]) -> dict[str, list[dict[str, Any]]]:
    """A trainee's graded rows (latest first) as scores: by game and kind (answered, right,
    the mean time of the timed ones), by day, and the last :data:`RECENT`."""
    by_kind: dict[tuple[str, str], dict[str, Any]] = {}
    by_day: dict[str, dict[str, Any]] = {}
    recent: list[dict[str, Any]] = []
    for row in rows:
        entry = by_kind.setdefault(
            (row.game, row.kind),
            {"game": row.game, "kind": row.kind, "answered": 0, "right": 0, "millis": []},
        )
        day = by_day.setdefault(
            as_utc(row.answered_at).date().isoformat(), {"answered": 0, "right": 0}
        )
        for tally in (entry, day):
            tally["answered"] += 1
            tally["right"] += 1 if row.correct else 0
        if row.millis is not None:
            entry["millis"].append(int(row.millis))
        if len(recent) < RECENT:
            recent.append(
                {
                    "game": row.game,
                    "kind": row.kind,
                    "prompt": row.prompt,
                    "answer": row.answer,
                    "correct": bool(row.correct),
                    "section": row.section,
                    "millis": row.millis,
                }
            )
    out_kinds = []
    for entry in by_kind.values():
        times = entry.pop("millis")
        entry["mean_millis"] = sum(times) // len(times) if times else None
        out_kinds.append(entry)
    days = [{"day": day, **tally} for day, tally in sorted(by_day.items())]
    return {"scores": sorted(out_kinds, key=lambda e: (e["game"], e["kind"])), "days": days,
            "recent": recent}  # fmt: skip
