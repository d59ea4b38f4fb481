"""Pay tables as cited data.

A :class:`PayTable` is a wager's table under one letter of the regulation: lines from the highest
hand down, each paying fixed :class:`~croupier.core.money.Odds` ("to 1" or "for 1"), a share of a
progressive meter, or a fixed amount (Envy Bonuses).  Only the highest line a hand reaches pays.
A hand is matched by its *keys*: the category names it satisfies plus game-specific names such as
``four_aces`` or ``pair_of_aces``.

Every hand a table names is one of its game's :func:`hand_names` (the categories of the rankings the
game uses, plus the keys it adds itself, such as ``four_aces``): :func:`verify_hand_names` checks a
game's tables when its class is created (:class:`croupier.games.base.Game`), so a misspelt hand
fails at import instead of never paying.

A Rules Submission may define its own table for some wagers (``[custom_paytables.<wager>]``, letter
``"custom"``).  Every game checks such a table the same way (:func:`custom_entries`,
:func:`custom_table`) against the wager's :class:`CustomShape`: each line a hand the wager pays,
odds that win, the lowest line one the chapter allows, and a line for every hand above it, so that
no better hand ever loses where a worse one is paid (a royal flush without a line would lose).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from croupier.core.errors import CroupierError, InvalidInput, Problem, shown_value
from croupier.core.money import MAX_ODDS, Odds, OddsKind, format_cents
from croupier.hands import Ranking

__all__ = [
    "CUSTOM",
    "UNVERIFIED_MARK",
    "CustomShape",
    "EnvySchedule",
    "PayLine",
    "PayTable",
    "custom_entries",
    "custom_line",
    "custom_table",
    "custom_tables",
    "for_",
    "hand_names",
    "to",
    "verify_hand_names",
]

CUSTOM = "custom"
"""The letter of a pay table defined in the Rules Submission itself."""


def to(n: int, d: int = 1) -> Odds:
    return Odds(n, d, OddsKind.TO)


def for_(n: int, d: int = 1) -> Odds:
    return Odds(n, d, OddsKind.FOR)


@dataclass(frozen=True, kw_only=True, slots=True)
class PayLine:
    """One line: the hand it pays and how (exactly one of odds, meter share, fixed amount)."""

    hand: str
    odds: Odds | None = None
    meter_share: Fraction | None = None
    amount: int | None = None

    def __post_init__(self) -> None:
        given = [x is not None for x in (self.odds, self.meter_share, self.amount)]
        if sum(given) != 1:
            raise InvalidInput(f"pay line {self.hand!r} needs exactly one of odds, share, amount")
        if self.meter_share is not None and not 0 < self.meter_share <= 1:
            raise InvalidInput(
                f"pay line {self.hand!r} meter share {self.meter_share} not in (0, 1]"
            )
        if self.amount is not None and self.amount <= 0:
            raise InvalidInput(f"pay line {self.hand!r} amount {self.amount} must be positive")

    def describe(self) -> str:
        if self.odds is not None:
            return str(self.odds)
        if self.meter_share is not None:
            pct = self.meter_share * 100
            return f"{pct.numerator if pct.denominator == 1 else float(pct)}% of meter"
        assert self.amount is not None
        return format_cents(self.amount)


UNVERIFIED_MARK = "  (not verified against the PA text)"
"""The mark of a pay table whose PA text was not at hand (:attr:`PayTable.verified` false) on the
compliance sign (:meth:`Game.sign <croupier.games.base.Game.sign>`: ``croupier rules sign``, the
par sheets); the sign posted at the table (:meth:`Game.posted_sign
<croupier.games.base.Game.posted_sign>`: the player's and the dealer's pages) leaves it off."""


@dataclass(frozen=True, kw_only=True, slots=True)
class PayTable:
    """A wager's pay table under one letter, with the section it comes from."""

    wager: str
    letter: str
    section: str
    lines: tuple[PayLine, ...]
    verified: bool = True
    """False where the PA text with this letter was not available (a widely published table)."""
    note: str = ""

    def line_for(self, keys: Iterable[str]) -> PayLine | None:
        """The highest line whose hand is among ``keys``, or ``None`` (the wager loses)."""
        have = keys if type(keys) is frozenset else set(keys)  # a hand's keys: already a set
        for line in self.lines:
            if line.hand in have:
                return line
        return None

    def hands(self) -> tuple[str, ...]:
        return tuple(line.hand for line in self.lines)

    def render(self, name: str = "") -> list[str]:
        """The table as signed: headed by ``name`` (the wager as people say it, from the
        game's :meth:`~croupier.games.base.Game.spoken_names`; its key where none is given),
        its letter where the chapter offers several, its section."""
        mark = "" if self.verified else UNVERIFIED_MARK
        letter = "" if self.letter == "-" else f", pay table {self.letter}"
        rows = [f"{name or self.wager}{letter} ({self.section}){mark}"]
        rows += [f"  {line.hand.replace('_', ' '):<22} {line.describe()}" for line in self.lines]
        return rows


