"""Table-level rules (deck life, stub counts, shuffle and cut, seats) of four game chapters.

Each game class reads its own as ``table_regs`` (a :class:`~croupier.table.TableRegs`); the
:class:`~croupier.table.Table` uses it.  The four chapters share Four Card Poker's layout
(Ch. 641a): § x.3 cards and number of decks, § x.4 opening of the table, § x.5 shuffle and cut,
§ x.7 wagers, § x.8-x.10 dealing from a manual shoe, the hand and an automated shoe (the 41 Pa.B.
3836 tables of contents in seed 000; the cross-references in § 569.7-569.10 and § 571.7-571.10).
Where a chapter's own text was available its subsection is cited; elsewhere the letters of the
parallel Four Card Poker subsection are used and marked *inferred* below.

What was available:

* Let It Ride (Ch. 643a): § 643a.3-643a.7 as proposed at 41 Pa.B. 3836 (seed 000) and the current
  § 643a.7 (seed 003).  § 643a.8-643a.10 were not: their stub-count letters are inferred.
* Three Card Poker (Ch. 649a): no text at all; every section below follows Four Card Poker
  (inferred).  ``three_card_poker.py`` itself cites these sections without letters.
* Ultimate Texas Hold 'Em (temporary Ch. 569 as amended, seed 002): § 569.7(g)-(h) and the
  openings of § 569.8-569.10 (which name § 569.5 "shuffle and cut of the cards"); § 569.3-569.5
  themselves are elided (inferred).  The permanent Ch. 653a digest has none of these sections.
* Mississippi Stud (temporary Ch. 571 as amended, seed 002): § 571.7(e)-(f) and the openings of
  § 571.8-571.10 (naming § 571.5 "shuffle and cut of the cards"); § 571.3-571.5 are elided.  The
  game is dealt from one deck only (``MississippiStud.check_table``), so the two-deck subsection
  of the template may not exist there: § 571.3 and § 571.4 are cited without letters.

:class:`TableRegs` lives here, below both the games and :mod:`croupier.table` (which re-exports
it), so each game class declares its regs as plain data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from croupier.errors import Problem
from croupier.rules import DealMethod, ShuffleMethod, TableRules

__all__ = [
    "FOUR_CARD_POKER_REGS",
    "LET_IT_RIDE_REGS",
    "MISSISSIPPI_STUD_REGS",
    "THREE_CARD_POKER_REGS",
    "ULTIMATE_TEXAS_HOLDEM_REGS",
    "DeckRules",
    "TableRegs",
    "deck_problems",
]

HAND_DECK_LIFE = timedelta(hours=4)
"""A deck dealt by hand is changed at least every 4 hours (§ 641a.3(c)(1) and its parallels)."""
SHOE_DECK_LIFE = timedelta(hours=8)
"""From a manual or automated dealing shoe: at least every 8 hours (§ 641a.3(c)(2))."""
STUB_ROUNDS = 5
"""Without a counting shuffler the stub is counted at least once every 5 rounds (§ 641a.8(f),
§ 641a.9(d), § 641a.10(d) and their parallels)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class DeckRules:
    """How many decks a game is dealt from and what two decks and hand dealing need: the data
    :func:`deck_problems` (the one deck check) reads, for a Rules Submission and for a table."""

    counts: frozenset[int]
    """The ``[table] decks`` allowed."""
    counts_problem: str
    """What is wrong with another count, after ``"3 decks: "``."""
    counts_section: str | None
    two_decks: str | None
    """The section allowing two decks only with an automated card shuffling device (``None``:
    not checked at this level)."""
    hand_deal: str | None = None
    """The section asking for an automated shuffler before dealing from the hand (``None``: not
    checked at this level)."""


def deck_problems(table: TableRules, deck: DeckRules) -> list[Problem]:
    """Every problem with the decks, shuffle and dealing method of ``table`` under ``deck``."""
    problems: list[Problem] = []
    if table.decks not in deck.counts:
        problems.append((f"{table.decks} decks: {deck.counts_problem}", deck.counts_section))
    manual = table.shuffle is ShuffleMethod.MANUAL
    if deck.two_decks is not None and table.decks == 2 and manual:
        why = "two decks are allowed only with an automated card shuffling device"
        problems.append((why, deck.two_decks))
    if deck.hand_deal is not None and table.deal is DealMethod.HAND and manual:
        why = "dealing from the hand requires an automated shuffling device"
        problems.append((why, deck.hand_deal))
    return problems


