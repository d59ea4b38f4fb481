"""Deck procedures of a table between rounds: the ones a person orders or a device reports.

Each function here is a method of :class:`~croupier.table.Table` (assigned in its class body),
written apart to keep the table module small.  The sections are Four Card Poker's; every chapter
gives its own in its :class:`~croupier.games.table_regs.TableRegs` (an empty field: the
chapter has no such procedure in the texts at hand, and the table refuses it).

=================================  =====================================================  ====
method                             what happens                                           §
=================================  =====================================================  ====
``order_reshuffle(by=)``           a floorperson or above directs a shuffle               5(a)
``report_shuffler_count(n)``       a counting shuffler reports its count; a wrong one     5(b)
                                   removes the deck and a new one comes
``recut(cut_at, by=)``             after the cut, before any card is dealt, a             5(e)
                                   floorperson has the cards cut again
``reinspect_idle(spread, stored)`` no gaming activity: the cards come out of the shoe     5(f)
                                   and the discard rack, are spread for the first player
                                   and shuffled again (by hand and cut, or in the
                                   shuffler, whose stored deck comes out)
``player_left(seat)``              the player leaves mid-round after the deal: the        7(b)
                                   wagers are abandoned and lose
``device_out_of_order(device)``    a device that cannot be used is covered or signed      13(g)
``device_restored(device)``        the device is back in service                          13(g)
``change_method(shuffle=, deal=)`` another method of shuffling or dealing, only once the  13(g)
                                   device it replaces is out of order (or back to the
                                   Rules Submission's own method)
=================================  =====================================================  ====

A dealing shoe that reshuffles the cards itself (``shuffle = "reshuffling_shoe"``, § 641a.5(g))
and one deck at a time in the discard rack (§ 641a.3(b)(4)) are part of the table's own round
cycle (:meth:`Table.new_round`).  Every function validates first: a refused call changes nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from croupier.errors import IllegalAction, InvalidInput, RulesViolation, shown_value
from croupier.games.records import AbandonWagers
from croupier.games.table_regs import deck_problems
from croupier.rules import DealMethod, ShuffleMethod, TableRules
from croupier.shoe import CUT_MIN_DEPTH, DECK_SIZE, BackColour, cut
from croupier.table_events import Device, Spread, StoredDeck, TableEvent, TableEventKind

if TYPE_CHECKING:
    from croupier.table import Table

__all__ = [
    "change_method",
    "device_out_of_order",
    "device_restored",
    "devices",
    "order_reshuffle",
    "player_left",
    "recut",
    "reinspect_idle",
    "report_shuffler_count",
    "verify_devices",
]


def devices(rules: TableRules) -> frozenset[Device]:
    """The automated devices a table's method uses."""
    if not isinstance(rules, TableRules):
        raise InvalidInput(f"table rules {shown_value(rules)} are not a TableRules")
    used: set[Device] = set()
    if rules.shuffle in (ShuffleMethod.AUTOMATED, ShuffleMethod.COUNTING):
        used.add(Device.SHUFFLER)
    if rules.shuffle is ShuffleMethod.RESHUFFLING_SHOE or rules.deal is DealMethod.AUTOMATED_SHOE:
        used.add(Device.DEALING_SHOE)
    return frozenset(used)


def _verify_table(table: object, what: str) -> Table:
    from croupier.table import Table  # the class these functions are methods of (a cycle)

    if not isinstance(table, Table):
        raise InvalidInput(f"{what}: {shown_value(table)} is not a Table")
    return table


def _section(table: Table, field: str, what: str) -> str:
    """The section of the procedure ``what`` at ``table`` (refused where its chapter has none:
    the first check of every procedure, so it also refuses what is not a table)."""
    section: str = getattr(_verify_table(table, what).regs, field)
    if not section:
        raise IllegalAction(
            f"{what} refused: the {table.game.slug} chapter has no such procedure in the texts "
            "at hand"
        )
    return section


def _verify_between_rounds(table: Table, what: str, section: str) -> None:
    current = table.current
    if current is not None:
        raise IllegalAction(
            f"{what} refused: round {table.rounds_played} is in progress "
            f"(phase {current.phase.value})",
            section=section,
        )


def _verify_person(by: object, what: str, section: str) -> str:
    if not isinstance(by, str) or not by.strip():
        raise InvalidInput(
            f"{what}: by={shown_value(by)} must name the floorperson (or above) who directs it",
            section=section,
        )
    return by


