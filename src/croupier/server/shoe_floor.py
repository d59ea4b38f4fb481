"""The floor's side of a live baccarat shoe (:class:`~croupier.server.live_shoe.LiveShoe`):
what each command that moves it writes, in the command's transaction.

- Opening a coup: the coup's shoe row (:mod:`croupier.store.shoes`) holds the whole shoe's
  order under the shoe's nonce, so its commitment is the shoe's, published in the ``round``
  event before the shoe's first wager and again with each coup; the round's row names the
  shoe (``round_shoes.shoe_id``), whose order stays secret until it ends
  (:func:`croupier.table.commitment.read_deal`).
- ``dealing_shoes``: the shoe's order, nonce and commitment and where it stands
  (:meth:`ShoeState.to_json`), written whenever it moves; ``ended_at`` once it is done.
- The shoe's records between coups (``shoe_opened``, ``cut_card_out``, ``vig_marker_collected``,
  ``vig_marker_to_cage``) go to the table's hash-chained log (``table_log``, checked by
  ``croupier audit verify``) and to the table's stream as ``shoe`` events.
- A baccarat table of real cards (:class:`ReportedAcrossCoups`, issue 39): its shoe's row
  keeps the cards seen leaving it in its finished coups (``cards``; no order, nonce nor
  commitment: nobody knows the order), written when a coup ends and when the dealer changes the
  shoe (:func:`change_shoe`); a restart carries on with it, and the coup in play's shoe carries
  those cards again.
- Commission (contract 1): a collected marker is the ledger row ``player:<id>`` ->
  ``commission:<id>`` (reason ``vig_marker_collected``); the part the player's chips do not cover
  stays owed on the commission account, and the cage collects it before any chips are cashed
  out (:func:`cage_collects`; a cash-out never takes chips owed as commission).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, insert, select, update

from croupier.core.cards import Card, parse_cards
from croupier.core.errors import IllegalAction
from croupier.core.modes import PlayMode
from croupier.core.shapes import CardSource
from croupier.games.baccarat import MarkerCollected, ShoeStage
from croupier.games.records import Action, Record, record_to_json
from croupier.games.reported_cards import CarryShoe
from croupier.games.round import Round
from croupier.rules.progressive import MeterBank
from croupier.server.ledger import Entry, Ledger, commission_account, player_account
from croupier.server.live_shoe import Collected, LiveShoe, ShoeState
from croupier.server.live_tables import Dealing, LiveTable, Txn
from croupier.server.reported_table import (
    ReportedAcrossCoups,
    ReportedPerRound,
    ReportedShoeState,
)
from croupier.store import RoundStore, now
from croupier.store.chain import GENESIS, link
from croupier.store.schema import dealing_shoes, live_tables, round_shoes, table_log
from croupier.store.shoes import PersistedShoe, capture
from croupier.store.tables import event_payload
from croupier.table.shoe import Shuffler

if TYPE_CHECKING:
    from croupier.games import Game

__all__ = [
    "cage_collects",
    "change_shoe",
    "coup_over",
    "deal_from",
    "dealing_for",
    "leaving",
    "live_shoe",
    "load_shoes",
    "owed",
    "shoe_view",
]


def dealing_for(
    table_id: str, game: Game, shuffler: Shuffler, meters: MeterBank, mode: PlayMode
) -> Dealing | None:
    """A :class:`LiveShoe` where the game's tables deal one shoe over many rounds; a table of
    real cards (a reader or the keypad) deals each round's cards as they are reported."""
    if game.rules.table.cards is not CardSource.SHUFFLE:
        if game.shoe_cut_card is not None:  # baccarat: one shoe of real cards across coups
            return ReportedAcrossCoups(game, meters, mode)
        return ReportedPerRound(game, meters, mode)
    if game.shoe_cut_card is None:
        return None
    return LiveShoe(table_id, game, shuffler, meters, mode)


def live_shoe(lt: LiveTable) -> LiveShoe | None:
    return lt.table if isinstance(lt.table, LiveShoe) else None