ONE_OR_TWO = frozenset({1, 2})


@dataclass(frozen=True, kw_only=True, slots=True)
class TableRegs:
    """A game chapter's table-level limits and the sections that set them."""

    decks: str
    """Number of decks (one, or two with an automated shuffler)."""
    two_decks: str
    two_deck_rotation: str
    deck_life: Mapping[DealMethod, tuple[timedelta, str]]
    """Longest a deck stays in play, by dealing method, and the section."""
    opening: str
    inspection: str
    two_deck_inspection: str
    preshuffled: str
    shuffle: str
    no_cut: str
    cut_required: str
    cut: str
    seated: str
    adjacent_boxes: str
    stub_rounds: int
    """The most rounds between stub counts without a counting shuffler."""
    stub_count: Mapping[DealMethod, str]
    deck_removed: Mapping[DealMethod, str]
    deck_rules: DeckRules
    """What the game's Rules Submission check asks of the decks (the table itself asks
    :attr:`table_decks`)."""
    shuffler_jam: str = ""
    """A shuffler that jams or fails to complete a shuffle: the cards are reshuffled."""
    # The procedures of :class:`croupier.table.Table`.  An empty string: the chapter has no such
    # procedure (or none in the texts at hand), and the table refuses it.
    one_deck_in_rack: str = ""
    """Two decks: the cards of only one deck in the discard rack at any time."""
    floor_reshuffle: str = ""
    """A reshuffle directed by a floorperson or above."""
    shuffler_count: str = ""
    """A counting shuffler that reports a wrong number of cards: the deck is removed."""
    recut: str = ""
    """A recut required by a floorperson after the cut and before any card is dealt."""
    idle: str = ""
    """No gaming activity: the cards are spread, inspected and shuffled again."""
    idle_manual: str = ""
    idle_automated: str = ""
    reshuffling_shoe: str = ""
    """A dealing shoe or other device that reshuffles the cards itself, in lieu of the shuffle
    and cut."""
    out_of_order: str = ""
    """A malfunctioning device is covered or signed out of order before another method of
    shuffling or dealing is used."""
    no_verbal: str = ""
    """Verbal wagers accompanied by cash may not be accepted."""

    @property
    def table_decks(self) -> DeckRules:
        """What a table asks of its decks whatever the game's own check let through: one deck,
        or two only with an automated card shuffling device (§ x.3(a)-(b))."""
        return DeckRules(
            counts=ONE_OR_TWO,
            counts_problem="one, or two",
            counts_section=self.decks,
            two_decks=self.two_decks,
        )


def _deck_life(hand: str, shoe: str) -> dict[DealMethod, tuple[timedelta, str]]:
    return {
        DealMethod.HAND: (HAND_DECK_LIFE, hand),
        DealMethod.MANUAL_SHOE: (SHOE_DECK_LIFE, shoe),
        DealMethod.AUTOMATED_SHOE: (SHOE_DECK_LIFE, shoe),
    }


def _by_deal(manual_shoe: str, hand: str, automated_shoe: str) -> dict[DealMethod, str]:
    return {
        DealMethod.MANUAL_SHOE: manual_shoe,
        DealMethod.HAND: hand,
        DealMethod.AUTOMATED_SHOE: automated_shoe,
    }


