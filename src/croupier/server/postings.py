"""What a live table posts and what it may be: its limits and whether it is a training table.

=====================  ====================================================================
limits                 a live table posts a minimum and a maximum for every wager it offers
                       (``[limits.<wager>]``; a fixed progressive wager is posted by its
                       amount): :func:`verify_posted` refuses to set up one that does not; a
                       table stored before limits were required is loaded closed, its
                       rounds refused naming the wagers (:func:`unposted_reason`)
every wager            checked by the engine against the posted limits
                       (:mod:`croupier.games.limits`), and here against the player's chips:
                       a wager another must equal (UTH's Blind, the three Let It Ride bets)
                       needs the chips for all of them (:func:`verify_funds`), or the round
                       could never be dealt
training               ``[table] training = true``: the table's rounds are recorded
                       ``training`` (:func:`croupier.core.modes.mode_of_table`) and the dealer may
                       stack the next round (:func:`stack_next`); a real table refuses a stack
                       (409), naming the table; a training table shares no progressive meter
                       with a real one (:func:`verify_meters_apart`)
=====================  ====================================================================
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection

from croupier.core.errors import IllegalAction, RulesViolation
from croupier.core.modes import PlayMode, mode_of_table, parse_stack
from croupier.games import Game
from croupier.games.limits import unposted
from croupier.games.records import Action, PlaceWager
from croupier.games.round import Phase, Round
from croupier.games.sensors import ReadChips
from croupier.server.ledger import Ledger, player_account
from croupier.server.live_tables import LiveTable

__all__ = [
    "is_training",
    "stack_next",
    "unposted_reason",
    "verify_funds",
    "verify_meters_apart",
    "verify_posted",
]


def is_training(game: Game) -> bool:
    """Whether the table's Rules Submission declares a training table."""
    return mode_of_table(game.rules.table) is PlayMode.TRAINING


def _missing(table_id: str, game: Game) -> str | None:
    missing = unposted(game)
    if not missing:
        return None
    return (
        f"table {table_id} posts no minimum and maximum for {', '.join(missing)}: a live table "
        f"posts both for every wager it offers ({game.where()}; [limits.<wager>] min and max, "
        "cents)"
    )


def verify_posted(table_id: str, game: Game) -> None:
    """Refuse to set up a live table that does not post every wager's limits."""
    why = _missing(table_id, game)
    if why is not None:
        raise RulesViolation(why, section=game.limits_section or None)


def unposted_reason(table_id: str, game: Game) -> str | None:
    """Why a stored table (set up before limits were required) does not open, or ``None``."""
    why = _missing(table_id, game)
    if why is None:
        return None
    return f"{why}; it was set up before limits were required: set up a table that posts them"


def verify_meters_apart(tables: Mapping[str, LiveTable], lt: LiveTable) -> None:
    """A training table and a real table never move one progressive meter (a meter links the
    tables naming it): a training round would pay a real jackpot.  Raises only; the caller
    takes a refused table off the floor (:meth:`TableRegistry.create
    <croupier.server.table_registry.TableRegistry.create>`)."""
    mine = is_training(lt.game)
    # a snapshot: another writer may place a table meanwhile (PostgreSQL's writers run
    # commands at once; iterating the dict itself raised "changed size during iteration")
    for other in tuple(tables.values()):
        shared = sorted(set(lt.meters) & set(other.meters))
        if other is lt or is_training(other.game) == mine or not shared:
            continue
        kind = ("a training", "a real") if mine else ("a real", "a training")
        raise IllegalAction(
            f"table {lt.id} is {kind[0]} table and its progressive meter {', '.join(shared)} is "
            f"moved by {other.id}, {kind[1]} table: a training table's meters are its own"
        )


def stack_next(lt: LiveTable, stack: str) -> None:
    """The dealer stacks the next round of a training table (``stack``: top first); a real
    table refuses, naming it; an unreadable or impossible stack is refused naming it."""
    if not is_training(lt.game):
        raise IllegalAction(
            f"table {lt.id} is not a training table: real play never deals stacked cards (a "
            "training table says [table] training = true in its Rules Submission)"
        )
    lt.table.stack_next(parse_stack(stack))


def verify_funds(ledger: Ledger, conn: Connection, rnd: Round, action: Action) -> None:
    """A player's new wager must be covered by their balance, with every wager it must equal
    not yet placed (a Blind the Ante needs: without the chips for it the round could not be
    dealt).  A decision that adds to a stake (a raise, a play) is checked by the ledger when it
    posts the move: the refusal rolls the command back and its round is replayed from the
    committed records, so a refused decision changes nothing."""
    if isinstance(action, ReadChips) and rnd.phase is Phase.BETTING:
        # a chip-reading layout's wager: the seat's balance covers it as a placed one's
        action = PlaceWager(seat=action.seat, wager=action.wager, amount=action.amount)
    if not isinstance(action, PlaceWager) or action.amount <= 0:
        return
    seat, wager = action.seat, action.wager
    placed = rnd.stakes.get(seat, {})
    partners = [
        other
        for group, _ in rnd.game.equal_wagers
        if wager in group
        for other in group
        if other != wager and other not in placed
    ]
    need = action.amount * (1 + len(partners))
    player = rnd.players[seat]
    balance = ledger.balance(conn, player_account(player))
    if balance < need:
        also = f" with the {', '.join(partners)} it must equal" if partners else ""
        raise IllegalAction(
            f"{player} at seat {seat} has {balance} cents; this {wager} wager of "
            f"{action.amount} cents needs {need} cents{also}"
        )
