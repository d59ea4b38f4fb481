"""The compliance matrix (compliance.py): subsections from the texts, citations from the code,
tests from their names; the shipped data file against the texts; no test names a subsection
that no code cites."""

from __future__ import annotations

import io
import json
import os
from functools import cache
from pathlib import Path

import pytest

from croupier import cli
from croupier.rules.compliance import (
    CHAPTERS,
    SOURCE_LINE,
    Row,
    Status,
    build,
    code_citations,
    load_notes,
    load_sections,
    parse_citations,
    parse_test_name,
    parse_texts,
    source_roots,
    split_ref,
    uncited_in_code,
    write_sections,
)
from croupier.rules.compliance import test_citations as citations_in_tests

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "croupier" / "data"


def shared_folder() -> Path | None:
    """The regulation texts: ``$CROUPIER_SHARED``, or ``shared`` beside the repository (CI's
    ``../shared``) or beside the folder holding it (a worktree)."""
    env = os.environ.get("CROUPIER_SHARED")
    candidates = [Path(env)] if env else []
    candidates += [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
    for candidate in candidates:
        if (candidate / "seeds").is_dir():
            return candidate
    return None


SHARED = shared_folder()


@cache
def rows() -> tuple[Row, ...]:
    return tuple(build())


def known() -> set[str]:
    package, _ = source_roots()
    return {s.ref for s in load_sections()} | set(code_citations(package))


# --- the subsections -------------------------------------------------------------------------


def test_shipped_sections_match_the_texts() -> None:
    # Never skipped: without the regulation texts the shipped sections could drift unseen, so a
    # checkout without them fails here, naming where they are looked for.
    assert SHARED is not None, (
        "the regulation texts are missing: set CROUPIER_SHARED or put shared/seeds beside the "
        f"repository ({ROOT.parent / 'shared'})"
    )
    shipped = (DATA / "sections.tsv").read_text(encoding="utf-8")
    assert write_sections(parse_texts(SHARED)) == shipped


def test_sections_file_names_its_source_and_every_chapter() -> None:
    text = (DATA / "sections.tsv").read_text(encoding="utf-8")
    assert text.splitlines()[0] == SOURCE_LINE and SOURCE_LINE.startswith("# Source:")
    sections = load_sections()
    chapters = {split_ref(s.ref)[0].split(".")[0] for s in sections}
    assert chapters == set(CHAPTERS) - {"649a"}  # no text of Chapter 649a is at hand
    refs = [s.ref for s in sections]
    assert len(refs) == len(set(refs))


def test_subsections_read_at_every_depth_and_across_flattened_tables() -> None:
    refs = {s.ref for s in load_sections()}
    for ref in (
        "641a.5(f)(2)(ii)",  # (ii) under (f)(2)
        "641a.13(g)",  # a heading run on after a flattened Envy table
        "641a.12(d)(5)",  # (d) run on after a flattened Aces Up table
        "541.8(a)(1)(iii)(B)",
        "643a.7(l)",  # the current § 643a.7 (seed 003), beyond the 2011 (h)
        "569.11(e)(2)(ii)",  # after an elision
        "653a.6(b)(7)",  # a digest's table rows
        "655a.12(c)(3)",
        "629a.13",  # a digest's section list
    ):
        assert ref in refs, ref
    assert "641a.12(e)" not in refs  # § 641a.13(e) is not read as § 641a.12's
    assert not [r for r in refs if r.startswith("641a.1(")]  # a definition's (i), (ii)
    assert "641a.11(c)(5)(v)" in refs and "641a.11(v)" not in refs


# --- citations -------------------------------------------------------------------------------


def test_citations_in_code_are_read_with_their_ranges_and_continuations() -> None:
    assert parse_citations("§ 641a.8(f), (h), § 641a.9(d)") == [
        "641a.8(f)",
        "641a.8(h)",
        "641a.9(d)",
    ]
    assert parse_citations("§ 641a.4(a)-(c)") == ["641a.4(a)", "641a.4(b)", "641a.4(c)"]
    assert parse_citations("§§ 641a.8-641a.10") == ["641a.8", "641a.9", "641a.10"]
    assert parse_citations("§ 641a.3(b)(2)-(3)") == ["641a.3(b)(2)", "641a.3(b)(3)"]
    assert parse_citations("§ 641a.5(f)(2)(i)-(ii)") == ["641a.5(f)(2)(i)", "641a.5(f)(2)(ii)"]
    assert parse_citations("§ 541.8(a)(2)(i)-(iii), (a)(3)") == [
        "541.8(a)(2)(i)",
        "541.8(a)(2)(ii)",
        "541.8(a)(2)(iii)",
        "541.8(a)(3)",
    ]
    assert parse_citations('f"§ {chapter}.5(a)"') == []


def test_test_names_are_read_up_to_their_words() -> None:
    assert parse_test_name("test_641a_8_f_9_d_10_d_stub_policy") == [
        "641a.8(f)",
        "641a.9(d)",
        "641a.10(d)",
    ]
    assert parse_test_name("test_641a_8_9_10_deal") == ["641a.8", "641a.9", "641a.10"]
    assert parse_test_name("test_569_7_h_571_7_f_one") == ["569.7(h)", "571.7(f)"]
    assert parse_test_name("test_643a_7_g_h_progressives") == ["643a.7(g)", "643a.7(h)"]
    assert parse_test_name("test_641a_11_c_5_v_no_envy") == ["641a.11(c)(5)(v)"]
    assert parse_test_name("test_569_11_h_1_a_4x_play") == ["569.11(h)(1)"]  # "a" is a word
    assert parse_test_name("541_8_a_1_iii_a_tie") == ["541.8(a)(1)(iii)"]
    assert parse_test_name("test_clock_never_goes_back") == []


def test_no_subsection_named_by_a_test_lacks_code_citing_it() -> None:
    package, tests = source_roots()
    assert tests is not None
    code = code_citations(package)
    missing = uncited_in_code(citations_in_tests(tests, known()), code)
    assert missing == {}


def test_code_places_point_at_lines_citing_the_section() -> None:
    package, _ = source_roots()
    for ref, cites in list(code_citations(package).items())[:400]:
        for cite in cites[:3]:
            path, line = cite.where.rsplit(":", 1)
            text = (package.parent / path).read_text(encoding="utf-8").splitlines()
            assert "§" in text[int(line) - 1], (ref, cite.where)


# --- notes and readings ----------------------------------------------------------------------


def test_notes_name_known_sections_and_say_why() -> None:
    text = (DATA / "compliance_notes.tsv").read_text(encoding="utf-8")
    assert text.startswith("# Source:")
    refs = {s.ref for s in load_sections()} | set(CHAPTERS)
    for ref, note in load_notes().items():
        assert ref in refs or any(r.startswith(ref + "(") for r in refs), ref
        assert note.kind in ("not-implemented", "reading") and len(note.text) > 20


def test_641a_10_b_bottom_card_reading_is_in_the_code_and_the_matrix() -> None:
    row = next(r for r in rows() if r.ref == "641a.10(b)")
    assert row.status is Status.IMPLEMENTED and "first card" in row.reading
    assert any("games/four_card_poker/game.py" in c for c in row.code)
    source = (ROOT / "src/croupier/games/four_card_poker/game.py").read_text(encoding="utf-8")
    assert "bottom card" in source and "first card" in source


def test_every_row_has_code_or_a_reason() -> None:
    matrix = rows()
    assert len(matrix) == len(load_sections()) + 1  # and a row for Chapter 649a, without text
    (tcp,) = [r for r in matrix if r.ref == "649a"]
    assert tcp.status is Status.IMPLEMENTED and "no text" in tcp.reading
    for row in matrix:
        if row.status is Status.IMPLEMENTED:
            assert row.code and not row.why
        else:
            assert row.why, row.ref
    procedures = {r.ref: r for r in matrix if r.ref.startswith(("641a.5", "641a.13", "641a.3(b)"))}
    for ref in ("641a.3(b)(4)", "641a.5(a)", "641a.5(b)", "641a.5(e)", "641a.5(g)", "641a.13(g)"):
        assert procedures[ref].status is Status.IMPLEMENTED and procedures[ref].tests, ref


def test_croupier_compliance_prints_the_matrix_and_json() -> None:
    out = io.StringIO()
    assert cli.main(["compliance"], out=out) == 0
    text = out.getvalue()
    assert text.splitlines()[0].startswith(f"{len(load_sections()) + 1} subsections:")
    assert "§ 641a.5(b)" in text
    out = io.StringIO()
    assert cli.main(["compliance", "--json"], out=out) == 0
    listed = json.loads(out.getvalue())["subsections"]
    row = next(r for r in listed if r["ref"] == "641a.13(g)")
    assert row["status"] == "implemented" and row["section"] == "§ 641a.13(g)"
    assert any("test_641a_13_g" in t for t in row["tests"])


def test_croupier_compliance_refuses_a_missing_tests_folder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["compliance", "--tests", "/nonexistent/tests"]) == 2
    assert "not a directory" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"\xc1\xff not text", "is not Python: 'utf-8' codec can't decode"),
        (b"def test_641a_5_b(:\n", "is not Python: invalid syntax"),
        (b"x = 1\x00\n", "is not Python"),
    ],
)
def test_croupier_compliance_refuses_a_test_file_that_is_not_python_in_one_line(
    content: bytes, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "test_bad.py").write_bytes(content)
    assert cli.main(["compliance", "--tests", str(tmp_path)], out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "test_bad.py" in err


def test_a_test_named_after_an_uncited_subsection_is_reported() -> None:
    from croupier.rules.compliance import Citation

    tests = {
        "641a.99(z)": [Citation("641a.99(z)", "tests/x.py::test_641a_99_z_made_up")],
        "641a.5(b)": [Citation("641a.5(b)", "tests/x.py::test_641a_5_b_real")],
    }
    code = {"641a.5(b)": [Citation("641a.5(b)", "croupier/procedures.py:1")]}
    assert uncited_in_code(tests, code) == {"641a.99(z)": ["tests/x.py::test_641a_99_z_made_up"]}
    # a bare section cited in code does not cover a subsection named by a test
    section = {"641a.5": [Citation("641a.5", "croupier/procedures.py:1")]}
    assert "641a.5(b)" in uncited_in_code(tests, section)