def _four_card_poker() -> TableRegs:
    # Chapter 641a as proposed at 41 Pa.B. 3836 (seed 000): the whole chapter is in the text.
    return TableRegs(
        decks="§ 641a.3(a)",
        two_decks="§ 641a.3(b)",
        two_deck_rotation="§ 641a.3(b)(2)-(3)",
        deck_life=_deck_life("§ 641a.3(c)(1)", "§ 641a.3(c)(2)"),
        opening="§ 641a.4",
        inspection="§ 641a.4(a)-(c)",
        two_deck_inspection="§ 641a.4(d)",
        preshuffled="§ 641a.4(e)",
        shuffle="§ 641a.5(a)",
        no_cut="§ 641a.5(c)(1)",
        cut_required="§ 641a.5(c)(2)",
        cut="§ 641a.5(d)",
        seated="§ 641a.7(b)",
        adjacent_boxes="§ 641a.7(e)",
        stub_rounds=STUB_ROUNDS,
        stub_count=_by_deal("§ 641a.8(f)", "§ 641a.9(d)", "§ 641a.10(d)"),
        deck_removed=_by_deal("§ 641a.8(h)", "§ 641a.9(f)", "§ 641a.10(f)"),
        deck_rules=DeckRules(
            counts=ONE_OR_TWO,
            counts_problem="Four Card Poker uses one deck, or two",
            counts_section="§ 641a.3(a)",
            two_decks="§ 641a.3(b)",
            hand_deal="§ 641a.9(a)(1)",
        ),
        shuffler_jam="§ 641a.13(e)",
        # § 641a.3(b)(4), § 641a.5(a), (b), (e), (f)(1)-(2), (g), § 641a.13(g)
        **_procedures("641a", "641a.13(g)"),
        no_verbal="§ 641a.7(a)",
    )


def _procedures(chapter: str, out_of_order: str) -> dict[str, str]:
    """The procedures of § x.3(b)(4), § x.5(a), (b), (e)-(g) and the out-of-order rule."""
    return {
        "one_deck_in_rack": f"§ {chapter}.3(b)(4)",
        "floor_reshuffle": f"§ {chapter}.5(a)",
        "shuffler_count": f"§ {chapter}.5(b)",
        "recut": f"§ {chapter}.5(e)",
        "idle": f"§ {chapter}.5(f)",
        "idle_manual": f"§ {chapter}.5(f)(1)",
        "idle_automated": f"§ {chapter}.5(f)(2)",
        "reshuffling_shoe": f"§ {chapter}.5(g)",
        "out_of_order": f"§ {out_of_order}" if out_of_order else "",
    }


def _let_it_ride() -> TableRegs:
    return TableRegs(
        # § 643a.3 (seed 000): one deck and a cover card; two decks only with an automated
        # shuffler, one shuffled in the shuffler while the other is dealt, alternating every
        # round; decks changed every 4 hours by hand, every 8 hours from a shoe.
        decks="§ 643a.3(a)",
        two_decks="§ 643a.3(b)",
        two_deck_rotation="§ 643a.3(b)(2)-(3)",
        deck_life=_deck_life("§ 643a.3(c)(1)", "§ 643a.3(c)(2)"),
        # § 643a.4 (seed 000): inspect, spread for the first player, wash, stack and shuffle; two
        # decks each so; preinspected and preshuffled decks skip it.
        opening="§ 643a.4",
        inspection="§ 643a.4(a)-(c)",
        two_deck_inspection="§ 643a.4(d)",
        preshuffled="§ 643a.4(e)",
        # § 643a.5 (seed 000): shuffle after every round; no cut after an automated shuffle; a
        # cut after a manual shuffle or a preshuffle, the cover card at least ten cards in.
        shuffle="§ 643a.5(a)",
        no_cut="§ 643a.5(c)(1)",
        cut_required="§ 643a.5(c)(2)",
        cut="§ 643a.5(d)",
        # § 643a.7(b): only seated players wager and stay seated through the round; the adjacent
        # boxes are the Rules Submission's: § 643a.7(l) as now in force (seed 003; (h) in the
        # 2011 proposal), as ``LetItRideRound.sections`` has it.
        seated="§ 643a.7(b)",
        adjacent_boxes="§ 643a.7(l)",
        # § 643a.8-643a.10 text not available: the stub count at least every 5 rounds without a
        # counting shuffler and the deck removed on a wrong count, with the letters of
        # § 641a.8(f), (h), § 641a.9(d), (f), § 641a.10(d), (f) (inferred).
        stub_rounds=STUB_ROUNDS,
        stub_count=_by_deal("§ 643a.8(f)", "§ 643a.9(d)", "§ 643a.10(d)"),
        deck_removed=_by_deal("§ 643a.8(h)", "§ 643a.9(f)", "§ 643a.10(f)"),
        deck_rules=DeckRules(
            counts=ONE_OR_TWO,
            counts_problem="Let It Ride uses one deck, or two",
            counts_section="§ 643a.3(a)",
            two_decks="§ 643a.3(b)",
            # § 643a.9 text not in the sources; every parallel chapter (§ 641a.9(a)(1)) asks
            # for an automated shuffler before dealing from the hand.
            hand_deal="§ 643a.9",
        ),
        shuffler_jam="§ 643a.13(e)",  # inferred from § 641a.13(e)
        # § 643a.3(b)(4) and § 643a.5(a), (b), (e)-(g) are in seed 000, word for word the Four
        # Card Poker ones; § 643a.13 is not: (g) is inferred from § 641a.13(g).
        # § 643a.3(b)(4), § 643a.5(a), (b), (e), (f)(1)-(2), (g), § 643a.13(g)
        **_procedures("643a", "643a.13(g)"),
        no_verbal="§ 643a.7(a)",  # seeds 000 and 003
    )