def load_shoes(engine: Engine, tables: Sequence[LiveTable]) -> None:
    """After a restart: each baccarat table carries on with its last shoe as persisted (and
    the coup in play, resumed from its records, as the shoe's coup)."""
    with engine.begin() as conn:
        for lt in tables:
            if isinstance(lt.table, ReportedAcrossCoups):
                _load_reported(conn, lt, lt.table)
            shoe = live_shoe(lt)
            if shoe is None:
                continue
            row = conn.execute(
                select(dealing_shoes)
                .where(dealing_shoes.c.table_id == lt.id)
                .order_by(dealing_shoes.c.number.desc())
                .limit(1)
            ).first()
            if row is not None:
                order = parse_cards(row.cards, distinct=False)
                state = ShoeState.parse(
                    number=int(row.number), order=order, nonce=row.nonce, data=json.loads(row.state)
                )
                shoe.restore_state(state)
            if lt.round is not None and not lt.round.is_over:
                shoe.resume(lt.round)


def deal_from(
    store: RoundStore, txn: Txn, lt: LiveTable, round_id: str, rnd: Round
) -> tuple[PersistedShoe | None, dict[str, Any]]:
    """Persist the order the new round ``rnd`` deals from (server side) and, at a baccarat
    table, the shoe: its row, its opening records; the ``round`` event's shoe data."""
    shoe = live_shoe(lt)
    persisted = capture(rnd)
    if persisted is None:  # real cards, reported as they leave: no order to keep
        return None, {"cards": lt.game.rules.table.cards.value}
    if shoe is None:
        store.store_shoe_in(txn.conn, round_id, persisted)
        return persisted, {}
    state = shoe.state
    persisted = replace(persisted, nonce=state.nonce)
    if persisted.cards != state.order or persisted.taken != state.taken:
        raise IllegalAction(f"round {round_id} does not deal from shoe {shoe.shoe_id}")
    store.store_shoe_in(txn.conn, round_id, persisted)
    txn.conn.execute(
        update(round_shoes).where(round_shoes.c.round_id == round_id).values(shoe_id=shoe.shoe_id)
    )
    _save(txn.conn, lt, shoe)
    _log(txn, lt, shoe, [(None, rec) for rec in shoe.opened], round_id)
    data = {"id": shoe.shoe_id, "number": state.number, "coup": state.coups + 1}
    return persisted, {"shoe": data}


def coup_over(ledger: Ledger, txn: Txn, lt: LiveTable, rnd: Round) -> None:
    """The coup ``rnd`` at a baccarat table is over (records, ledger rows and the table's
    account posted): the shoe moves past it; at the shoe's end every marker is collected
    (§ 541.13(g)) and the shoe's order revealed."""
    if isinstance(lt.table, ReportedAcrossCoups):
        _save_reported(txn.conn, lt, lt.table.coup_over(rnd))
    shoe = live_shoe(lt)
    if shoe is None:
        return
    chips: dict[str, int] = {}
    if shoe.state.stage is ShoeStage.LAST_ROUND:
        # The shoe's last coup: its markers are collected from the players' chips now.
        players = set(rnd.players.values()) | set(lt.seats().values())
        chips = {p: _chips(ledger, txn.conn, p) for p in sorted(players)}
    done = shoe.coup_over(rnd, chips)
    _collect(ledger, txn, lt, shoe, done)
    _save(txn.conn, lt, shoe)
    if shoe.state.stage is ShoeStage.DONE:
        txn.emit(
            lt,
            "shoe",
            {"shoe": shoe.shoe_id, "ended": True, "commitment": shoe.state.commitment},
        )


def change_shoe(
    txn: Txn, lt: LiveTable, first: Card, apply: Callable[[Action], tuple[Record, ...]]
) -> tuple[Record, ...]:
    """The dealer changed the shoe at a baccarat table of real cards, ``first`` turned up: the
    coup in play, before its first card, deals from the new shoe (``apply``: the round's
    action, recorded); the last shoe's row ended, the new one's written.  The records."""
    table = lt.table
    if not isinstance(table, ReportedAcrossCoups):
        raise IllegalAction(
            f"table {lt.id} deals no shoe of real cards across coups (a baccarat table with "
            "[table] cards = reader or keypad)"
        )
    ended, state = table.state, table.opened(first)
    records: tuple[Record, ...] = ()
    if lt.round is not None and not lt.round.is_over:
        records = apply(CarryShoe(gone=state.gone, burned=state.burned))
    table.restore_state(state)
    txn.conn.execute(
        update(dealing_shoes)
        .where(dealing_shoes.c.id == _reported_id(lt, ended))
        .values(ended_at=now())
    )
    _save_reported(txn.conn, lt, state)
    txn.emit(lt, "shoe", {"shoe": _reported_id(lt, state), "first_card": str(first)})
    return records


