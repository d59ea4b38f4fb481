"""Table-level rules (deck life, stub counts, shuffle and cut, seats): the record and its helpers.

Each game package states its chapter's in its ``regs.py`` (``games/<game>/regs.py``) and its game
class reads them as ``table_regs`` (a :class:`TableRegs`); the :class:`~croupier.table.table.Table`
uses
it.  The four chapters share Four Card Poker's layout (Ch. 641a): § x.3 cards and number of decks,
§ x.4 opening of the table, § x.5 shuffle and cut, § x.7 wagers, § x.8-x.10 dealing from a manual
shoe, the hand and an automated shoe (the 41 Pa.B. 3836 tables of contents in seed 000; the
cross-references in § 569.7-569.10 and § 571.7-571.10).  Where a chapter's own text was available
its subsection is cited; elsewhere the letters of the parallel Four Card Poker subsection are used
and marked *inferred* in each ``regs.py``.

What was available:

* Let It Ride (Ch. 643a): § 643a.3-643a.7 as proposed at 41 Pa.B. 3836 (seed 000) and the current
  § 643a.7 (seed 003).  § 643a.8-643a.10 were not: their stub-count letters are inferred.
* Three Card Poker (Ch. 649a): no text at all; every section below follows Four Card Poker
  (inferred).  ``three_card_poker/game.py`` itself cites these sections without letters.
* Ultimate Texas Hold 'Em (temporary Ch. 569 as amended, seed 002): § 569.7(g)-(h) and the
  openings of § 569.8-569.10 (which name § 569.5 "shuffle and cut of the cards"); § 569.3-569.5
  themselves are elided (inferred).  The permanent Ch. 653a digest has none of these sections.
* Mississippi Stud (temporary Ch. 571 as amended, seed 002): § 571.7(e)-(f) and the openings of
  § 571.8-571.10 (naming § 571.5 "shuffle and cut of the cards"); § 571.3-571.5 are elided.  The
  game is dealt from one deck only (``MississippiStud.check_table``), so the two-deck subsection
  of the template may not exist there: § 571.3 and § 571.4 are cited without letters.

:class:`TableRegs` lives here, below both the games and :mod:`croupier.table.table` (which
re-exports
it), so each game package declares its regs as plain data (:func:`deck_life`, :func:`by_deal`
and :func:`chapter_procedures` spell the parts every chapter shares).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from croupier.core.errors import Problem
from croupier.rules.submission import DealMethod, ShuffleMethod, TableRules

__all__ = [
    "ONE_OR_TWO",
    "STUB_ROUNDS",
    "DeckRules",
    "TableRegs",
    "by_deal",
    "chapter_procedures",
    "deck_life",
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
    # The procedures of :mod:`croupier.procedures`.  An empty string: the chapter has no such
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


def deck_life(hand: str, shoe: str) -> dict[DealMethod, tuple[timedelta, str]]:
    return {
        DealMethod.HAND: (HAND_DECK_LIFE, hand),
        DealMethod.MANUAL_SHOE: (SHOE_DECK_LIFE, shoe),
        DealMethod.AUTOMATED_SHOE: (SHOE_DECK_LIFE, shoe),
    }


def by_deal(manual_shoe: str, hand: str, automated_shoe: str) -> dict[DealMethod, str]:
    return {
        DealMethod.MANUAL_SHOE: manual_shoe,
        DealMethod.HAND: hand,
        DealMethod.AUTOMATED_SHOE: automated_shoe,
    }


def chapter_procedures(chapter: str, out_of_order: str) -> dict[str, str]:
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
