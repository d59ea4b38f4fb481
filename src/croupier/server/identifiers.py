"""Usernames: one spelling per person.

:func:`normalise_username` is the only way a name enters or is looked up in ``accounts``: the
name a person types is NFKC-normalised (compatibility forms such as full-width letters and
ligatures fold to their plain letters), case-folded and trimmed, so ``Player1``, ``player1 ``
and ``ｐｌａｙｅｒ１`` are one account and sign in alike.  Refused, naming the input: control
characters (NUL among them), format characters (the bidirectional overrides and isolates that
make a name display as another, zero-width joiners), any space or punctuation but ``. _ - @``
inside the name, letters of more than one script (``pаypal`` with a Cyrillic ``а``), and a name
empty or over :data:`MAX_USERNAME` characters once normalised.

Sources: Unicode Technical Standard #39 (security mechanisms: mixed-script detection) and
NIST SP 800-63B § 5.1.1.2 (a verifier normalises with NFKC before it compares); GLI-19's
account rules ask that every user be identified uniquely.
"""

from __future__ import annotations

import unicodedata

from croupier.core.errors import InvalidInput, shown_value

__all__ = ["MAX_USERNAME", "normalise_username"]

MAX_USERNAME = 100
"""The longest username, in characters once normalised (the column's width)."""

PUNCTUATION = frozenset("._-@")
"""The only characters other than letters and digits a username may hold (each visible and
unambiguous)."""


def _script(char: str) -> str | None:
    """The script of a letter, read from its Unicode name (``LATIN``, ``CYRILLIC``,
    ``GREEK``...); ``None`` for a digit or a permitted punctuation mark."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def normalise_username(raw: object) -> str:
    """The account name ``raw`` stands for (see the module docstring); ``InvalidInput``
    naming the input where it cannot be one."""
    if not isinstance(raw, str):
        raise InvalidInput(f"username {shown_value(raw)} must be text")
    for char in raw.strip():  # the ends trimmed first: a trailing newline or tab is no name
        category = unicodedata.category(char)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            # Cc: control characters (NUL, escapes); Cf: format characters (bidi overrides
            # U+202E, isolates, zero-width joiners); Cs/Co/Cn: surrogates, private, unassigned
            raise InvalidInput(
                f"username {shown_value(raw)} holds the {_described(char)}: control, format "
                "(such as a right-to-left override) and unassigned characters are refused"
            )
    name = unicodedata.normalize("NFKC", raw).casefold().strip()
    name = unicodedata.normalize("NFKC", name)  # case folding can leave a name unnormalised
    if not name:
        raise InvalidInput(f"username {shown_value(raw)} is empty once trimmed")
    if len(name) > MAX_USERNAME:
        raise InvalidInput(
            f"username {shown_value(raw)} has {len(name)} characters once normalised; at most "
            f"{MAX_USERNAME}"
        )
    for char in name:
        if not (char.isalnum() or char in PUNCTUATION):
            raise InvalidInput(
                f"username {shown_value(raw)} holds the {_described(char)}: a username is "
                "letters and digits with '.', '_', '-' or '@', no space"
            )
    scripts = {s for s in map(_script, name) if s is not None}
    if len(scripts) > 1:
        raise InvalidInput(
            f"username {shown_value(raw)} mixes the scripts {', '.join(sorted(scripts))}: "
            "letters of one script only (a mixed name can pass for another)"
        )
    return name


def _described(char: str) -> str:
    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    return f"character {code} {name}" if name else f"character {code}"
