"""The money oracle (issue 35): every game of the demo floor played through HTTP and the
WebSocket stream by an outside client, each round settled offline by ``croupier replay`` and
every chip held to it, on SQLite and on PostgreSQL (:mod:`live.oracle_run`).

SQLite plays every decision path of every game at least once, PostgreSQL one round of each
game (both: two or more players at every table, one voided round a game, baccarat until a coup
deals one card twice and, at mini-baccarat, until a Banker wager wins; then every training case
of :mod:`live.oracle_stacks` at training tables of its own).  The counts go to
``test-artifacts/oracle/oracle-<backend>.json`` whatever pytest's output options;
``benchmarks/bench_oracle.py`` is the long run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from live.live_harness import Server
from live.oracle_check import SRC
from live.oracle_games import GAMES
from live.oracle_run import OracleReport, Size, run_oracle
from live.oracle_stacks import CASES, Case, scenario_of, unmet

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "oracle"
DEMO_RULES = SRC / "croupier" / "server" / "demo"

UNTIL = {
    # the deferred commission of issue 35's defect 2 needs a Banker win to show
    "mini-baccarat": frozenset({"banker:win", "shoe:card-repeated"}),
    # an eight-deck shoe deals one card twice in about one coup in five
    "midi-baccarat": frozenset({"shoe:card-repeated"}),
    "ez-baccarat": frozenset({"shoe:card-repeated"}),
}
BACCARAT = {"mini-baccarat": 2, "midi-baccarat": 2, "ez-baccarat": 2}
ONE_ROUND = tuple(case.name for case in CASES if case.shoe is None)
"""The training cases of one round each; a shoe case deals a whole six-deck shoe (about sixty
coups), on SQLite in ``make test``, on both backends in ``make bench``."""
MAX_ROUNDS = 60
"""A bound, not a count: a game stops once its size is met.  A baccarat game waits for a coup
that deals one card twice (about one coup in five, eight decks): at 30 rounds one run in a few
hundred did not see one (CI, ez-baccarat on PostgreSQL); at 60, about one in a million."""
SIZES = {
    "sqlite": Size(
        players=4, players_at=BACCARAT, mode="paths", voids=1, until=UNTIL, max_rounds=MAX_ROUNDS
    ),
    "postgresql": Size(
        players=3,
        players_at=BACCARAT,
        mode="rounds",
        voids=1,
        until=UNTIL,
        max_rounds=MAX_ROUNDS,
        cases=ONE_ROUND,
    ),
}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def oracle(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OracleReport]:
    """The whole oracle, once per backend, on a server of its own."""
    backend = str(request.param)
    directory = tmp_path_factory.mktemp(f"oracle-{backend}")
    if backend == "sqlite":
        db_url = f"sqlite:///{directory / 'floor.sqlite'}"
    else:
        db_url = request.getfixturevalue("pg_cluster").database()
    server = Server(db_url, directory / "server.log")
    server.start()
    try:
        report = run_oracle(server.url, db_url, SIZES[backend], directory)
    finally:
        server.stop()
    report.write(ARTIFACTS / f"oracle-{backend}.json")
    yield report


def _found(report: OracleReport, game: str, check: str) -> list[str]:
    return [str(f) for f in report.for_game(game)[0] if f.check == check]


@pytest.mark.parametrize("game", list(GAMES))
def test_oracle_each_players_chips_move_by_the_replayed_net(
    oracle: OracleReport, game: str
) -> None:
    """Round by round each player's balance (ledger and ``/api/me``) moves by the offline
    replay's net of the player's seats, the table's account returns to zero, the balance after
    leaving is the buy-in plus every replayed net, and the audit names nothing of the game."""
    assert oracle.counts.rounds[game] >= 1
    problems = _found(oracle, game, "chips") + oracle.for_game(game)[1]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", list(GAMES))
def test_oracle_live_round_equals_its_offline_replay(oracle: OracleReport, game: str) -> None:
    """The exported scenario replays to the server's settlement, wager by wager; the records
    (``GET /api/rounds/{id}/records`` and the supervisor's stream) are the replay's; each
    player's stream settled the player's seats as the replay does; meters stand where the
    replay leaves them."""
    problems = _found(oracle, game, "records")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", list(GAMES))
def test_oracle_voided_round_exports_a_scenario_that_replays_as_voided(
    oracle: OracleReport, game: str
) -> None:
    """A round the supervisor voids is exported with its void: ``croupier replay`` voids it
    at the same point, record for record, and settles it as the server did (every open wager
    returned, a fold before the void a forfeit)."""
    assert any(v.startswith(f"{game}@") for v in oracle.counts.voids), oracle.counts.voids
    problems = _found(oracle, game, "void")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", list(GAMES))
def test_oracle_plays_every_wager_with_two_players_or_more(oracle: OracleReport, game: str) -> None:
    """Every wager the table offers was placed; every round had two seats or more; the size
    asked for was reached (its paths or rounds, the baccarat coups it waits for, its void)."""
    counts = oracle.counts
    assert not oracle.unfinished.get(game), oracle.unfinished[game]
    assert counts.seat_rounds[game] >= 2 * counts.rounds[game] > 0
    assert set(oracle.offered[game]) <= set(counts.wagers[game]), counts.wagers[game]


def test_oracle_played_what_its_size_asks_of_every_game(
    oracle: OracleReport, request: pytest.FixtureRequest
) -> None:
    """SQLite (``paths``): every decision path of every game at least once; PostgreSQL
    (``rounds``): the size's rounds at every game.  Either way, only the plan's paths."""
    size = SIZES[request.node.callspec.params["oracle"]]
    names = {
        game: {" / ".join(p) or "(no decision)" for p in plan.paths} for game, plan in GAMES.items()
    }
    played = {game: set(oracle.counts.paths.get(game, {})) for game in GAMES}
    assert {g: sorted(played[g] - names[g]) for g in GAMES if played[g] - names[g]} == {}
    if size.mode == "paths":
        assert {g: sorted(names[g] - played[g]) for g in GAMES if names[g] - played[g]} == {}
    else:
        short = {g: oracle.counts.rounds[g] for g in GAMES if oracle.counts.rounds[g] < size.rounds}
        assert short == {}


def test_oracle_audit_finds_nothing_outside_the_games(oracle: OracleReport) -> None:
    """``croupier audit verify --db URL`` and ``/api/audit/verify?scope=all``: every finding
    names a game's table, round or player (those fail that game's chips test)."""
    assert not oracle.unattributed_audit(), oracle.unattributed_audit()


def _replay(scenario: dict[str, object], directory: Path) -> dict[str, object]:
    path = directory / "case.json"
    path.write_text(json.dumps(scenario))
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, object] = json.loads(done.stdout)
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_training_case_replays_offline_to_its_outcome(case: Case, tmp_path: Path) -> None:
    """Each stacked case, settled offline under its demo table's rules, comes to what it is
    there for (so the live run tests the server, not the stack)."""
    rules = tomllib.loads((DEMO_RULES / f"{case.game}.toml").read_text())
    out = _replay(scenario_of(case, rules), tmp_path)
    seats = out["seats"]
    assert isinstance(seats, dict)
    assert unmet(case, seats) == []


def test_training_cases_through_the_live_server(
    oracle: OracleReport, request: pytest.FixtureRequest
) -> None:
    """Each case of the backend's size (SQLite: every case; PostgreSQL: all but the whole-shoe
    case, which ``make bench`` plays there) at a training table of the live server (contract
    3): its chips and records held to its offline replay, its hand-pays approved, its outcome
    reached (a shoe case: every coup to the end of its shoe, its markers collected then)."""
    planned = SIZES[request.node.callspec.params["oracle"]].cases
    assert sorted(oracle.cases) == sorted(planned)
    failed = {name: problems for name, problems in oracle.cases.items() if problems}
    assert failed == {}, "\n".join(f"{n}: {p}" for n, ps in failed.items() for p in ps)
