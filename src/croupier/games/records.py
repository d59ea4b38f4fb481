"""The frozen records of a round (its hand history) and the actions that produce them.

Every change a :class:`~croupier.games.base.Round` makes returns records; the list of records is
the hand history: it rebuilds the round exactly (:meth:`Round.rebuild`), it is the audit trail,
the server's event stream and the replay format.  Records that carry an input (a wager, a
decision, a card from the shoe) are marked by :func:`action_of`, which turns them back into the
action that made them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from fractions import Fraction
from types import UnionType
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints

from croupier.core.cards import Card
from croupier.core.errors import InvalidInput, shown_value

__all__ = [
    "DEALER",
    "AbandonWagers",
    "Action",
    "CardDealt",
    "CardDiscarded",
    "Check",
    "Checked",
    "CountStub",
    "DealNext",
    "DealerRevealed",
    "EnvyPaid",
    "Fold",
    "Folded",
    "HandShown",
    "IrregularityKind",
    "IrregularityReported",
    "MeterChanged",
    "NoMoreBets",
    "NoMoreBetsCalled",
    "PlaceWager",
    "Play",
    "PlayWagered",
    "ProgressivePaid",
    "Record",
    "ReportIrregularity",
    "Result",
    "Reveal",
    "RoundVoided",
    "SeatSettling",
    "Settle",
    "StubCounted",
    "VoidRound",
    "WagerPlaced",
    "WagerSettled",
    "WagersAbandoned",
    "action_of",
    "field_names",
    "record_to_json",
    "shown_value",
    "validate_fields",
]

DEALER = "dealer"
"""The recipient name of the dealer's cards."""

SEAT_FIELDS = frozenset({"seat", "for_seat"})
"""Fields that name a betting position: ``int`` 1-7."""
_TEXT_LIMIT = 10_000
"""The longest text a field may hold (a reason, a note, a line name)."""

Check_ = Callable[[str, object], None]


INT_LIMIT = 2**53 - 1
"""The largest magnitude of a whole-number field (cents, counts): exact in every JSON client
and in a 64-bit database column."""


def _refuse(owner: str, name: str, value: object, expected: str) -> InvalidInput:
    return InvalidInput(f"{owner}.{name} = {shown_value(value)} is not {expected}")


