"""The README's Python example runs and prints what the README says it prints."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_example() -> tuple[str, str]:
    """The README's ``python`` block and the ``text`` block of output that follows it."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```\n(.*?)^```text\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 1, "the README holds one Python example followed by its output"
    code, _, output = blocks[0]
    return code, output


def test_readme_python_example_prints_its_documented_output() -> None:
    code, expected = python_example()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{README}:python example", "exec"), {"__name__": "readme"})
    assert out.getvalue() == expected