@dataclass(frozen=True, kw_only=True, slots=True)
class EnvySchedule:
    """Envy Bonus amounts by the receiving player's own progressive wager (cents)."""

    letter: str
    section: str
    by_wager: Mapping[int, tuple[PayLine, ...]] = field(default_factory=dict)

    def line_for(self, wager: int, keys: Iterable[str]) -> PayLine | None:
        have = set(keys)
        for line in self.by_wager.get(wager, ()):
            if line.hand in have:
                return line
        return None

    def qualifying_hands(self) -> frozenset[str]:
        return frozenset(line.hand for lines in self.by_wager.values() for line in lines)

    def render(self) -> list[str]:
        rows = [f"Envy Bonus schedule {self.letter} ({self.section})"]
        for wager, lines in sorted(self.by_wager.items()):
            shown = ", ".join(f"{ln.hand.replace('_', ' ')} {ln.describe()}" for ln in lines)
            rows.append(f"  {format_cents(wager)} progressive wager: {shown}")
        return rows


# --- tables a Rules Submission defines ---------------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class CustomShape:
    """What a Rules Submission's own table for one wager must look like."""

    hands: tuple[str, ...]
    """The hands the wager may pay, highest first (the order lines are matched in)."""
    lowest: tuple[str, ...]
    """The hands the table's last line may be; every hand above it must have a line."""
    section: str
    meter: bool = False
    """Lines may pay a share of the meter (``"100% of meter"``): progressives."""
    envy: tuple[str, ...] = ()
    """The Envy Bonus qualifying hands, every one needing an amount (progressives)."""
    refinements: frozenset[str] = frozenset()
    """Hands a lower line also matches (Three Card Poker's mini royal is a straight flush):
    they may have a line of their own but are never required."""


_SHARE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*%\s*of\s+(?:the\s+)?meter\s*")


def custom_entries(
    raw: object,
    paytables: Mapping[str, str],
    shapes: Mapping[str, CustomShape],
    title: str,
    problems: list[Problem],
) -> Iterator[tuple[str, object, CustomShape]]:
    """The (wager, table, shape) entries of ``[custom_paytables]`` (``raw``) a game takes;
    problems (not a table, a wager the game takes none for, a wager that names a letter as
    well) are added to ``problems``."""
    if raw is None:
        return
    if not isinstance(raw, Mapping):
        problems.append(("custom_paytables must map wager names to tables", None))
        return
    for wager, spec in raw.items():
        shape = shapes.get(wager)
        if shape is None:
            allowed = ", ".join(shapes)
            problems.append(
                (f"custom pay table for {wager!r}: {title} takes them for {allowed}", None)
            )
            continue
        chosen = paytables.get(wager)
        if chosen is not None and chosen != CUSTOM:
            problems.append(
                (
                    f"{wager} names pay table {chosen!r} and also defines a custom table; "
                    f'use one (paytables.{wager} = "{CUSTOM}" or leave it out)',
                    shape.section,
                )
            )
        yield str(wager), spec, shape


_ANY_ODDS = re.compile(r"\s*\d+\s*(?:to|for)\s*\d+\s*")
"""Odds as written, of any length (:meth:`Odds.parse` reads at most nine digits a side)."""


def custom_line(
    wager: str, hand: str, text: object, shape: CustomShape, problems: list[Problem]
) -> PayLine | None:
    """One line of a custom table: ``"40 to 1"``, ``"100 for 1"`` or (meters) ``"10% of
    meter"``; it must win something."""
    if isinstance(text, str) and shape.meter:
        match = _SHARE.fullmatch(text)
        if match:
            share = Fraction(match.group(1)) / 100
            if not 0 < share <= 1:
                problems.append(
                    (f"custom {wager} line {hand}: {text!r} is not a share in (0%, 100%]", None)
                )
                return None
            return PayLine(hand=hand, meter_share=share)
    try:
        odds = Odds.parse(text) if isinstance(text, str) else None
    except CroupierError:
        odds = None
    # written as odds but too large (its numbers too long to be read, or above the bound): not a
    # rule of the regulations, the bound that keeps every win of an accepted wager inside a
    # record's exact range (croupier.core.money.MAX_WAGER)
    if (odds is None and isinstance(text, str) and _ANY_ODDS.fullmatch(text)) or (
        odds is not None and max(odds.numerator, odds.denominator) > MAX_ODDS
    ):
        problems.append(
            (
                f"custom {wager} line {hand}: odds {shown_value(text)} have a number above "
                f"{MAX_ODDS:,}, the largest croupier settles exactly",
                None,
            )
        )
        return None
    if odds is None:
        shown = "'40 to 1', '100 for 1'" + (" or '100% of meter'" if shape.meter else "")
        problems.append(
            (
                f"custom {wager} line {hand}: {shown_value(text)} is not written like {shown}",
                None,
            )
        )
        return None
    if odds.net <= 0:
        problems.append(
            (f"custom {wager} line {hand}: odds {odds} pay nothing; they must win", None)
        )
        return None
    return PayLine(hand=hand, odds=odds)


