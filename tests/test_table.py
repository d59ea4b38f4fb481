"""Tests of a table over many rounds (table.py), named after the rules they check.

Every shuffle and drawn cut comes from an injected :class:`SeededShuffler`; a reference shuffler
with the same seed replays the draws, so the expected deck order of a round is computed
independently of the table.  Time comes from a fake clock.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from typing import Any

import pytest

from croupier.core.cards import DECK, Card
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.core.modes import PlayMode
from croupier.games import Phase, Round, StubCheck
from croupier.games.four_card_poker import FourCardPoker
from croupier.games.four_card_poker.regs import FOUR_CARD_POKER_REGS
from croupier.games.pov import supervisor_hands
from croupier.games.records import (
    DEALER,
    Action,
    CardDealt,
    CountStub,
    DealNext,
    MeterChanged,
    NoMoreBets,
    PlaceWager,
    Play,
    RoundVoided,
    StubCounted,
)
from croupier.rules.submission import Problem, RulesSubmission
from croupier.table.shoe import BackColour, SeededShuffler, cut
from croupier.table.table import (
    DeckSupply,
    ManualClock,
    PlayedRound,
    Table,
    TableEvent,
    TableEventKind,
    shoe_order,
)

START = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)
SEED = 641


class FakeClock:
    """Any object with ``now()`` is a clock."""

    def __init__(self) -> None:
        self.t = START

    def now(self) -> datetime:
        return self.t

    def advance(self, **delta: float) -> None:
        self.t += timedelta(**delta)


def game(**table: Any) -> FourCardPoker:
    return FourCardPoker({"table": table})


def make_table(
    clock: FakeClock | None = None, *, seats: tuple[int, ...] = (1,), **kwargs: Any
) -> Table:
    table_rules = kwargs.pop("rules", {})
    table = Table(
        game(**table_rules),
        shuffler=SeededShuffler(SEED),
        mode=PlayMode.SIMULATION,
        clock=clock if clock is not None else FakeClock(),
        **kwargs,
    )
    for seat in seats:
        table.sit(seat, f"P{seat}")
    return table


def always_play(round_: Round, seat: int) -> Action:
    return Play(seat=seat, multiple=1)


def play(table: Table, seats: tuple[int, ...] = (1,)) -> PlayedRound:
    return table.play_round(always_play, wagers={s: {"ante": 500} for s in seats})


def kinds(events: tuple[TableEvent, ...]) -> list[TableEventKind]:
    return [e.kind for e in events]


def dealt(played: PlayedRound) -> list[CardDealt]:
    return [r for r in played.records if isinstance(r, CardDealt)]


def state(table: Table) -> tuple[object, ...]:
    return (table.events, table.history, table.seats, table.current)


# --- opening, shuffle and cut (§ 641a.4, § 641a.5) -------------------------------------------


def test_641a_4_opening_inspects_and_shuffles_the_deck_with_the_injected_shuffler() -> None:
    table = make_table()
    assert kinds(table.events) == [
        TableEventKind.OPENED,
        TableEventKind.RECEIVED,
        TableEventKind.INSPECTED,
        TableEventKind.SHUFFLED,
        TableEventKind.SEATED,
    ]
    assert table.events[2].section == "§ 641a.4(a)-(c)"
    first = play(table)
    assert shoe_order(first) == tuple(SeededShuffler(SEED).shuffle(DECK))
    assert first.round.back is BackColour.RED
    assert first.events[0].kind is TableEventKind.OPENED


def test_641a_5_a_deck_reshuffled_after_every_round() -> None:
    table = make_table()
    played = [play(table) for _ in range(4)]
    ref = SeededShuffler(SEED)
    order: list[Card] = list(DECK)
    for p in played:
        order = ref.shuffle(order)
        assert shoe_order(p) == tuple(order)
    for p in played[1:]:
        (shuffle,) = [e for e in p.events if e.kind is TableEventKind.SHUFFLED]
        assert shuffle.section == "§ 641a.5(a)"
        assert shuffle.round == p.number
    assert len({shoe_order(p) for p in played}) == 4


def test_641a_5_c_1_automated_shuffle_is_dealt_without_a_cut() -> None:
    table = make_table()
    for _ in range(3):
        assert play(table).cut_at is None
    assert TableEventKind.CUT not in kinds(table.events)
    before = state(table)
    with pytest.raises(IllegalAction) as err:
        table.new_round(cut_at=20)
    assert err.value.section == "§ 641a.5(c)(1)"
    assert state(table) == before


def test_641a_5_d_cut_at_least_ten_cards() -> None:
    table = make_table(rules={"shuffle": "manual"})
    before = state(table)
    for bad, error in ((9, IllegalAction), (0, IllegalAction), (52, IllegalAction)):
        with pytest.raises(error) as err:
            table.new_round(cut_at=bad)
        assert err.value.section == "§ 641a.5(d)"
        assert state(table) == before
    junk: object
    for junk in ("10", True, 10.0):
        with pytest.raises(InvalidInput):
            table.new_round(cut_at=junk)  # type: ignore[arg-type]
        assert state(table) == before
    shuffled = SeededShuffler(SEED).shuffle(DECK)
    round_ = table.new_round(cut_at=10)
    first = table.history[0]
    # the ten cards above the cover card and the cover card go to the bottom
    assert shoe_order(first) == tuple(shuffled[10:] + shuffled[:10]) == cut(shuffled, 10)
    (cut_event,) = [e for e in first.events if e.kind is TableEventKind.CUT]
    assert (cut_event.section, cut_event.position) == ("§ 641a.5(d)", 10)
    assert "§ 641a.5(c)(2)" in cut_event.detail
    round_.apply(PlaceWager(seat=1, wager="ante", amount=500))
    round_.apply(NoMoreBets())
    round_.run_dealer()
    round_.apply(Play(seat=1, multiple=1))
    round_.run_dealer()
    # later cuts are drawn from the shuffler: never fewer than ten cards in
    ref = SeededShuffler(SEED)
    order = cut(ref.shuffle(DECK), 10)
    for _ in range(30):
        p = play(table)
        shuffled = ref.shuffle(order)
        position = 10 + ref.randbelow(42)
        order = cut(shuffled, position)
        assert p.cut_at == position
        assert 10 <= position <= 51
        assert shoe_order(p) == order


def test_641a_5_c_2_preshuffled_deck_is_cut_before_its_first_round_only() -> None:
    table = make_table(supply=DeckSupply.PRESHUFFLED)
    assert TableEventKind.INSPECTED not in kinds(table.events)
    received = next(e for e in table.events if e.kind is TableEventKind.RECEIVED)
    assert received.section == "§ 641a.4(e)"
    first, second = play(table), play(table)
    assert first.cut_at is not None and first.cut_at >= 10
    assert second.cut_at is None


# --- decks: two-deck rotation and deck life (§ 641a.3) --------------------------------------


def test_641a_3_b_two_decks_alternate_every_other_round() -> None:
    table = make_table(rules={"decks": 2}, backs=(BackColour.RED, BackColour.BLUE))
    inspected = [e for e in table.events if e.kind is TableEventKind.INSPECTED]
    assert [(e.back, e.section) for e in inspected] == [
        (BackColour.RED, "§ 641a.4(d)"),
        (BackColour.BLUE, "§ 641a.4(d)"),
    ]
    played = [play(table) for _ in range(6)]
    assert [p.back for p in played] == [BackColour.RED, BackColour.BLUE] * 3
    assert [p.round.back for p in played] == [p.back for p in played]
    assert [p.deck for p in played] == [1, 2] * 3
    # after each round the deck just used is shuffled into the shuffler; the other comes out
    for prev, p in pairwise(played):
        (shuffle,) = [e for e in p.events if e.kind is TableEventKind.SHUFFLED]
        assert (shuffle.back, shuffle.section) == (prev.back, "§ 641a.3(b)(2)-(3)")
    ref = SeededShuffler(SEED)
    red, blue = ref.shuffle(DECK), ref.shuffle(DECK)
    assert (shoe_order(played[0]), shoe_order(played[1])) == (tuple(red), tuple(blue))
    assert shoe_order(played[2]) == tuple(ref.shuffle(red))


def test_641a_3_b_two_decks_only_with_an_automated_shuffler() -> None:
    with pytest.raises(RulesViolation) as err:
        game(decks=2, shuffle="manual")
    assert err.value.problems == (
        ("two decks are allowed only with an automated card shuffling device", "§ 641a.3(b)"),
    )

    class LaxFourCardPoker(FourCardPoker):
        """A game that forgets its own deck checks: the table still refuses."""

        @classmethod
        def check_decks(cls, rules: RulesSubmission) -> list[Problem]:
            return []

    lax = LaxFourCardPoker({"table": {"decks": 2, "shuffle": "manual"}})
    with pytest.raises(RulesViolation) as err:
        Table(lax, shuffler=SeededShuffler(1), clock=FakeClock(), mode=PlayMode.SIMULATION)
    assert err.value.section == "§ 641a.3(b)"
    with pytest.raises(RulesViolation) as err:
        Table(
            LaxFourCardPoker({"table": {"decks": 3}}),
            shuffler=SeededShuffler(1),
            mode=PlayMode.SIMULATION,
        )
    assert err.value.section == "§ 641a.3(a)"
    with pytest.raises(InvalidInput) as same:
        make_table(rules={"decks": 2}, backs=(BackColour.RED, BackColour.RED))
    assert same.value.section == "§ 641a.3(b)(1)"


def test_641a_3_c_1_deck_changed_every_4_hours_by_hand() -> None:
    clock = FakeClock()
    table = make_table(clock, rules={"deal": "hand"})
    assert play(table).deck == 1
    clock.advance(hours=3, minutes=59)
    assert play(table).deck == 1
    clock.advance(minutes=1)
    changed = play(table)
    assert changed.deck == 2
    assert kinds(changed.events) == [
        TableEventKind.SHUFFLED,
        TableEventKind.DECK_CHANGED,
        TableEventKind.RECEIVED,
        TableEventKind.INSPECTED,
        TableEventKind.SHUFFLED,
    ]
    change = changed.events[1]
    assert (change.section, change.deck, change.at) == (
        "§ 641a.3(c)(1)",
        1,
        START + timedelta(hours=4),
    )
    assert {e.deck for e in changed.events[2:]} == {2}
    clock.advance(hours=3, minutes=59)
    assert play(table).deck == 2
    clock.advance(minutes=1)
    assert play(table).deck == 3


@pytest.mark.parametrize("deal", ["manual_shoe", "automated_shoe"])
def test_641a_3_c_2_deck_changed_every_8_hours_from_a_shoe(deal: str) -> None:
    clock = FakeClock()
    table = make_table(clock, rules={"deal": deal})
    play(table)
    clock.advance(hours=4)
    assert play(table).deck == 1
    clock.advance(hours=3, minutes=59, seconds=59)
    assert play(table).deck == 1
    clock.advance(seconds=1)
    changed = play(table)
    assert changed.deck == 2
    (change,) = [e for e in changed.events if e.kind is TableEventKind.DECK_CHANGED]
    assert change.section == "§ 641a.3(c)(2)"


def test_641a_3_c_two_decks_both_changed_on_time() -> None:
    clock = FakeClock()
    table = make_table(clock, rules={"deal": "hand", "decks": 2})
    play(table)
    clock.advance(hours=4)
    changed = play(table)
    gone = [e for e in changed.events if e.kind is TableEventKind.DECK_CHANGED]
    assert [(e.back, e.deck) for e in gone] == [(BackColour.RED, 1), (BackColour.BLUE, 2)]
    assert (changed.back, changed.deck) == (BackColour.BLUE, 4)
    assert (play(table).back, table.history[-1].deck) == (BackColour.RED, 3)


# --- stub counts (§ 641a.8(f), § 641a.9(d), § 641a.10(d), § 641a.5(b)) ---------------------


def counted(played: PlayedRound) -> bool:
    return any(isinstance(r, StubCounted) for r in played.records)


def test_641a_8_f_stub_counted_at_least_every_five_rounds() -> None:
    table = make_table()
    played = [play(table) for _ in range(20)]
    due = [p.number for p in played if p.stub_check is StubCheck.REQUIRED]
    assert due == [5, 10, 15, 20]
    assert [p.number for p in played if counted(p)] == due
    for start in range(len(played) - 4):
        assert any(counted(p) for p in played[start : start + 5])


def test_641a_8_f_stub_counted_every_round_by_policy() -> None:
    table = make_table(stub_every=1)
    played = [play(table) for _ in range(6)]
    assert all(p.stub_check is StubCheck.REQUIRED and counted(p) for p in played)


@pytest.mark.parametrize(
    ("deal", "section"),
    [("manual_shoe", "§ 641a.8(f)"), ("hand", "§ 641a.9(d)"), ("automated_shoe", "§ 641a.10(d)")],
)
@pytest.mark.parametrize("every", [0, 6])
def test_641a_8_f_9_d_10_d_stub_policy_at_most_five_rounds(
    deal: str, section: str, every: int
) -> None:
    with pytest.raises(RulesViolation) as err:
        make_table(rules={"deal": deal}, stub_every=every)
    assert err.value.section == section


def test_641a_5_b_counting_shuffler_needs_no_stub_count() -> None:
    table = make_table(rules={"shuffle": "counting"})
    played = [play(table) for _ in range(12)]
    assert all(p.stub_check is StubCheck.NOT_REQUIRED and not counted(p) for p in played)


def test_641a_8_f_two_decks_each_deck_counted_within_five_rounds() -> None:
    table = make_table(rules={"decks": 2})
    played = [play(table) for _ in range(24)]
    for start in range(len(played) - 4):
        assert any(counted(p) for p in played[start : start + 5])
    for back in (BackColour.RED, BackColour.BLUE):
        last = 0
        for p in played:
            if p.back is back:
                assert p.number - last <= 5
                if counted(p):
                    last = p.number


def miscount(round_: Round) -> None:
    """Play ``round_`` to the stub count and count one card short."""
    round_.apply(PlaceWager(seat=1, wager="ante", amount=500))
    round_.apply(NoMoreBets())
    while round_.phase is Phase.DEALING:
        round_.apply(DealNext())
    assert round_.phase is Phase.STUB_COUNT
    round_.apply(CountStub(count=round_.cards_left - 1))
    assert round_.is_over


@pytest.mark.parametrize(
    ("deal", "section"),
    [("manual_shoe", "§ 641a.8(h)"), ("hand", "§ 641a.9(f)"), ("automated_shoe", "§ 641a.10(f)")],
)
def test_641a_8_h_wrong_stub_count_removes_the_deck(deal: str, section: str) -> None:
    table = make_table(rules={"deal": deal}, stub_every=1)
    miscount(table.new_round())
    voided = [r for r in table.history[0].records if isinstance(r, RoundVoided)]
    assert voided[0].deck_removed
    after = play(table)
    assert kinds(after.events) == [
        TableEventKind.DECK_REMOVED,
        TableEventKind.RECEIVED,
        TableEventKind.INSPECTED,
        TableEventKind.SHUFFLED,
    ]
    assert (after.events[0].section, after.events[0].deck, after.deck) == (section, 1, 2)


def test_641a_8_h_two_decks_only_the_miscounted_deck_is_replaced() -> None:
    table = make_table(rules={"decks": 2}, stub_every=1)
    miscount(table.new_round())
    assert [(p.back, p.deck) for p in (play(table), play(table), play(table))] == [
        (BackColour.BLUE, 2),
        (BackColour.RED, 3),
        (BackColour.BLUE, 2),
    ]


# --- seats (§ 641a.7(b), (e)) ----------------------------------------------------------------


def test_641a_7_b_player_cannot_leave_mid_round() -> None:
    table = make_table(seats=(1, 2, 3))
    round_ = table.new_round()
    round_.apply(PlaceWager(seat=1, wager="ante", amount=500))
    round_.apply(PlaceWager(seat=3, wager="ante", amount=500))
    # a seated player who has not wagered may go; the round no longer takes a wager there
    assert table.leave(2).kind is TableEventKind.LEFT
    with pytest.raises(IllegalAction):
        round_.apply(PlaceWager(seat=2, wager="ante", amount=500))
    round_.apply(NoMoreBets())
    round_.run_dealer()
    before = state(table)
    with pytest.raises(IllegalAction) as err:
        table.leave(1)
    assert err.value.section == "§ 641a.7(b)"
    assert state(table) == before
    round_.apply(Play(seat=1, multiple=2))
    round_.apply(Play(seat=3, multiple=1))
    round_.run_dealer()
    assert round_.is_over
    table.leave(1)
    assert table.seats == {3: "P3"}


def test_641a_7_b_only_seated_players_wager() -> None:
    table = make_table(seats=())
    with pytest.raises(IllegalAction) as err:
        table.new_round()
    assert err.value.section == "§ 641a.7(b)"
    table.sit(4, "Ann")
    before = state(table)
    with pytest.raises(IllegalAction) as err:
        table.play_round(always_play, wagers={2: {"ante": 500}})
    assert err.value.section == "§ 641a.7(b)"
    assert state(table) == before
    with pytest.raises(InvalidInput):
        table.play_round(always_play, wagers={4: {"ante": -5}})
    assert state(table) == before
    assert play(table, (4,)).number == 1


def test_641a_7_e_adjacent_boxes_per_rules_submission() -> None:
    table = make_table(seats=(), rules={"adjacent_boxes": 2})
    table.sit(3, "Ann")
    table.sit(4, "Ann")
    before = state(table)
    for seat in (5, 6, 1):
        with pytest.raises(IllegalAction) as err:
            table.sit(seat, "Ann")
        assert err.value.section == "§ 641a.7(e)"
    with pytest.raises(IllegalAction):
        table.sit(3, "Bob")
    for seat in (0, 8, True):
        with pytest.raises(InvalidInput):
            table.sit(seat, "Bob")
    assert state(table) == before
    played = play(table, (3, 4))
    assert played.round.active_seats == (3, 4)

    one_box = make_table(seats=(2,))
    with pytest.raises(IllegalAction) as err:
        one_box.sit(3, "P2")
    assert err.value.section == "§ 641a.7(e)"

    three = make_table(seats=(), rules={"adjacent_boxes": 3})
    for seat in (2, 3, 4):
        three.sit(seat, "Ann")
    with pytest.raises(IllegalAction) as err:
        three.leave(3)  # would leave boxes 2 and 4, not adjacent
    assert err.value.section == "§ 641a.7(e)"
    three.leave(4)
    assert three.seats == {2: "Ann", 3: "Ann"}


# --- rounds in sequence ----------------------------------------------------------------------


def test_new_round_refused_while_one_is_unfinished() -> None:
    table = make_table()
    round_ = table.new_round()
    assert table.current is round_
    before = state(table)
    with pytest.raises(IllegalAction):
        table.new_round()
    with pytest.raises(IllegalAction):
        play(table)
    assert state(table) == before


@pytest.mark.parametrize("deal", ["manual_shoe", "hand"])
def test_641a_8_d_9_b_one_card_at_a_time_clockwise_dealer_last(deal: str) -> None:
    table = make_table(rules={"deal": deal}, seats=(1, 2, 4))
    played = play(table, (1, 4))
    cards = dealt(played)
    assert [c.to for c in cards] == ["1", "4", DEALER] * 5 + [DEALER]
    assert [c.face_up for c in cards] == [False] * 15 + [True]
    assert tuple(c.card for c in cards) == shoe_order(played)[:16]
    assert supervisor_hands(played.round)["4"] == list(shoe_order(played)[1:15:3])


def test_641a_10_b_automated_shoe_deals_stacks_of_five() -> None:
    table = make_table(rules={"deal": "automated_shoe"}, seats=(1, 2, 4))
    played = play(table, (1, 4))
    cards = dealt(played)
    assert [c.to for c in cards] == ["1"] * 5 + ["4"] * 5 + [DEALER] * 6 + ["discard"] * 4
    assert [c.face_up for c in cards] == [False] * 15 + [True] + [False] * 4
    assert tuple(c.card for c in cards) == shoe_order(played)[:20]
    assert supervisor_hands(played.round)["1"] == list(shoe_order(played)[0:5])
    assert supervisor_hands(played.round)["4"] == list(shoe_order(played)[5:10])
    assert supervisor_hands(played.round)[DEALER] == list(shoe_order(played)[10:16])


def test_progressive_meters_carry_from_round_to_round() -> None:
    rules = {
        "progressive": {
            "paytable": "A",
            "envy": "A",
            "wager": 100,
            "reset": 500_000,
            "rate": "0.25",
        },
    }
    table = Table(
        FourCardPoker(rules),
        shuffler=SeededShuffler(SEED),
        clock=FakeClock(),
        mode=PlayMode.SIMULATION,
    )
    table.sit(1, "Ann")
    moves = []
    for _ in range(3):
        p = table.play_round(always_play, wagers={1: {"ante": 500, "progressive": 100}})
        moves.append([r for r in p.records if isinstance(r, MeterChanged)])
    for prev, nxt in pairwise(moves):
        assert nxt[0].before == prev[-1].after
    assert moves[0][0].before == 500_000


def test_history_and_events_as_json() -> None:
    table = make_table()
    play(table)
    data = json.loads(json.dumps([p.to_json() for p in table.history]))
    assert data[0]["back"] == "red"
    assert data[0]["events"][0]["kind"] == "opened"
    assert data[0]["records"][0]["kind"] == "wager_placed"
    assert "order" not in data[0] and "_order" not in data[0]  # the shoe order stays private
    assert data[0]["mode"] == "simulation"


def test_clock_never_goes_back() -> None:
    clock = FakeClock()
    table = make_table(clock)
    play(table)
    clock.advance(minutes=-1)
    before = state(table)
    with pytest.raises(InvalidInput):
        table.new_round()
    assert state(table) == before
    manual = ManualClock(START)
    assert manual.advance(timedelta(hours=1)) == START + timedelta(hours=1)
    with pytest.raises(InvalidInput):
        manual.advance(timedelta(hours=-1))


def test_four_card_poker_regs_cite_their_sections() -> None:
    regs = FOUR_CARD_POKER_REGS
    assert {s for _, s in regs.deck_life.values()} == {"§ 641a.3(c)(1)", "§ 641a.3(c)(2)"}
    assert regs.stub_rounds == 5


def test_641a_13_e_shuffler_jam_reshuffles_the_cards() -> None:
    table = make_table()
    first = play(table)
    event = table.report_shuffler_jam()
    assert event.kind is TableEventKind.SHUFFLER_JAMMED and event.section == "§ 641a.13(e)"
    reshuffled = [e for e in table.events if e.kind is TableEventKind.SHUFFLED][-1]
    assert reshuffled.section == "§ 641a.13(e)"
    # the deck was shuffled once more for the jam, then as after every round (§ 641a.5(a))
    ref = SeededShuffler(SEED)
    order = ref.shuffle(list(DECK))
    assert shoe_order(first) == tuple(order)
    order = ref.shuffle(ref.shuffle(order))
    assert shoe_order(play(table)) == tuple(order)


def test_641a_13_e_no_jam_without_a_shuffler_or_mid_round() -> None:
    manual = make_table(rules={"shuffle": "manual"})
    before = state(manual)
    with pytest.raises(IllegalAction, match="by hand"):
        manual.report_shuffler_jam()
    assert state(manual) == before
    table = make_table()
    table.new_round()
    with pytest.raises(IllegalAction):
        table.report_shuffler_jam()


# --- memory: a live table keeps only its last round ------------------------------------------


def test_forget_played_lets_go_of_old_rounds_and_plays_on_identically() -> None:
    clock_a, clock_b = FakeClock(), FakeClock()
    keeps, forgets = make_table(clock_a), make_table(clock_b)
    let_go = []
    for _ in range(12):
        let_go.append(forgets.forget_played())
        a, b = play(keeps), play(forgets)
        assert (b.number, b.records, shoe_order(b), b.events) == (
            a.number,
            a.records,
            shoe_order(a),
            a.events,
        )
        clock_a.advance(minutes=30)
        clock_b.advance(minutes=30)
    assert let_go == [0, 0] + [1] * 10
    # Each forget keeps the round before; the round begun after it joins it.
    assert len(keeps.history) == 12 and len(forgets.history) == 2
    assert [p.to_json() for p in forgets.history] == [p.to_json() for p in keeps.history[-2:]]
    assert forgets.rounds_played == keeps.rounds_played == 12
    # The events already handed to a round are let go; the rest are the same.
    assert keeps.events[-len(forgets.events) :] == forgets.events
    assert len(forgets.events) < len(keeps.events)
    assert play(forgets).number == play(keeps).number == 13


def test_restore_undoes_a_forget_and_the_round_after_it() -> None:
    table = make_table()
    for _ in range(3):
        play(table)
    before, memento = state(table), table.memento()
    assert table.forget_played() == 2
    table.new_round()
    assert len(table.history) == 2 and table.current is not None
    table.restore(memento)
    assert state(table) == before
    assert table.rounds_played == 3 and len(table.history) == 3
    assert play(table).number == 4
