"""The shapes of the files users write, as pydantic v2 models: Rules Submissions and scenarios.

These models check *shape* only (keys, types, units, bounds), strictly: no key they do not name
(``extra="forbid"``), no coercion (``strict``: ``true`` is not a number of cents, ``5.0`` is not
an integer, ``"500"`` is not cents).  What the regulations allow (pay-table letters, Envy
schedules, decks per chapter) is checked by each game, which cites the section.  The live server
uses the same models in its OpenAPI document; ``croupier schema rules|scenario`` prints their
JSON Schema.

Rates are exact: text (``"0.25"``, ``"1/4"``) or a decimal number read from the file's text
(:func:`croupier.core.money.parse_rate`); a binary float is refused, never rounded.

:func:`problems_from` turns a :class:`pydantic.ValidationError` into croupier's problems: each
names the key (``[progressive] is missing 'wager' (cents)``), quotes at most 80 characters of
the value, and speaks in the key's own unit (decks are not cents).
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from croupier.core.errors import InvalidInput, Problem
from croupier.core.money import MAX_WAGER
from croupier.core.reading import MAX_INT, quote

__all__ = [
    "CardSource",
    "CardText",
    "Cents",
    "DealMethod",
    "LimitModel",
    "ProgressiveModel",
    "ProgressiveWagers",
    "Rate",
    "RulesModel",
    "ScenarioModel",
    "ScenarioRulesModel",
    "SeatModel",
    "ShuffleMethod",
    "TableModel",
    "VigModel",
    "json_schema",
    "problems_from",
]

MAX_CENTS = MAX_INT
"""Largest amount of money in any file, cents ($10 trillion)."""
MAX_CARDS = 8 * 52
"""Most cards a scenario may list (an eight-deck shoe)."""

Name = Annotated[
    str, StringConstraints(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$")
]
"""A game, wager, letter or meter name: ASCII letters, digits and ``-_.:/``."""
Cents = Annotated[int, Field(gt=0, le=MAX_CENTS, description="cents (a positive whole number)")]
WagerCents = Annotated[
    int, Field(gt=0, le=MAX_WAGER, description="cents of one wager (at most $10,000,000)")
]
"""A wager's amount or posted limit: at most :data:`croupier.core.money.MAX_WAGER`, the largest
wager croupier settles exactly."""
MeterCents = Annotated[int, Field(ge=0, le=MAX_CENTS, description="cents")]
CardText = Annotated[
    str,
    StringConstraints(pattern=r"^(10|[2-9TJQKAtjqka])[cdhsCDHS]$"),
    Field(description='a card such as "As", "Th" or "10h"'),
]
Decision = Annotated[
    str,
    StringConstraints(max_length=32, pattern=r"^[ -~]*$"),
    Field(
        description='"play 3", "play 1.5", "play $7.50", "play 750c", "play", "check", "fold", '
        '"pull", "ride", "bet 2": printable ASCII (the game reads the words)'
    ),
]


def _rate(value: Any) -> Fraction:
    from croupier.core.money import parse_rate

    try:
        return parse_rate(value, what="rate")
    except InvalidInput as exc:
        raise PydanticCustomError("rate", "{reason}", {"reason": exc.message}) from None


Rate = Annotated[
    Fraction,
    PlainValidator(_rate),
    PlainSerializer(str, return_type=str),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": r"^(\d{1,6}(\.\d{1,6})?|\d{1,6}/[1-9]\d{0,8})$",
            "description": 'an exact share such as "0.25" or "1/4"',
        }
    ),
]


class DealMethod(Enum):
    """How the cards are dealt (§ 641a.8-641a.10 and their counterparts)."""

    MANUAL_SHOE = "manual_shoe"
    HAND = "hand"
    AUTOMATED_SHOE = "automated_shoe"


class CardSource(Enum):
    """Where a table's cards come from (issue 39): croupier's own shuffle, or real cards whose
    order nobody knows in advance, each reported as it leaves the shoe
    (:class:`~croupier.table.reported.ReportedShoe`)."""

    SHUFFLE = "shuffle"
    """croupier shuffles (:mod:`croupier.table.shoe`): the order is known before the deal."""
    READER = "reader"
    """A card-reading shoe or a studio's camera reports each card (docs/reader-protocol.md)."""
    KEYPAD = "keypad"
    """The dealer keys each card as it is dealt or turned."""
    FELT = "felt"
    """Cards and base game at the felt, unseen: only the progressive table game system's
    sensors report; the dealer declares winning hands (:mod:`croupier.games.declared`)."""


class BaseWagers(Enum):
    """How a table's wagers other than the progressive reach the system (issue 39)."""

    PLACED = "placed"
    """Placed through croupier (a player's wager), or at the felt at a ``felt`` table."""
    CHIP_READING = "chip_reading"
    """A chip-reading layout: the table's sensor device reports the amount of each wager at
    each position (docs/reader-protocol.md); nobody places them through croupier."""


