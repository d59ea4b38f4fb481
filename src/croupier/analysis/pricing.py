"""Every wager of a game priced the same way, and the theoretical win casinos rate players by.

:func:`every_wager` completes a game's Rules Submission so that its par sheet prices every wager
the game has: a wager the rules leave out gets its default pay table, else the first table the
regulation lists, else (progressives, tables the casino writes itself) the one of the game's
example Rules Submission, whose tables are each one a casino uses, cited; a wager with none (Let
It Ride's Five Card Hand Bonus and Three-Card Progressive) is left unpriced.  Each assumption is
one note saying how to give the table instead.

:func:`theoretical_win`: rounds per hour x hours x average bet x house edge, exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from croupier.analysis.registry import RoundsPerHour, analysis_for
from croupier.core.arguments import verify_exact, verify_int, verify_whole
from croupier.core.errors import CroupierError, InvalidInput, shown_value
from croupier.core.reading import MAX_INT
from croupier.games import Game, verify_game

if TYPE_CHECKING:
    from croupier.analysis.par import WagerSheet

__all__ = [
    "RoundsPerHour",
    "Theo",
    "every_wager",
    "not_offered",
    "parse_hours",
    "theoretical_win",
]


MAX_HOURS = 24 * 366 * 10
"""The most hours a theoretical win is rated over: ten years of play without a break (a rating
covers a session, a trip or a player's year; a longer span is a typing error)."""
MAX_ROUNDS_PER_HOUR = 3_600
"""The fastest pace accepted: a round a second (electronic tables deal well under it)."""


def _raw(game: Game) -> dict[str, Any]:
    raw = dict(game.rules.raw)
    return raw if raw else {"game": game.slug}


def _fill(game: Game, wager: str, raw: dict[str, Any]) -> str | None:
    """Give ``wager`` a table in ``raw``; returns the note saying which (None: cannot)."""
    letters = tuple(game.paytables.get(wager, {}))
    example = game.example_rules
    if letters:
        default = game.default_paytables.get(wager)
        letter = default or letters[0]
        raw["paytables"] = {**dict(raw.get("paytables", {})), wager: letter}
        which = "its default table" if default else "the first table the regulation lists"
        return (
            f"{wager}: the Rules Submission gives no pay table; priced under {letter}, {which} "
            f"(choose with --paytable {wager}=LETTER; letters {', '.join(letters)})"
        )
    custom = example.get("custom_paytables", {})
    if wager in custom:
        raw["custom_paytables"] = {**dict(raw.get("custom_paytables", {})), wager: custom[wager]}
        return (
            f"{wager}: the regulation leaves its table to the Rules Submission; priced under "
            f"the example table (give yours as [custom_paytables.{wager}] in --rules)"
        )
    if "progressive" in wager and "progressive" in example and "progressive" not in raw:
        raw["progressive"] = dict(example["progressive"])
        prog = example["progressive"]
        return (
            f"{wager}: no [progressive] in the Rules Submission; priced under the example's "
            f"(pay table {prog.get('paytable')}, wager {prog.get('wager')} cents, meter at its "
            f"reset {prog.get('reset')} cents; give yours as [progressive] in --rules)"
        )
    return None


def not_offered(game: Game) -> tuple[str, ...]:
    """One note per wager of the game that its Rules Submission does not offer."""
    return tuple(
        f"{w}: not offered by this Rules Submission (add its table to price it)"
        for w in game.wagers
        if w not in game.offered_wagers()
    )


def _unpriced(game: Game, wager: str) -> str:
    """The note of a wager no table could be found for."""
    if wager in game.custom_shapes:
        # an example table is one a casino uses, cited, or there is none (issue 35)
        return (
            f"{wager}: not priced: no table a casino uses is at hand; give yours as "
            f"[custom_paytables.{wager}] in --rules"
        )
    return f"{wager}: not offered by {game.slug} under these rules"


def every_wager(game: Game) -> tuple[Game, tuple[str, ...]]:
    """``game`` with every wager it has given a table (see the module), and one note per
    wager so priced or left out."""
    game = verify_game(game)
    raw = _raw(game)
    notes: list[str] = []
    current = game
    for wager in game.wagers:
        if wager in current.offered_wagers():
            continue
        trial = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in raw.items()}
        note = _fill(current, wager, trial)
        if note is None:
            notes.append(_unpriced(game, wager))
            continue
        try:
            candidate = type(game)(trial)
        except CroupierError as exc:
            notes.append(f"{wager}: not priced: {exc}")
            continue
        if wager not in candidate.offered_wagers():
            notes.append(_unpriced(game, wager))
            continue
        raw, current = trial, candidate
        notes.append(note)
    return current, tuple(notes)


