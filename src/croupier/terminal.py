"""``croupier play GAME``: a table in the terminal, one human seat, the others played by the
game's simple strategy.  Reads answers from standard input; end of input leaves the table."""

from __future__ import annotations

from typing import TextIO

from croupier.cards import format_cards
from croupier.errors import CroupierError, InvalidInput
from croupier.games import get_game
from croupier.games.pov import seat_cards
from croupier.games.records import (
    Action,
    DealerRevealed,
    EnvyPaid,
    Irregular,
    PlaceWager,
    ProgressivePaid,
    WagerSettled,
)
from croupier.games.round import ActorKind, Round
from croupier.money import format_cents, parse_cents
from croupier.rules import load_rules
from croupier.shoe import SecureShuffler, SeededShuffler, Shoe, Shuffler

__all__ = ["play_terminal"]


class _Quit(Exception):
    pass


def _ask(prompt: str, out: TextIO) -> str:
    out.write(prompt)
    out.flush()
    try:
        return input().strip()
    except EOFError:
        raise _Quit from None


def _human_wagers(rnd: Round, seat: int, out: TextIO) -> None:
    for wager in rnd.game.offered_wagers():
        if wager in rnd.game.decision_wagers:
            continue
        while True:
            text = _ask(f"  {wager} wager in cents or $ (blank for none): ", out)
            if not text:
                break
            try:
                rnd.apply(PlaceWager(seat=seat, wager=wager, amount=parse_cents(text)))
                break
            except CroupierError as exc:
                out.write(f"  refused: {exc}\n")


def _human_decision(rnd: Round, seat: int, out: TextIO) -> Action:
    cards = format_cards(seat_cards(rnd, seat))
    shown = {k: format_cards(v) for k, v in rnd.visible_cards().items() if v}
    out.write(f"  your cards: {cards}   showing: {shown}\n")
    options = [a for a in rnd.legal_actions() if not isinstance(a, Irregular)]
    for i, action in enumerate(options, start=1):
        out.write(f"   {i}. {rnd.describe(action)}\n")
    while True:
        text = _ask("  your choice: ", out)
        if text.isdigit() and 1 <= int(text) <= len(options):
            return options[int(text) - 1]
        out.write(f"  choose 1 to {len(options)}\n")


def _report(rnd: Round, out: TextIO) -> None:
    for rec in rnd.records:
        if isinstance(rec, DealerRevealed):
            out.write(
                f"Dealer: {format_cards(rec.cards)} -> {rec.category} ({format_cards(rec.best)})\n"
            )
    for seat in sorted(rnd.active_seats):
        lines = []
        for rec in rnd.records:
            if isinstance(rec, WagerSettled) and rec.seat == seat:
                lines.append(f"{rec.wager} {rec.result.value} {format_cents(rec.net)}")
            elif isinstance(rec, ProgressivePaid) and rec.seat == seat:
                lines.append(f"progressive {rec.line} {format_cents(rec.amount)}")
            elif isinstance(rec, EnvyPaid) and rec.seat == seat:
                lines.append(f"envy for seat {rec.for_seat} {format_cents(rec.amount)}")
        cards = format_cards(seat_cards(rnd, seat))
        out.write(f"Seat {seat} [{rnd.players[seat]}] {cards}: {'; '.join(lines)}\n")


def play_terminal(
    game_name: str, *, rules_file: str | None, seat: int, seed: int | None, out: TextIO
) -> int:
    """Play rounds until the player says no or input ends; returns the exit status."""
    game = get_game(load_rules(rules_file)) if rules_file else get_game(game_name)
    if not 1 <= seat <= 7:
        raise InvalidInput(f"seat {seat} is not a betting position 1-7")
    shuffler: Shuffler = SeededShuffler(seed) if seed is not None else SecureShuffler()
    others = [s for s in (1, 4, 7) if s != seat][:2]
    players = {seat: "you", **{s: f"house player {s}" for s in others}}
    out.write(f"{game.title}: you sit at seat {seat}; house players at seats {others}.\n")
    total = 0
    try:
        while True:
            decks = game.deck_count
            rnd = game.new_round(shoe=Shoe.shuffled(shuffler, decks=decks), players=players)
            out.write("\nPlace your wagers.\n")
            _human_wagers(rnd, seat, out)
            for other in others:
                for action in rnd.house_wagers(other):
                    rnd.apply(action)
            rnd.apply(rnd.dealer_no_more_bets())
            while not rnd.is_over:
                rnd.run_dealer()
                actor = rnd.to_act()
                if actor.kind is ActorKind.SEAT and actor.seat is not None:
                    if actor.seat == seat:
                        rnd.apply(_human_decision(rnd, seat, out))
                    else:
                        rnd.apply(rnd.simple_strategy(actor.seat))
            _report(rnd, out)
            mine = rnd.settlement().get(str(seat), {"net": 0})["net"]
            total += mine
            out.write(f"You: {format_cents(mine)} this round, {format_cents(total)} in all.\n")
            if _ask("Another round? [Y/n] ", out).lower().startswith("n"):
                break
    except _Quit:
        out.write("\n")
    out.write(f"You leave the table with {format_cents(total)}.\n")
    return 0