def _gather(table: Table) -> int:
    """The last round's cards come back: reshuffled, rotated or removed as the next round would
    have it; returns the number of the next round."""
    number = table._next_round_number()
    events: list[TableEvent] = []
    table._after_round(table._now(), number, events)
    for event in events:
        table._log(event)
    return number


def _log(
    table: Table,
    kind: TableEventKind,
    section: str,
    detail: str,
    *,
    back: BackColour | None = None,
    by: str | None = None,
    position: int | None = None,
    seat: int | None = None,
    player: str | None = None,
) -> TableEvent:
    """Log an event now; a ``back`` brings the serial number of its deck."""
    event = table._ev(kind, table._now(), table._event_round(), section, detail, back=back)
    return table._log(replace(event, by=by, position=position, seat=seat, player=player))


# --------------------------------------------------------------------------------------------
# § 641a.5(a), (b): a reshuffle on a floorperson's order; the counting shuffler's count


def order_reshuffle(table: Table, *, by: str) -> TableEvent:
    """A floorperson or above directs the dealer to shuffle the cards (§ 641a.5(a)) between
    rounds: the deck to be dealt next is shuffled again (a manual shuffle is then cut)."""
    what = "a reshuffle"
    section = _section(table, "floor_reshuffle", what)
    _verify_person(by, what, section)
    _verify_between_rounds(table, what, section)
    _gather(table)
    back = table._next_back()
    order = _log(table, TableEventKind.RESHUFFLE_ORDERED, section, "", back=back, by=by)
    table._set_deck(table._deck(back).shuffled(table.shuffler))
    how = f"{table.rules.shuffle.value} shuffle directed by {by}"
    _log(table, TableEventKind.SHUFFLED, section, how, back=back)
    return order


def report_shuffler_count(table: Table, count: int) -> TableEvent:
    """The counting shuffler's count of the deck it has just shuffled (§ 641a.5(b)): not 52
    cards, and the deck is removed from the table; a new deck is received, inspected and
    shuffled in its place."""
    what = "a shuffler count"
    section = _section(table, "shuffler_count", what)
    if table.rules.shuffle is not ShuffleMethod.COUNTING:
        raise IllegalAction(
            f"{what} refused: this table's shuffle is {table.rules.shuffle.value}, not a "
            "shuffler that counts the cards",
            section=section,
        )
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InvalidInput(f"shuffler count {shown_value(count)} is not a whole number of cards")
    _verify_between_rounds(table, what, section)
    number = _gather(table)
    back = table._next_back()
    detail = f"{count} cards counted after the shuffle, {DECK_SIZE} expected"
    counted = _log(table, TableEventKind.SHUFFLER_COUNTED, section, detail, back=back)
    if count != DECK_SIZE:
        why = f"the shuffler counted {count} cards, not {DECK_SIZE}"
        _log(table, TableEventKind.DECK_REMOVED, section, why, back=back)
        events: list[TableEvent] = []
        last_counted = table._life[back].last_counted
        new = table._receive(back, table._now(), number, events, last_counted=last_counted)
        for event in events:
            table._log(event)
        table._set_deck(new)
    return counted


# --------------------------------------------------------------------------------------------
# § 641a.5(e): the recut


def recut(table: Table, cut_at: int | None = None, *, by: str) -> TableEvent:
    """A floorperson or above has the cards of the round in progress cut again (§ 641a.5(e)):
    only after a cut and before any card is dealt.  The stack in the shoe is cut at ``cut_at``
    (the cover card at least ten cards in, § 641a.5(d); ``None``: a position drawn from the
    shuffler); the round's :class:`~croupier.table.PlayedRound` shows the new order."""
    what = "a recut"
    section = _section(table, "recut", what)
    _verify_person(by, what, section)
    current, shoe = table.current, table._shoe
    if current is None or shoe is None:
        raise IllegalAction(f"{what} refused: no round is in progress", section=section)
    played = table._history[-1]
    if played.cut_at is None:
        raise IllegalAction(
            f"{what} refused: the cards of round {played.number} were not cut "
            "(an automated shuffle is dealt uncut)",
            section=section,
        )
    if shoe.dealt or shoe.burned:
        raise IllegalAction(
            f"{what} refused: {len(shoe.dealt) + len(shoe.burned)} card(s) of round "
            f"{played.number} have been dealt",
            section=section,
        )
    if cut_at is None:
        cut_at = CUT_MIN_DEPTH + table.shuffler.randbelow(len(shoe) - CUT_MIN_DEPTH)
    order = cut(played._order, cut_at)  # refuses a cover card under ten cards in
    shoe.recut(cut_at)
    table._set_deck(table._deck(played.back).cut(cut_at))
    table._history[-1] = replace(played, _order=order, cut_at=cut_at)
    why = f"the cut of round {played.number} redone as directed by {by}"
    return _log(table, TableEventKind.RECUT, section, why, back=played.back, by=by, position=cut_at)