# ---------------------------------------------------------------------------------------------
# Theoretical win


@dataclass(frozen=True, kw_only=True, slots=True)
class Theo:
    """A theoretical win: ``rounds_per_hour x hours x average_bet x house_edge`` (cents)."""

    game: str
    wager: str
    average_bet: int
    hours: Fraction
    rounds_per_hour: int
    rounds_source: str
    house_edge: Fraction

    @property
    def rounds(self) -> Fraction:
        return self.hours * self.rounds_per_hour

    @property
    def theo(self) -> Fraction:
        """Exact theoretical win in cents."""
        return self.rounds * self.average_bet * self.house_edge

    def to_json(self) -> dict[str, Any]:
        from croupier.analysis.par import exact

        return {
            "game": self.game,
            "wager": self.wager,
            "average_bet": self.average_bet,
            "hours": float(self.hours),
            "rounds_per_hour": self.rounds_per_hour,
            "rounds_per_hour_source": self.rounds_source,
            "rounds": float(self.rounds),
            "house_edge": float(self.house_edge),
            "house_edge_exact": exact(self.house_edge),
            "theo": round(self.theo),
            "theo_exact": exact(self.theo),
        }


def parse_hours(text: str) -> Fraction:
    """Hours as a decimal or fraction (``"2"``, ``"1.5"``, ``"3/4"``), positive."""
    if not isinstance(text, str):
        raise InvalidInput(f"hours {shown_value(text)} are not text such as 1.5 or 3/4")
    try:
        value = Fraction(text) if len(text) <= 40 else None
    except (ValueError, ZeroDivisionError):
        value = None
    if value is None or value.denominator > 10**12:
        # (1e-99999 would carry a denominator of 100,000 digits into every figure)
        raise InvalidInput(
            f"--hours {text[:40]!r} is not a number of hours (a decimal of at most 12 places, "
            "or a fraction such as 3/4)"
        ) from None
    _verify_hours(value, text)
    return value


def _verify_hours(hours: Fraction, shown: str) -> None:
    """The span a theoretical win is rated over: positive, at most :data:`MAX_HOURS`."""
    if hours <= 0:
        raise InvalidInput(f"--hours {shown} must be positive")
    if hours > MAX_HOURS:
        raise InvalidInput(f"--hours {shown} is over {MAX_HOURS:,} (ten years of play)")


def theoretical_win(
    game: Game,
    sheet: WagerSheet,
    *,
    average_bet: int,
    hours: Fraction,
    rounds_per_hour: int | None = None,
) -> Theo:
    """The theoretical win of a player betting ``average_bet`` cents on ``sheet``'s wager for
    ``hours`` at ``rounds_per_hour`` (default: the pace of the game's analysis entry)."""
    from croupier.analysis.par import WagerSheet

    game = verify_game(game)
    if not isinstance(sheet, WagerSheet):
        raise InvalidInput(f"sheet {shown_value(sheet)} is not a WagerSheet (of a par sheet)")
    verify_whole(average_bet, what="--average-bet", high=MAX_INT)
    hours = verify_exact(hours, what="--hours")
    _verify_hours(hours, shown_value(hours))
    if rounds_per_hour is not None:
        verify_int(rounds_per_hour, what="--rounds-per-hour")
    if rounds_per_hour is not None and not 0 < rounds_per_hour <= MAX_ROUNDS_PER_HOUR:
        raise InvalidInput(
            f"--rounds-per-hour {rounds_per_hour} must be positive and at most "
            f"{MAX_ROUNDS_PER_HOUR:,} (a round a second)"
        )
    if rounds_per_hour is not None:
        pace = RoundsPerHour(rounds_per_hour, "given")
    else:
        pace = analysis_for(game).pace
    return Theo(
        game=game.slug,
        wager=sheet.wager,
        average_bet=average_bet,
        hours=hours,
        rounds_per_hour=pace.rounds,
        rounds_source=pace.source,
        house_edge=sheet.house_edge,
    )
