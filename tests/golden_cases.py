"""The golden outputs of issue 37 (a redesign with behaviour unchanged): the command lines whose
output must stay byte-identical, and how to run one.

Saved before the redesign began (main at e091cf0) by ``python tests/golden_cases.py --write``
into ``tests/golden/``; ``tests/test_golden.py`` runs every case again and compares.

- every example scenario replayed (``croupier replay``);
- ``par --json`` and ``strategy --json`` of every game under its example rules, and of every other
  pay table a wager has (``--paytable WAGER=LETTER``);
- ``simulate --json`` with fixed seeds, through the round engine and the fast kernel (without
  the kernel's wall time and rate);
- ``compliance --json`` without each subsection's ``code`` and ``tests`` lists: those are file
  locations (``croupier/games/_table_regs.py:50``), which this redesign moves by design; what the
  matrix says of each subsection (status, why, reading, source) is held;
- the OpenAPI document of the live table system.

Every pay table above has a shipped solve, so the whole set runs in under a minute (the
timings print with each case) and ``make test`` runs it all.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from croupier.table.scenario import LIBRARY

ROOT = Path(__file__).resolve().parent
GOLDEN = ROOT / "golden"
SCENARIOS = LIBRARY

TIMINGS = ("wall_s", "rounds_per_s")
"""The fast kernel's timings: how fast this machine ran it, not what it computed."""


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    kind: str = "cli"

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.out"


def _paytable_cases() -> list[Case]:
    from croupier.games import GAMES

    cases: list[Case] = []
    for slug, cls in GAMES.items():
        cases.append(Case(f"par-{slug}", ("par", slug, "--json", "--quiet")))
        cases.append(Case(f"strategy-{slug}", ("strategy", slug, "--json", "--quiet")))
        example = cls.example_rules.get("paytables", {})
        for wager, tables in cls.paytables.items():
            for letter in tables:
                if example.get(wager) == letter:
                    continue
                pick = f"{wager}={letter}"
                stem = f"{slug}-{wager}-{letter}"
                cases.append(
                    Case(f"par-{stem}", ("par", slug, "--paytable", pick, "--json", "--quiet"))
                )
                cases.append(
                    Case(
                        f"strategy-{stem}",
                        ("strategy", slug, "--paytable", pick, "--json", "--quiet"),
                    )
                )
    return cases


def cases() -> list[Case]:
    """Every golden case, in a stable order."""
    from croupier.games import GAMES

    found = [Case(f"replay-{p.stem}", ("replay", str(p))) for p in sorted(SCENARIOS.glob("*.json"))]
    found += _paytable_cases()
    for slug in GAMES:
        found.append(
            Case(
                f"simulate-{slug}",
                ("simulate", slug, "--rounds", "400", "--seed", "37", "--json", "--quiet"),
            )
        )
        found.append(
            Case(
                f"simulate-kernel-{slug}",
                (
                    "simulate",
                    slug,
                    "--rounds",
                    "20000",
                    "--seed",
                    "37",
                    "--kernel",
                    "--json",
                    "--quiet",
                ),
            )
        )
    found.append(Case("compliance", ("compliance", "--json"), kind="compliance"))
    found.append(Case("openapi", (), kind="openapi"))
    return found


def _openapi() -> str:
    import tempfile

    from croupier.server.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/golden.db")
        return json.dumps(app.openapi(), indent=1, sort_keys=True) + "\n"


def _cli(argv: tuple[str, ...]) -> str:
    from typer.testing import CliRunner

    from croupier.cli import app

    result = CliRunner().invoke(app, list(argv))
    return f"exit {result.exit_code}\n{result.stdout}"


def output(case: Case) -> str:
    """What the case prints now (relative paths: the checkout's location is not an output)."""
    if case.kind == "openapi":
        return _openapi()
    text = _cli(case.argv)
    if "--kernel" in case.argv:
        head, _, body = text.partition("\n")
        run = json.loads(body)
        for key in TIMINGS:
            run.pop(key)
        text = f"{head}\n{json.dumps(run, indent=2)}\n"
    if case.kind == "compliance":
        head, _, body = text.partition("\n")
        matrix = json.loads(body)
        for row in matrix["subsections"]:
            row.pop("code", None)
            row.pop("tests", None)
        text = f"{head}\n{json.dumps(matrix, indent=1, sort_keys=True)}\n"
    return text.replace(str(ROOT), "tests")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write the golden files")
    parser.add_argument("--only", default="", help="only the cases whose name contains this")
    args = parser.parse_args()
    GOLDEN.mkdir(exist_ok=True)
    for case in cases():
        if args.only not in case.name:
            continue
        start = time.perf_counter()
        text = output(case)
        took = time.perf_counter() - start
        same = case.path.exists() and case.path.read_text() == text
        if args.write:
            case.path.write_text(text)
        print(f"{took:7.2f} s  {'same' if same else 'DIFFERS'}  {case.name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