def _checker(hint: Any, owner: str, name: str) -> Check_ | None:
    """A check of one field's value against its annotation (``None``: nothing to check)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (UnionType, Union):
        inner = [a for a in args if a is not type(None)]
        checks = [_checker(a, owner, name) for a in inner]
        if len(checks) == 1 and checks[0] is not None:
            only = checks[0]

            def optional(n: str, value: object) -> None:
                if value is not None:
                    only(n, value)

            return optional
        return None
    if hint is bool:

        def boolean(n: str, value: object) -> None:
            if not isinstance(value, bool):
                raise _refuse(owner, n, value, "true or false (a bool)")

        return boolean
    if hint is int:
        seat = name in SEAT_FIELDS

        def integer(n: str, value: object) -> None:
            if isinstance(value, bool) or not isinstance(value, int):
                what = "a seat 1-7 (an int)" if seat else "a whole number (an int; money is cents)"
                raise _refuse(owner, n, value, what)
            if seat and not 1 <= value <= 7:
                raise _refuse(owner, n, value, "a seat 1-7")
            if not -INT_LIMIT <= value <= INT_LIMIT:
                raise _refuse(owner, n, value, f"a whole number of at most {INT_LIMIT}")

        return integer
    if hint is str:

        def text(n: str, value: object) -> None:
            if not isinstance(value, str):
                raise _refuse(owner, n, value, "text (a str)")
            if len(value) > _TEXT_LIMIT:
                raise _refuse(owner, n, value, f"text of at most {_TEXT_LIMIT} characters")

        return text
    if hint is Fraction:

        def exact(n: str, value: object) -> None:
            if not isinstance(value, Fraction):
                raise _refuse(owner, n, value, "an exact fraction (a Fraction)")

        return exact
    if isinstance(hint, type) and issubclass(hint, Enum | Card):
        kind = hint

        def instance(n: str, value: object) -> None:
            if not isinstance(value, kind):
                raise _refuse(owner, n, value, f"a {kind.__name__}")

        return instance
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = _checker(args[0], owner, name)

        def sequence(n: str, value: object) -> None:
            if not isinstance(value, tuple):
                raise _refuse(owner, n, value, "a tuple")
            if each is not None:
                for item in value:
                    each(n, item)

        return sequence
    return None


_CHECKS: dict[type, tuple[tuple[str, Check_], ...]] = {}


def _checks_of(cls: type) -> tuple[tuple[str, Check_], ...]:
    found = _CHECKS.get(cls)
    if found is None:
        hints = get_type_hints(cls)
        pairs = []
        for f in fields(cls):
            check = _checker(hints.get(f.name), cls.__name__, f.name)
            if check is not None:
                pairs.append((f.name, check))
        found = _CHECKS[cls] = tuple(pairs)
    return found


def _fast_test(hint: Any, name: str, var: str, env: dict[str, object]) -> str | None:
    """A Python expression true when ``var`` surely passes the check of ``hint`` (exact types,
    in range), or ``None`` where there is none; a value it does not pass goes to the full check,
    which decides (and words the error)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (UnionType, Union):
        inner = [a for a in args if a is not type(None)]
        test = _fast_test(inner[0], name, var, env) if len(inner) == 1 else None
        return f"({var} is None or {test})" if test is not None else None
    if hint is bool:
        return f"({var} is True or {var} is False)"
    if hint is int:
        low, high = (1, 7) if name in SEAT_FIELDS else (-INT_LIMIT, INT_LIMIT)
        return f"(type({var}) is int and {low} <= {var} <= {high})"
    if hint is str:
        return f"(type({var}) is str and len({var}) <= {_TEXT_LIMIT})"
    if isinstance(hint, type) and (hint is Fraction or issubclass(hint, Enum | Card)):
        env[f"T{id(hint)}"] = hint
        return f"(type({var}) is T{id(hint)})"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        if isinstance(item, type) and (item is Fraction or issubclass(item, Enum | Card)):
            # every item of exactly that type (none: true, as all() of none), by the set of
            # the items' types, made without a Python step per item
            env[f"S{id(item)}"] = frozenset({item})
            return f"(type({var}) is tuple and set(map(type, {var})) <= S{id(item)})"
        each = _fast_test(item, name, "x", env)
        return f"(type({var}) is tuple and all({each} for x in {var}))" if each else None
    return None


def _compile_validator(cls: type) -> Callable[[object], None]:
    """One function checking every field of ``cls``: a fast exact-type test per field, the full
    check (:func:`_checker`) only for a value the fast test does not pass."""
    hints = get_type_hints(cls)
    env: dict[str, object] = {}
    lines = ["def validate(obj):"]
    for position, (name, check) in enumerate(_checks_of(cls)):
        env[f"check{position}"] = check
        test = _fast_test(hints.get(name), name, "v", env)
        lines.append(f"    v = obj.{name}")
        if test is None:
            lines.append(f"    check{position}({name!r}, v)")
        else:
            lines.append(f"    if not {test}:")
            lines.append(f"        check{position}({name!r}, v)")
    lines.append("    return None")
    exec("\n".join(lines), env)  # the code is made here from the class's own field names
    validate: Callable[[object], None] = env["validate"]  # type: ignore[assignment]
    return validate


_VALIDATORS: dict[type, Callable[[object], None]] = {}


def validate_fields(obj: Action | Record) -> None:
    """Raise :class:`~croupier.core.errors.InvalidInput` naming the field and value of ``obj`` that
    does not have its declared type: money and counts are ``int`` (never ``bool``, ``float``,
    ``Fraction`` or ``str``), seats ``int`` 1-7, kinds their enum, cards :class:`Card`."""
    cls = type(obj)
    try:
        validate = _VALIDATORS[cls]
    except KeyError:
        validate = _VALIDATORS.setdefault(cls, _compile_validator(cls))
    validate(obj)


