"""Rules Submissions: what each casino picks, validated against what the regulations allow.

A Rules Submission (TOML, or a JSON object of the same shape; see ../shared/DESIGN.md) names the
game, its pay tables by letter, the progressive meter and Envy schedule, the vigorish and the
table options.  :func:`load_rules` reads one; :func:`check_rules` reports *every* problem at once,
each with the section that forbids it, by raising :class:`~croupier.errors.RulesViolation`.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from croupier.errors import InvalidInput, RulesViolation

__all__ = [
    "DealMethod",
    "Problem",
    "ProgressiveRules",
    "RulesSubmission",
    "ShuffleMethod",
    "TableRules",
    "VigRules",
    "load_rules",
    "parse_rules",
]

Problem = tuple[str, str | None]
"""A problem: its message and the section that forbids it (``None`` for plain bad input)."""


class DealMethod(Enum):
    MANUAL_SHOE = "manual_shoe"
    HAND = "hand"
    AUTOMATED_SHOE = "automated_shoe"


class ShuffleMethod(Enum):
    AUTOMATED = "automated"
    """An automated card shuffling device."""
    COUNTING = "counting"
    """An automated shuffler that counts the cards after each shuffle (§ 641a.5(b))."""
    MANUAL = "manual"
    RESHUFFLING_SHOE = "reshuffling_shoe"
    """A dealing shoe or other device that reshuffles the cards itself, in lieu of the shuffle
    and cut (§ 641a.5(g))."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ProgressiveRules:
    paytable: str
    envy: str | None
    wager: int
    reset: int
    rate: Fraction
    meter: str


@dataclass(frozen=True, kw_only=True, slots=True)
class VigRules:
    type: str = "commission"
    rate: Fraction = Fraction(5, 100)
    collect: str = "at_payout"


@dataclass(frozen=True, kw_only=True, slots=True)
class TableRules:
    deal: DealMethod = DealMethod.MANUAL_SHOE
    shuffle: ShuffleMethod = ShuffleMethod.AUTOMATED
    decks: int = 1
    adjacent_boxes: int = 1
    ez: bool = False
    face_up: bool = True
    """Baccarat: the first four cards dealt face up (§ 627a.8(c)(1)) or face down (c)(2)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RulesSubmission:
    """A parsed Rules Submission; build a game from it with ``get_game(rules)``."""

    game: str
    paytables: Mapping[str, str] = field(default_factory=dict)
    progressive: ProgressiveRules | None = None
    vig: VigRules | None = None
    table: TableRules = field(default_factory=TableRules)
    payout_limit: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The mapping it was read from (to derive variants, e.g. another pay table)."""


_TOP_KEYS = {"game", "payout_limit", "paytables", "progressive", "vig", "table"}


def _cents(value: object, what: str, problems: list[Problem]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        problems.append((f"{what} {value!r} must be a positive whole number of cents", None))
        return None
    return value


def _fraction(value: object, what: str, problems: list[Problem]) -> Fraction | None:
    try:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise ValueError
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        problems.append(
            (f'{what} {value!r} must be a number written as a string, e.g. "0.25"', None)
        )
        return None


def _enum(kind: type[Enum], value: object, what: str, problems: list[Problem]) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in kind)
        problems.append((f"{what} {value!r} is not one of {allowed}", None))
        return None


