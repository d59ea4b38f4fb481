"""The optional extras (croupier.core.extras): a bare install runs the engine, the rules, scenario
replay and the small command line; a command whose extra is missing says which one to install
(one line on stderr, exit 2); ``pyproject.toml`` lists what :mod:`croupier.core.extras` states.

A bare install is reproduced in a fresh interpreter by making every module of every extra
unimportable (``sys.modules[name] = None``: the import system then finds no such module, as in
a venv without it).  ``scripts/bare-install.sh`` (run by ``make test``) does the same with a
built wheel in a fresh virtual environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command

from croupier.cli import app
from croupier.core.errors import CroupierError, InvalidInput, MissingExtra
from croupier.core.extras import BASE, EXTRAS, extra_of_module, installed, missing, require
from croupier.games import get_game
from croupier.rules.submission import load_rules
from croupier.table.scenario import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
SCENARIO = "src/croupier/scenarios/641a_11_c_3_tie_goes_to_the_player.json"
RULES = "tests/rules/four-card-poker.toml"
EXTRA_MODULES = sorted(m for extra in EXTRAS.values() for m in extra.modules)

BARE_RUNS: dict[str, list[str]] = {
    "hand": ["hand", "As", "Kd", "Th", "9c", "2s"],
    "replay": ["replay", SCENARIO],
    "schema": ["schema", "rules"],
    "compliance": ["compliance", "--json"],
    "rules check": ["rules", "check", RULES],
    "rules sign": ["rules", "sign", RULES],
}
"""Every command a bare install runs, with arguments it accepts."""

NEEDS: dict[str, tuple[str, list[str]]] = {
    "count": ("analysis", ["count", "--cards", "5", "--quiet"]),
    "par": ("analysis", ["par", "four-card-poker"]),
    "strategy": ("analysis", ["strategy", "three-card-poker"]),
    "simulate": ("analysis", ["simulate", "three-card-poker", "--rounds", "10", "--seed", "1"]),
    "demo": ("analysis", ["demo"]),
    "protect": ("analysis", ["protect", "three-card-poker"]),
    "theo": ("analysis", ["theo", "three-card-poker", "--average-bet", "10", "--hours", "1"]),
    "design": (
        "analysis",
        ["design", "three-card-poker", "--target-edge", "0.05", "--wager", "pair_plus"],
    ),
    "floor simulate": ("analysis", ["floor", "simulate", "f.toml", "--hours", "1", "--seed", "1"]),
    "progressive economics": ("analysis", ["progressive", "economics", "let-it-ride"]),
    "progressive plan": (
        "analysis",
        ["progressive", "plan", "let-it-ride", "--target-hold", "0.1"],
    ),
    "play": ("server", ["play", "three-card-poker", "--seed", "1"]),
    "recall": ("server", ["recall", "--table", "t"]),
    "device shoe": ("server", ["device", "shoe", "http://127.0.0.1:1", "t"]),
    "serve": ("server", ["serve"]),
    "db upgrade": ("server", ["db", "upgrade"]),
    "db backup": ("server", ["db", "backup", "floor.backup"]),
    "db restore": ("server", ["db", "restore", "floor.backup", "--db", "sqlite:///r.sqlite"]),
    "accounts create": ("server", ["accounts", "create", "ann", "--role", "dealer"]),
    "accounts list": ("server", ["accounts", "list"]),
    "accounts disable": ("server", ["accounts", "disable", "ann"]),
    "accounts enable": ("server", ["accounts", "enable", "ann"]),
    "accounts password": ("server", ["accounts", "password", "ann"]),
    "accounts role": ("server", ["accounts", "role", "ann", "dealer"]),
    "accounts bind": ("server", ["accounts", "bind", "ann", "t1"]),
    "accounts unlock": ("server", ["accounts", "unlock", "ann"]),
    "accounts locks": ("server", ["accounts", "locks"]),
    "audit verify": ("server", ["audit", "verify"]),
    "audit verify-deal": ("server", ["audit", "verify-deal", "r1"]),
}
"""Every command that needs an extra: the extra, and arguments it accepts."""

# Runs in a fresh interpreter: hides every module of every extra, then runs each command line
# given (a JSON list of argument lists) through croupier.cli.main, and a command no require()
# guards (the safety net of CroupierGroup); prints each status, stdout and stderr.
BARE_CLI = """
import contextlib, io, json, sys
for name in sys.argv[2:]:
    sys.modules[name] = None
import typer
from croupier.cli import main
from croupier.cli.app import CroupierGroup

probe = typer.Typer(cls=CroupierGroup)

@probe.command()
def unguarded() -> None:
    import numba  # noqa: F401

@probe.command()
def other() -> None:
    pass

results = []
for argv in json.loads(sys.argv[1]) + [None]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if argv is None:
            status = typer.main.get_command(probe).main(["unguarded"], standalone_mode=False)
        else:
            status = main(argv)
    results.append([status, out.getvalue(), err.getvalue()])
