"""The pit's shift figures and players' ratings (issue 40, ``GET /api/pit/shift``) against the
chip ledger read straight from the database, the exact par sheets and the round records."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from croupier.analysis import par_sheet
from croupier.faces.bots import play_round
from croupier.faces.client import ApiError, Client
from croupier.games import get_game
from croupier.rules.submission import load_rules
from croupier.store.schema import chip_ledger, live_rounds
from live.chip_books import dealer_to
from live.live_harness import Server

# (table, seats): one table a player, so each player sits at one of these only
PLAYED = {
    "three-card-poker": ("player1", "player2"),
    "ultimate-texas-holdem": ("player3",),
    "mini-baccarat": ("player4",),
}
ROUNDS = 2


def _play(server: Server) -> dict[str, dict[int, Client]]:
    dealer = server.client("dealer")
    seated: dict[str, dict[int, Client]] = {}
    for table, names in PLAYED.items():
        players = {seat: server.client(name) for seat, name in enumerate(names, start=1)}
        for seat, player in players.items():
            player.sit(table, seat)
        for _ in range(ROUNDS):
            assert play_round(dealer, players, table, dealer.table(table)).phase == "over"
        seated[table] = players
    return seated


def _shift(client: Client, *, priced: bool) -> dict[str, Any]:
    """The pit's answer (``priced``: once every table's par sheet is ready)."""
    for _ in range(600):
        answer: dict[str, Any] = client.get("/api/pit/shift")
        if not priced or answer["theo_status"] == "ready":
            return answer
        time.sleep(0.5)
    raise AssertionError(f"the par sheets were not ready: {answer['theo_status']}")


def _aware(value: Any) -> datetime:
    found = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return found if found.tzinfo is not None else found.replace(tzinfo=UTC)


def _ledger_figures(db_url: str, start: datetime, end: datetime) -> dict[str, tuple[Fraction, ...]]:
    """Each table's drop and win summed from the chip ledger's rows (by their ``table_id``
    column and the accounts they move), over the rounds over that opened in the shift."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            opened = conn.execute(select(live_rounds)).all()
            rows = conn.execute(select(chip_ledger)).all()
    finally:
        engine.dispose()
    counted = {
        r.round_id for r in opened if r.state == "over" and start <= _aware(r.created_at) < end
    }
    out: dict[str, tuple[Fraction, ...]] = {}
    for table in {r.table_id for r in opened}:
        mine = [r for r in rows if r.table_id == table and r.round_id in counted]
        # the players' side: what left their accounts as wagers, less the bets taken back
        drop = -sum(
            (
                Fraction(r.amount)
                for r in mine
                if r.account.startswith("player:") and r.reason in ("wager", "withdrawn")
            ),
            Fraction(0),
        )
        # the house's side: what it took from the table at each round's end
        win = sum(
            (
                Fraction(r.amount)
                for r in mine
                if r.account == "house" and r.reason.startswith("round_")
            ),
            Fraction(0),
        )
        out[table] = (drop, win)
    return out


def test_pit_shift_drop_and_win_equal_the_chip_ledger(server: Server) -> None:
    _play(server)
    asked = datetime.now(UTC)
    answer = _shift(server.client("supervisor"), priced=False)
    answered = datetime.now(UTC)
    start, end = _aware(answer["start"]), _aware(answer["end"])
    assert answer["zone"] == "America/New_York" and end > start
    ledger = _ledger_figures(server.db_url, start, end)
    by_table = {t["table_id"]: t for t in answer["tables"]}
    for table, names in PLAYED.items():
        drop, win = ledger[table]
        row = by_table[table]
        assert row["rounds"] == ROUNDS and row["voids"] == 0
        assert drop > 0 and row["drop"] == round(drop)
        assert Fraction(row["win_exact"]) == win and row["win"] == round(win)
        assert Fraction(row["hold_exact"]) == win / drop
        assert row["hold_percent"] == pytest.approx(float(win / drop * 100))
        hands = ROUNDS * len(names)
        assert row["hands"] == hands and row["average_wager"] == round(drop / hands)
        # rounds per hour from the shift's first round to now (the answer's moment)
        first = _aware(row["first_opened"])
        pace = Fraction(row["rounds"] * 3600)
        slowest = pace / Fraction((answered - first).total_seconds())
        fastest = pace / Fraction((asked - first).total_seconds())
        assert float(slowest) <= row["hands_per_hour"] <= float(fastest)
    for table, row in by_table.items():
        if table not in PLAYED:
            assert (row["rounds"], row["drop"], row["win"]) == (0, 0, 0)
            assert row["hold_percent"] is None and row["hands_per_hour"] is None


def _wagers(supervisor: Client, table: str, kinds: tuple[str, ...]) -> list[tuple[int, str, int]]:
    """Each wager of ``kinds`` at ``table``'s rounds (seat, wager, cents), from the records."""
    out = []
    for rnd in supervisor.rounds(table, last=ROUNDS):
        for rec in supervisor.records(rnd["round_id"])["records"]:
            if rec["kind"] in kinds:
                out.append((int(rec["seat"]), str(rec["wager"]), int(rec["amount"])))
    return out


def _expected_theo(detail: Mapping[str, Any], wagers: list[tuple[int, str, int]]) -> Fraction:
    """The exact par sheet's edge times each wager: the base sheet per unit of the initial
    required wager (its convention), an optional wager's (baccarat: each wager's) its own."""
    game = get_game(load_rules(dict(detail["rules"])))
    sheets = par_sheet(game).sheets
    total = Fraction(0)
    for _seat, wager, amount in wagers:
        if game.required_wagers and wager == game.required_wagers[0]:
            total += sheets["base"].house_edge * amount
        elif wager in sheets:
            total += sheets[wager].house_edge * amount
        else:
            assert wager in game.required_wagers or wager in game.decision_wagers, wager
    return total


