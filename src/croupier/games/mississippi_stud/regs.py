"""The table-level rules of Mississippi Stud (temporary Ch. 571): deck life, stub counts, shuffle
and cut, seats, and the sections that set them (:class:`~croupier.games.table_regs.TableRegs`; the
chapters that share Four Card Poker's layout and what texts were available:
:mod:`croupier.games.table_regs`)."""

from __future__ import annotations

from croupier.games.table_regs import (
    STUB_ROUNDS,
    DeckRules,
    TableRegs,
    by_deal,
    chapter_procedures,
    deck_life,
)

__all__ = ["MISSISSIPPI_STUD_REGS"]


def _regs() -> TableRegs:
    # § 571.3 and § 571.4 are elided in seed 002 and the game is dealt from one deck
    # (``MississippiStud.check_table`` refuses two), so the template's two-deck subsections
    # ((b) of § 641a.3, (d) of § 641a.4) may be absent and the later letters shifted: these two
    # sections are cited without letters.  The two-deck fields are never reached.
    return TableRegs(
        decks="§ 571.3",
        two_decks="§ 571.3",
        two_deck_rotation="§ 571.3",
        deck_life=deck_life("§ 571.3", "§ 571.3"),
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
        stub_count=by_deal("§ 571.8(f)", "§ 571.9(d)", "§ 571.10(d)"),
        deck_removed=by_deal("§ 571.8(h)", "§ 571.9(f)", "§ 571.10(f)"),
        deck_rules=DeckRules(
            counts=frozenset({1}),
            counts_problem="Mississippi Stud is dealt from one deck",
            counts_section=None,
            two_decks=None,
        ),
        shuffler_jam="§ 571.13(e)",  # inferred from § 641a.13(e)
        # § 571.5 letters inferred from § 641a.5; one deck only, so no discard-rack rule.
        # § 571.5(a), (b), (e), (f)(1)-(2), (g), § 571.13(g)
        **{**chapter_procedures("571", "571.13(g)"), "one_deck_in_rack": ""},
        no_verbal="§ 571.7(a)",  # seed 002
    )


MISSISSIPPI_STUD_REGS = _regs()