class ProgressiveWagers(Enum):
    """How a table's progressive wagers reach the system (issue 39)."""

    PLACED = "placed"
    """Placed through croupier (a player's or the dealer's wager): croupier accepts each."""
    SENSORS = "sensors"
    """A wagering device at each betting position recognises the chip and lights; a device of
    the table reports it (§ 641a.2(c)(1), docs/reader-protocol.md)."""


class ShuffleMethod(Enum):
    """How the cards are shuffled (§ 641a.5 and its counterparts)."""

    AUTOMATED = "automated"
    """An automated card shuffling device."""
    COUNTING = "counting"
    """An automated shuffler that counts the cards after each shuffle (§ 641a.5(b))."""
    MANUAL = "manual"
    RESHUFFLING_SHOE = "reshuffling_shoe"
    """A dealing shoe or other device that reshuffles the cards itself, in lieu of the shuffle
    and cut (§ 641a.5(g))."""


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class JackpotMeterModel(_Strict):
    """One linked jackpot meter of a multi-meter progressive (Mississippi Stud tables B-D)."""

    meter: Name | None = None
    reset: Cents | None = None
    rate: Rate | None = None


class ProgressiveModel(_Strict):
    """``[progressive]``: the progressive wager, its meter and its Envy Bonus schedule."""

    paytable: Name
    envy: Name | None = None
    wager: WagerCents
    reset: Cents
    rate: Rate
    meter: Name | None = None
    meters: dict[Name, JackpotMeterModel] | None = Field(default=None, max_length=8)


class VigModel(_Strict):
    """``[vig]`` (baccarat only)."""

    type: Literal["commission", "tie", "none"] = "commission"
    rate: Rate = Fraction(5, 100)
    collect: Literal["at_payout", "deferred"] = "at_payout"


class TableModel(_Strict):
    """``[table]``: dealing, shuffling, decks, positions; ``ez``/``face_up`` for baccarat;
    ``training`` for a training table."""

    deal: Annotated[DealMethod, Field(strict=False)] = DealMethod.MANUAL_SHOE
    shuffle: Annotated[ShuffleMethod, Field(strict=False)] = ShuffleMethod.AUTOMATED
    decks: Annotated[int, Field(ge=1, le=8, description="decks")] = 1
    adjacent_boxes: Annotated[int, Field(ge=1, le=7, description="betting positions")] = 1
    ez: bool = False
    face_up: bool = True
    training: bool = False
    """A training table: the dealer may stack the cards; never real wagers (every round it
    deals is recorded ``training``)."""
    cards: Annotated[CardSource, Field(strict=False)] = CardSource.SHUFFLE
    """Where the cards come from: ``shuffle``, ``reader`` or ``keypad``."""
    progressive_wagers: Annotated[ProgressiveWagers, Field(strict=False)] = ProgressiveWagers.PLACED
    """How progressive wagers are accepted: ``placed`` (through croupier) or ``sensors``."""
    base_wagers: Annotated[BaseWagers, Field(strict=False)] = BaseWagers.PLACED
    """How the other wagers are accepted: ``placed`` or read by a ``chip_reading`` layout."""


class LimitModel(_Strict):
    """``[limits.<wager>]``: the posted minimum and maximum of one wager, cents."""

    min: WagerCents | None = None
    max: WagerCents | None = None


class RulesModel(_Strict):
    """A Rules Submission (TOML, or a JSON object of the same shape)."""

    game: Name
    payout_limit: Cents | None = None
    paytables: dict[Name, Name] = Field(default_factory=dict, max_length=32)
    progressive: ProgressiveModel | None = None
    vig: VigModel | None = None
    table: TableModel = TableModel()
    limits: dict[Name, LimitModel] = Field(default_factory=dict, max_length=32)
    custom_paytables: dict[Name, dict[Name, Any]] = Field(default_factory=dict, max_length=16)


class ScenarioRulesModel(RulesModel):
    """The ``rules`` of a scenario: a Rules Submission whose ``game`` may be left out."""

    game: Name | None = None  # type: ignore[assignment]


class SeatModel(_Strict):
    """One seat of a scenario: its wagers, its decisions in the order asked, its hand."""

    wagers: dict[Name, Cents] = Field(default_factory=dict, max_length=16)
    decisions: list[Decision] = Field(default_factory=list, max_length=16)
    hand: list[CardText] | None = Field(default=None, max_length=MAX_CARDS)
    player: Name | None = None
    verbal: dict[Name, dict[str, Any]] | None = Field(default=None, max_length=8)
    """Verbal wagers accompanied by cash (:func:`croupier.table.scenario_events.place_verbal`)."""


SeatKey = Annotated[str, StringConstraints(pattern=r"^[1-7]$")]


