"""The table-level rules of Three Card Poker (Ch. 649a): deck life, stub counts, shuffle and cut,
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

__all__ = ["THREE_CARD_POKER_REGS"]


def _regs() -> TableRegs:
    # No Chapter 649a text was available: every section is the Four Card Poker one (§ 641a.3-
    # 641a.10) renumbered (inferred), as the chapters were proposed together (41 Pa.B. 3836).
    return TableRegs(
        decks="§ 649a.3(a)",
        two_decks="§ 649a.3(b)",
        two_deck_rotation="§ 649a.3(b)(2)-(3)",
        deck_life=deck_life("§ 649a.3(c)(1)", "§ 649a.3(c)(2)"),
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
        stub_count=by_deal("§ 649a.8(f)", "§ 649a.9(d)", "§ 649a.10(d)"),
        deck_removed=by_deal("§ 649a.8(h)", "§ 649a.9(f)", "§ 649a.10(f)"),
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
        **chapter_procedures("649a", "649a.13(g)"),  # inferred from § 641a.3, .5, .13
        no_verbal="§ 649a.7(a)",  # inferred from § 641a.7(a)
    )


THREE_CARD_POKER_REGS = _regs()