def leaving(ledger: Ledger, txn: Txn, lt: LiveTable, player: str) -> list[Any]:
    """``player`` leaves a baccarat table: the markers at their seats are collected
    (§ 541.13(g)); the records."""
    shoe = live_shoe(lt)
    if shoe is None or not shoe.owed_at_table(player):
        return []
    done = shoe.settle_leaving(player, _chips(ledger, txn.conn, player))
    _collect(ledger, txn, lt, shoe, done)
    _save(txn.conn, lt, shoe)
    return [rec for _, rec in done]


def owed(ledger: Ledger, conn: Connection, player: str) -> int:
    """Baccarat commission ``player`` owes (the commission account's balance below zero)."""
    return max(0, -int(ledger.balance(conn, commission_account(player))))


def cage_collects(ledger: Ledger, txn: Txn, player: str, amount: int) -> None:
    """Before ``amount`` is cashed out: the cage collects the commission owed that is no
    longer on a layout; the cash-out may not take chips owed as commission (the markers still
    on a layout included).  Casino practice for an unpaid marker: it goes from the table to the
    cage, which collects it (Nevada Gaming Control Board, Table Games MICS, marker credit
    play); § 541.13(g) is silent on a player who cannot pay."""
    # The commission account locked first: a table collecting from this player commits before
    # or after this read, never between it and the markers read from the committed shoes.
    account = commission_account(player)
    total = max(0, -int(ledger.balance(txn.conn, account, lock=True)))
    if not total:
        return
    chips = _chips(ledger, txn.conn, player)
    if amount > chips - total:
        raise IllegalAction(
            f"{player} owes {total} cents of baccarat commission (§ 541.13(g)): of their "
            f"{chips} cents, at most {max(0, chips - total)} may be cashed out"
        )
    at_cage = total - _on_layout(txn.conn, player)
    if at_cage > 0:
        entry = Entry(
            player_account(player),
            commission_account(player),
            Fraction(at_cage),
            "vig_marker_collected",
        )
        ledger.post(txn.conn, [entry])


def shoe_view(lt: LiveTable) -> dict[str, Any]:
    """The table view's baccarat part: the markers by seat and the shoe (empty elsewhere)."""
    shoe = live_shoe(lt)
    if shoe is None:
        return {}
    state = shoe.state
    return {
        "markers": {str(seat): owed for seat, owed in state.markers},
        "shoe": {
            "id": shoe.shoe_id,
            "number": state.number,
            "commitment": state.commitment,
            "coups": state.coups,
            "cards_left": shoe.cards_left(),
            "cut_card": shoe.cut_card,
            "stage": state.stage.value,
            "results": list(state.results),
        },
    }


# -- writing ---------------------------------------------------------------------------------


def _on_layout(conn: Connection, player: str) -> int:
    """The markers at the seats ``player`` holds, as committed (the tables' seats and their
    shoes' rows: a command in flight at another table is not counted before it commits)."""
    total = 0
    for table in conn.execute(select(live_tables.c.id, live_tables.c.seats)).all():
        mine = {int(s) for s, p in json.loads(table.seats).items() if p == player}
        if not mine:
            continue
        row = conn.execute(
            select(dealing_shoes.c.state)
            .where(dealing_shoes.c.table_id == table.id, dealing_shoes.c.ended_at.is_(None))
            .order_by(dealing_shoes.c.number.desc())
            .limit(1)
        ).first()
        if row is not None:
            markers = json.loads(row.state).get("markers", {})
            total += sum(int(v) for s, v in markers.items() if int(s) in mine)
    return total


def _chips(ledger: Ledger, conn: Connection, player: str) -> int:
    return max(0, int(ledger.balance(conn, player_account(player))))


def _collect(
    ledger: Ledger, txn: Txn, lt: LiveTable, shoe: LiveShoe, done: Sequence[Collected]
) -> None:
    """The ledger rows of the markers collected, and every record to the log and stream."""
    entries = [
        Entry(
            player_account(player),
            commission_account(player),
            Fraction(rec.amount),
            "vig_marker_collected",
        )
        for player, rec in done
        if player is not None and isinstance(rec, MarkerCollected)
    ]
    ledger.post(txn.conn, entries, table_id=lt.id)
    _log(txn, lt, shoe, done, lt.round_id)
    txn.collected += [rec for _, rec in done]