# --------------------------------------------------------------------------------------------
# § 641a.5(f): cards left idle


def reinspect_idle(
    table: Table,
    spread: Spread = Spread.FACE_DOWN,
    stored: StoredDeck = StoredDeck.DEALT,
) -> TableEvent:
    """No gaming activity at the open table (§ 641a.5(f)): the cards come out of the dealing
    shoe and the discard rack and are spread (face down unless a player asks for face up) for
    the first player to arrive, then:

    - no automated shuffler ((f)(1)): washed, stacked and shuffled; cut before the next round;
    - an automated shuffler ((f)(2)): stacked into the shuffler and shuffled; with two decks the
      deck stored in the shuffler comes out and is dealt as it is (the shuffler stores one
      deck securely and approved procedures released it, § 641a.5(f)(2)(i)-(ii)), unless a
      player asks for it to be spread and reshuffled as well (``stored``).
    """
    what = "re-inspection of idle cards"
    section = _section(table, "idle", what)
    if not isinstance(spread, Spread):
        raise InvalidInput(f"spread {shown_value(spread)} is not a Spread")
    if not isinstance(stored, StoredDeck):
        raise InvalidInput(f"stored {shown_value(stored)} is not a StoredDeck")
    _verify_between_rounds(table, what, section)
    _gather(table)
    rotation = table._rotation
    if rotation is not None and not table._history:
        # Nothing dealt yet: the deck waiting to be dealt is the idle one; it goes into the
        # shuffler and the stored one comes out.
        table._rotation = replace(
            rotation, in_play=rotation.in_shuffler, in_shuffler=rotation.in_play
        )
    idle = table._next_back() if table._rotation is None else table._rotation.in_shuffler.back
    detail = (
        "no gaming activity: the cards taken from the dealing shoe and the discard rack are "
        f"spread {spread.value.replace('_', ' ')} for the first player to arrive"
    )
    event = _log(table, TableEventKind.INSPECTED, section, detail, back=idle)
    manual = table.rules.shuffle is ShuffleMethod.MANUAL
    again = table._deck(idle).shuffled(table.shuffler)
    table._set_deck(again)
    if manual:
        how = "washed, stacked and shuffled by hand; cut before the next round"
        _log(table, TableEventKind.SHUFFLED, table.regs.idle_manual, how, back=idle)
        return event
    how = "stacked into the automated shuffler and shuffled"
    _log(table, TableEventKind.SHUFFLED, table.regs.idle_automated, how, back=idle)
    if table._rotation is not None and stored is StoredDeck.SPREAD_AND_RESHUFFLED:
        out = table._rotation.in_play.back
        asked = "a player asked for the deck taken from the shuffler to be spread"
        _log(table, TableEventKind.INSPECTED, table.regs.idle_automated, asked, back=out)
        table._set_deck(table._deck(out).shuffled(table.shuffler))
        again_how = "reshuffled before it is dealt"
        _log(table, TableEventKind.SHUFFLED, table.regs.idle_automated, again_how, back=out)
    return event


# --------------------------------------------------------------------------------------------
# § 641a.7(b): a player leaves mid-round


def player_left(table: Table, seat: int) -> TableEvent:
    """The player at ``seat`` left the table during the round after receiving cards: the
    wagers are abandoned and lose (§ 641a.7(b)); the round goes on for the others and the seat
    is free for the next round."""
    seat = _verify_table(table, "a player leaving")._verify_seat(seat)
    player = table._seats.get(seat)
    current = table.current
    if player is None or current is None:
        why = "the seat is empty" if player is None else "no round is in progress"
        raise IllegalAction(f"seat {seat}: {why}", section=table.regs.seated)
    current.apply(AbandonWagers(seat=seat))
    del table._seats[seat]
    why = "left mid-round: the wagers are abandoned and lose"
    return _log(table, TableEventKind.LEFT, table.regs.seated, why, seat=seat, player=player)


# --------------------------------------------------------------------------------------------
# § 641a.13(g): a device out of order, and another method


