"""The README and the documentation pages (docs/) state facts that hold.

Every Python example runs and prints what its page says it prints; the README's links resolve and
its two set-up commands are the Makefile's; every measured figure sits beside the benchmark that
prints it, one `make bench` runs; no page keeps a dated diary of measurements, and no paragraph is
a wall of text.  (`mkdocs build --strict`, run by `make test`'s docs target, checks the site's
links, anchors and API references.)
"""

from __future__ import annotations

import contextlib
import io
import itertools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = (README, *sorted(DOCS.rglob("*.md")))
MAKEFILE = ROOT / "Makefile"

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")
BENCH_SCRIPT = re.compile(r"benchmarks/(bench_\w+\.py)")
# A measurement: a number with a unit of time or memory spent, or a rate per CPU-second.
MEASURED = re.compile(
    r"\d[\d,.]*\s*(?:CPU[- ]s\b|CPU[- ]seconds?\b|rounds/CPU-s\b|µs\b|MiB\b|MB\b"
    r"|(?:s|seconds|minutes) of wall\b|s wall\b)"
)
DIARY = re.compile(
    r"this (?:session's )?machine|evening|afternoon|load average \d|\bcommit [0-9a-f]{7,}\b"
    r"|\bUTC\b",
    re.I,
)
LONGEST_PARAGRAPH = 15


def rel(page: Path) -> str:
    return str(page.relative_to(ROOT))


def python_examples(page: Path) -> list[tuple[str, str]]:
    """Each ``python`` block of the page whose next block is its ``text`` output."""
    fences = FENCE.findall(page.read_text(encoding="utf-8"))
    return [
        (code, after[1])
        for (lang, code), after in itertools.pairwise(fences)
        if lang == "python" and after[0] == "text"
    ]


def paragraphs(page: Path) -> list[str]:
    """The page's text outside code blocks, split at blank lines, headings and list items."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [p for p in re.split(r"\n\s*\n|\n(?=#|\s*[-*] |\s*\d+\. )", text) if p.strip()]


EXAMPLES = [(page, n) for page in PAGES for n in range(len(python_examples(page)))]


def test_readme_holds_one_python_example_with_its_output() -> None:
    assert len(python_examples(README)) == 1


@pytest.mark.parametrize(("page", "n"), EXAMPLES, ids=[f"{rel(p)}-{n}" for p, n in EXAMPLES])
def test_python_example_prints_its_documented_output(page: Path, n: int) -> None:
    code, expected = python_examples(page)[n]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{page}:python example {n}", "exec"), {"__name__": "docs_example"})
    assert out.getvalue() == expected


def test_readme_links_resolve_to_files_of_the_repository() -> None:
    targets = [t for t in LINK.findall(README.read_text(encoding="utf-8")) if "://" not in t]
    assert "docs/architecture.md" in targets
    missing = [t for t in targets if not (ROOT / t.split("#")[0]).is_file()]
    assert missing == []


def test_readme_links_no_file_outside_the_repository() -> None:
    assert "../" not in README.read_text(encoding="utf-8")


def test_readme_set_up_commands_are_make_targets_and_test_builds_the_docs() -> None:
    readme = README.read_text(encoding="utf-8")
    make = MAKEFILE.read_text(encoding="utf-8")
    for target in ("run", "test"):
        assert f"make {target}" in readme
        assert re.search(rf"^{target}:", make, re.M)
    test_rule = re.search(r"^test:(.*)$", make, re.M)
    assert test_rule is not None and "docs" in test_rule.group(1).split()
    assert re.search(r"^docs:.*\n\t.*mkdocs build --strict", make, re.M)


def bench_recipe() -> str:
    make = MAKEFILE.read_text(encoding="utf-8")
    found = re.search(r"^bench:.*\n((?:\t.*\n)+)", make, re.M)
    assert found is not None
    return found.group(1)


def test_every_benchmark_the_docs_name_is_run_by_make_bench() -> None:
    recipe = set(BENCH_SCRIPT.findall(bench_recipe()))
    named = {s for page in PAGES for s in BENCH_SCRIPT.findall(page.read_text(encoding="utf-8"))}
    assert named, "the docs name the benchmarks that print their figures"
    assert named - recipe == set()


def test_every_measured_figure_names_the_benchmark_that_prints_it() -> None:
    recipe = set(BENCH_SCRIPT.findall(bench_recipe()))
    orphans = [
        (rel(page), MEASURED.search(p).group(0))  # type: ignore[union-attr]
        for page in PAGES
        for p in paragraphs(page)
        if MEASURED.search(p) and not set(BENCH_SCRIPT.findall(p)) & recipe
    ]
    assert orphans == []


def test_the_figure_check_finds_a_measurement_without_its_command() -> None:
    assert MEASURED.search("the month took 30.0 CPU seconds and 0.25 minutes of wall")
    assert MEASURED.search("13,426 rounds/CPU-s") and MEASURED.search("RSS 100.5 MiB")
    assert not MEASURED.search("a session ends idle after 30 minutes; retry after 250 ms")


def test_no_page_keeps_a_dated_diary() -> None:
    dated = [
        (rel(page), m.group(0))
        for page in PAGES
        for m in DIARY.finditer(FENCE.sub("", page.read_text(encoding="utf-8")))
    ]
    assert dated == []


def test_no_paragraph_is_a_wall_of_text() -> None:
    walls = [
        (rel(page), p.strip().splitlines()[0][:60])
        for page in PAGES
        for p in paragraphs(page)
        if len(p.strip().splitlines()) > LONGEST_PARAGRAPH and not p.lstrip().startswith("|")
    ]
    assert walls == []
