"""Reading the files users write, safely: every malformed input is one short ``InvalidInput``.

Rules Submissions (TOML or JSON) and scenarios (JSON) come from outside; before any model sees
them this module bounds what they may cost.  A file is refused, with one line that quotes at
most :data:`QUOTE` characters of it, when it is

* not a regular file (a FIFO would wait for a writer, a device such as ``/dev/zero`` never
  ends), over :data:`MAX_BYTES` bytes, or not UTF-8;
* not valid JSON/TOML, nested deeper than :data:`MAX_DEPTH`, or holding more than
  :data:`MAX_NODES` values in all (a million cards, a million meters);
* holding an integer beyond :data:`MAX_INT` (thousands of digits), ``NaN`` or ``Infinity``,
  a number whose exponent is out of :data:`MAX_EXPONENT` (``1e-30000000``), or a string
  longer than :data:`MAX_STRING`.

JSON and TOML numbers with a fraction are read as :class:`~decimal.Decimal` from their text,
never through a binary float, so ``"rate": 0.05`` is exactly five hundredths.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tomllib
from collections.abc import Iterator, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from croupier.core.errors import InvalidInput, shown_value

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_NODES",
    "QUOTE",
    "hand_text",
    "load_document",
    "parse_document",
    "quote",
    "read_bounded",
    "read_text",
    "save_file",
    "text_lines",
    "verify_bounded",
    "verify_decimal",
]

MAX_BYTES = 256 * 1024
"""Largest file read (a Rules Submission or a scenario is a few kilobytes)."""
MAX_DEPTH = 16
"""Deepest nesting of tables/arrays (the formats need five)."""
MAX_NODES = 20_000
"""Most values in one document (a scenario has a few hundred)."""
MAX_INT = 10**15
"""Largest integer magnitude ($10 trillion in cents)."""
MAX_EXPONENT = 30
"""Largest decimal exponent magnitude accepted in a number."""
MAX_STRING = 2_000
"""Longest string value or key."""
QUOTE = 80
"""Most characters of the input quoted in an error."""


def quote(value: object, limit: int = QUOTE) -> str:
    """``repr(value)`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= MAX_INT:
        return f"<an integer of {len(str(abs(value))) if abs(value) < 10**4000 else 'many'} digits>"
    if isinstance(value, Decimal):
        value = str(value) if len(value.as_tuple().digits) < 2 * limit else "<a long number>"
        return value if len(value) <= limit else value[: limit - 3] + "..."
    text = repr(value) if len(str(value)) < 10 * limit else repr(str(value)[: 2 * limit])
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_bounded(path: str | Path, *, what: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, else ``InvalidInput``.

    The file is opened without blocking and checked to be a regular file before anything is
    read: a FIFO would wait for a writer forever, and a device (``/dev/zero``) or a directory
    is no document.  Only ``limit + 1`` bytes are ever read, whatever the file's size."""
    if not isinstance(path, str | os.PathLike):
        raise InvalidInput(f"{what} {shown_value(path)} is not a path")
    name = quote(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as exc:  # ValueError: a path holding a NUL character
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise InvalidInput(f"{what} {name} cannot be read: {reason}") from None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
        raw = os.read(fd, limit + 1) if regular else b""
        while regular and 0 < len(raw) <= limit:  # a short read: the rest, up to the bound
            more = os.read(fd, limit + 1 - len(raw))
            if not more:
                break
            raw += more
    except OSError as exc:
        raise InvalidInput(f"{what} {name} cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if not regular:
        raise InvalidInput(f"{what} {name} is not a regular file")
    if len(raw) > limit:
        raise InvalidInput(f"{what} {name} is larger than {limit} bytes")
    return raw


def save_file(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` in one step (a file made whole in memory first: a failed
    write leaves no half-built writer behind); an :class:`OSError` is one ``InvalidInput``
    naming the file."""
    target = Path(path)
    try:
        target.write_bytes(data)
    except OSError as exc:
        raise InvalidInput(f"{target}: cannot be written ({exc.strerror or exc})") from None
    return target


def read_text(path: str | Path, *, what: str) -> str:
    """The text of ``path``: at most :data:`MAX_BYTES` bytes of UTF-8, else ``InvalidInput``
    (:func:`read_bounded`)."""
    raw = read_bounded(path, what=what)  # first: it refuses what is not a path
    name = quote(str(path))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = raw[exc.start : exc.start + 4]
        raise InvalidInput(f"{what} {name} is not UTF-8 text (byte {exc.start}: {bad!r})") from None


MAX_HAND_TEXT = 200
"""Longest hand accepted by ``croupier hand`` (seven cards need 20 characters)."""


def hand_text(text: str | None) -> str:
    """A hand as typed (an argument or a line of stdin), bounded; else ``InvalidInput``.

    ``None`` stands for a line of stdin that was not UTF-8."""
    if text is None:
        raise InvalidInput("the line is not UTF-8 text")
    if len(text) > MAX_HAND_TEXT:
        raise InvalidInput(
            f"hand {quote(text)} is longer than {MAX_HAND_TEXT} characters (a hand is 3-7 cards)"
        )
    return text


def text_lines(stream: Any) -> Iterator[str | None]:
    """The lines of a text stream; from its bytes where it has them, so a line that is not
    UTF-8 yields ``None`` (reported for that line) instead of ending the stream."""
    source = getattr(stream, "buffer", None)
    if source is None:
        yield from stream
        return
    for raw in source:
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            yield None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number croupier reads")


def parse_document(text: str, *, what: str, toml: bool) -> dict[str, Any]:
    """Parse JSON (or TOML) text into a bounded mapping; decimals exact; else ``InvalidInput``."""
    if len(text) > MAX_BYTES:
        raise InvalidInput(f"{what} is longer than {MAX_BYTES} characters")
    kind = "TOML" if toml else "JSON"
    try:
        data = (
            tomllib.loads(text, parse_float=Decimal)
            if toml
            else json.loads(text, parse_float=Decimal, parse_constant=_no_constant)
        )
    except RecursionError:
        raise InvalidInput(f"{what} is nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        message = quote(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 120)
        raise InvalidInput(f"{what} is not valid {kind}: {message.strip(chr(39))}") from None
    if not isinstance(data, dict):
        raise InvalidInput(f"{what} must be a {kind} object, not {type(data).__name__}")
    verify_bounded(data, what=what)
    return data


def verify_bounded(data: object, *, what: str) -> None:
    """Refuse a value nested too deep, too large, or holding numbers croupier cannot read exactly.

    Iterative (no recursion), so any depth is refused in time linear in the size."""
    stack: list[tuple[object, int, str]] = [(data, 0, "")]
    nodes = 0
    while stack:
        value, depth, where = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise InvalidInput(f"{what} holds more than {MAX_NODES} values")
        if depth > MAX_DEPTH:
            raise InvalidInput(f"{what} is nested deeper than {MAX_DEPTH} levels")
        at = f" at {quote(where, 40)}" if where else ""
        if isinstance(value, Mapping):
            for key, item in value.items():
                if isinstance(key, str) and len(key) > MAX_STRING:
                    raise InvalidInput(f"{what} has a key longer than {MAX_STRING} characters")
                stack.append((item, depth + 1, f"{where}.{key}" if where else str(key)[:40]))
        elif isinstance(value, list | tuple):
            if len(value) + nodes > MAX_NODES:
                raise InvalidInput(f"{what} holds more than {MAX_NODES} values")
            stack.extend((item, depth + 1, f"{where}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_INT:
                raise InvalidInput(f"{what}: integer {quote(value)}{at} is larger than {MAX_INT}")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise InvalidInput(f"{what}: {value!r}{at} is not a number croupier reads")
        elif isinstance(value, Decimal):
            verify_decimal(value, what=f"{what}: number{at}")
        elif isinstance(value, str) and len(value) > MAX_STRING:
            raise InvalidInput(f"{what}: string{at} is longer than {MAX_STRING} characters")


def verify_decimal(value: Decimal, *, what: str) -> None:
    """Refuse NaN, infinities and exponents outside +-:data:`MAX_EXPONENT` (cheaply: no
    arithmetic on the value, so ``1e-30000000`` costs nothing)."""
    if not value.is_finite():
        raise InvalidInput(f"{what} {str(value)!r} is not a finite number")
    _sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    if len(digits) > MAX_EXPONENT or abs(exponent) > MAX_EXPONENT:
        raise InvalidInput(f"{what} {quote(str(value), 40)} is out of the range croupier reads")


def load_document(path: str | Path, *, what: str, toml: bool | None = None) -> dict[str, Any]:
    """Read and parse a JSON or TOML file (TOML unless the name ends in ``.json``)."""
    text = read_text(path, what=what)  # first: it refuses what is not a path
    name = quote(str(path))
    is_toml = Path(path).suffix != ".json" if toml is None else toml
    return parse_document(text, what=f"{what} {name}", toml=is_toml)
