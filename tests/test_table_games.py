"""A table running Let It Ride, Three Card Poker, Ultimate Texas Hold 'Em and Mississippi Stud.

Each game declares its chapter's table rules as ``table_regs`` (``games/table_regs.py``), so a
:class:`Table` takes it without ``regs=``.  The tests play rounds through the table with the
round's ``simple_strategy`` and ``house_wagers``, shuffles from a :class:`SeededShuffler` and time
from a :class:`ManualClock`, and are named after the section each checks.  Sections whose text
was not available are the parallel Four Card Poker ones (inferred; see ``table_regs.py``).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction, RulesViolation
from croupier.core.modes import PlayMode
from croupier.games import Round, StubCheck
from croupier.games.let_it_ride import LetItRide
from croupier.games.mississippi_stud import MississippiStud
from croupier.games.pov import supervisor_hands
from croupier.games.records import Action, CardDealt, NoMoreBets, PlaceWager, StubCounted
from croupier.games.round import DealStep
from croupier.games.three_card_poker import ThreeCardPoker
from croupier.games.ultimate_texas_holdem import UltimateTexasHoldem, UltimateTexasHoldemRound
from croupier.rules.submission import DealMethod
from croupier.table.shoe import BackColour, SeededShuffler, Shoe
from croupier.table.table import (
    ManualClock,
    PlayedRound,
    Table,
    TableEvent,
    TableEventKind,
    shoe_order,
)

START = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SEED = 643

AnyGame = LetItRide | ThreeCardPoker | UltimateTexasHoldem | MississippiStud
"""The four games that declare ``table_regs``."""


@dataclass(frozen=True)
class Case:
    """One game: its class, the chapter its sections are in and a house player's wagers."""

    cls: type[AnyGame]
    chapter: str
    stake: Mapping[str, int]

    def game(self, **table: Any) -> AnyGame:
        return self.cls({"table": table})

    def table(
        self,
        clock: ManualClock | None = None,
        *,
        seats: tuple[int, ...] = (1,),
        stub_every: int | None = None,
        **table: Any,
    ) -> Table:
        """A table with ``seats`` taken; ``table`` is the Rules Submission's ``[table]``."""
        t = Table(
            self.game(**table),
            shuffler=SeededShuffler(SEED),
            mode=PlayMode.SIMULATION,
            clock=clock if clock is not None else ManualClock(START),
            stub_every=stub_every,
        )
        for seat in seats:
            t.sit(seat, f"P{seat}")
        return t

    def wagers(self, seats: tuple[int, ...]) -> dict[int, dict[str, int]]:
        return {seat: dict(self.stake) for seat in seats}


LIR = Case(LetItRide, "643a", {"bet1": 500, "bet2": 500, "bet3": 500})
TCP = Case(ThreeCardPoker, "649a", {"ante": 500})
UTH = Case(UltimateTexasHoldem, "569", {"ante": 500, "blind": 500})
MS = Case(MississippiStud, "571", {"ante": 500})
CASES = {
    "let-it-ride": LIR,
    "three-card-poker": TCP,
    "ultimate-texas-holdem": UTH,
    "mississippi-stud": MS,
}
ALL = pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
SHOES = pytest.mark.parametrize("deal", ["manual_shoe", "automated_shoe"])
DEALS = pytest.mark.parametrize("deal", ["manual_shoe", "hand", "automated_shoe"])


def simple(round_: Round, seat: int) -> Action:
    return round_.simple_strategy(seat)


def play(table: Table, case: Case, seats: tuple[int, ...] = (1,)) -> PlayedRound:
    return table.play_round(simple, wagers=case.wagers(seats))


def events(played: PlayedRound, kind: TableEventKind) -> list[TableEvent]:
    return [e for e in played.events if e.kind is kind]


def counted(played: PlayedRound) -> bool:
    return any(isinstance(r, StubCounted) for r in played.records)


# --- the regs: declared by each game, in its own chapter -------------------------------------


@ALL
def test_each_game_declares_its_chapters_table_regs(case: Case) -> None:
    table = case.table()
    assert table.regs is case.cls.table_regs is case.game().table_regs
    regs = table.regs
    cited = [
        regs.decks,
        regs.two_decks,
        regs.two_deck_rotation,
        regs.opening,
        regs.inspection,
        regs.two_deck_inspection,
        regs.preshuffled,
        regs.shuffle,
        regs.no_cut,
        regs.cut_required,
        regs.cut,
        regs.seated,
        regs.adjacent_boxes,
        *(s for _, s in regs.deck_life.values()),
        *regs.stub_count.values(),
        *regs.deck_removed.values(),
    ]
    assert all(s.startswith(f"§ {case.chapter}.") for s in cited), cited
    assert regs.stub_rounds == 5
    assert {m: life for m, (life, _) in regs.deck_life.items()} == {
        DealMethod.HAND: timedelta(hours=4),
        DealMethod.MANUAL_SHOE: timedelta(hours=8),
        DealMethod.AUTOMATED_SHOE: timedelta(hours=8),
    }