def _three_card_poker() -> TableRegs:
    # No Chapter 649a text was available: every section is the Four Card Poker one (§ 641a.3-
    # 641a.10) renumbered (inferred), as the chapters were proposed together (41 Pa.B. 3836).
    return TableRegs(
        decks="§ 649a.3(a)",
        two_decks="§ 649a.3(b)",
        two_deck_rotation="§ 649a.3(b)(2)-(3)",
        deck_life=_deck_life("§ 649a.3(c)(1)", "§ 649a.3(c)(2)"),
        opening="§ 649a.4",
        inspection="§ 649a.4(a)-(c)",
        two_deck_inspection="§ 649a.4(d)",
        preshuffled="§ 649a.4(e)",
        shuffle="§ 649a.5(a)",
        no_cut="§ 649a.5(c)(1)",
        cut_required="§ 649a.5(c)(2)",
        cut="§ 649a.5(d)",
        # (b) is "seated" in both § 641a.7 and § 643a.7; the adjacent-boxes letter moves with
        # the list of wagers ((e) in § 641a.7, (l) in § 643a.7), so no letter is given.
        seated="§ 649a.7(b)",
        adjacent_boxes="§ 649a.7",
        stub_rounds=STUB_ROUNDS,
        stub_count=_by_deal("§ 649a.8(f)", "§ 649a.9(d)", "§ 649a.10(d)"),
        deck_removed=_by_deal("§ 649a.8(h)", "§ 649a.9(f)", "§ 649a.10(f)"),
        # § 649a.3, § 649a.9 as their Four Card Poker parallels (§ 641a.3, § 641a.9(a)(1)),
        # cited without letters by the game's own check.
        deck_rules=DeckRules(
            counts=ONE_OR_TWO,
            counts_problem="Three Card Poker uses one deck, or two",
            counts_section="§ 649a.3",
            two_decks="§ 649a.3",
            hand_deal="§ 649a.9",
        ),
        shuffler_jam="§ 649a.13(e)",  # inferred from § 641a.13(e)
        # § 649a.3(b)(4), § 649a.5(a), (b), (e), (f)(1)-(2), (g), § 649a.13(g)
        **_procedures("649a", "649a.13(g)"),  # inferred from § 641a.3, .5, .13
        no_verbal="§ 649a.7(a)",  # inferred from § 641a.7(a)
    )


