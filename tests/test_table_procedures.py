"""Deck procedures of a table (methods of croupier.table.table.Table): reshuffle, shuffler count,
recut, idle cards, the reshuffling shoe, the discard rack, devices out of order.

Named after the Four Card Poker sections (§ 641a.3(b)(4), § 641a.5(a), (b), (e)-(g),
§ 641a.13(g)); the ``CHAPTERS`` tests run the same procedure in every game whose chapter has the
counterpart, with the section its ``TableRegs`` gives.  Shuffles come from a seeded shuffler and
time from a manual clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

import pytest

from croupier.core.cards import DECK
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.core.modes import PlayMode
from croupier.games import Round
from croupier.games.base import Game
from croupier.games.four_card_poker import FourCardPoker
from croupier.games.let_it_ride import LetItRide
from croupier.games.mississippi_stud import MississippiStud
from croupier.games.records import (
    Action,
    CardDealt,
    DealNext,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    ReportIrregularity,
)
from croupier.games.three_card_poker import ThreeCardPoker
from croupier.games.ultimate_texas_holdem import UltimateTexasHoldem
from croupier.rules.submission import DealMethod, ShuffleMethod
from croupier.table.shoe import BackColour, SeededShuffler, cut
from croupier.table.table import (
    Device,
    ManualClock,
    PlayedRound,
    Spread,
    StoredDeck,
    Table,
    TableEvent,
    TableEventKind,
    shoe_order,
)

START = datetime(2026, 4, 6, 20, 0, tzinfo=UTC)
SEED = 5


@dataclass(frozen=True)
class Chapter:
    cls: type[Game]
    chapter: str
    stake: dict[str, int]

    def table(self, seed: int = SEED, **rules: Any) -> Table:
        table = Table(
            self.cls({"table": rules}),
            shuffler=SeededShuffler(seed),
            clock=ManualClock(START),
            mode=PlayMode.SIMULATION,
        )
        table.sit(1, "P1")
        return table

    def play(self, table: Table, cut_at: int | None = None) -> PlayedRound:
        return table.play_round(simple, wagers={1: dict(self.stake)}, cut_at=cut_at)


def simple(round_: Round, seat: int) -> Action:
    return round_.simple_strategy(seat)


FCP = Chapter(FourCardPoker, "641a", {"ante": 500})
CHAPTERS = [
    FCP,
    Chapter(LetItRide, "643a", {"bet1": 500, "bet2": 500, "bet3": 500}),
    Chapter(ThreeCardPoker, "649a", {"ante": 500}),
    Chapter(UltimateTexasHoldem, "569", {"ante": 500, "blind": 500}),
    Chapter(MississippiStud, "571", {"ante": 500}),
]
EVERY = pytest.mark.parametrize("ch", CHAPTERS, ids=[c.chapter for c in CHAPTERS])
TWO_DECKS = pytest.mark.parametrize(
    "ch", [c for c in CHAPTERS if c.cls is not MississippiStud], ids=lambda c: c.chapter
)


def of(events: tuple[TableEvent, ...], kind: TableEventKind) -> list[TableEvent]:
    return [e for e in events if e.kind is kind]


def state(table: Table) -> tuple[object, ...]:
    return (table.events, table.history, table.current, table.out_of_order, table.rules)


# --- § 641a.5(a): a reshuffle directed by a floorperson --------------------------------------


@EVERY
def test_641a_5_a_floorperson_orders_a_reshuffle(ch: Chapter) -> None:
    plain, ordered = ch.table(), ch.table()
    ch.play(plain), ch.play(ordered)
    event = ordered.order_reshuffle(by="floorperson Ruiz")
    assert (event.kind, event.by, event.section) == (
        TableEventKind.RESHUFFLE_ORDERED,
        "floorperson Ruiz",
        f"§ {ch.chapter}.5(a)",
    )
    shuffled = ordered.events[-1]  # after the round's own reshuffle, one more
    assert shuffled.kind is TableEventKind.SHUFFLED
    assert shuffled.section == f"§ {ch.chapter}.5(a)" and "Ruiz" in shuffled.detail
    one, two = ch.play(plain), ch.play(ordered)
    assert sorted(shoe_order(two)) == sorted(DECK)
    assert shoe_order(one) != shoe_order(
        two
    )  # the ordered reshuffle is one more shuffle of the deck


def test_641a_5_a_reshuffle_refused_mid_round_or_without_a_floorperson() -> None:
    table = FCP.table()
    with pytest.raises(InvalidInput, match="floorperson"):
        table.order_reshuffle(by=" ")
    table.new_round()
    before = state(table)
    with pytest.raises(IllegalAction, match="in progress") as exc:
        table.order_reshuffle(by="Ruiz")
    assert exc.value.section == "§ 641a.5(a)"
    assert state(table) == before


# --- § 641a.5(b): a counting shuffler that reports a wrong count ------------------------------


@EVERY
def test_641a_5_b_counting_shuffler_wrong_count_removes_deck(ch: Chapter) -> None:
    table = ch.table(shuffle="counting")
    ch.play(table)
    counted = table.report_shuffler_count(51)
    assert (counted.kind, counted.section, counted.deck) == (
        TableEventKind.SHUFFLER_COUNTED,
        f"§ {ch.chapter}.5(b)",
        1,
    )
    after = ch.play(table)
    assert [e.kind for e in after.events[-5:]] == [
        TableEventKind.SHUFFLER_COUNTED,
        TableEventKind.DECK_REMOVED,
        TableEventKind.RECEIVED,
        TableEventKind.INSPECTED,
        TableEventKind.SHUFFLED,
    ]
    removed = of(after.events, TableEventKind.DECK_REMOVED)[0]
    assert (removed.section, removed.deck, after.deck) == (f"§ {ch.chapter}.5(b)", 1, 2)


def test_641a_5_b_right_count_keeps_the_deck_and_other_shufflers_refuse() -> None:
    table = FCP.table(shuffle="counting")
    FCP.play(table)
    table.report_shuffler_count(52)
    assert FCP.play(table).deck == 1
    automated = FCP.table()
    with pytest.raises(IllegalAction, match="not a shuffler that counts") as exc:
        automated.report_shuffler_count(51)
    assert exc.value.section == "§ 641a.5(b)"
    with pytest.raises(InvalidInput):
        table.report_shuffler_count(-1)


def test_641a_5_b_two_decks_the_counted_deck_is_the_one_just_shuffled() -> None:
    table = FCP.table(shuffle="counting", decks=2)
    FCP.play(table)  # red dealt; blue comes out of the shuffler next
    table.report_shuffler_count(53)
    assert [(p.back, p.deck) for p in (FCP.play(table), FCP.play(table))] == [
        (BackColour.BLUE, 3),
        (BackColour.RED, 1),
    ]


# --- § 641a.5(e): a recut --------------------------------------------------------------------


@EVERY
def test_641a_5_e_floorperson_requires_a_recut(ch: Chapter) -> None:
    table = ch.table(shuffle="manual")
    round_ = table.new_round(cut_at=12)
    first = shoe_order(table.history[0])
    event = table.recut(30, by="floorperson Ruiz")
    assert (event.kind, event.section, event.position, event.by) == (
        TableEventKind.RECUT,
        f"§ {ch.chapter}.5(e)",
        30,
        "floorperson Ruiz",
    )
    played = table.history[0]
    assert played.cut_at == 30 and shoe_order(played) == cut(first, 30)
    for wager, amount in ch.stake.items():
        round_.apply(PlaceWager(seat=1, wager=wager, amount=amount))
    round_.apply(NoMoreBets())
    round_.apply(DealNext())
    dealt = [r for r in round_.records if isinstance(r, CardDealt)]
    assert dealt[0].card == shoe_order(played)[0]


def test_641a_5_e_recut_refused_after_a_card_is_dealt_or_without_a_cut() -> None:
    table = FCP.table(shuffle="manual")
    round_ = table.new_round(cut_at=12)
    with pytest.raises(IllegalAction, match="at least 10"):
        table.recut(5, by="Ruiz")  # § 641a.5(d): the cover card ten cards in
    round_.apply(PlaceWager(seat=1, wager="ante", amount=500))
    round_.apply(NoMoreBets())
    round_.apply(DealNext())
    before = state(table)
    with pytest.raises(IllegalAction, match="have been dealt") as exc:
        table.recut(20, by="Ruiz")
    assert exc.value.section == "§ 641a.5(e)" and state(table) == before
    automated = FCP.table()
    automated.new_round()
    with pytest.raises(IllegalAction, match="not cut"):
        automated.recut(20, by="Ruiz")


# --- § 641a.5(f): cards left idle ------------------------------------------------------------


@EVERY
def test_641a_5_f_1_idle_cards_washed_shuffled_and_cut(ch: Chapter) -> None:
    table = ch.table(shuffle="manual")
    ch.play(table, cut_at=15)
    event = table.reinspect_idle(Spread.FACE_UP)
    assert event.section == f"§ {ch.chapter}.5(f)" and "face up" in event.detail
    after = ch.play(table, cut_at=20)
    assert [(e.kind, e.section) for e in after.events[-3:]] == [
        (TableEventKind.INSPECTED, f"§ {ch.chapter}.5(f)"),
        (TableEventKind.SHUFFLED, f"§ {ch.chapter}.5(f)(1)"),
        (TableEventKind.CUT, f"§ {ch.chapter}.5(d)"),
    ]


@TWO_DECKS
def test_641a_5_f_2_idle_deck_into_the_shuffler_stored_deck_dealt(ch: Chapter) -> None:
    table = ch.table(decks=2)
    ch.play(table)  # red
    table.reinspect_idle()
    after = ch.play(table)
    assert after.back is BackColour.BLUE
    tail = [(e.kind, e.back, e.section) for e in after.events[-2:]]
    assert tail == [
        (TableEventKind.INSPECTED, BackColour.RED, f"§ {ch.chapter}.5(f)"),
        (TableEventKind.SHUFFLED, BackColour.RED, f"§ {ch.chapter}.5(f)(2)"),
    ]


def test_641a_5_f_2_a_player_may_ask_for_the_stored_deck_to_be_spread() -> None:
    table = FCP.table(decks=2)
    table.reinspect_idle(stored=StoredDeck.SPREAD_AND_RESHUFFLED)  # before any round
    first = FCP.play(table)
    assert first.back is BackColour.BLUE  # the idle red deck went into the shuffler
    idle = [(e.kind, e.back) for e in first.events if e.section.startswith("§ 641a.5(f)")]
    assert idle == [
        (TableEventKind.INSPECTED, BackColour.RED),
        (TableEventKind.SHUFFLED, BackColour.RED),
        (TableEventKind.INSPECTED, BackColour.BLUE),
        (TableEventKind.SHUFFLED, BackColour.BLUE),
    ]


def test_641a_5_f_no_idle_inspection_mid_round() -> None:
    table = FCP.table()
    table.new_round()
    with pytest.raises(IllegalAction, match="in progress") as exc:
        table.reinspect_idle()
    assert exc.value.section == "§ 641a.5(f)"


# --- § 641a.5(g): a dealing shoe that reshuffles the cards itself -----------------------------


@EVERY
def test_641a_5_g_reshuffling_shoe_reshuffles_itself_without_a_cut(ch: Chapter) -> None:
    table = ch.table(shuffle="reshuffling_shoe", deal="automated_shoe")
    ch.play(table)
    with pytest.raises(IllegalAction):
        table.new_round(cut_at=20)
    second = ch.play(table)
    (shuffle,) = of(second.events, TableEventKind.SHUFFLED)
    assert shuffle.section == f"§ {ch.chapter}.5(g)" and "reshuffles the cards itself" in (
        shuffle.detail
    )
    assert not of(table.events, TableEventKind.CUT) and second.cut_at is None


# --- § 641a.3(b)(4): the cards of one deck in the discard rack -------------------------------


@TWO_DECKS
def test_641a_3_b_4_one_deck_at_a_time_in_the_discard_rack(ch: Chapter) -> None:
    table = ch.table(decks=2)
    assert table.discard_rack is None
    rounds: list[PlayedRound] = []
    for _ in range(4):
        played = ch.play(table)
        assert table.discard_rack is played.back  # the last round's cards, until gathered
        rounds.append(played)
    for before, after in pairwise(rounds):
        cleared = of(after.events, TableEventKind.RACK_CLEARED)
        assert [(e.back, e.section) for e in cleared] == [(before.back, f"§ {ch.chapter}.3(b)(4)")]
        assert after.back is not before.back
        kinds = [e.kind for e in after.events]
        assert kinds.index(TableEventKind.RACK_CLEARED) < kinds.index(TableEventKind.SHUFFLED)
    table.order_reshuffle(by="Ruiz")  # gathers the last round's cards first
    assert table.discard_rack is None


# --- § 641a.13(g): a device out of order before another method -------------------------------


def jam(table: Table) -> None:
    round_ = table.new_round()
    round_.apply(PlaceWager(seat=1, wager="ante", amount=500))
    round_.apply(NoMoreBets())
    round_.apply(DealNext())
    round_.apply(ReportIrregularity(kind=IrregularityKind.AUTOMATED_SHOE_JAM))  # § 641a.13(f)
    assert round_.is_over


def test_641a_13_g_device_covered_out_of_order_before_another_method() -> None:
    table = FCP.table(deal="automated_shoe")
    jam(table)
    before = state(table)
    with pytest.raises(IllegalAction, match="covered or signed out of order") as exc:
        table.change_method(deal=DealMethod.MANUAL_SHOE)
    assert exc.value.section == "§ 641a.13(g)" and state(table) == before
    event = table.device_out_of_order(Device.DEALING_SHOE)
    assert (event.kind, event.section) == (TableEventKind.DEVICE_OUT_OF_ORDER, "§ 641a.13(g)")
    with pytest.raises(IllegalAction, match="out of order") as exc:
        table.new_round()
    assert exc.value.section == "§ 641a.13(g)"
    changed = table.change_method(deal=DealMethod.MANUAL_SHOE)
    assert changed.kind is TableEventKind.METHOD_CHANGED
    played = FCP.play(table)
    to = [r.to for r in played.records if isinstance(r, CardDealt)]
    assert to[:2] == ["1", "dealer"]  # one card at a time (§ 641a.8(d)), not stacks of five
    with pytest.raises(IllegalAction, match="out of order"):
        table.change_method(deal=DealMethod.AUTOMATED_SHOE)
    table.device_restored(Device.DEALING_SHOE)
    table.change_method(deal=DealMethod.AUTOMATED_SHOE)  # back to the Rules Submission's method
    assert table.rules.deal is DealMethod.AUTOMATED_SHOE


def test_641a_13_g_new_method_is_checked_like_a_rules_submission() -> None:
    table = FCP.table(deal="hand")
    table.device_out_of_order(Device.SHUFFLER)
    before = state(table)
    with pytest.raises(RulesViolation):
        table.change_method(shuffle=ShuffleMethod.MANUAL)  # § 641a.9(a)(1): hand needs one
    assert state(table) == before
    table.change_method(shuffle=ShuffleMethod.MANUAL, deal=DealMethod.MANUAL_SHOE)
    assert FCP.play(table, cut_at=10).cut_at == 10  # a manual shuffle is cut


def test_641a_13_g_only_a_device_the_table_uses() -> None:
    table = FCP.table(shuffle="manual")
    with pytest.raises(IllegalAction, match="uses no shuffler"):
        table.device_out_of_order(Device.SHUFFLER)


@EVERY
def test_641a_13_g_every_chapter_cites_its_out_of_order_rule(ch: Chapter) -> None:
    table = ch.table(deal="automated_shoe")
    event = table.device_out_of_order(Device.DEALING_SHOE)
    assert event.section == f"§ {ch.chapter}.13(g)"


# --- § 641a.7(b): a player leaving mid-round -------------------------------------------------


@EVERY
def test_641a_7_b_player_leaving_mid_round_abandons_the_wagers(ch: Chapter) -> None:
    table = ch.table()
    table.sit(2, "P2")
    round_ = table.new_round()
    for seat in (1, 2):
        for wager, amount in ch.stake.items():
            round_.apply(PlaceWager(seat=seat, wager=wager, amount=amount))
    with pytest.raises(IllegalAction, match="stays seated"):
        table.leave(2)
    round_.apply(NoMoreBets())
    with pytest.raises(IllegalAction, match="after the deal"):
        table.player_left(2)  # the rule is for a player who has received cards
    while round_.to_act().kind.value == "chance":
        round_.apply(DealNext())
    event = table.player_left(2)
    assert (event.kind, event.seat, event.section) == (
        TableEventKind.LEFT,
        2,
        table.regs.seated,
    )
    assert 2 not in table.seats and 2 not in round_.active_seats
    while not round_.is_over:
        actor = round_.to_act()
        if actor.seat is not None:
            round_.apply(round_.simple_strategy(actor.seat))
        else:
            round_.run_dealer()
    settled = round_.settlement()
    assert {w["result"] for w in settled["2"]["wagers"].values()} == {"lose"}
    assert settled["2"]["net"] == -sum(ch.stake.values())
    assert "1" in settled  # the round went on for seat 1
