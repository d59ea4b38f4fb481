"""Issue 37: the redesign changes no behaviour.  Every golden output saved before it began
(``tests/golden_cases.py``: scenario replays, par sheets and strategies of every pay table,
seeded simulations, the compliance matrix, the OpenAPI document) is printed again, byte for
byte."""

from __future__ import annotations

import pytest

from golden_cases import Case, cases, output

CASES = cases()


def test_golden_files_cover_every_case() -> None:
    missing = [case.name for case in CASES if not case.path.exists()]
    assert missing == []


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_output_unchanged_by_the_redesign(case: Case) -> None:
    assert output(case) == case.path.read_text()
