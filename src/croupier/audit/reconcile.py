"""Every chip against the engine: the live server's chip ledger reconciled, round by round and
seat by seat, with the settlement the Game protocol rebuilds from each round's records.

:func:`croupier.audit.verify` (``croupier audit verify``, ``GET /api/audit/verify``) runs
:func:`reconcile` on the database it audits.  Each identity that fails is a finding naming the
round, the seat (or the account) and both amounts:

- **each seat of each round**: the change of ``player:<id>`` plus that of ``commission:<id>``
  over the round's ledger rows equals the settlement's net of the seat (``Round.books()``:
  stakes placed, withdrawn, forfeited, paid and returned, Envy Bonuses, progressive awards,
  vigorish collected or marked, voids), less its 100% progressive awards still waiting for a
  supervisor (paid to the ``handpay`` account, to the player on approval: § 641a.11(c)(5)(iv)),
  less its stakes still in action (a round not over).  A player at several seats (adjacent
  boxes) is reconciled over those seats together;
- **the table**: a finished round's rows of its table account sum to zero (the table's chips
  went to the house or came from it), and a table account holds nothing but its open round's
  rows (zero between rounds);
- **hand-pays**: a round's hand-pays are its records' 100% awards (seat and amount), and the
  ``handpay`` account holds exactly the pending ones;
- **each player**: balance(player) + balance(commission) equals buy-ins minus cash-outs (the
  ``cage`` account's transactions) plus the sum over the rounds of the seat identity's right
  side (marker collections move chips between the two accounts and cancel);
- **the ledger**: every transaction and the whole ledger sum to zero, every balance equals its
  rows (:func:`croupier.server.ledger.ledger_problems`), every row naming a round names one the
  floor played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import Connection, inspect, select

from croupier.audit.chains import Finding
from croupier.games.records import ProgressivePaid
from croupier.games.round import Round
from croupier.server.ledger import (
    CAGE,
    HANDPAY,
    commission_account,
    ledger_problems,
    player_account,
)
from croupier.store.schema import chip_accounts, chip_ledger, handpays, live_rounds

__all__ = ["ChipBooks", "RoundBooks", "read_chips", "reconcile"]

ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class RoundBooks:
    """What the engine says a round moved, by seat (rebuilt from its records)."""

    players: Mapping[int, str]
    over: bool
    net: Mapping[int, int]
    """The settlement's net of each seat (``Round.books()``)."""
    awards: Mapping[int, tuple[int, ...]]
    """Each seat's 100% progressive awards: hand-pays, not paid from the table."""
    open: Mapping[int, int]
    """Each seat's stakes still in action (none once the round is over)."""

    @classmethod
    def of(cls, rnd: Round) -> RoundBooks:
        books = rnd.books()
        awards: dict[int, tuple[int, ...]] = {}
        for rec in rnd.records:
            if isinstance(rec, ProgressivePaid) and rec.from_meter:
                awards[rec.seat] = (*awards.get(rec.seat, ()), rec.amount)
        still: dict[int, int] = {}
        for seat, wagers in rnd.stakes.items():
            entry = books.seats.get(seat)
            done = entry.wagers if entry is not None else {}
            still[seat] = sum(amount for wager, amount in wagers.items() if wager not in done)
        players = dict(rnd.players)
        return cls(
            players=players,
            over=rnd.is_over,
            net={seat: books.net(seat) for seat in players},
            awards=awards,
            open=still,
        )


@dataclass(frozen=True, slots=True)
class Leg:
    """One chip-ledger row."""

    txn: str
    account: str
    amount: Fraction
    round_id: str | None


@dataclass(frozen=True, slots=True)
class HandPayRow:
    round_id: str
    seat: int
    player_id: str
    amount: int
    status: str


@dataclass(frozen=True, slots=True)
class ChipBooks:
    """The live server's chip ledger, balances, hand-pays and rounds, read in one snapshot."""

    legs: tuple[Leg, ...]
    balances: Mapping[str, Fraction]
    handpays: tuple[HandPayRow, ...]
    live: Mapping[str, str]
    """Each round the floor played -> its table."""
    unreadable: tuple[Finding, ...]