def _verify_device(table: Table, device: object, what: str, section: str) -> Device:
    if not isinstance(device, Device):
        raise InvalidInput(f"device {shown_value(device)} is not a Device")
    used = devices(table.rules) | table._out_of_order
    if device not in used:
        raise IllegalAction(
            f"{what} refused: this table ({table.rules.shuffle.value} shuffle, "
            f"{table.rules.deal.value}) uses no {device.value.replace('_', ' ')}",
            section=section,
        )
    return device


def device_out_of_order(table: Table, device: Device) -> TableEvent:
    """A device that malfunctions and cannot be used is covered, or a sign saying it is out of
    order is placed on it (§ 641a.13(g)); no round begins while the table's method uses it."""
    what = "marking a device out of order"
    section = _section(table, "out_of_order", what)
    device = _verify_device(table, device, what, section)
    _verify_between_rounds(table, what, section)
    if device in table._out_of_order:
        raise IllegalAction(f"the {device.value} is already out of order", section=section)
    why = "covered, or signed out of order, before any other method is used"
    event = _log(table, TableEventKind.DEVICE_OUT_OF_ORDER, section, f"{device.value}: {why}")
    table._out_of_order.add(device)
    return event


def device_restored(table: Table, device: Device) -> TableEvent:
    """The device is repaired and its cover or sign removed (§ 641a.13(g))."""
    what = "restoring a device"
    section = _section(table, "out_of_order", what)
    if not isinstance(device, Device):
        raise InvalidInput(f"device {shown_value(device)} is not a Device")
    _verify_between_rounds(table, what, section)
    if device not in table._out_of_order:
        raise IllegalAction(f"the {device.value} is not out of order", section=section)
    event = _log(table, TableEventKind.DEVICE_RESTORED, section, f"{device.value} in service")
    table._out_of_order.discard(device)
    return event


def verify_devices(table: Table) -> None:
    """Refuse a round whose method needs a device that is out of order (§ 641a.13(g))."""
    down = sorted(d.value for d in devices(table.rules) & table._out_of_order)
    if down:
        raise IllegalAction(
            f"the {' and '.join(down)} out of order: change the method of shuffling or dealing "
            "(change_method) or restore the device before the next round",
            section=table.regs.out_of_order or None,
        )


def change_method(
    table: Table, *, shuffle: ShuffleMethod | None = None, deal: DealMethod | None = None
) -> TableEvent:
    """Shuffle or deal another way (§ 641a.13(g)): allowed only once every device the current
    method uses and the new one does not is out of order, or to return to the Rules
    Submission's own method with its devices in service.  The new method is checked as the
    chapter checks a Rules Submission (e.g. dealing from the hand needs a shuffler)."""
    what = "another method of shuffling or dealing"
    section = _section(table, "out_of_order", what)
    if shuffle is not None and not isinstance(shuffle, ShuffleMethod):
        raise InvalidInput(f"shuffle {shown_value(shuffle)} is not a ShuffleMethod")
    if deal is not None and not isinstance(deal, DealMethod):
        raise InvalidInput(f"deal {shown_value(deal)} is not a DealMethod")
    _verify_between_rounds(table, what, section)
    old = table.rules
    new = replace(old, shuffle=shuffle or old.shuffle, deal=deal or old.deal)
    if new == old:
        raise IllegalAction(f"{what}: the method is already {old.shuffle.value}, {old.deal.value}")
    down = devices(new) & table._out_of_order
    if down:
        names = ", ".join(sorted(d.value for d in down))
        raise IllegalAction(f"{what} refused: the {names} is out of order", section=section)
    dropped = devices(old) - devices(new)
    submitted = new == table._submitted.rules.table
    if not submitted and (not dropped or not dropped <= table._out_of_order):
        raise IllegalAction(
            f"{what} refused: the Rules Submission's method ({old.shuffle.value} shuffle, "
            f"{old.deal.value}) is changed only when a device it uses is covered or signed out "
            "of order",
            section=section,
        )
    game = type(table.game)(replace(table.game.rules, table=new))
    problems = deck_problems(new, table.regs.table_decks)  # the one deck check, as the table's
    if problems:
        raise RulesViolation(problems[0][0], section=problems[0][1])
    table.game, table.rules = game, new
    detail = (
        f"{old.shuffle.value} shuffle, {old.deal.value} -> {new.shuffle.value} shuffle, "
        f"{new.deal.value}"
    )
    return _log(table, TableEventKind.METHOD_CHANGED, section, detail)
