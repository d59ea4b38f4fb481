"""The table-level rules of Four Card Poker (Ch. 641a): deck life, stub counts, shuffle and cut,
seats, and the sections that set them (:class:`~croupier.games.table_regs.TableRegs`; the chapters
that share Four Card Poker's layout and what texts were available:
:mod:`croupier.games.table_regs`)."""

from __future__ import annotations

from croupier.games.table_regs import (
    ONE_OR_TWO,
    STUB_ROUNDS,
    DeckRules,
    TableRegs,
    by_deal,
    chapter_procedures,
    deck_life,
)

__all__ = ["FOUR_CARD_POKER_REGS"]


def _regs() -> TableRegs:
    # Chapter 641a as proposed at 41 Pa.B. 3836 (seed 000): the whole chapter is in the text.
    return TableRegs(
        decks="§ 641a.3(a)",
        two_decks="§ 641a.3(b)",
        two_deck_rotation="§ 641a.3(b)(2)-(3)",
        deck_life=deck_life("§ 641a.3(c)(1)", "§ 641a.3(c)(2)"),
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
        stub_count=by_deal("§ 641a.8(f)", "§ 641a.9(d)", "§ 641a.10(d)"),
        deck_removed=by_deal("§ 641a.8(h)", "§ 641a.9(f)", "§ 641a.10(f)"),
        deck_rules=DeckRules(
            counts=ONE_OR_TWO,
            counts_problem="Four Card Poker uses one deck, or two",
            counts_section="§ 641a.3(a)",
            two_decks="§ 641a.3(b)",
            hand_deal="§ 641a.9(a)(1)",
        ),
        shuffler_jam="§ 641a.13(e)",
        # § 641a.3(b)(4), § 641a.5(a), (b), (e), (f)(1)-(2), (g), § 641a.13(g)
        **chapter_procedures("641a", "641a.13(g)"),
        no_verbal="§ 641a.7(a)",
    )


FOUR_CARD_POKER_REGS = _regs()