def read_chips(conn: Connection) -> ChipBooks | None:
    """The chip books in ``conn``'s snapshot; ``None`` where the database has no live tables
    (a store written by ``croupier play``)."""
    if not inspect(conn).has_table(chip_ledger.name):
        return None
    legs: list[Leg] = []
    bad: list[Finding] = []
    query = select(
        chip_ledger.c.id,
        chip_ledger.c.txn,
        chip_ledger.c.account,
        chip_ledger.c.amount,
        chip_ledger.c.round_id,
    )
    for row in conn.execute(query.order_by(chip_ledger.c.id)):
        try:
            amount = Fraction(row.amount)
        except (TypeError, ValueError, ZeroDivisionError):
            what = f"amount {row.amount!r} is not an exact amount"
            bad.append(Finding(table="chip_ledger", key=f"row {row.id}", what=what))
            continue
        legs.append(Leg(row.txn, row.account, amount, row.round_id))
    balances = {
        r.name: Fraction(r.num, r.den)
        for r in conn.execute(
            select(chip_accounts.c.name, chip_accounts.c.num, chip_accounts.c.den)
        )
    }
    pays = tuple(
        HandPayRow(r.round_id, int(r.seat), r.player_id, int(r.amount), r.status)
        for r in conn.execute(select(handpays).order_by(handpays.c.id))
    )
    live = {r.round_id: r.table_id for r in conn.execute(select(live_rounds))}
    return ChipBooks(tuple(legs), balances, pays, live, tuple(bad))


def reconcile(
    chips: ChipBooks, books: Mapping[str, RoundBooks], unchecked: Iterable[str]
) -> tuple[int, list[Finding]]:
    """The seats reconciled and the findings (see the module docstring).  ``books``: each round
    that rebuilt from its records; ``unchecked``: rounds already found wrong (their rows are
    taken as they stand, so that one altered round is one finding, not a finding per
    identity it touches)."""
    legs = ((leg.txn, leg.account, leg.amount) for leg in chips.legs)
    found = [
        Finding(table="chip_ledger", key=key, what=what)
        for key, what in ledger_problems(legs, chips.balances)
    ]
    found += chips.unreadable
    by_round: dict[str, list[Leg]] = {}
    for leg in chips.legs:
        if leg.round_id is not None:
            by_round.setdefault(leg.round_id, []).append(leg)
    skip = set(unchecked)
    for rid in sorted(set(by_round) - set(chips.live)):
        what = "chips moved in a round the floor did not play"
        found.append(Finding(table="chip_ledger", key=f"round {rid!r}", what=what))
        skip.add(rid)
    approved: Counter[tuple[str, int]] = Counter()
    for pay in chips.handpays:
        if pay.status == "approved":
            approved[(pay.round_id, pay.seat)] += pay.amount
    from_rounds: dict[str, Fraction] = {}
    seats = 0
    for rid in sorted(set(chips.live) | set(by_round)):
        moved = _moved(by_round.get(rid, []))
        rb = None if rid in skip else books.get(rid)
        if rb is None:
            if moved and rid not in skip:
                what = "chips moved in a round with no stored records"
                found.append(Finding(table="chip_ledger", key=f"round {rid!r}", what=what))
            for pid, amount in _holders(moved).items():
                from_rounds[pid] = from_rounds.get(pid, ZERO) + amount
            continue
        seats += len(rb.players)
        want = _engine_side(rid, rb, approved)
        found += _seats(rid, rb, moved, want)
        for pid, amount in want.items():
            from_rounds[pid] = from_rounds.get(pid, ZERO) + amount
        found += _round_table(rid, rb, moved)
        found += _round_handpays(rid, rb, chips.handpays)
    found += _tables(chips, books, by_round, skip)
    found += _handpay_account(chips)
    found += _players(chips, from_rounds)
    return seats, found


def _moved(legs: Sequence[Leg]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for leg in legs:
        out[leg.account] = out.get(leg.account, ZERO) + leg.amount
    return out


def _holders(moved: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """Each player's change of player + commission accounts in ``moved``."""
    out: dict[str, Fraction] = {}
    for account, amount in moved.items():
        kind, _, pid = account.partition(":")
        if kind in ("player", "commission") and pid:
            out[pid] = out.get(pid, ZERO) + amount
    return out


def _engine_side(
    rid: str, rb: RoundBooks, approved: Mapping[tuple[str, int], int]
) -> dict[str, Fraction]:
    """Each player's change the engine's settlement accounts for: the seats' nets, less
    hand-pays not yet approved and stakes still in action."""
    out: dict[str, Fraction] = {}
    for seat, pid in rb.players.items():
        owed = sum(rb.awards.get(seat, ())) - approved.get((rid, seat), 0)
        amount = rb.net.get(seat, 0) - owed - rb.open.get(seat, 0)
        out[pid] = out.get(pid, ZERO) + amount
    return out


def _seats(
    rid: str, rb: RoundBooks, moved: Mapping[str, Fraction], want: Mapping[str, Fraction]
) -> list[Finding]:
    found: list[Finding] = []
    held = _holders(moved)
    for pid in sorted(set(held) | set(want)):
        got, due = held.get(pid, ZERO), want.get(pid, ZERO)
        if got == due:
            continue
        seats = sorted(s for s, p in rb.players.items() if p == pid)
        if not seats:
            what = f"player {pid}'s chips moved {got} in a round where {pid} holds no seat"
            found.append(Finding(table="chip_ledger", key=f"round {rid!r}", what=what))
            continue
        where = f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats))}"
        player = moved.get(player_account(pid), ZERO)
        commission = moved.get(commission_account(pid), ZERO)
        found.append(
            Finding(
                table="chip_ledger",
                key=f"round {rid!r} {where}",
                what=(
                    f"player {pid}'s ledger rows move {got} (player {player}, commission "
                    f"{commission}); the engine's settlement gives {due} "
                    f"({_terms(rb, seats)}); the difference is {got - due}"
                ),
            )
        )
    return found