def _ultimate_texas_holdem() -> TableRegs:
    return TableRegs(
        # § 569.3-569.5 are elided in seed 002: the letters are Four Card Poker's (inferred).
        # ``UltimateTexasHoldem.check_table`` allows one deck or two.
        decks="§ 569.3(a)",
        two_decks="§ 569.3(b)",
        two_deck_rotation="§ 569.3(b)(2)-(3)",
        deck_life=_deck_life("§ 569.3(c)(1)", "§ 569.3(c)(2)"),
        opening="§ 569.4",
        inspection="§ 569.4(a)-(c)",
        two_deck_inspection="§ 569.4(d)",
        preshuffled="§ 569.4(e)",
        # § 569.5 is "shuffle and cut of the cards" (named in § 569.10(a)(1), seed 002).
        shuffle="§ 569.5(a)",
        no_cut="§ 569.5(c)(1)",
        cut_required="§ 569.5(c)(2)",
        cut="§ 569.5(d)",
        # § 569.7(g): only seated players wager and stay seated through the round; § 569.7(h):
        # one player position per player (seed 002).
        seated="§ 569.7(g)",
        adjacent_boxes="§ 569.7(h)",
        # § 569.8(c) ff., § 569.9(b) ff., § 569.10(b) ff. are elided: inferred letters.
        stub_rounds=STUB_ROUNDS,
        stub_count=_by_deal("§ 569.8(f)", "§ 569.9(d)", "§ 569.10(d)"),
        deck_removed=_by_deal("§ 569.8(h)", "§ 569.9(f)", "§ 569.10(f)"),
        # § 569.3 is not in the available texts; one deck in play (or two in rotation with a
        # shuffler), as at the other Subpart K poker games.  Two decks with a manual shuffle
        # are refused by the table (:attr:`TableRegs.table_decks`), not by the game's check.
        deck_rules=DeckRules(
            counts=ONE_OR_TWO,
            counts_problem="the game is dealt from one deck",
            counts_section=None,
            two_decks=None,
        ),
        shuffler_jam="§ 569.13(e)",  # inferred from § 641a.13(e)
        # Inferred from § 641a.3, .5, .13.  The 41 Pa.B. 3836 preamble (seed 000) says the
        # permanent § 653a.10 was updated for an automated dealing shoe that reshuffles the cards
        # itself, the counterpart of § 641a.5(g).
        # § 569.3(b)(4), § 569.5(a), (b), (e), (f)(1)-(2), (g), § 569.13(g)
        **_procedures("569", "569.13(g)"),
        no_verbal="§ 569.7(a)",  # seed 002
    )


def _mississippi_stud() -> TableRegs:
    # § 571.3 and § 571.4 are elided in seed 002 and the game is dealt from one deck
    # (``MississippiStud.check_table`` refuses two), so the template's two-deck subsections
    # ((b) of § 641a.3, (d) of § 641a.4) may be absent and the later letters shifted: these two
    # sections are cited without letters.  The two-deck fields are never reached.
    return TableRegs(
        decks="§ 571.3",
        two_decks="§ 571.3",
        two_deck_rotation="§ 571.3",
        deck_life=_deck_life("§ 571.3", "§ 571.3"),
        opening="§ 571.4",
        inspection="§ 571.4(a)-(c)",
        two_deck_inspection="§ 571.4",
        preshuffled="§ 571.4",
        # § 571.5 is "shuffle and cut of the cards" (named in § 571.10(a)(1), seed 002); its
        # letters are Four Card Poker's (inferred).
        shuffle="§ 571.5(a)",
        no_cut="§ 571.5(c)(1)",
        cut_required="§ 571.5(c)(2)",
        cut="§ 571.5(d)",
        # § 571.7(e): only seated players wager and stay seated; § 571.7(f): one position each.
        seated="§ 571.7(e)",
        adjacent_boxes="§ 571.7(f)",
        # § 571.8-571.10 are elided after their openings: inferred letters.
        stub_rounds=STUB_ROUNDS,
        stub_count=_by_deal("§ 571.8(f)", "§ 571.9(d)", "§ 571.10(d)"),
        deck_removed=_by_deal("§ 571.8(h)", "§ 571.9(f)", "§ 571.10(f)"),
        deck_rules=DeckRules(
            counts=frozenset({1}),
            counts_problem="Mississippi Stud is dealt from one deck",
            counts_section=None,
            two_decks=None,
        ),
        shuffler_jam="§ 571.13(e)",  # inferred from § 641a.13(e)
        # § 571.5 letters inferred from § 641a.5; one deck only, so no discard-rack rule.
        # § 571.5(a), (b), (e), (f)(1)-(2), (g), § 571.13(g)
        **{**_procedures("571", "571.13(g)"), "one_deck_in_rack": ""},
        no_verbal="§ 571.7(a)",  # seed 002
    )


FOUR_CARD_POKER_REGS = _four_card_poker()
LET_IT_RIDE_REGS = _let_it_ride()
THREE_CARD_POKER_REGS = _three_card_poker()
ULTIMATE_TEXAS_HOLDEM_REGS = _ultimate_texas_holdem()
MISSISSIPPI_STUD_REGS = _mississippi_stud()