class ScenarioModel(_Strict):
    """A scenario: one round to replay (disputes, tests, training)."""

    game: Name
    rules: ScenarioRulesModel = ScenarioRulesModel()
    meters: dict[Name, MeterCents] = Field(default_factory=dict, max_length=16)
    seats: dict[SeatKey, SeatModel] = Field(
        min_length=1, max_length=7, json_schema_extra={"additionalProperties": False}
    )
    dealer: list[CardText] | None = Field(default=None, max_length=MAX_CARDS)
    community: list[CardText] | None = Field(default=None, max_length=MAX_CARDS)
    cards: list[CardText] | None = Field(default=None, max_length=MAX_CARDS)
    progressive_chips: Annotated[int, Field(ge=0, le=MAX_CENTS)] | None = None
    stub_check: Literal["required", "not_required"] | None = None
    """Whether the dealer counts the stub in this round (§ 641a.8(f)); left out: where a
    ``stub_count`` event says so."""
    events: list[dict[str, Any]] | None = Field(default=None, max_length=256)
    """Irregularities and table events, in order (:mod:`croupier.table.scenario_events` checks
    each)."""


_UNITS = {
    "decks": "decks",
    "adjacent_boxes": "betting positions",
    "wager": "cents",
    "reset": "cents",
    "payout_limit": "cents",
    "min": "cents",
    "max": "cents",
    "progressive_chips": "cents",
}
_CARD_LISTS = ("hand", "dealer", "community", "cards")
_INT_TYPES = {"int_type", "int_parsing", "int_from_float"}


def _where(loc: tuple[int | str, ...], blocks: tuple[str, ...]) -> tuple[str, str]:
    """(block, key) for an error location, e.g. ``("[progressive]", "wager")``."""
    parts = [str(p) for p in loc]
    if not parts:
        return "", ""
    if parts[0] == "seats" and len(parts) >= 3:
        rest = " ".join(parts[2:-1])
        return f"seat {parts[1]}" + (f" {rest}" if rest else ""), parts[-1]
    if len(parts) == 1:
        return "", parts[0]
    block = ".".join(parts[:-1])
    return (f"[{block}]" if parts[0] in blocks else block), parts[-1]


def problems_from(exc: ValidationError, *, blocks: tuple[str, ...] = ()) -> list[Problem]:
    """Every error of ``exc`` as a croupier problem ``(message, None)``; the key named, the value
    quoted (at most 80 characters), the unit the key's own."""
    out: list[Problem] = []
    for err in exc.errors(include_url=False):
        block, key = _where(tuple(err["loc"]), blocks)
        kind, given = err["type"], err.get("input")
        unit = _UNITS.get(key, "cents" if block.startswith(("seat", "meters")) else "")
        where = f"{block} {key}".strip()
        ctx = err.get("ctx") or {}
        if kind == "missing":
            msg = f"{block or 'the file'} is missing the key {key!r}"
            msg += f" ({unit})" if unit else ""
        elif kind == "extra_forbidden":
            msg = f"unknown key {key!r} in {block or 'the file'}"
        elif kind == "bool_type":
            msg = f"{where} {quote(given)} must be true or false"
        elif kind in _INT_TYPES or (kind.endswith("_type") and unit):
            msg = f"{where} {quote(given)} must be a whole number of {unit or 'units'}"
        elif kind in {"greater_than", "greater_than_equal", "less_than_equal", "less_than"}:
            bound = next(iter(ctx.values()), "")
            words = {
                "greater_than": "more than",
                "greater_than_equal": "at least",
                "less_than_equal": "at most",
                "less_than": "less than",
            }[kind]
            msg = f"{where} {quote(given)} must be {words} {bound} {unit}".rstrip()
        elif kind == "rate":
            msg = f"{where}: {err['msg'].removeprefix('rate ')}"
        elif kind == "string_pattern_mismatch" and block.endswith(_CARD_LISTS) and key.isdigit():
            msg = f"{block} card {int(key) + 1} {quote(given)} is not a card such as 'As' or '10h'"
        elif kind == "string_pattern_mismatch" and block.startswith("seat") and key == "[key]":
            msg = f"seat {quote(given)} is not a betting position written 1-7"
        elif kind == "string_pattern_mismatch" and block.endswith("decisions"):
            msg = (
                f"{block} {int(key) + 1} {quote(given)} is not a decision such as 'play 3' "
                "(printable ASCII: letters, digits, '.', '$')"
            )
        else:
            msg = f"{where} {quote(given)}: {err['msg'].lower()}"
        out.append((msg, None))
    return out


def json_schema(which: str) -> dict[str, Any]:
    """The JSON Schema of ``"rules"`` (a Rules Submission) or ``"scenario"``."""
    models: dict[str, type[BaseModel]] = {"rules": RulesModel, "scenario": ScenarioModel}
    try:
        model = models[which]
    except KeyError:
        raise InvalidInput(f"schema {quote(which)} is not 'rules' or 'scenario'") from None
    schema = model.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
