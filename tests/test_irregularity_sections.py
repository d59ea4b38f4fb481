"""Every game cites its chapter's irregularities section for every irregularity a dealer can
report (§ 641a.13 and its parallels): the void or discard a report records names it.

Four Card Poker and Let It Ride cite the subsections (§ 641a.13(a)-(f), § 643a.13(a)-(f)); the
chapters whose irregularity text the project does not hold are cited by the section alone
(Three Card Poker § 649a.13, Ultimate Texas Hold 'Em § 653a.13, Mississippi Stud § 655a.13,
Mini- and Midi-Baccarat § 627a.13 / § 629a.13)."""

from __future__ import annotations

import re

import pytest

from croupier.games import GAMES
from croupier.games.records import IrregularityKind

CHAPTER = {
    "four-card-poker": "641a",
    "let-it-ride": "643a",
    "three-card-poker": "649a",
    "ultimate-texas-holdem": "653a",
    "mississippi-stud": "655a",
    "mini-baccarat": "627a",
    "ez-baccarat": "627a",
    "midi-baccarat": "629a",
}


def test_every_game_has_its_irregularities_chapter() -> None:
    assert set(CHAPTER) == set(GAMES)


@pytest.mark.parametrize("slug", sorted(CHAPTER))
@pytest.mark.parametrize("kind", list(IrregularityKind), ids=lambda k: k.value)
def test_x_13_every_irregularity_cites_the_chapters_irregularities_section(
    slug: str, kind: IrregularityKind
) -> None:
    section = GAMES[slug].round_class.sections.get(kind.value, "")
    assert re.fullmatch(rf"§ {CHAPTER[slug]}\.13(\([a-f]\))?", section), (slug, kind, section)