@ALL
def test_table_and_round_cite_the_same_seat_and_stub_sections(case: Case) -> None:
    """The table's sections are the round's own, or a subsection of them."""
    regs = case.cls.table_regs
    sections = case.cls.round_class.sections
    assert regs.seated.startswith(sections["seated"])
    assert regs.adjacent_boxes.startswith(sections["adjacent_boxes"])
    if "stub_count" in sections:
        assert regs.stub_count[DealMethod.MANUAL_SHOE].startswith(sections["stub_count"])


@ALL
def test_wagers_are_the_rounds_house_wagers(case: Case) -> None:
    round_ = case.game().new_round(shoe=Shoe(DECK))
    house = {w.wager: w.amount for w in round_.house_wagers(1)}
    assert case.wagers((1,)) == {1: house}


# --- deck life: 4 hours by hand, 8 hours from a shoe -----------------------------------------


def changed_on_time(case: Case, deal: str, life: timedelta, section: str) -> None:
    clock = ManualClock(START)
    table = case.table(clock, deal=deal)
    assert play(table, case).deck == 1
    clock.advance(life - timedelta(seconds=1))
    kept = play(table, case)
    assert kept.deck == 1
    assert not events(kept, TableEventKind.DECK_CHANGED)
    clock.advance(timedelta(seconds=1))
    changed = play(table, case)
    assert changed.deck == 2
    (change,) = events(changed, TableEventKind.DECK_CHANGED)
    assert (change.section, change.deck, change.at) == (section, 1, START + life)
    received = events(changed, TableEventKind.RECEIVED)
    assert [(e.deck, e.section) for e in received] == [(2, table.regs.opening)]
    clock.advance(life - timedelta(seconds=1))
    assert play(table, case).deck == 2
    clock.advance(timedelta(seconds=1))
    assert play(table, case).deck == 3


def test_643a_3_c_1_deck_changed_every_4_hours_by_hand() -> None:
    changed_on_time(LIR, "hand", timedelta(hours=4), "§ 643a.3(c)(1)")


@SHOES
def test_643a_3_c_2_deck_changed_every_8_hours_from_a_shoe(deal: str) -> None:
    changed_on_time(LIR, deal, timedelta(hours=8), "§ 643a.3(c)(2)")


def test_649a_3_c_1_deck_changed_every_4_hours_by_hand() -> None:
    # § 649a.3(c)(1) inferred from § 641a.3(c)(1): no Chapter 649a text was available.
    changed_on_time(TCP, "hand", timedelta(hours=4), "§ 649a.3(c)(1)")


@SHOES
def test_649a_3_c_2_deck_changed_every_8_hours_from_a_shoe(deal: str) -> None:
    changed_on_time(TCP, deal, timedelta(hours=8), "§ 649a.3(c)(2)")


def test_569_3_c_1_deck_changed_every_4_hours_by_hand() -> None:
    # § 569.3 is elided in the seed: the letters are inferred from § 641a.3(c)(1).
    changed_on_time(UTH, "hand", timedelta(hours=4), "§ 569.3(c)(1)")


@SHOES
def test_569_3_c_2_deck_changed_every_8_hours_from_a_shoe(deal: str) -> None:
    changed_on_time(UTH, deal, timedelta(hours=8), "§ 569.3(c)(2)")


def test_571_3_deck_changed_every_4_hours_by_hand() -> None:
    # § 571.3 is elided in the seed and the game is dealt from one deck: cited without letters.
    changed_on_time(MS, "hand", timedelta(hours=4), "§ 571.3")


@SHOES
def test_571_3_deck_changed_every_8_hours_from_a_shoe(deal: str) -> None:
    changed_on_time(MS, deal, timedelta(hours=8), "§ 571.3")


# --- stub counts: at least every 5 rounds without a counting shuffler ------------------------


def stub_counted_every_five_rounds(case: Case, cut_section: str) -> None:
    table = case.table(shuffle="manual", seats=(1, 2))
    played = [play(table, case, (1, 2)) for _ in range(12)]
    due = [p.number for p in played if p.stub_check is StubCheck.REQUIRED]
    assert due == [5, 10]
    assert [p.number for p in played if counted(p)] == due
    for start in range(len(played) - 4):
        assert any(counted(p) for p in played[start : start + 5])
    # a manual shuffle is cut before every round, the cover card at least ten cards in
    for p in played:
        (cut_event,) = events(p, TableEventKind.CUT)
        assert cut_event.section == cut_section
        assert p.cut_at is not None and p.cut_at >= 10
    for p in played[1:]:
        (shuffle,) = events(p, TableEventKind.SHUFFLED)
        assert shuffle.section == table.regs.shuffle