print(json.dumps(results))
"""

# Runs in a fresh interpreter with every extra installed: the engine's work imports none of them.
ENGINE_ONLY = """
import json, sys
import croupier, croupier.games, croupier.rules.submission, croupier.table.scenario
import croupier.cli, croupier.core.extras
from croupier.games import get_game
from croupier.rules.submission import load_rules
from croupier.table.scenario import load_scenario, run_scenario
run_scenario(load_scenario(sys.argv[1]))
get_game(load_rules(sys.argv[2]))
print(json.dumps(sorted(m for m in sys.argv[3:] if m in sys.modules)))
"""


def _python(code: str, *args: str) -> Any:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(ROOT / "tests")])}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def bare() -> dict[str, tuple[int, str, str]]:
    """Every command of BARE_RUNS and NEEDS (and ``rules check --json``, and the unguarded
    probe command) run once in an interpreter where no extra's module can be imported."""
    runs = {**BARE_RUNS, **{name: argv for name, (_, argv) in NEEDS.items()}}
    runs["rules check --json"] = ["rules", "check", RULES, "--json"]
    results = _python(BARE_CLI, json.dumps(list(runs.values())), *EXTRA_MODULES)
    named = dict(zip([*runs, "unguarded"], results, strict=True))
    return {name: (status, out, err) for name, (status, out, err) in named.items()}


def _leaf_commands(command: Any, prefix: str = "") -> list[str]:
    subcommands = getattr(command, "commands", None)
    if not isinstance(subcommands, dict):
        return [prefix]
    return [
        leaf
        for name, sub in subcommands.items()
        for leaf in _leaf_commands(sub, f"{prefix} {name}".strip())
    ]


def test_every_command_is_bare_or_names_its_extra() -> None:
    # a new command is classified here: it runs bare, or it needs an extra
    assert sorted(_leaf_commands(get_command(app))) == sorted([*BARE_RUNS, *NEEDS])


@pytest.mark.parametrize("name", sorted(NEEDS))
def test_command_without_its_extra_says_which_to_install_and_exits_2(
    bare: dict[str, tuple[int, str, str]], name: str
) -> None:
    extra = NEEDS[name][0]
    status, out, err = bare[name]
    assert (status, out) == (2, "")
    assert err == f"croupier: {name}: needs the {extra} extra: pip install 'croupier[{extra}]'\n"


def test_par_four_card_poker_refuses_bare_in_one_line(
    bare: dict[str, tuple[int, str, str]],
) -> None:
    assert bare["par"] == (
        2,
        "",
        "croupier: par: needs the analysis extra: pip install 'croupier[analysis]'\n",
    )


@pytest.mark.parametrize("name", sorted(BARE_RUNS))
def test_bare_install_runs_the_engines_commands(
    bare: dict[str, tuple[int, str, str]], name: str
) -> None:
    status, out, err = bare[name]
    assert (status, err) == (0, "")
    assert out


def test_bare_replay_prints_the_same_settlement(bare: dict[str, tuple[int, str, str]]) -> None:
    expected = json.dumps(run_scenario(load_scenario(ROOT / SCENARIO)), indent=2) + "\n"
    assert bare["replay"][1] == expected


def test_bare_rules_check_validates_and_says_it_did_not_price(
    bare: dict[str, tuple[int, str, str]],
) -> None:
    title = get_game(load_rules(ROOT / RULES)).title
    hint = "needs the analysis extra: pip install 'croupier[analysis]'"
    assert bare["rules check"][1] == (
        f"{RULES}: a valid {title} Rules Submission\n"
        f"{RULES}: not priced, no house-edge warnings: {hint}\n"
    )
    status, out, err = bare["rules check --json"]
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["ok"] is True and report["warnings"] == []
    assert report["unpriced"] == f"not priced, no house-edge warnings: {hint}"


def test_module_of_an_extra_reached_without_require_still_names_the_extra(
    bare: dict[str, tuple[int, str, str]],
) -> None:
    hint = "needs the analysis extra: pip install 'croupier[analysis]'"
    assert bare["unguarded"] == (2, "", f"croupier: unguarded: {hint}\n")


def test_engine_replay_and_rules_import_no_optional_package() -> None:
    # every extra is installed here (make test installs croupier[dev]): none is imported
    assert all(installed(name) for name in ("analysis", "server"))
    loaded = _python(ENGINE_ONLY, SCENARIO, RULES, *EXTRA_MODULES)
    assert loaded == []


def test_require_passes_where_the_extra_is_installed() -> None:
    assert missing("analysis") == () and missing("server") == ()
    require("analysis", "par")
    require("server", "serve")


def test_missing_extra_is_a_croupier_error_naming_command_and_extra() -> None:
    exc = MissingExtra("server", "audit verify")
    assert isinstance(exc, CroupierError)
    assert (exc.extra, exc.command) == ("server", "audit verify")
    assert str(exc) == "audit verify: needs the server extra: pip install 'croupier[server]'"


def test_unknown_extra_is_refused_by_name() -> None:
    with pytest.raises(InvalidInput, match="no extra named 'gpu' \\(have: analysis, server\\)"):
        require("gpu", "par")  # type: ignore[arg-type]


def test_each_module_belongs_to_one_extra() -> None:
    assert extra_of_module("numpy.linalg") == "analysis"
    assert extra_of_module("sqlalchemy.orm") == "server"
    assert extra_of_module("croupier.games") is None
    assert extra_of_module("typer") is None
    assert len(EXTRA_MODULES) == len(set(EXTRA_MODULES))


def test_pyproject_lists_what_croupier_extras_states() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]
    assert project["dependencies"] == list(BASE)
    assert set(optional) == {*EXTRAS, "all", "dev"}
    for name, extra in EXTRAS.items():
        assert optional[name] == list(extra.requirements), name
    assert optional["all"] == [f"croupier[{','.join(EXTRAS)}]"]
    assert optional["dev"][0] == "croupier[all]"
    # the test tools only: no extra's package is listed in dev a second time
    assert not {r.split("[")[0].split(">")[0] for r in optional["dev"][1:]} & {
        r.split("[")[0].split(">")[0] for extra in EXTRAS.values() for r in extra.requirements
    }
