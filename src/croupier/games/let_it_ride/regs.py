"""The table-level rules of Let It Ride (Ch. 643a): deck life, stub counts, shuffle and cut, seats,
and the sections that set them (:class:`~croupier.games.table_regs.TableRegs`; the chapters that
share Four Card Poker's layout and what texts were available: :mod:`croupier.games.table_regs`)."""

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

__all__ = ["LET_IT_RIDE_REGS"]


def _regs() -> TableRegs:
    return TableRegs(
        # § 643a.3 (seed 000): one deck and a cover card; two decks only with an automated
        # shuffler, one shuffled in the shuffler while the other is dealt, alternating every
        # round; decks changed every 4 hours by hand, every 8 hours from a shoe.
        decks="§ 643a.3(a)",
        two_decks="§ 643a.3(b)",
        two_deck_rotation="§ 643a.3(b)(2)-(3)",
        deck_life=deck_life("§ 643a.3(c)(1)", "§ 643a.3(c)(2)"),
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
        stub_count=by_deal("§ 643a.8(f)", "§ 643a.9(d)", "§ 643a.10(d)"),
        deck_removed=by_deal("§ 643a.8(h)", "§ 643a.9(f)", "§ 643a.10(f)"),
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
        **chapter_procedures("643a", "643a.13(g)"),
        no_verbal="§ 643a.7(a)",  # seeds 000 and 003
    )


LET_IT_RIDE_REGS = _regs()