def stub_policy_at_most_five_rounds(case: Case, deal: str, section: str) -> None:
    with pytest.raises(RulesViolation) as err:
        case.table(deal=deal, stub_every=6)
    assert err.value.section == section
    assert case.table(deal=deal, stub_every=5).stub_every == 5


def test_643a_8_f_stub_counted_at_least_every_5_rounds_with_a_manual_shuffle() -> None:
    # § 643a.8-643a.10 text not available: the letters are § 641a.8(f)'s (inferred).
    stub_counted_every_five_rounds(LIR, "§ 643a.5(d)")


@pytest.mark.parametrize(
    ("deal", "section"),
    [("manual_shoe", "§ 643a.8(f)"), ("hand", "§ 643a.9(d)"), ("automated_shoe", "§ 643a.10(d)")],
)
def test_643a_8_f_9_d_10_d_stub_policy_at_most_5_rounds(deal: str, section: str) -> None:
    stub_policy_at_most_five_rounds(LIR, deal, section)


def test_649a_8_f_stub_counted_at_least_every_5_rounds_with_a_manual_shuffle() -> None:
    stub_counted_every_five_rounds(TCP, "§ 649a.5(d)")


@pytest.mark.parametrize(
    ("deal", "section"),
    [("manual_shoe", "§ 649a.8(f)"), ("hand", "§ 649a.9(d)"), ("automated_shoe", "§ 649a.10(d)")],
)
def test_649a_8_f_9_d_10_d_stub_policy_at_most_5_rounds(deal: str, section: str) -> None:
    stub_policy_at_most_five_rounds(TCP, deal, section)


def test_569_8_f_stub_counted_at_least_every_5_rounds_with_a_manual_shuffle() -> None:
    stub_counted_every_five_rounds(UTH, "§ 569.5(d)")


@pytest.mark.parametrize(
    ("deal", "section"),
    [("manual_shoe", "§ 569.8(f)"), ("hand", "§ 569.9(d)"), ("automated_shoe", "§ 569.10(d)")],
)
def test_569_8_f_9_d_10_d_stub_policy_at_most_5_rounds(deal: str, section: str) -> None:
    stub_policy_at_most_five_rounds(UTH, deal, section)


def test_571_8_f_stub_counted_at_least_every_5_rounds_with_a_manual_shuffle() -> None:
    stub_counted_every_five_rounds(MS, "§ 571.5(d)")


@pytest.mark.parametrize(
    ("deal", "section"),
    [("manual_shoe", "§ 571.8(f)"), ("hand", "§ 571.9(d)"), ("automated_shoe", "§ 571.10(d)")],
)
def test_571_8_f_9_d_10_d_stub_policy_at_most_5_rounds(deal: str, section: str) -> None:
    stub_policy_at_most_five_rounds(MS, deal, section)


@ALL
def test_counting_shuffler_needs_no_stub_count(case: Case) -> None:
    # § 643a.5(b) (seed 000) and its parallels: a shuffler that counts the deck after each
    # shuffle stands in for the stub count.
    table = case.table(shuffle="counting")
    played = [play(table, case) for _ in range(6)]
    assert all(p.stub_check is StubCheck.NOT_REQUIRED and not counted(p) for p in played)


# --- dealing through the table follows the game's deal plan ----------------------------------


def expected_plan(case: Case, table: Table, seats: tuple[int, ...]) -> list[DealStep]:
    """The deal plan of a twin round (not the table's) with the same wagers."""
    twin = table.game.new_round(shoe=Shoe(DECK), players=table.seats)
    for seat, placed in case.wagers(seats).items():
        for wager, amount in placed.items():
            twin.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
    twin.apply(NoMoreBets())
    plan = list(twin._deal_plan())
    if isinstance(twin, UltimateTexasHoldemRound):
        # the community cards follow on the streets: a burn and the flop, a burn and two more
        plan += twin.flop_plan() + twin.final_plan()
    return plan


def deals_by_plan(case: Case, deal: str) -> None:
    seats = (1, 3, 6)
    table = case.table(deal=deal, seats=seats)
    first = play(table, case, seats)
    plan = expected_plan(case, table, seats)
    dealt = [r for r in first.records if isinstance(r, CardDealt)]
    assert [(c.to, c.face_up) for c in dealt] == [(s.to, s.face_up) for s in plan]
    # the cards come off the top of the deck the table shuffled (and cut, where it did)
    assert [c.card for c in dealt] == list(shoe_order(first)[: len(dealt)])
    assert shoe_order(first) == tuple(SeededShuffler(SEED).shuffle(DECK))
    for seat in seats:
        mine = [c.card for c in dealt if c.to == str(seat)]
        assert supervisor_hands(first.round)[str(seat)] == mine