def _terms(rb: RoundBooks, seats: Sequence[int]) -> str:
    parts = [f"net {sum(rb.net.get(s, 0) for s in seats)}"]
    awards = sum(sum(rb.awards.get(s, ())) for s in seats)
    if awards:
        parts.append(f"hand-pays {awards}, paid on approval")
    still = sum(rb.open.get(s, 0) for s in seats)
    if still:
        parts.append(f"{still} still in action")
    return ", ".join(parts)


def _round_table(rid: str, rb: RoundBooks, moved: Mapping[str, Fraction]) -> list[Finding]:
    if not rb.over:
        return []
    return [
        Finding(
            table="chip_ledger",
            key=f"round {rid!r}",
            what=f"the finished round left {amount} on {account} (its rows sum to {amount}, not 0)",
        )
        for account, amount in sorted(moved.items())
        if account.startswith("table:") and amount != 0
    ]


def _round_handpays(rid: str, rb: RoundBooks, pays: Sequence[HandPayRow]) -> list[Finding]:
    due = Counter((seat, amount) for seat, amounts in rb.awards.items() for amount in amounts)
    held = Counter((p.seat, p.amount) for p in pays if p.round_id == rid)
    if due == held:
        return []
    what = (
        f"the records award {sorted(due.elements())} (seat, cents) from the meter; the "
        f"hand-pays hold {sorted(held.elements())}"
    )
    return [Finding(table="handpays", key=f"round {rid!r}", what=what)]


def _tables(
    chips: ChipBooks,
    books: Mapping[str, RoundBooks],
    by_round: Mapping[str, Sequence[Leg]],
    skip: set[str],
) -> list[Finding]:
    """A table account holds only the rows of its rounds not over (zero between rounds)."""
    found: list[Finding] = []
    accounts = {leg.account for leg in chips.legs} | set(chips.balances)
    in_play = {rid for rid in by_round if rid in skip or rid not in books or not books[rid].over}
    for account in sorted(a for a in accounts if a.startswith("table:")):
        held = chips.balances.get(account, ZERO)
        due = sum(
            (leg.amount for rid in in_play for leg in by_round[rid] if leg.account == account),
            ZERO,
        )
        if held == due:
            continue
        tid = account.removeprefix("table:")
        between = not any(chips.live.get(rid) == tid for rid in in_play)
        what = (
            f"holds {held} between rounds"
            if between
            else f"holds {held}; the rows of its round in play give {due}"
        )
        found.append(Finding(table="chip_accounts", key=f"table {tid!r}", what=what))
    return found


def _handpay_account(chips: ChipBooks) -> list[Finding]:
    held = chips.balances.get(HANDPAY, ZERO)
    pending = sum(p.amount for p in chips.handpays if p.status == "pending")
    if held == pending:
        return []
    what = f"holds {held}; the hand-pays pending sum to {pending}"
    return [Finding(table="chip_accounts", key=f"account {HANDPAY}", what=what)]


def _players(chips: ChipBooks, from_rounds: Mapping[str, Fraction]) -> list[Finding]:
    """balance(player) + balance(commission) == buy-ins - cash-outs + the rounds' side."""
    caged = {leg.txn for leg in chips.legs if leg.account == CAGE}
    buy_ins: dict[str, Fraction] = {}
    cash_outs: dict[str, Fraction] = {}
    for leg in chips.legs:
        kind, _, pid = leg.account.partition(":")
        if leg.txn in caged and kind == "player" and leg.round_id is None:
            book = buy_ins if leg.amount > 0 else cash_outs
            book[pid] = book.get(pid, ZERO) + abs(leg.amount)
    names = {leg.account for leg in chips.legs} | set(chips.balances)
    pids = {n.partition(":")[2] for n in names if n.partition(":")[0] in ("player", "commission")}
    found: list[Finding] = []
    for pid in sorted(pids):
        player = chips.balances.get(player_account(pid), ZERO)
        commission = chips.balances.get(commission_account(pid), ZERO)
        bought, cashed = buy_ins.get(pid, ZERO), cash_outs.get(pid, ZERO)
        rounds = from_rounds.get(pid, ZERO)
        want = bought - cashed + rounds
        if player + commission != want:
            what = (
                f"holds {player} (commission {commission}); buy-ins {bought} - cash-outs "
                f"{cashed} + the rounds' settlements {rounds} give {want}"
            )
            found.append(Finding(table="chip_accounts", key=f"player {pid!r}", what=what))
    return found
