"""JSON codecs for what the store keeps: records (the inverse of
:func:`croupier.games.records.record_to_json`) and Rules Submissions.

Record classes are found by their ``kind`` ClassVar among the subclasses of
:class:`~croupier.games.records.Record`, and each field is decoded by its annotated type: a
:class:`~croupier.core.cards.Card` from its text (``"As"``), an enum (``Result``,
``IrregularityKind``) from its value, a tuple of cards from a list, and plain ``int``, ``str``,
``bool`` and ``None`` checked as they are.  A record that does not decode raises
:class:`~croupier.core.errors.InvalidInput` naming the kind and the field.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields
from enum import Enum
from fractions import Fraction
from typing import Any, Union, get_args, get_origin, get_type_hints

from croupier.core.cards import Card
from croupier.core.errors import InvalidInput
from croupier.games.records import Record, record_to_json
from croupier.rules.submission import RulesSubmission

__all__ = ["record_classes", "record_from_json", "record_to_json", "rules_to_json"]


def _subclasses(cls: type[Record]) -> list[type[Record]]:
    found: list[type[Record]] = []
    for sub in cls.__subclasses__():
        found.append(sub)
        found += _subclasses(sub)
    return found


def record_classes() -> dict[str, type[Record]]:
    """Every record class by its ``kind`` (each kind must name one class)."""
    classes: dict[str, type[Record]] = {}
    for cls in _subclasses(Record):
        other = classes.get(cls.kind)
        if other is not None and other is not cls:
            raise InvalidInput(
                f"record kind {cls.kind!r} names both {other.__qualname__} and {cls.__qualname__}"
            )
        classes[cls.kind] = cls
    return classes


_KINDS: dict[str, type[Record]] = {}
""":func:`record_classes` as last walked: a decode looks its kind up here, and walks the
classes again only for a kind not found (a record class defined since; each walk checks that
every kind names one class)."""


def _class_of(kind: str) -> type[Record] | None:
    found = _KINDS.get(kind)
    if found is None:
        _KINDS.update(record_classes())
        found = _KINDS.get(kind)
    return found


_HINTS: dict[type[Record], dict[str, Any]] = {}


def _hints(cls: type[Record]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def _decode(value: Any, hint: Any, where: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        problems = []
        for arm in get_args(hint):
            try:
                return _decode(value, arm, where)
            except InvalidInput as exc:
                problems.append(exc.message)
        raise InvalidInput(f"{where} {value!r} is none of {hint}: {'; '.join(problems)}")
    if origin is tuple or origin is list:
        if not isinstance(value, list | tuple):
            raise InvalidInput(f"{where} {value!r} must be a list")
        args = get_args(hint)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(value):
                raise InvalidInput(f"{where} {value!r} must hold {len(args)} items")
            items = [
                _decode(v, a, f"{where}[{i}]")
                for i, (v, a) in enumerate(zip(args, value, strict=True))
            ]
        else:
            item = args[0] if args else Any
            items = [_decode(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin is typing.Literal:
        if value not in get_args(hint):
            raise InvalidInput(f"{where} {value!r} is not one of {get_args(hint)}")
        return value
    if hint is Any:
        return value
    if hint is type(None):
        if value is not None:
            raise InvalidInput(f"{where} {value!r} must be null")
        return None
    if hint is Card:
        if not isinstance(value, str):
            raise InvalidInput(f"{where} {value!r} must be a card such as 'As'")
        return Card.parse(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise InvalidInput(f"{where} {value!r} is not one of {allowed}") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise InvalidInput(f"{where} {value!r} must be true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(f"{where} {value!r} must be a whole number")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise InvalidInput(f"{where} {value!r} must be text")
        return value
    if hint is Fraction:
        try:
            return Fraction(value)
        except (TypeError, ValueError, ZeroDivisionError):
            raise InvalidInput(f"{where} {value!r} must be an exact number") from None
    raise InvalidInput(f"{where}: no JSON decoding for type {hint!r}")


def record_from_json(data: Mapping[str, Any]) -> Record:
    """The record that :func:`~croupier.games.records.record_to_json` wrote as ``data``."""
    if not isinstance(data, Mapping):
        raise InvalidInput(f"record {data!r} must be a JSON object")
    kind = data.get("kind")
    cls = _class_of(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(record_classes()))
        raise InvalidInput(f"record kind {kind!r} is unknown; kinds are {known}")
    hints = _hints(cls)
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names - {"kind"})
    if unknown:
        raise InvalidInput(f"{kind} record has unknown field(s) {', '.join(unknown)}")
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise InvalidInput(f"{kind} record lacks field {f.name!r}")
            continue
        values[f.name] = _decode(data[f.name], hints[f.name], f"{kind}.{f.name}")
    return cls(**values)


def rules_to_json(rules: RulesSubmission) -> dict[str, Any]:
    """A Rules Submission as the JSON object :func:`croupier.rules.submission.load_rules` reads
    back."""
    return rules.to_json()