@DEALS
def test_643a_8_9_10_deal_through_the_table_follows_the_deal_plan(deal: str) -> None:
    deals_by_plan(LIR, deal)


@DEALS
def test_649a_8_9_10_deal_through_the_table_follows_the_deal_plan(deal: str) -> None:
    deals_by_plan(TCP, deal)


@DEALS
def test_569_8_9_10_deal_through_the_table_follows_the_deal_plan(deal: str) -> None:
    deals_by_plan(UTH, deal)


@DEALS
def test_571_8_9_10_deal_through_the_table_follows_the_deal_plan(deal: str) -> None:
    deals_by_plan(MS, deal)


# --- number of decks: two in rotation only where the game allows them ------------------------


def two_decks_alternate(case: Case, rotation: str, inspection: str) -> None:
    table = case.table(decks=2)
    inspected = [e for e in table.events if e.kind is TableEventKind.INSPECTED]
    assert [(e.back, e.section) for e in inspected] == [
        (BackColour.RED, inspection),
        (BackColour.BLUE, inspection),
    ]
    played = [play(table, case) for _ in range(6)]
    assert [p.back for p in played] == [BackColour.RED, BackColour.BLUE] * 3
    assert [p.deck for p in played] == [1, 2] * 3
    for prev, p in pairwise(played):
        (shuffle,) = events(p, TableEventKind.SHUFFLED)
        assert (shuffle.back, shuffle.section) == (prev.back, rotation)


def test_643a_3_b_two_decks_alternate_every_other_round() -> None:
    two_decks_alternate(LIR, "§ 643a.3(b)(2)-(3)", "§ 643a.4(d)")


def test_643a_3_b_two_decks_only_with_an_automated_shuffler() -> None:
    with pytest.raises(RulesViolation) as err:
        LIR.game(decks=2, shuffle="manual")
    assert [s for _, s in err.value.problems] == ["§ 643a.3(b)"]


def test_649a_3_b_two_decks_alternate_every_other_round() -> None:
    two_decks_alternate(TCP, "§ 649a.3(b)(2)-(3)", "§ 649a.4(d)")


def test_649a_3_two_decks_only_with_an_automated_shuffler() -> None:
    # the game cites § 649a.3 without a letter; the table's parallel is § 649a.3(b)
    with pytest.raises(RulesViolation) as err:
        TCP.game(decks=2, shuffle="manual")
    assert [s for _, s in err.value.problems] == ["§ 649a.3"]


def test_569_3_b_two_decks_alternate_every_other_round() -> None:
    two_decks_alternate(UTH, "§ 569.3(b)(2)-(3)", "§ 569.4(d)")


def test_569_3_b_two_decks_with_a_manual_shuffle_refused_by_the_table() -> None:
    """The game's own check lets two decks with a manual shuffle through (§ 569.3 is not in the
    texts); the table refuses them, as every parallel chapter does."""
    game = UTH.game(decks=2, shuffle="manual")
    with pytest.raises(RulesViolation) as err:
        Table(
            game, shuffler=SeededShuffler(SEED), clock=ManualClock(START), mode=PlayMode.SIMULATION
        )
    assert err.value.section == "§ 569.3(b)"


def test_571_3_one_deck_only() -> None:
    with pytest.raises(RulesViolation) as err:
        MS.game(decks=2)
    assert [m for m, _ in err.value.problems] == [
        "2 decks: Mississippi Stud is dealt from one deck"
    ]
    assert MS.table().rounds_played == 0


# --- seats: one position per player ----------------------------------------------------------


@pytest.mark.parametrize(("case", "section"), [(UTH, "§ 569.7(h)"), (MS, "§ 571.7(f)")])
def test_569_7_h_571_7_f_one_position_per_player(case: Case, section: str) -> None:
    table = case.table(seats=(2,))
    with pytest.raises(IllegalAction) as err:
        table.sit(3, "P2")
    assert err.value.section == section


def test_table_module_imports_before_the_games() -> None:
    """The game modules build their regs on first read: importing :mod:`croupier.table.table` first
    (it imports :mod:`croupier.games`, which loads every game) must work."""
    code = (
        "import croupier.table.table as t, croupier.games as g; "
        "assert isinstance(g.GAMES['let-it-ride'].table_regs, t.TableRegs)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
