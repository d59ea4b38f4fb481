"""The JSON text the live system sends on its streams: compact (no spaces), UTF-8 characters as
they are, written by `orjson <https://github.com/ijl/orjson>`_ (issue 38: a table's people are
each sent their view with every event, and the standard library's encoder showed in the
profile of that state; orjson writes it several times faster).

It gives the text :func:`json.dumps` gives with ``separators=(",", ":")`` and
``ensure_ascii=False`` for what the streams send (objects, arrays, strings, integers, booleans
and ``null``; a non-string key written as a string); ``tests/live/test_wire.py`` holds the two
equal."""

from __future__ import annotations

import orjson

__all__ = ["compact"]

_OPTIONS = orjson.OPT_NON_STR_KEYS


def compact(value: object) -> str:
    """``value`` as compact JSON text."""
    return orjson.dumps(value, option=_OPTIONS).decode()
