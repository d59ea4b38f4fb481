"""Usernames normalised (issue 36 item 7): NFKC, case-folded, trimmed; control, format
(bidirectional overrides, zero-width joiners) and mixed-script names refused, naming the input."""

from __future__ import annotations

import pytest

from croupier.core.errors import InvalidInput
from croupier.server.identifiers import MAX_USERNAME, normalise_username


@pytest.mark.parametrize(
    ("given", "normal"),
    [
        ("Player1", "player1"),
        ("player1 ", "player1"),
        ("  PLAYER1\t", "player1"),
        ("ｐｌａｙｅｒ１", "player1"),  # full-width forms (NFKC)
        ("ﬁona", "fiona"),  # the ligature fi (NFKC)
        ("Straße", "strasse"),  # case folding, not lower-casing
        ("pit.boss_2-b@floor", "pit.boss_2-b@floor"),
        ("ΣΟΦΙΑ", "σοφια"),  # one script, not Latin: allowed
    ],
)
def test_usernames_normalise_nfkc_casefold_trim(given: str, normal: str) -> None:
    assert normalise_username(given) == normal


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ("play\u202eer1", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("player\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("play\x00er1", "U+0000"),
        ("play\u200ber1", "U+200B ZERO WIDTH SPACE"),
        ("play\x1ber1", "U+001B"),
        ("player 1", "U+0020 SPACE"),
        ("player/1", "U+002F SOLIDUS"),
        ("p\u0430yer1", "mixes the scripts CYRILLIC, LATIN"),  # a Cyrillic a
        ("   ", "empty"),
        ("x" * (MAX_USERNAME + 1), "at most 100"),
        (42, "must be text"),
    ],
)
def test_confusable_or_invisible_usernames_refused(given: object, named: str) -> None:
    with pytest.raises(InvalidInput, match="username") as refused:
        normalise_username(given)
    assert named in str(refused.value)
