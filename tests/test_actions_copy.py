"""``GET /api/tables/{id}/actions`` (:func:`croupier.server.actions.actions_answer`) tries every
seat x wager x chip on a copy of the table's round made from its records, not under the table's
lock (issue 38: a command on the table waited behind the read), and answers exactly what the
table's own round answers at every step of a round of every game."""

from __future__ import annotations

import sys
import threading
from types import FrameType
from typing import Any

from croupier.games import get_game
from croupier.games.round import Phase, Round
from croupier.rules.progressive import MemoryMeters
from croupier.rules.submission import load_rules
from croupier.server import actions
from croupier.server.actions import COPIES, actions_answer, dealer_actions, seat_actions
from croupier.server.auth import Account, Role
from croupier.server.demo import demo_rules
from croupier.server.live_tables import LiveTable, ShoePerRound
from croupier.table.shoe import SecureShuffler

DEALER = Account("dealer", Role.DEALER)
SEATED = {seat: f"P{seat}" for seat in (1, 3, 5, 7)}


def _player(seat: int) -> Account:
    return Account(f"player{seat}", Role.PLAYER, player_id=SEATED[seat])


def _table(slug: str) -> LiveTable:
    """A table of the demo floor's ``slug`` with four seated players and a round begun."""
    game = get_game(load_rules(demo_rules()[slug]))
    dealing = ShoePerRound(game, SecureShuffler(), MemoryMeters())
    for seat, player in SEATED.items():
        dealing.sit(seat, player)
    lt = LiveTable(id=slug, name=slug, game=game, table=dealing)
    lt.round, lt.round_id = dealing.new_round(), "r1"
    return lt


def _direct(lt: LiveTable, account: Account) -> dict[str, Any]:
    """The answer computed on the table's own round (the route's answer before issue 38)."""
    rnd = lt.round
    assert rnd is not None
    if account.role is Role.DEALER:
        return dealer_actions(rnd)
    seats = frozenset(s for s, p in rnd.players.items() if p == account.player_id)
    return seat_actions(rnd, seats)


def _assert_same(lt: LiveTable) -> None:
    rnd = lt.round
    assert rnd is not None
    # the answers below were tried on a copy (the records replay: no fall-back to the lock)
    assert COPIES.of(lt, rnd, rnd.records, dict(rnd.players)).round is not rnd
    for account in (DEALER, *(_player(seat) for seat in SEATED)):
        answer, _seq = actions_answer(account, lt)
        for key, value in _direct(lt, account).items():
            assert answer[key] == value, (lt.id, account.username, key)


def _step(rnd: Round) -> None:
    """The round's next move: each seat's house wagers, "no more bets", a decision of the
    seat to act (its first offered), else the dealer's step."""
    seat = rnd.to_act().seat
    if rnd.phase is Phase.BETTING and not rnd.stakes:
        for s in SEATED:
            for wager in rnd.house_wagers(s):
                rnd.apply(wager)
    elif rnd.phase is Phase.BETTING:
        rnd.apply(rnd.dealer_no_more_bets())
    elif seat is not None:
        offered = seat_actions(rnd, frozenset({seat}))["decisions"]
        rnd.apply(rnd.parse_decision(seat, offered[0]["decision"]))
    else:
        rnd.apply(rnd.dealer_step())


def test_actions_answer_the_tables_own_round_at_every_step_of_every_game() -> None:
    for slug in demo_rules():
        lt = _table(slug)
        rnd = lt.round
        assert rnd is not None
        steps = 0
        while not rnd.is_over:
            _assert_same(lt)
            _step(rnd)
            steps += 1
            assert steps < 200, slug
        assert steps >= 3, slug  # wagers, "no more bets", the deal at least


def test_a_command_takes_the_table_lock_while_the_actions_are_tried() -> None:
    # issue 38: /actions held the table's lock while it tried every seat x wager x chip, so
    # the table's commands (and, on SQLite, the writer's whole batch) waited behind it
    lt = _table("let-it-ride")
    trying, go = threading.Event(), threading.Event()
    answers: list[dict[str, Any]] = []

    def pause_at_first_try(frame: FrameType, event: str, _arg: object) -> None:
        # the first seat's chips are being asked of the round (a Python frame: the engine's
        # own may be compiled, croupier.server.actions is not)
        if event == "call" and frame.f_code is actions._ladder.__code__ and not trying.is_set():
            trying.set()
            go.wait(30)

    def ask() -> None:
        sys.setprofile(pause_at_first_try)
        try:
            answers.append(actions_answer(_player(1), lt)[0])
        finally:
            sys.setprofile(None)

    asking = threading.Thread(target=ask)
    asking.start()
    try:
        assert trying.wait(30), "the actions never tried a wager"
        taken = lt.lock.acquire(blocking=False)
        if taken:
            lt.lock.release()
    finally:
        go.set()
        asking.join(30)
    assert taken, "the table's lock was held while the wagers and chips were tried"
    assert [w["seat"] for w in answers[0]["wagers"]] == [1, 1, 1]
