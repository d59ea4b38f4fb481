"""Password strength (issue 36; NIST SP 800-63B § 5.1.1.2): at least 12 characters, not on the
shipped list of common passwords, not holding the username, not a short run repeated."""

from __future__ import annotations

import pytest

from croupier.core.errors import InvalidInput
from croupier.server.passwords import MIN_LENGTH, check_password, common_passwords


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("x" * (MIN_LENGTH - 1), "at least 12"),
        ("Password1234", "common passwords"),
        ("QWERTYUIOP123", "common passwords"),
        ("supervisor-demo", "common passwords"),  # a demo floor's published password
        ("casino123456", "common passwords"),
        ("my-Dealer7-password", "holds the username"),
        ("zzzzzzzzzzzzzzzz", "repeated"),
        ("ab12ab12ab12ab12", "repeated"),
        ("with\x00a-nul-inside", "NUL"),
        ("y" * 201, "over 200"),
    ],
)
def test_weak_password_refused_without_quoting_it(password: str, why: str) -> None:
    with pytest.raises(InvalidInput, match=why) as refused:
        check_password(password, "dealer7")
    assert password not in str(refused.value)


def test_a_long_uncommon_password_passes() -> None:
    assert check_password("six decks, one shoe", "dealer7") == "six decks, one shoe"


def test_the_shipped_list_holds_only_passwords_length_alone_would_pass() -> None:
    listed = common_passwords()
    assert len(listed) > 500
    assert all(len(p) >= MIN_LENGTH and p == p.casefold() for p in listed)