def test_pit_theoretical_win_is_the_exact_par_edge_times_the_wagers_and_rates_players(
    sqlite_server: Server,
) -> None:
    seated = _play(sqlite_server)
    supervisor = sqlite_server.client("supervisor")
    answer = _shift(supervisor, priced=True)
    by_table = {t["table_id"]: t for t in answer["tables"]}
    ratings = {(p["table_id"], p["player_id"]): p for p in answer["players"]}
    for table, players in seated.items():
        detail = supervisor.table(table)
        placed = _wagers(supervisor, table, ("wager_placed",))
        # the decisions' wagers (a Play) are taken too: in the drop, priced inside the base
        taken = _wagers(supervisor, table, ("wager_placed", "play_wagered"))
        theo = _expected_theo(detail, placed)
        assert theo > 0 and Fraction(by_table[table]["theo_exact"]) == theo
        assert by_table[table]["theo"] == round(theo) and by_table[table]["unpriced"] == []
        for seat, player in players.items():
            me = player.me()
            rating = ratings[(table, me["player_id"])]
            mine = [w for w in placed if w[0] == seat]
            wagered = sum(a for s, _, a in taken if s == seat)  # these bots never pull a bet
            assert rating["seats"] == [seat] and rating["balance"] == me["balance"]
            assert rating["username"] == me["username"] and rating["hands"] == ROUNDS
            assert rating["wagered"] == wagered
            assert rating["average_bet"] == round(Fraction(wagered, ROUNDS))
            assert Fraction(rating["theo_exact"]) == _expected_theo(detail, mine)
            assert rating["minutes_seated"] == 0 and rating["seated_since"] is not None
    # a player who left is no longer listed; the observer reads the pit, a player may not
    seated["ultimate-texas-holdem"][1].leave("ultimate-texas-holdem")
    observer = _shift(sqlite_server.client("observer"), priced=False)
    assert {p["table_id"] for p in observer["players"]} == {"three-card-poker", "mini-baccarat"}
    with pytest.raises(ApiError) as refused:
        seated["mini-baccarat"][1].get("/api/pit/shift")
    assert refused.value.status == 403


def test_pit_shift_back_counts_an_earlier_shift_from_the_ledger(sqlite_server: Server) -> None:
    began = datetime.now(UTC)
    _play(sqlite_server)
    earlier = sqlite_server.client("auditor").get("/api/pit/shift", back=1)
    now = _shift(sqlite_server.client("auditor"), priced=False)
    assert _aware(earlier["end"]) == _aware(now["start"])
    if _aware(now["start"]) <= began:  # every round in this shift: none in the one before
        assert all(t["rounds"] == 0 and t["drop"] == 0 for t in earlier["tables"])
        assert earlier["players"] == []
        return
    # the shift changed while the rounds were played: each round counted in one of the two
    before = {t["table_id"]: t["rounds"] for t in earlier["tables"]}
    for table in now["tables"]:
        played = ROUNDS if table["table_id"] in PLAYED else 0
        assert before.get(table["table_id"], 0) + table["rounds"] == played


def test_643a_11_b_pit_drop_leaves_a_pulled_bet_out_and_a_void_round_counts_apart(
    sqlite_server: Server,
) -> None:
    dealer, supervisor = sqlite_server.client("dealer"), sqlite_server.client("supervisor")
    rider, voided = sqlite_server.client("player1"), sqlite_server.client("player2")
    table, bet = "let-it-ride", 500
    rider.sit(table, 1)
    round_id = str(dealer.new_round(table)["round_id"])
    for wager in ("bet1", "bet2", "bet3"):
        rider.wager(table, wager, bet, seat=1)
    last = dealer_to(dealer, table, dealer.no_more_bets(table, 0), [1])
    last = dealer_to(dealer, table, rider.decide(table, "pull bet1", seat=1), [1])
    while last["phase"] not in ("over", "void"):
        last = dealer_to(dealer, table, rider.decide(table, "ride", seat=1), [1])
    assert last["phase"] == "over"
    voided.sit("three-card-poker", 1)
    void_id = str(dealer.new_round("three-card-poker")["round_id"])
    voided.wager("three-card-poker", "ante", bet, seat=1)
    supervisor.void(void_id, "a void counted apart")
    answer = _shift(supervisor, priced=True)
    ledger = _ledger_figures(sqlite_server.db_url, _aware(answer["start"]), _aware(answer["end"]))
    rows = {t["table_id"]: t for t in answer["tables"]}
    # the pulled Bet 1 came back: the drop is the two bets the table kept
    assert rows[table]["drop"] == 2 * bet == ledger[table][0]
    assert Fraction(rows[table]["win_exact"]) == ledger[table][1]
    # the par sheet's edge is per unit of one bet as placed, the pull decision inside it
    edges = par_sheet(get_game(load_rules(dict(supervisor.table(table)["rules"])))).sheets
    assert Fraction(rows[table]["theo_exact"]) == edges["base"].house_edge * bet
    assert round_id in {r["round_id"] for r in supervisor.rounds(table, last=1)}
    poker = rows["three-card-poker"]
    assert (poker["rounds"], poker["voids"], poker["drop"], poker["win"]) == (0, 1, 0, 0)
    assert poker["theo"] == 0 and poker["hold_percent"] is None
    rating = next(p for p in answer["players"] if p["table_id"] == table)
    assert (rating["hands"], rating["wagered"], rating["average_bet"]) == (1, 2 * bet, 2 * bet)