def _fast_init(cls: type, base_post_init: Callable[..., None]) -> None:
    """Give ``cls`` (a frozen, keyword-only dataclass of records or actions) an ``__init__`` that
    does what the generated one does, faster: the same keyword-only parameters and defaults, each
    field stored in the instance's ``__dict__`` (the generated one calls ``object.__setattr__``
    per field, which a frozen class needs only to get past its own ``__setattr__``), then the
    field check of ``__post_init__``.  Left as it is where the class is not such a dataclass
    (slots, a default factory, a field not in ``__init__``, its own ``__init__``)."""
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if (
        init is None
        or code is None
        or code.co_filename != "<string>"
        or "__slots__" in cls.__dict__
    ):
        return  # not the dataclass's own generated __init__ of this very class
    params = list(inspect.signature(init).parameters.values())[1:]
    names = [f.name for f in fields(cls) if f.init]
    if [p.name for p in params] != names or any(
        p.kind is not inspect.Parameter.KEYWORD_ONLY for p in params
    ):
        return
    env: dict[str, object] = {"_validator": _VALIDATORS.get}
    heads = []
    for p in params:
        if p.default is inspect.Parameter.empty:
            heads.append(p.name)
        else:
            env[f"_d_{p.name}"] = p.default
            heads.append(f"{p.name}=_d_{p.name}")
    lines = [f"def __init__(self, *, {', '.join(heads)}):" if heads else "def __init__(self):"]
    lines.append("    _s = self.__dict__")
    lines += [f"    _s[{n!r}] = {n}" for n in names]
    if getattr(cls, "__post_init__", None) is base_post_init:
        lines.append("    _v = _validator(type(self))")  # a subclass has its own checks
        lines.append("    if _v is None:")
        lines.append("        self.__post_init__()")
        lines.append("    else:")
        lines.append("        _v(self)")
    else:
        lines.append("    self.__post_init__()")
    exec("\n".join(lines), env)  # the code is made here from the class's own field names
    fast: Callable[..., None] = env["__init__"]  # type: ignore[assignment]
    fast.__qualname__ = f"{cls.__qualname__}.__init__"
    fast.__doc__ = init.__doc__
    cls.__init__ = fast  # type: ignore[misc]


def _first_of_class(obj: object, base_post_init: Callable[..., None]) -> Callable[..., None]:
    """The field check of ``obj``'s class, made with its fast ``__init__`` (first instance)."""
    cls = type(obj)
    validator = _VALIDATORS.setdefault(cls, _compile_validator(cls))
    _fast_init(cls, base_post_init)
    return validator


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    FORFEIT = "forfeit"
    VOID = "void"


# --- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Action:
    """Something a player, the dealer or chance does to a round.

    Fields are checked at construction (:func:`validate_fields`): a malformed action is never
    made, so it can neither be applied nor written to the store."""

    name: ClassVar[str] = "action"

    def __post_init__(self) -> None:
        validator = _VALIDATORS.get(type(self))
        if validator is None:
            validator = _first_of_class(self, Action.__post_init__)
        validator(self)


@dataclass(frozen=True, kw_only=True)
class PlaceWager(Action):
    name: ClassVar[str] = "place_wager"
    seat: int
    wager: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class NoMoreBets(Action):
    """The dealer announces "no more bets".

    ``progressive_chips`` is the count of progressive chips the dealer collected; where given, it
    must equal the count of progressive wagers the system accepted (§ 641a.8(b)).
    """

    name: ClassVar[str] = "no_more_bets"
    progressive_chips: int | None = None


@dataclass(frozen=True, kw_only=True)
class DealNext(Action):
    """Chance: the next card leaves the shoe for the next place of the dealing procedure."""

    name: ClassVar[str] = "deal"


@dataclass(frozen=True, kw_only=True)
class Play(Action):
    """A Play wager (or a street bet) of ``multiple`` times the Ante, or of ``amount`` cents
    (the form the live table's API sends); give one of them, neither means the Ante itself.
    Each game checks the size in its chapter's words (:mod:`croupier.games.amounts`)."""

    name: ClassVar[str] = "play"
    seat: int
    multiple: int | None = None
    amount: int | None = None


@dataclass(frozen=True, kw_only=True)
class Fold(Action):
    name: ClassVar[str] = "fold"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Check(Action):
    name: ClassVar[str] = "check"
    seat: int


@dataclass(frozen=True, kw_only=True)
class CountStub(Action):
    """The dealer counts the stub face down on the layout (§ 641a.8(f))."""

    name: ClassVar[str] = "count_stub"
    count: int


@dataclass(frozen=True, kw_only=True)
class Reveal(Action):
    """The dealer reveals the dealer's hand."""

    name: ClassVar[str] = "reveal"