def _log(
    txn: Txn, lt: LiveTable, shoe: LiveShoe, done: Sequence[Collected], round_id: str | None
) -> None:
    """The shoe's records between coups, chained in the table's log and sent as ``shoe``
    events (with the coup they came with: ``round_id``)."""
    if not done:
        return
    last = txn.conn.execute(
        select(table_log.c.seq, table_log.c.hash)
        .where(table_log.c.table_id == lt.id)
        .order_by(table_log.c.seq.desc())
        .limit(1)
    ).first()
    seq, previous = (int(last.seq) + 1, str(last.hash)) if last is not None else (0, GENESIS)
    at = now()
    for _, rec in done:
        data = {"shoe": shoe.shoe_id, "record": record_to_json(rec)}
        previous = link(previous, event_payload(lt.id, seq, data))
        txn.conn.execute(
            insert(table_log).values(
                table_id=lt.id,
                seq=seq,
                kind=rec.kind,
                data=json.dumps(data),
                at=at,
                hash=previous,
            )
        )
        txn.events.setdefault(lt.id, []).append(("shoe", data, round_id))
        seq += 1


def _save(conn: Connection, lt: LiveTable, shoe: LiveShoe) -> None:
    """The shoe's row as it stands (made when the shoe opens; ended once it is done)."""
    state = shoe.state
    if shoe.shoe_id is None or state.commitment is None:
        return
    values: dict[str, Any] = {
        "cards": " ".join(str(c) for c in state.order),
        "nonce": state.nonce,
        "commitment": state.commitment,
        "state": json.dumps(state.to_json()),
    }
    if state.stage is ShoeStage.DONE:
        values["ended_at"] = now()
    found = conn.execute(
        update(dealing_shoes).where(dealing_shoes.c.id == shoe.shoe_id).values(**values)
    )
    if found.rowcount == 0:
        conn.execute(
            insert(dealing_shoes).values(
                id=shoe.shoe_id,
                table_id=lt.id,
                number=state.number,
                decks=shoe.baccarat.shoe_decks,
                cut_card=shoe.cut_card,
                opened_at=now(),
                **values,
            )
        )


def _reported_id(lt: LiveTable, state: ReportedShoeState) -> str:
    return f"{lt.id}-shoe-{state.number:06d}"


def _save_reported(conn: Connection, lt: LiveTable, state: ReportedShoeState) -> None:
    """A shoe of real cards' row: the cards seen leaving it, its burn and coups."""
    values: dict[str, Any] = {
        "cards": " ".join(str(c) for c in state.gone),
        "state": json.dumps({"reported": True, "burned": state.burned, "coups": state.coups}),
    }
    shoe_id = _reported_id(lt, state)
    found = conn.execute(
        update(dealing_shoes).where(dealing_shoes.c.id == shoe_id).values(**values)
    )
    if found.rowcount == 0:
        conn.execute(
            insert(dealing_shoes).values(
                id=shoe_id,
                table_id=lt.id,
                number=state.number,
                decks=lt.game.deck_count,
                cut_card=lt.game.shoe_cut_card or 0,
                nonce="",
                commitment="",
                opened_at=now(),
                **values,
            )
        )


def _load_reported(conn: Connection, lt: LiveTable, table: ReportedAcrossCoups) -> None:
    """After a restart: the table's shoe of real cards as its row keeps it (a row of a shoe
    croupier shuffled, before the table's cards were real, is not this shoe)."""
    row = conn.execute(
        select(dealing_shoes)
        .where(dealing_shoes.c.table_id == lt.id)
        .order_by(dealing_shoes.c.number.desc())
        .limit(1)
    ).first()
    data = json.loads(row.state) if row is not None else {}
    if row is not None and data.get("reported"):
        gone = parse_cards(row.cards, distinct=False) if row.cards else ()
        table.restore_state(
            ReportedShoeState(
                number=int(row.number),
                gone=gone,
                burned=int(data["burned"]),
                coups=int(data["coups"]),
            )
        )
    if lt.round is not None and not lt.round.is_over:
        table.resume(lt.round)  # its records carry the shoe's cards gone before it
