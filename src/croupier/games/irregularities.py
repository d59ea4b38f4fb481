"""The irregularities every round shares (§ 641a.13 and its parallels): the sections of a
chapter that cites them all to one section.  A round verifies and carries out a
:class:`~croupier.games.records.ReportIrregularity` itself
(:meth:`~croupier.games.round.Round._verify_irregularity`, which games narrow).
"""

from __future__ import annotations

from croupier.games.records import IrregularityKind

__all__ = ["chapter_irregularities"]


def chapter_irregularities(section: str) -> dict[str, str]:
    """Every irregularity kind cited to a chapter's irregularities section, without a letter:
    for the chapters whose section text the project does not hold (their numbering is known
    from the chapter's section list or a cross-reference, ../shared/regs/), the way
    ``three_card_poker.py`` cites § 649a.13."""
    return {kind.value: section for kind in IrregularityKind}