@dataclass(frozen=True, kw_only=True)
class Settle(Action):
    """The dealer settles the next player completely, in the regulated order."""

    name: ClassVar[str] = "settle"


class IrregularityKind(Enum):
    """Events the dealer or a floorperson reports; the game decides what each one means."""

    CARD_FACE_UP_IN_DECK = "card_face_up_in_deck"
    CARD_DRAWN_IN_ERROR = "card_drawn_in_error"
    WRONG_CARD_COUNT = "wrong_card_count"
    DEALER_CARD_EXPOSED = "dealer_card_exposed"
    AUTOMATED_SHOE_JAM = "automated_shoe_jam"


@dataclass(frozen=True, kw_only=True)
class ReportIrregularity(Action):
    name: ClassVar[str] = "irregularity"
    kind: IrregularityKind


@dataclass(frozen=True, kw_only=True)
class VoidRound(Action):
    """A supervisor voids the round (e.g. after a system failure), recorded with who and why.

    Allowed in any phase before settlement has begun; see
    :meth:`croupier.games.round.Round._void`."""

    name: ClassVar[str] = "void_round"
    by: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class AbandonWagers(Action):
    """The player at ``seat`` left the table during the round, after receiving cards: the
    wagers may be considered abandoned and treated as losing wagers (§ 641a.7(b))."""

    name: ClassVar[str] = "abandon_wagers"
    seat: int


# --- records ----------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Record:
    """One change of a round; ``kind`` names it in JSON.  Fields are checked at construction
    (:func:`validate_fields`), so what the store writes it can always read back."""

    kind: ClassVar[str] = "record"

    def __post_init__(self) -> None:
        validator = _VALIDATORS.get(type(self))
        if validator is None:
            validator = _first_of_class(self, Record.__post_init__)
        validator(self)


@dataclass(frozen=True, kw_only=True)
class WagerPlaced(Record):
    kind: ClassVar[str] = "wager_placed"
    seat: int
    wager: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class NoMoreBetsCalled(Record):
    kind: ClassVar[str] = "no_more_bets"
    progressive_chips: int | None = None


@dataclass(frozen=True, kw_only=True)
class MeterChanged(Record):
    """A progressive meter moved: a contribution, a payout from the meter, or a reset."""

    kind: ClassVar[str] = "meter_changed"
    meter: str
    before: int
    after: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class CardDealt(Record):
    """A card left the shoe: to a seat (``"3"``), the dealer, the board, or the discard rack."""

    kind: ClassVar[str] = "card_dealt"
    card: Card
    to: str
    face_up: bool = False
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class CardDiscarded(Record):
    kind: ClassVar[str] = "card_discarded"
    card: Card
    section: str = ""


@dataclass(frozen=True, kw_only=True)
class PlayWagered(Record):
    """A Play (or street) wager made: ``amount`` cents, ``multiple`` times the Ante where the
    amount is a whole multiple of it (else ``None``: a Four Card Poker Play of 1.5x)."""

    kind: ClassVar[str] = "play_wagered"
    seat: int
    wager: str
    amount: int
    multiple: int | None


@dataclass(frozen=True, kw_only=True)
class Folded(Record):
    kind: ClassVar[str] = "folded"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Checked(Record):
    kind: ClassVar[str] = "checked"
    seat: int


@dataclass(frozen=True, kw_only=True)
class DealerRevealed(Record):
    kind: ClassVar[str] = "dealer_revealed"
    cards: tuple[Card, ...]
    category: str
    best: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class HandShown(Record):
    """The dealer turns over a player's cards to settle the hand and announces it
    (:meth:`Round.show_hand <croupier.games.round.Round.show_hand>`: § 641a.11(c)(1),
    § 569.11(h), § 571.11(h); Three Card Poker and Let It Ride as § 641a.11(c)(1)).  ``cards``
    are that seat's own, ``best`` the hand announced: :func:`croupier.games.pov.redact` shows
    them to that seat, the dealer, the supervisor and an observer (another player's view gets
    the category without the cards)."""

    kind: ClassVar[str] = "hand_shown"
    seat: int
    cards: tuple[Card, ...]
    category: str
    best: tuple[Card, ...]


