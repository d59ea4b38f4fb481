"""Rules Submissions: what each casino picks, validated against what the regulations allow.

A Rules Submission (TOML, or a JSON object of the same shape; docs/rules-and-scenarios.md) names the
game, its pay tables by letter, the progressive meter and Envy schedule, the vigorish and the
table options.  :func:`load_rules` reads one; :func:`check_rules` reports *every* problem at once,
each with the section that forbids it, by raising :class:`~croupier.core.errors.RulesViolation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from croupier.core.errors import InvalidInput, Problem
from croupier.core.reading import load_document, verify_bounded
from croupier.core.shapes import (
    BaseWagers,
    CardSource,
    DealMethod,
    ProgressiveWagers,
    RulesModel,
    ShuffleMethod,
    problems_from,
)

__all__ = [
    "BaseWagers",
    "CardSource",
    "DealMethod",
    "Problem",
    "ProgressiveRules",
    "ProgressiveWagers",
    "RulesSubmission",
    "ShuffleMethod",
    "TableRules",
    "VigRules",
    "WagerLimits",
    "load_rules",
    "parse_rules",
]


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
    training: bool = False
    """A training table: the dealer may stack the next round's cards; its rounds are recorded
    ``training`` and are never real play (a real table refuses a stack)."""
    cards: CardSource = CardSource.SHUFFLE
    """Where the cards come from (issue 39): croupier's shuffle, a card reader, the keypad."""
    progressive_wagers: ProgressiveWagers = ProgressiveWagers.PLACED
    """Progressive wagers placed through croupier, or recognised by the sensors of a
    progressive table game system (§ 641a.2(c)(1), :mod:`croupier.games.sensors`)."""
    base_wagers: BaseWagers = BaseWagers.PLACED
    """The other wagers placed through croupier, or read by a chip-reading layout whose
    amounts the sensor device reports (:mod:`croupier.games.sensors`)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class RulesSubmission:
    """A parsed Rules Submission; build a game from it with ``get_game(rules)``."""

    game: str
    paytables: Mapping[str, str] = field(default_factory=dict)
    progressive: ProgressiveRules | None = None
    vig: VigRules | None = None
    table: TableRules = field(default_factory=TableRules)
    payout_limit: int | None = None
    limits: Mapping[str, WagerLimits] = field(default_factory=dict)
    """Posted minimum and maximum per wager (``[limits]``)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The mapping it was read from (to derive variants, e.g. another pay table)."""
    problems: tuple[Problem, ...] = field(default=(), compare=False, repr=False)
    """Shape problems found reading it; a game built from it refuses it with them."""
    given: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    """The keys the submission wrote (top-level, and ``table.<key>``), so a game can refuse an
    option its chapter does not define even when it is written at its default value."""

    def names(self, key: str) -> bool:
        """Whether the submission writes ``key`` (``"vig"``, ``"table.ez"``, ...); a
        submission built in code (no :attr:`raw`) writes what differs from the default."""
        if self.raw:
            return key in self.given
        defaults = {"table.ez": False, "table.face_up": True}
        if key in defaults:
            return bool(getattr(self.table, key.split(".")[1]) != defaults[key])
        value = {
            "vig": self.vig,
            "progressive": self.progressive,
            "payout_limit": self.payout_limit,
            "limits": self.limits or None,
            "custom_paytables": self.extra.get("custom_paytables"),
        }.get(key)
        return value is not None

    def to_json(self) -> dict[str, Any]:
        """The submission as the JSON object :func:`load_rules` reads back (options at their
        default are left out, so a chapter that does not define them still accepts it)."""
        data: dict[str, Any] = {"game": self.game}
        if self.payout_limit is not None:
            data["payout_limit"] = self.payout_limit
        if self.paytables:
            data["paytables"] = dict(self.paytables)
        prog = self.progressive
        if prog is not None:
            data["progressive"] = {
                "paytable": prog.paytable,
                **({"envy": prog.envy} if prog.envy is not None else {}),
                "wager": prog.wager,
                "reset": prog.reset,
                "rate": str(prog.rate),
                "meter": prog.meter,
            }
            if "progressive_meters" in self.extra:
                data["progressive"]["meters"] = self.extra["progressive_meters"]
        if self.vig is not None:
            data["vig"] = {
                "type": self.vig.type,
                "rate": str(self.vig.rate),
                "collect": self.vig.collect,
            }
        default = TableRules()
        table = {
            name: getattr(self.table, name)
            for name in (
                "deal",
                "shuffle",
                "decks",
                "adjacent_boxes",
                "ez",
                "face_up",
                "training",
                "cards",
                "progressive_wagers",
                "base_wagers",
            )
            if getattr(self.table, name) != getattr(default, name)
        }
        data["table"] = {k: v.value if isinstance(v, Enum) else v for k, v in table.items()}
        if self.limits:
            data["limits"] = {
                w: {k: v for k, v in (("min", lim.min), ("max", lim.max)) if v is not None}
                for w, lim in self.limits.items()
            }
        if "custom_paytables" in self.extra:
            data["custom_paytables"] = self.extra["custom_paytables"]
        return data


@dataclass(frozen=True, kw_only=True, slots=True)
class WagerLimits:
    """The posted minimum and maximum of one wager, cents (``[limits.<wager>]``)."""

    min: int | None = None
    max: int | None = None


_NO_GAME = "0"
"""Stands in for a missing or malformed `game` while the other blocks are checked."""
_BLOCKS = ("paytables", "progressive", "vig", "table", "limits", "custom_paytables")


def _validated(data: Mapping[str, Any]) -> tuple[RulesModel, list[Problem]]:
    """The model of ``data`` and every shape problem; blocks with a problem are left out, so
    the game can still check the others (a type error in one block hides nothing else)."""
    try:
        return RulesModel.model_validate(data), []
    except ValidationError as exc:
        problems = problems_from(exc, blocks=_BLOCKS)
        bad = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
    partial = {k: v for k, v in data.items() if k not in bad}
    partial.setdefault("game", "")
    try:
        return RulesModel.model_validate(partial), problems
    except ValidationError:  # only ``game`` can still fail
        return RulesModel.model_validate({**partial, "game": _NO_GAME}), problems


def parse_rules(data: Mapping[str, Any]) -> RulesSubmission:
    """Build a :class:`RulesSubmission` from a mapping; shape problems ride along in
    :attr:`RulesSubmission.problems` (the game reports them with its own, all at once).

    The shape is checked by :class:`croupier.core.shapes.RulesModel`; what the regulations allow is
    checked by the game (:func:`croupier.games.get_game`).
    """
    if not isinstance(data, Mapping):
        raise InvalidInput(f"a Rules Submission must be an object, not {type(data).__name__}")
    verify_bounded(data, what="Rules Submission")
    model, problems = _validated(data)
    prog = model.progressive
    progressive = None
    if prog is not None:
        progressive = ProgressiveRules(
            paytable=prog.paytable,
            envy=prog.envy,
            wager=prog.wager,
            reset=prog.reset,
            rate=prog.rate,
            meter=prog.meter or model.game,
        )
    vig = None
    if model.vig is not None:
        vig = VigRules(type=model.vig.type, rate=model.vig.rate, collect=model.vig.collect)
    t = model.table
    table = TableRules(
        deal=t.deal,
        shuffle=t.shuffle,
        decks=t.decks,
        adjacent_boxes=t.adjacent_boxes,
        ez=t.ez,
        face_up=t.face_up,
        training=t.training,
        cards=t.cards,
        progressive_wagers=t.progressive_wagers,
        base_wagers=t.base_wagers,
    )
    extra: dict[str, Any] = {}
    if "custom_paytables" in data and "custom_paytables" in model.model_fields_set:
        extra["custom_paytables"] = data["custom_paytables"]
    raw_prog = data.get("progressive")
    if prog is not None and prog.meters is not None and isinstance(raw_prog, Mapping):
        # [progressive.meters]: several linked meters (jackpots); the game checks them.
        extra["progressive_meters"] = raw_prog["meters"]
    given = {k for k in model.model_fields_set if k in data}
    given |= {f"table.{k}" for k in t.model_fields_set}
    return RulesSubmission(
        game="" if model.game == _NO_GAME else model.game,
        paytables=dict(model.paytables),
        progressive=progressive,
        vig=vig,
        table=table,
        payout_limit=model.payout_limit,
        limits={w: WagerLimits(min=lim.min, max=lim.max) for w, lim in model.limits.items()},
        extra=extra,
        raw=dict(data),
        problems=tuple(problems),
        given=frozenset(given),
    )


def load_rules(source: str | Path | Mapping[str, Any]) -> RulesSubmission:
    """Read a Rules Submission from a TOML or JSON file, or from a mapping.

    An unreadable file (missing, over the size cap, not UTF-8, not TOML/JSON, nested too deep,
    numbers croupier cannot read exactly) raises :class:`InvalidInput`; shape problems ride
    along in :attr:`RulesSubmission.problems` and are reported by the game.
    """
    if isinstance(source, Mapping):
        return parse_rules(source)
    return parse_rules(load_document(source, what="Rules Submission"))