def custom_table(
    wager: str, spec: object, shape: CustomShape, problems: list[Problem]
) -> PayTable | None:
    """A Rules Submission's own table for ``wager``, checked line by line against ``shape``
    (every problem added to ``problems``; ``None`` if there is any)."""
    if not isinstance(spec, Mapping) or not spec:
        problems.append((f"custom {wager} table must map hands to odds such as '40 to 1'", None))
        return None
    count = len(problems)
    lines: dict[str, PayLine] = {}
    for hand, text in spec.items():
        if hand not in shape.hands:
            problems.append(
                (
                    f"custom {wager} line {hand!r} is not one of {', '.join(shape.hands)}",
                    shape.section,
                )
            )
            continue
        line = custom_line(wager, str(hand), text, shape, problems)
        if line is not None:
            lines[hand] = line
    given = [h for h in shape.hands if h in spec]
    if given:
        lowest = given[-1]
        if lowest not in shape.lowest:
            problems.append(
                (
                    f"custom {wager} table ends at {lowest}; its lowest paying hand must be "
                    f"{' or '.join(shape.lowest)}",
                    shape.section,
                )
            )
        else:
            needed = shape.hands[: shape.hands.index(lowest) + 1]
            missing = [h for h in needed if h not in spec and h not in shape.refinements]
            if missing:
                problems.append(
                    (
                        f"custom {wager} table pays {lowest} or better but has no line for "
                        f"{', '.join(missing)}",
                        shape.section,
                    )
                )
    if len(problems) > count:
        return None
    return PayTable(
        wager=wager,
        letter=CUSTOM,
        section=shape.section,
        lines=tuple(lines[h] for h in shape.hands if h in lines),
        verified=False,
        note="defined in the Rules Submission",
    )


def custom_tables(
    raw: object, paytables: Mapping[str, str], shapes: Mapping[str, CustomShape], title: str
) -> tuple[dict[str, PayTable], list[Problem]]:
    """The one parser of ``[custom_paytables]`` (``raw``): every table the game ``title`` takes
    (``shapes``), each checked line by line (:func:`custom_table`), and every problem."""
    problems: list[Problem] = []
    tables: dict[str, PayTable] = {}
    for wager, spec, shape in custom_entries(raw, paytables, shapes, title, problems):
        table = custom_table(wager, spec, shape, problems)
        if table is not None:
            tables[wager] = table
    return tables, problems


# --- the hands a game's tables may name -------------------------------------------------------


def hand_names(*rankings: Ranking, extra: Iterable[str] = ()) -> frozenset[str]:
    """The hand names a game's pay tables may use: the category names of ``rankings`` (e.g.
    ``flush``) and the game's own keys ``extra`` (``four_aces``, ``pair_of_jacks_or_better``,
    baccarat's ``banker_wins``), each of which the game's hand keys produce."""
    return frozenset(c.value for r in rankings for c in r.categories) | frozenset(extra)


def _named_hands(table: PayTable | EnvySchedule | CustomShape) -> tuple[tuple[str, str], ...]:
    """(what, hand) for every hand ``table`` names, ``what`` saying where for messages."""
    if isinstance(table, PayTable):
        where = f"{table.wager} pay table {table.letter} ({table.section})"
        return tuple((where, hand) for hand in table.hands())
    if isinstance(table, EnvySchedule):
        where = f"Envy Bonus schedule {table.letter} ({table.section})"
        return tuple((where, hand) for hand in sorted(table.qualifying_hands()))
    where = f"custom pay table shape ({table.section})"
    hands = (*table.hands, *table.lowest, *table.envy, *sorted(table.refinements))
    return tuple((where, hand) for hand in hands)


def verify_hand_names(
    tables: Iterable[PayTable | EnvySchedule | CustomShape], names: frozenset[str], owner: str
) -> None:
    """Raise :class:`InvalidInput` naming every hand of ``tables`` that is not one of
    ``names`` (the game ``owner``'s :func:`hand_names`): a misspelt hand would never pay."""
    bad = sorted(
        {
            f"{where}: {hand!r}"
            for t in tables
            for where, hand in _named_hands(t)
            if hand not in names
        }
    )
    if bad:
        known = ", ".join(sorted(names))
        raise InvalidInput(
            f"{owner}: {len(bad)} pay-table hand(s) not among its hand names ({known}): "
            + "; ".join(bad)
        )
