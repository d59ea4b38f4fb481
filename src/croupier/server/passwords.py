"""The strength a password must have before croupier stores its hash.

NIST SP 800-63B § 5.1.1.2 (memorized secrets): a minimum length and a check against values
known to be common or expected, and no composition rules (no "one capital, one digit").  So:

- at least :data:`MIN_LENGTH` characters (12: above the standard's floor of 8, as a table
  terminal's password guards chips) and at most :data:`MAX_LENGTH`;
- not in the shipped list of common passwords (``common-passwords.txt`` beside this module:
  its header says where it comes from), compared case-folded;
- not holding the account's own name (case-folded), the context-specific word the standard names;
- not one character, or one short run of characters, repeated (``aaaaaaaaaaaa``,
  ``abcabcabcabc``), the repetitive pattern the standard names.

GLI-19's account rules ask for a password policy enforced by the system; this is it.  Demo
accounts (published passwords, demo and training floors only) are the one exception
(:meth:`croupier.server.auth.Auth.create_demo`).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from croupier.core.errors import InvalidInput

__all__ = ["MAX_LENGTH", "MIN_LENGTH", "check_password", "common_passwords"]

MIN_LENGTH = 12
MAX_LENGTH = 200

SHORTEST_USERNAME_CHECKED = 3
"""A name shorter than this is not looked for inside the password (``al`` would refuse half
the passwords there are)."""


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list, case-folded."""
    text = (files("croupier.server") / "common-passwords.txt").read_text(encoding="utf-8")
    return frozenset(
        line.casefold() for line in text.splitlines() if line and not line.startswith("#")
    )


def _repeated(folded: str) -> bool:
    """One run of at most a quarter of the password, repeated to make all of it."""
    for size in range(1, len(folded) // 4 + 1):
        unit = folded[:size]
        if len(folded) % size == 0 and unit * (len(folded) // size) == folded:
            return True
    return False


def check_password(password: object, username: str) -> str:
    """``password`` where it is strong enough for ``username``'s account; ``InvalidInput``
    saying why not (never quoting the password)."""
    if not isinstance(password, str):
        raise InvalidInput(f"the password of {username!r} must be text")
    if len(password) < MIN_LENGTH:
        raise InvalidInput(
            f"the password of {username!r} has {len(password)} characters; at least "
            f"{MIN_LENGTH} (NIST SP 800-63B § 5.1.1.2)"
        )
    if len(password) > MAX_LENGTH:
        raise InvalidInput(f"the password of {username!r} has over {MAX_LENGTH} characters")
    if "\x00" in password:
        raise InvalidInput(f"the password of {username!r} holds a NUL character")
    folded = password.casefold()
    if folded in common_passwords():
        raise InvalidInput(
            f"the password of {username!r} is on the list of common passwords; choose another"
        )
    if len(username) >= SHORTEST_USERNAME_CHECKED and username.casefold() in folded:
        raise InvalidInput(f"the password of {username!r} holds the username; choose another")
    if _repeated(folded):
        raise InvalidInput(
            f"the password of {username!r} is one short run of characters repeated; choose another"
        )
    return password
