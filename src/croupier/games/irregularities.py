"""The irregularities every round shares (§ 641a.13 and its parallels; a game's sections name
them): a card found face up in the deck, a card drawn in error, an automated shoe jam, a dealer
card exposed early, a wrong number of cards.  :class:`~croupier.games.round.Round` dispatches a
:class:`~croupier.games.records.ReportIrregularity` here; games narrow :func:`verify_report` by
overriding ``Round._verify_irregularity``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.errors import IllegalAction
from croupier.games.records import (
    CardDiscarded,
    IrregularityKind,
    IrregularityReported,
    Record,
    ReportIrregularity,
)
from croupier.games.states import Phase
from croupier.rules import DealMethod

if TYPE_CHECKING:
    from croupier.games.round import Round

__all__ = ["chapter_irregularities", "report_records", "verify_report"]


def chapter_irregularities(section: str) -> dict[str, str]:
    """Every irregularity kind cited to a chapter's irregularities section, without a letter:
    for the chapters whose section text the project does not hold (their numbering is known
    from the chapter's section list or a cross-reference, ../shared/regs/), the way
    ``three_card_poker.py`` cites § 649a.13."""
    return {kind.value: section for kind in IrregularityKind}


def verify_report(rnd: Round, action: ReportIrregularity) -> None:
    """Refuse a report of an irregularity the round cannot have now (the phase, the table's
    dealing method)."""
    kind = action.kind
    if kind in (IrregularityKind.CARD_FACE_UP_IN_DECK, IrregularityKind.CARD_DRAWN_IN_ERROR):
        if rnd._phase is not Phase.DEALING:
            raise IllegalAction(
                f"{kind.value} is reported while dealing (phase {rnd._phase.value})"
            )
        if kind is IrregularityKind.CARD_FACE_UP_IN_DECK and len(rnd._shoe) == 0:
            raise IllegalAction("the shoe is empty")
    elif kind is IrregularityKind.AUTOMATED_SHOE_JAM:
        if rnd.game.rules.table.deal is not DealMethod.AUTOMATED_SHOE:
            raise IllegalAction("this table deals without an automated dealing shoe")
        if rnd._phase is not Phase.DEALING:
            raise IllegalAction(f"the shoe jams while dealing (phase {rnd._phase.value})")
    elif kind is IrregularityKind.DEALER_CARD_EXPOSED:
        if rnd._phase not in (Phase.DEALING, Phase.STUB_COUNT, Phase.DECISIONS):
            raise IllegalAction(
                "a dealer card exposed early is reported before the reveal "
                f"(phase {rnd._phase.value})"
            )
    elif kind is IrregularityKind.WRONG_CARD_COUNT and rnd._phase in (
        Phase.BETTING,
        Phase.REVEAL,
        Phase.SETTLEMENT,
    ):
        raise IllegalAction(
            f"a wrong number of cards is reported between the deal and the reveal "
            f"(phase {rnd._phase.value})"
        )


def report_records(rnd: Round, action: ReportIrregularity) -> list[Record]:
    """Carry out a verified report: a first card found face up is discarded, a card drawn in
    error is used as the next card; a second face-up card and every other irregularity void the
    round (the sections by kind are the game's)."""
    kind = action.kind
    section = rnd.sections.get(kind.value, "")
    if kind is IrregularityKind.CARD_FACE_UP_IN_DECK:
        rnd._face_up_found += 1
        if rnd._face_up_found == 1:
            card = rnd._shoe.deal()
            return [
                IrregularityReported(
                    irregularity=kind, section=section, consequence="card discarded"
                ),
                CardDiscarded(card=card, section=section),
            ]
        rec: list[Record] = [
            IrregularityReported(irregularity=kind, section=section, consequence="round void")
        ]
        return rec + rnd._void("a second card found face up in the deck", section)
    if kind is IrregularityKind.CARD_DRAWN_IN_ERROR:
        return [
            IrregularityReported(
                irregularity=kind, section=section, consequence="used as the next card"
            )
        ]
    rec = [IrregularityReported(irregularity=kind, section=section, consequence="round void")]
    return rec + rnd._void(kind.value.replace("_", " "), section)
