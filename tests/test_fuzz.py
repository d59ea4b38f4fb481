"""Property-based fuzzing of ``replay``, ``rules check`` and ``hand`` (issue 13): whatever the
input, the command ends with status 0, or with status 2 and ``croupier: ...`` lines on stderr
(one for a file it cannot read); nothing else escapes.

Inputs are valid files with one value replaced, added or removed at random (so the fuzzer
reaches the game checks), raw bytes, and free text for hands.  The budget keeps the suite fast;
``CROUPIER_FUZZ_EXAMPLES=20000`` runs a long campaign (the report gives its figures).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.cli import main
from croupier.table.scenario import LIBRARY

HERE = Path(__file__).parent
SCENARIOS = sorted(LIBRARY.glob("*.json"))
RULES = sorted((HERE / "rules").glob("*.toml"))
EXAMPLES = int(os.environ.get("CROUPIER_FUZZ_EXAMPLES", "25"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

pytestmark = pytest.mark.timeout(600)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.sampled_from([0, 1, 5, 100, 500, 1000, 10**15 + 1, -1, 2**63])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["As", "10h", "Zz", "play 3", "fold", "0.25", "1e-30000000", "A", "\u0663"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def mutate(doc: Any, data: st.DataObject) -> Any:
    """Replace, drop or add one value somewhere in ``doc`` (a copy)."""
    doc = json.loads(json.dumps(doc, default=str))
    node = doc
    for _ in range(data.draw(st.integers(0, 4))):
        if isinstance(node, dict) and node:
            key = data.draw(st.sampled_from(sorted(node)))
            if isinstance(node[key], dict | list) and node[key]:
                node = node[key]
                continue
        elif isinstance(node, list) and node:
            index = data.draw(st.integers(0, len(node) - 1))
            if isinstance(node[index], dict | list) and node[index]:
                node = node[index]
                continue
        break
    action = data.draw(st.sampled_from(["replace", "drop", "add"]))
    if isinstance(node, dict):
        key = data.draw(
            st.sampled_from(sorted(node)) if node and action != "add" else st.text(max_size=8)
        )
        if action == "drop":
            node.pop(key, None)
        else:
            node[key] = data.draw(VALUES)
    elif isinstance(node, list):
        if node and action != "add":
            index = data.draw(st.integers(0, len(node) - 1))
            if action == "drop":
                node.pop(index)
            else:
                node[index] = data.draw(VALUES)
        else:
            node.append(data.draw(VALUES))
    return doc


def run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(argv, out=out)
    return status, err.getvalue()


def check_contract(status: int, err: str, *, one_line: bool) -> None:
    assert status in (0, 2), err
    if status == 2:
        lines = err.splitlines()
        assert lines and all(line.startswith("croupier: ") for line in lines), err
        if one_line:
            assert len(lines) == 1, err
    for line in err.splitlines():
        assert len(line) < 2000, line[:200]


def dump(doc: Any) -> str:
    try:
        return json.dumps(doc, allow_nan=True)
    except (ValueError, TypeError):  # pragma: no cover - VALUES are JSON values
        return "{}"


@FUZZ
@given(st.data())
def test_fuzz_replay_mutated_scenarios(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    source = data.draw(st.sampled_from(SCENARIOS))
    doc = mutate(json.loads(source.read_text()), data)
    path = tmp_path_factory.mktemp("fuzz") / "s.json"
    path.write_text(dump(doc), encoding="utf-8")
    status, err = run(["replay", str(path)])
    check_contract(status, err, one_line=True)


def _toml_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return {k: _toml_value(v) for k, v in value.items()}
    return value


@FUZZ
@given(st.data())
def test_fuzz_rules_check_mutated_submissions(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    source = data.draw(st.sampled_from(RULES))
    doc = mutate(_toml_value(tomllib.loads(source.read_text())), data)
    path = tmp_path_factory.mktemp("fuzz") / "r.json"
    path.write_text(dump(doc), encoding="utf-8")
    status, err = run(["rules", "check", str(path)])
    check_contract(status, err, one_line=False)


@FUZZ
@given(st.binary(max_size=300), st.sampled_from(["replay", "rules"]), st.booleans())
def test_fuzz_raw_bytes(
    tmp_path_factory: pytest.TempPathFactory, raw: bytes, command: str, toml: bool
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / ("r.toml" if toml else "r.json")
    path.write_bytes(raw)
    argv = ["replay", str(path)] if command == "replay" else ["rules", "check", str(path)]
    status, err = run(argv)
    check_contract(status, err, one_line=command == "replay")


CARD_TEXT = st.text(alphabet="23456789TJQKA10cdhs ,xZ\u0663\uff13\x00", max_size=40)


@FUZZ
@given(
    st.one_of(CARD_TEXT, st.text(max_size=60)),
    st.sampled_from(["poker5", "four-card", "three-card", "three-card-bonus", "nine"]),
)
def test_fuzz_hand(cards: str, ranking: str) -> None:
    status, err = run(["hand", cards, "--ranking", ranking])
    check_contract(status, err, one_line=True)
