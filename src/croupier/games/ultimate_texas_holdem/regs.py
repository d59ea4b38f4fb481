"""The table-level rules of Ultimate Texas Hold 'Em (temporary Ch. 569): deck life, stub counts,
shuffle and cut, seats, and the sections that set them
(:class:`~croupier.games.table_regs.TableRegs`; the chapters that share Four Card Poker's layout
and what texts were available: :mod:`croupier.games.table_regs`)."""

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

__all__ = ["ULTIMATE_TEXAS_HOLDEM_REGS"]


def _regs() -> TableRegs:
    return TableRegs(
        # § 569.3-569.5 are elided in seed 002: the letters are Four Card Poker's (inferred).
        # ``UltimateTexasHoldem.check_table`` allows one deck or two.
        decks="§ 569.3(a)",
        two_decks="§ 569.3(b)",
        two_deck_rotation="§ 569.3(b)(2)-(3)",
        deck_life=deck_life("§ 569.3(c)(1)", "§ 569.3(c)(2)"),
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
        stub_count=by_deal("§ 569.8(f)", "§ 569.9(d)", "§ 569.10(d)"),
        deck_removed=by_deal("§ 569.8(h)", "§ 569.9(f)", "§ 569.10(f)"),
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
        **chapter_procedures("569", "569.13(g)"),
        no_verbal="§ 569.7(a)",  # seed 002
    )


ULTIMATE_TEXAS_HOLDEM_REGS = _regs()
