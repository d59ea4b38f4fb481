"""The pit's shift windows and theoretical win (croupier.server.pit_figures), without a server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

from croupier.analysis import par_sheet
from croupier.games import get_game
from croupier.server.pit_figures import ZONE, shift_at, theoretical


def test_a_shift_is_the_8_hour_window_of_eastern_time_holding_the_moment() -> None:
    at = datetime(2026, 12, 6, 11, 16, tzinfo=UTC)  # 06:16 Eastern (EST)
    shift = shift_at(at)
    assert shift.name == "graveyard"
    assert shift.start == datetime(2026, 12, 6, 0, 0, tzinfo=ZONE)
    assert shift.end == datetime(2026, 12, 6, 8, 0, tzinfo=ZONE)
    assert shift.start <= at < shift.end
    before = shift_at(at, back=1)
    assert before.name == "swing" and before.end == shift.start
    assert before.start == datetime(2026, 12, 5, 16, 0, tzinfo=ZONE)
    assert shift_at(at, back=3).start == datetime(2026, 12, 5, 0, 0, tzinfo=ZONE)
    assert shift_at(datetime(2026, 12, 6, 21, 0, tzinfo=UTC)).name == "swing"  # 16:00 EST


def test_a_shift_across_the_clock_change_keeps_its_wall_clock_bounds() -> None:
    # 2026-03-08: Eastern clocks go from 02:00 to 03:00; the graveyard shift is 7 hours long
    shift = shift_at(datetime(2026, 3, 8, 12, 0, tzinfo=UTC))  # 08:00 EDT: the day shift
    earlier = shift_at(datetime(2026, 3, 8, 10, 0, tzinfo=UTC))  # 06:00 EDT
    assert (shift.name, earlier.name) == ("day", "graveyard")
    assert earlier.end == shift.start

    # (in UTC: Python subtracts two times of one zone by their wall clocks)
    def hours(a: datetime, b: datetime) -> timedelta:
        return b.astimezone(UTC) - a.astimezone(UTC)

    assert hours(earlier.start, earlier.end) == timedelta(hours=7)
    assert hours(shift.start, shift.end) == timedelta(hours=8)


def test_theoretical_win_prices_the_initial_wager_by_the_base_sheet_and_names_the_unpriced() -> (
    None
):
    game = get_game("ultimate-texas-holdem")
    sheets = par_sheet(game).sheets
    edges = {name: sheet.house_edge for name, sheet in sheets.items()}
    wagers = [(1, "ante", 1000), (1, "blind", 1000), (1, "play", 4000), (1, "trips", 500)]
    theo, unpriced = theoretical(game, edges, [*wagers, (2, "side_bet", 100)])
    # the Blind and the Play are inside the base sheet (per unit of the Ante)
    expected = sheets["base"].house_edge * 1000 + sheets["trips"].house_edge * 500
    assert theo == expected and unpriced == frozenset({"side_bet"})
    baccarat = get_game("mini-baccarat")
    bac = {name: sheet.house_edge for name, sheet in par_sheet(baccarat).sheets.items()}
    theo, unpriced = theoretical(baccarat, bac, [(3, "banker", 2500), (3, "tie", 500)])
    assert theo == bac["banker"] * 2500 + bac["tie"] * 500 and not unpriced
    assert theoretical(baccarat, bac, [])[0] == Fraction(0)