def parse_rules(data: Mapping[str, Any]) -> RulesSubmission:
    """Build a :class:`RulesSubmission` from a mapping, reporting every shape problem at once.

    Only the shape is checked here; what the regulations allow is checked by the game
    (:func:`croupier.games.get_game`), which also reports every problem at once.
    """
    problems: list[Problem] = []
    game = data.get("game")
    if not isinstance(game, str):
        problems.append((f"game {game!r} must be a game name such as 'four-card-poker'", None))
        game = ""
    for key in sorted(set(data) - _TOP_KEYS - {"custom_paytables"}):
        problems.append((f"unknown key {key!r} in the Rules Submission", None))
    paytables = data.get("paytables", {})
    if not isinstance(paytables, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in paytables.items()
    ):
        problems.append((f"paytables {paytables!r} must map wager names to letters", None))
        paytables = {}
    payout_limit = data.get("payout_limit")
    if payout_limit is not None:
        payout_limit = _cents(payout_limit, "payout_limit", problems)

    progressive = None
    prog = data.get("progressive")
    if prog is not None:
        if not isinstance(prog, Mapping):
            problems.append(("[progressive] must be a table", None))
        else:
            wager = _cents(prog.get("wager"), "progressive wager", problems)
            reset = _cents(prog.get("reset"), "progressive reset", problems)
            rate = _fraction(prog.get("rate"), "progressive rate", problems)
            paytable = prog.get("paytable")
            if not isinstance(paytable, str):
                problems.append((f"progressive paytable {paytable!r} must be a letter", None))
            envy = prog.get("envy")
            if envy is not None and not isinstance(envy, str):
                problems.append((f"progressive envy {envy!r} must be a letter", None))
            meter = prog.get("meter", game)
            if not isinstance(meter, str) or not meter:
                problems.append((f"progressive meter {meter!r} must be a name", None))
            if None not in (wager, reset, rate) and isinstance(paytable, str):
                assert wager is not None and reset is not None and rate is not None
                progressive = ProgressiveRules(
                    paytable=paytable,
                    envy=envy if isinstance(envy, str) else None,
                    wager=wager,
                    reset=reset,
                    rate=rate,
                    meter=str(meter),
                )

    vig = None
    vig_data = data.get("vig")
    if vig_data is not None:
        if not isinstance(vig_data, Mapping):
            problems.append(("[vig] must be a table", None))
        else:
            rate = _fraction(vig_data.get("rate", "0.05"), "vig rate", problems)
            vig = VigRules(
                type=str(vig_data.get("type", "commission")),
                rate=rate if rate is not None else Fraction(0),
                collect=str(vig_data.get("collect", "at_payout")),
            )

    table_data = data.get("table", {})
    table = TableRules()
    if not isinstance(table_data, Mapping):
        problems.append(("[table] must be a table", None))
    else:
        unknown = sorted(
            set(table_data) - {"deal", "shuffle", "decks", "adjacent_boxes", "ez", "face_up"}
        )
        problems += [(f"unknown key {k!r} in [table]", None) for k in unknown]
        deal = _enum(DealMethod, table_data.get("deal", "manual_shoe"), "table deal", problems)
        shuffle = _enum(
            ShuffleMethod, table_data.get("shuffle", "automated"), "table shuffle", problems
        )
        decks = _cents(table_data.get("decks", 1), "table decks", problems)
        boxes = _cents(table_data.get("adjacent_boxes", 1), "table adjacent_boxes", problems)
        ez = table_data.get("ez", False)
        if not isinstance(ez, bool):
            problems.append((f"table ez {ez!r} must be true or false", None))
            ez = False
        face_up = table_data.get("face_up", True)
        if not isinstance(face_up, bool):
            problems.append((f"table face_up {face_up!r} must be true or false", None))
            face_up = True
        if None not in (deal, shuffle, decks, boxes):
            assert decks is not None and boxes is not None
            table = TableRules(
                deal=deal,
                shuffle=shuffle,
                decks=decks,
                adjacent_boxes=boxes,
                ez=ez,
                face_up=face_up,
            )
    if problems:
        raise RulesViolation(_summary(problems), problems=tuple(problems))
    extra = {"custom_paytables": data["custom_paytables"]} if "custom_paytables" in data else {}
    if isinstance(prog, Mapping) and "meters" in prog:
        # [progressive.meters]: several linked meters (jackpots); the game checks the shape.
        extra["progressive_meters"] = prog["meters"]
    return RulesSubmission(
        game=str(game),
        paytables=dict(paytables),
        progressive=progressive,
        vig=vig,
        table=table,
        payout_limit=payout_limit,
        extra=extra,
        raw=dict(data),
    )


def _summary(problems: list[Problem]) -> str:
    shown = "; ".join(f"{msg} ({sec})" if sec else msg for msg, sec in problems)
    return f"{len(problems)} problem(s) in the Rules Submission: {shown}"


def load_rules(source: str | Path | Mapping[str, Any]) -> RulesSubmission:
    """Read a Rules Submission from a TOML or JSON file, or from a mapping."""
    if isinstance(source, Mapping):
        return parse_rules(source)
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(
            f"Rules Submission {str(path)!r} cannot be read: {exc.strerror}"
        ) from None
    try:
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidInput(f"Rules Submission {str(path)!r} is not valid: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"Rules Submission {str(path)!r} must be an object")
    return parse_rules(data)
