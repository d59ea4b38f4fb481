"""``croupier play``: the hand category, the live meter and the posted limits on screen; the
hand history stored as it is played and read back by ``croupier recall``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from croupier.cli import app
from croupier.core.cards import parse_cards
from croupier.faces.terminal import hand_category
from croupier.hands import Ranking
from croupier.store import RoundStore


def test_hand_category_of_a_partial_hand() -> None:
    assert hand_category(parse_cards("As Ad"), Ranking.POKER5) == "pair"
    assert hand_category(parse_cards("As Ad Kc Kd"), Ranking.POKER5) == "two pair"
    assert hand_category(parse_cards("7s 7d 7c 2h 9s"), Ranking.POKER5) == "three of a kind"
    assert hand_category(parse_cards("Qs 6d 4c"), Ranking.THREE_CARD) == "high card"


def test_play_shows_category_meter_and_limits_and_stores_the_history(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'floor.sqlite'}"
    argv = ["play", "three-card-poker", "--rules", "tests/rules/three-card-poker.toml"]
    argv += ["--seed", "3", "--db", db, "--table", "T7"]
    # ante $5, no pair plus, no six card bonus, progressive $1 (offered by these rules), play
    result = CliRunner().invoke(app, argv, input="500\n\n\n100\n1\nn\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Progressive meter 'three-card-poker': $5,000\n" in out  # the rules' reset
    assert "Posted limits: " in out
    assert "your cards: Ac 4s As  (pair)" in out
    assert "showing: {}" not in out and "{'" not in out
    assert "stored as table 'T7'" in out
    back = CliRunner().invoke(app, ["recall", "--table", "T7", "--db", db, "--json"])
    assert back.exit_code == 0, back.stderr
    rounds = json.loads(back.stdout)
    assert len(rounds) == 1 and rounds[0]["game"] == "three-card-poker"
    assert rounds[0]["status"] == "over" and rounds[0]["players"]["3"] == "you"
    # ante $5 wins, play pushes, progressive $1 loses (dealer 3h Tc 9c does not qualify)
    assert rounds[0]["settlement"]["3"]["net"] == 400
    shown = CliRunner().invoke(app, ["recall", "--table", "T7", "--db", db, "--seat", "3"])
    assert shown.exit_code == 0 and "you" in shown.stdout and "house player" not in shown.stdout


def test_practice_rounds_are_not_stored_without_a_database() -> None:
    result = CliRunner().invoke(app, ["play", "mini-baccarat", "--seed", "5"], input="500\n\n\nn\n")
    assert result.exit_code == 0
    assert "Practice rounds (seeded shuffle) are not kept" in result.stdout


def test_recall_of_an_unknown_table_is_one_line_exit_2(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    RoundStore(db).close()  # croupier's tables, no round
    result = CliRunner().invoke(app, ["recall", "--table", "nowhere", "--db", db])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "'nowhere'" in result.stderr
    result = CliRunner().invoke(app, ["recall", "--table", "x", "--db", db, "--last", "0"])
    assert result.exit_code == 2 and "--last 0" in result.stderr


def test_recall_reads_and_never_creates_a_database(tmp_path: Path) -> None:
    """A reading command: a database that is not there is refused, not made; one that is not
    croupier's (or no database at all) is refused in one line and left as it was."""
    missing = tmp_path / "missing.sqlite"
    result = CliRunner().invoke(app, ["recall", "--table", "T1", "--db", f"sqlite:///{missing}"])
    assert result.exit_code == 2 and "no SQLite database file at" in result.stderr
    assert not missing.exists()
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE other (x)")
    result = CliRunner().invoke(app, ["recall", "--table", "T1", "--db", f"sqlite:///{foreign}"])
    assert result.exit_code == 2 and "holds no croupier rounds" in result.stderr
    with sqlite3.connect(foreign) as conn:
        names = conn.execute("SELECT name FROM sqlite_master").fetchall()
    assert names == [("other",)]
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    result = CliRunner().invoke(app, ["recall", "--table", "T1", "--db", f"sqlite:///{junk}"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "cannot be read as croupier's" in result.stderr
    assert junk.read_bytes() == b"not a database" * 100


def test_play_takes_the_shared_paytable_option_and_refuses_rules_of_another_game() -> None:
    result = CliRunner().invoke(
        app, ["play", "three-card-poker", "--paytable", "pair_plus=Z", "--seed", "3"], input=""
    )
    assert result.exit_code == 2 and "pair_plus pay table 'Z'" in result.stderr
    argv = ["play", "four-card-poker", "--rules", "tests/rules/three-card-poker.toml"]
    result = CliRunner().invoke(app, [*argv, "--seed", "3"], input="")
    assert result.exit_code == 2
    assert result.stderr == "croupier: --rules is for 'three-card-poker', not 'four-card-poker'\n"


def test_play_screen_has_no_python_lists_and_names_categories_in_words() -> None:
    # ante $5, no pair plus, no six card bonus; play; leave
    argv = ["play", "three-card-poker", "--seed", "3", "--paytable", "pair_plus=B"]
    result = CliRunner().invoke(app, argv, input="500\n\n\n1\nn\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "house players at seats 1 and 4." in out
    assert "[1, 4]" not in out
    assert "Dealer: Ac 2s 9c -> high card (Ac 9c 2s)" in out


def test_the_result_of_a_round_names_each_seats_final_hand_and_the_coup() -> None:
    # Hold 'Em: seat 1's As Ah with the board's Ac is three aces; seat 4's 7d Js pairs the
    # board's Jc (the dealer's best: Qs Qh Ac Jc 8s); the human bets nothing and leaves
    uth = CliRunner().invoke(app, ["play", "uth", "--seed", "4"], input="\n\n\nn\n")
    assert uth.exit_code == 0, uth.stderr
    assert "Dealer: Qh 5d -> pair (Qs Qh Ac Jc 8s)" in uth.stdout
    assert "Seat 1 [house player 1] As Ah (three of a kind): ante win $5;" in uth.stdout
    assert "Seat 4 [house player 4] 7d Js (pair): ante lose -$5;" in uth.stdout
    # baccarat: Player 3s Kh Qd counts 3, Banker 6d 6d Ks counts 2 (§ 541.12(a)): Banker loses
    bac = CliRunner().invoke(app, ["play", "mini-baccarat", "--seed", "4"], input="\n\n\nn\n")
    assert bac.exit_code == 0, bac.stderr
    assert "Player's Hand: 3s Kh Qd (3); Banker's Hand: 6d 6d Ks (2)\n" in bac.stdout
    assert "Seat 1 [house player 1]: banker lose -$5\n" in bac.stdout


def test_audit_reads_the_database_play_and_recall_use_croupier_db(tmp_path: Path) -> None:
    # `croupier audit verify` once ignored $CROUPIER_DB and audited ./croupier.sqlite instead
    db = f"sqlite:///{tmp_path / 'floor.sqlite'}"
    argv = ["play", "three-card-poker", "--seed", "3", "--db", db, "--table", "T9"]
    assert CliRunner().invoke(app, argv, input="500\n\n\n1\nn\n").exit_code == 0
    runner = CliRunner(env={"CROUPIER_DB": db})
    audit = runner.invoke(app, ["audit", "verify", "--json"])
    assert audit.exit_code == 0, audit.stderr
    assert json.loads(audit.stdout)["checked"]["rounds"] == 1
    recall = runner.invoke(app, ["recall", "--table", "T9", "--json"])
    assert recall.exit_code == 0 and len(json.loads(recall.stdout)) == 1
