"""The progressive system on a real floor (SQLite, the floor's own commands): the count of
progressive chips reconciled at "no more bets" (a wrong count voids the round), the lock-out
after it, a 100% award held as a
hand-pay that a supervisor approves before the next round, and the cumulative payout meter."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from croupier.core.errors import CroupierError, IllegalAction
from croupier.games.records import NoMoreBets, PlaceWager
from croupier.games.round import Phase
from croupier.server.auth import Account, Role
from croupier.server.ledger import meter_account, player_account
from croupier.server.live_floor import Floor
from croupier.server.live_tables import LiveTable, Txn
from live.chaos_harness import HANDPAY_RULES

TABLE = "progressive-hp"
METER = "chaos-three-card"
DEALER = Account("dealer", Role.DEALER, demo=True)  # the demo dealer deals every table
SUPERVISOR = Account("supervisor", Role.SUPERVISOR)
PLAYERS = {n: Account(f"player{n}", Role.PLAYER, player_id=f"P{n}") for n in range(1, 8)}
DECISIONS = ("ride", "pull", "check", "play", "fold")


class _Keys:
    def __init__(self, floor: Floor) -> None:
        self.floor, self.n = floor, 0

    def do(self, account: Account, run: Any, table: str | None = TABLE) -> dict[str, Any]:
        self.n += 1
        key = f"k{self.n}"
        return self.floor.commands.transact(account, key, key, table, run)


def _finish(keys: _Keys, floor: Floor, lt: LiveTable) -> None:
    """Deal, decide and settle the round (bounded)."""
    for _ in range(100):
        rnd = lt.round
        assert rnd is not None
        if rnd.is_over:
            return
        actor = rnd.to_act()
        if rnd.phase is Phase.DECISIONS and actor.seat is not None:
            for decision in DECISIONS:
                try:
                    act = rnd.parse_decision(actor.seat, decision)
                    keys.do(
                        PLAYERS[actor.seat],
                        lambda txn, a=act: {"n": len(floor.rounds.apply(txn, lt, a))},
                    )
                    break
                except CroupierError:
                    continue
        elif rnd.phase is Phase.STUB_COUNT:
            count = rnd.dealer_step()
            keys.do(DEALER, lambda txn, c=count: {"n": len(floor.rounds.apply(txn, lt, c))})
        else:
            phases = (rnd.phase, Phase.DECISIONS) if rnd.phase is Phase.DEALING else (rnd.phase,)
            keys.do(DEALER, lambda txn, p=phases: {"n": len(floor.rounds.dealer_steps(txn, lt, p))})
    raise AssertionError("the round did not finish")


def test_641a_11_c_5_count_lock_out_hand_pay_approval_and_payout_meter(floor: Floor) -> None:
    keys = _Keys(floor)

    def create(txn: Txn) -> dict[str, Any]:
        floor.registry.create(txn.conn, TABLE, TABLE, dict(HANDPAY_RULES))
        return {}

    keys.do(SUPERVISOR, create, table=None)
    lt = floor.table(TABLE)
    for seat, account in PLAYERS.items():
        keys.do(account, lambda txn, a=account, s=seat: {"s": floor.registry.sit(txn, lt, a, s)})
    paid_before, meter_before, balances = 0, Fraction(0), {}
    ids = [f"P{n}" for n in PLAYERS]
    for number in range(1, 301):
        keys.do(DEALER, lambda txn: {"r": floor.rounds.begin_round(txn, lt, None)})
        rnd = lt.round
        assert rnd is not None
        if number == 1:
            paid_before = floor.meters.paid_total(METER)  # the meter opens with the round
            meter_before = floor.meters.exact(METER)
            with floor.reading() as conn:
                balances = {p: floor.ledger.balance(conn, player_account(p)) for p in ids}
        chips = 0
        for seat, account in PLAYERS.items():
            for wager in rnd.house_wagers(seat):
                keys.do(account, lambda txn, w=wager: {"n": len(floor.rounds.apply(txn, lt, w))})
                chips += wager.wager.endswith("progressive")
        assert chips == len(PLAYERS)
        if number == 1:
            # The dealer's count of progressive chips does not match the wagers the system
            # accepted: the round is void, every wager goes back, nothing reaches the meter.
            wrong = NoMoreBets(progressive_chips=chips - 1)
            keys.do(DEALER, lambda txn, a=wrong: {"n": len(floor.rounds.apply(txn, lt, a))})
            assert rnd.phase is Phase.VOID
            assert floor.meters.exact(METER) == meter_before
            with floor.reading() as conn:
                assert {p: floor.ledger.balance(conn, player_account(p)) for p in ids} == balances
            continue
        nmb = NoMoreBets(progressive_chips=chips)
        keys.do(DEALER, lambda txn, a=nmb: {"n": len(floor.rounds.apply(txn, lt, a))})
        # Lock-out: no progressive wager is accepted after "no more bets".
        late = PlaceWager(seat=1, wager=rnd.house_wagers(1)[-1].wager, amount=100)
        with pytest.raises(CroupierError):
            keys.do(PLAYERS[1], lambda txn, a=late: {"n": len(floor.rounds.apply(txn, lt, a))})
        _finish(keys, floor, lt)
        with floor.reading() as conn:
            pending = [r for r in conn.execute(floor_handpays()).all() if r.status == "pending"]
        if pending:
            break
    else:
        raise AssertionError("no 100% award in 300 rounds")
    # The next round waits for the supervisor's approval of every hand-pay of the round (two
    # players may both hit a 100% award in one round).
    approved = 0
    for pay in pending:
        with pytest.raises(IllegalAction, match=r"641a\.11\(c\)\(5\)\(iv\)"):
            keys.do(DEALER, lambda txn: {"r": floor.rounds.begin_round(txn, lt, None)})
        with floor.reading() as conn:
            before = floor.ledger.balance(conn, player_account(pay.player_id))
        keys.do(
            SUPERVISOR,
            lambda txn, p=pay: floor.cage.approve_handpay(txn, p.id, "supervisor"),
            table=None,
        )
        approved += pay.amount
        with floor.reading() as conn:
            assert floor.ledger.balance(conn, player_account(pay.player_id)) == before + pay.amount
            assert floor.ledger.check(conn) == []
            assert floor.ledger.balance(conn, meter_account(METER)) == floor.meters.exact(METER)
    # The cumulative payout meter counts every award paid, these included.
    assert floor.meters.paid_total(METER) >= paid_before + approved > paid_before
    assert Fraction(floor.meters.exact(METER)) >= 100000
    keys.do(DEALER, lambda txn: {"r": floor.rounds.begin_round(txn, lt, None)})


def floor_handpays() -> Any:
    from sqlalchemy import select

    from croupier.store.schema import handpays

    return select(handpays).where(handpays.c.table_id == TABLE)