@dataclass(frozen=True, kw_only=True)
class StubCounted(Record):
    """The dealer counted the stub face down on the layout."""

    kind: ClassVar[str] = "stub_counted"
    count: int


@dataclass(frozen=True, kw_only=True)
class SeatSettling(Record):
    """The dealer turns to ``seat`` to settle it completely (one :class:`Settle` action)."""

    kind: ClassVar[str] = "seat_settling"
    seat: int


@dataclass(frozen=True, kw_only=True)
class WagerSettled(Record):
    """One wager settled: ``paid`` is what the dealer paid out, ``returned`` the stake handed
    back; the player's change on this wager is ``paid + returned - stake``."""

    kind: ClassVar[str] = "wager_settled"
    seat: int
    wager: str
    stake: int
    result: Result
    paid: int
    returned: int
    line: str = ""

    @property
    def net(self) -> int:
        return self.paid + self.returned - self.stake


@dataclass(frozen=True, kw_only=True)
class ProgressivePaid(Record):
    """A progressive payout; ``from_meter`` payouts are not paid from the table inventory
    (§ 641a.11(c)(5)(iv)): the hand stays on the table until documented."""

    kind: ClassVar[str] = "progressive_paid"
    seat: int
    meter: str
    line: str
    amount: int
    from_meter: bool


@dataclass(frozen=True, kw_only=True)
class EnvyPaid(Record):
    kind: ClassVar[str] = "envy_paid"
    seat: int
    for_seat: int
    line: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class IrregularityReported(Record):
    kind: ClassVar[str] = "irregularity"
    irregularity: IrregularityKind
    section: str
    consequence: str


@dataclass(frozen=True, kw_only=True)
class WagersAbandoned(Record):
    """The player at ``seat`` left mid-round: the seat's open wagers lose (the records after)."""

    kind: ClassVar[str] = "wagers_abandoned"
    seat: int
    section: str

    def to_action(self) -> Action:
        return AbandonWagers(seat=self.seat)


@dataclass(frozen=True, kw_only=True)
class RoundVoided(Record):
    """The round is void: the records after it return every wager still open.

    ``by`` names the supervisor who ordered the void (:class:`VoidRound`); it is empty when an
    irregularity voided the round (the :class:`IrregularityReported` before it says which)."""

    kind: ClassVar[str] = "round_voided"
    reason: str
    section: str
    deck_removed: bool = False
    by: str = ""


def action_of(record: Record) -> Action | None:
    """The input action that produced ``record``, or ``None`` for a derived record.

    A game's own input records define ``to_action()``; the shared ones are mapped here.
    """
    own = getattr(record, "to_action", None)
    if callable(own):
        result = own()
        assert result is None or isinstance(result, Action)
        return result
    if isinstance(record, WagerPlaced):
        return PlaceWager(seat=record.seat, wager=record.wager, amount=record.amount)
    if isinstance(record, NoMoreBetsCalled):
        return NoMoreBets(progressive_chips=record.progressive_chips)
    if isinstance(record, Folded):
        return Fold(seat=record.seat)
    if isinstance(record, Checked):
        return Check(seat=record.seat)
    if isinstance(record, PlayWagered):
        if record.multiple is None:
            return Play(seat=record.seat, amount=record.amount)
        return Play(seat=record.seat, multiple=record.multiple)
    if isinstance(record, CardDealt):
        return DealNext()
    if isinstance(record, DealerRevealed):
        return Reveal()
    if isinstance(record, SeatSettling):
        return Settle()
    if isinstance(record, StubCounted):
        return CountStub(count=record.count)
    if isinstance(record, IrregularityReported):
        return ReportIrregularity(kind=record.irregularity)
    if isinstance(record, RoundVoided) and record.by:
        return VoidRound(by=record.by, reason=record.reason)
    return None


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


_FIELD_NAMES: dict[type[Record], tuple[str, ...]] = {}


def field_names(record: Record) -> tuple[str, ...]:
    """The names of ``record``'s fields in order (``dataclasses.fields``, asked once a class:
    the views and the streams walk every record of a round for each person)."""
    cls = type(record)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def record_to_json(record: Record) -> dict[str, Any]:
    """A record as a JSON object: ``{"kind": ..., fields...}``."""
    data = {name: _jsonable(getattr(record, name)) for name in field_names(record)}
    return {"kind": record.kind, **data}
