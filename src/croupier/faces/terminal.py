"""``croupier play GAME``: a table in the terminal, one human seat, the others played by the
game's simple strategy.  Reads answers from standard input; end of input leaves the table.

The table shows the posted limits (payout limit, wager minimums and maximums where the Rules
Submission posts them) and the progressive meter as it stands before each round; at each
decision the player's cards with their hand category and the cards showing.  Every round is
stored as it is played (:class:`~croupier.store.RoundStore`, records and meter moves together)
under the round id ``TABLE-STAMP-N``; ``croupier recall --table TABLE`` reads them back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TextIO

from croupier.core.cards import Card, format_cards
from croupier.core.errors import CroupierError, InvalidInput
from croupier.core.money import format_cents, parse_cents
from croupier.games.play import play_out
from croupier.games.pov import seat_cards, supervisor_hands
from croupier.games.records import (
    Action,
    DealerRevealed,
    EnvyPaid,
    PlaceWager,
    ProgressivePaid,
    ReportIrregularity,
    WagerSettled,
)
from croupier.games.round import Round
from croupier.games.streets import StreetRound
from croupier.hands import Ranking, evaluate
from croupier.table.shoe import SecureShuffler, SeededShuffler, Shoe, Shuffler

if TYPE_CHECKING:
    from croupier.games import Game
    from croupier.rules.progressive import MeterBank
    from croupier.store import TrackedRound

__all__ = ["database_url", "hand_category", "play_terminal", "posted_limits"]


class _Quit(Exception):
    pass


def hand_category(cards: Sequence[Card], ranking: Ranking) -> str:
    """The category of the best hand ``cards`` make so far, in words: the ranking's own when
    there are enough cards, else what the ranks already hold (pair, two pair, trips)."""
    if ranking.min_cards <= len(cards) <= ranking.max_cards:
        return evaluate(list(cards), ranking).category.value.replace("_", " ")
    counts = sorted(Counter(c.rank for c in cards).values(), reverse=True)
    if counts and counts[0] >= 4:
        return "four of a kind"
    if counts and counts[0] == 3:
        return "three of a kind"
    if counts[:2] == [2, 2]:
        return "two pair"
    return "pair" if counts and counts[0] == 2 else "high card"


def posted_limits(game: Game) -> list[str]:
    """The limits posted at the table: the payout limit and each wager's minimum and maximum
    (``[limits]`` of the Rules Submission, where it has them)."""
    lines = []
    limits = getattr(game.rules, "limits", None) or {}
    for wager, limit in limits.items():
        low, high = getattr(limit, "min", None), getattr(limit, "max", None)
        span = " to ".join(format_cents(x) for x in (low, high) if x is not None)
        lines.append(f"{wager}: {span}")
    if game.rules.payout_limit is not None:
        lines.append(f"payout limit per hand: {format_cents(game.rules.payout_limit)}")
    return lines or ["no limits posted in the Rules Submission"]


def database_url(db: str | None) -> str:
    """``db``, else ``$CROUPIER_DB``, else the store's default SQLite file."""
    import os

    from croupier.store import DEFAULT_URL

    return db or os.environ.get("CROUPIER_DB") or DEFAULT_URL


def _ask(prompt: str, out: TextIO) -> str:
    out.write(prompt)
    out.flush()
    try:
        return input().strip()
    except EOFError:
        raise _Quit from None


def _human_wagers(rnd: TrackedRound, seat: int, out: TextIO) -> None:
    game = rnd.round.game
    for wager in game.offered_wagers():
        if wager in game.decision_wagers:
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


def _showing(rnd: Round, seat: int) -> tuple[list[Card], list[str]]:
    """The community cards the seat plays with, and a line per recipient of face-up cards."""
    community: list[Card] = []
    lines = []
    for who, cards in rnd.visible_cards().items():
        if not cards or who == str(seat):
            continue
        if not who.isdigit() and who != "dealer":
            community += cards
        label = f"seat {who}" if who.isdigit() else who
        lines.append(f"  {label} showing: {format_cards(cards)}")
    turned = rnd.turned if isinstance(rnd, StreetRound) else 0
    board = supervisor_hands(rnd).get("board", [])[:turned]
    if board and not community:
        community = list(board)
        lines.append(f"  board: {format_cards(board)}")
    return community, lines


def _human_decision(rnd: Round, seat: int, out: TextIO) -> Action:
    own = list(seat_cards(rnd, seat))
    community, lines = _showing(rnd, seat)
    # the game's first ranking is the one its decisions read the hand by (baccarat has none)
    rankings = rnd.game.hand_rankings
    ranking = rankings[0] if rankings else None
    category = f"  ({hand_category(own + community, ranking)})" if ranking else ""
    out.write(f"  your cards: {format_cards(own)}{category}\n")
    for line in lines:
        out.write(line + "\n")
    options = [a for a in rnd.legal_actions() if not isinstance(a, ReportIrregularity)]
    for i, action in enumerate(options, start=1):
        out.write(f"   {i}. {rnd.describe(action)}\n")
    while True:
        text = _ask("  your choice: ", out)
        if text.isdigit() and 1 <= int(text) <= len(options):
            return options[int(text) - 1]
        out.write(f"  choose 1 to {len(options)}\n")


def _report(rnd: Round, out: TextIO) -> None:
    rankings = rnd.game.hand_rankings
    ranking = rankings[0] if rankings else None  # the hand each seat's result is read by
    hands = supervisor_hands(rnd)  # the round is over: every card is face up
    board = list(hands.get("board", []))
    if "player" in hands and "banker" in hands:  # baccarat: the coup the wagers settle on
        from croupier.hands.baccarat import point_count

        out.write(
            "; ".join(
                f"{side.title()}'s Hand: {format_cards(hands[side])} ({point_count(hands[side])})"
                for side in ("player", "banker")
            )
            + "\n"
        )
    for rec in rnd.records:
        if isinstance(rec, DealerRevealed):
            out.write(
                f"Dealer: {format_cards(rec.cards)} -> {rec.category.replace('_', ' ')} "
                f"({format_cards(rec.best)})\n"
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
        held = list(seat_cards(rnd, seat))
        category = f" ({hand_category(held + board, ranking)})" if ranking and held else ""
        shown = f" {format_cards(held)}{category}" if held else ""
        out.write(f"Seat {seat} [{rnd.players[seat]}]{shown}: {'; '.join(lines)}\n")


def _meter_line(game: Game, meters: MeterBank) -> str | None:
    spec = game.meter_spec
    if spec is None:
        return None
    meters.ensure(spec)
    return f"Progressive meter {spec.name!r}: {format_cents(meters.amount(spec.name))}"


def _play_round(rnd: TrackedRound, seat: int, others: Sequence[int], out: TextIO) -> int:
    """One round with the human at ``seat``; returns the human's net (cents)."""
    out.write("\nPlace your wagers.\n")
    _human_wagers(rnd, seat, out)
    inner = rnd.round
    for other in others:
        for action in inner.house_wagers(other):
            rnd.apply(action)
    rnd.apply(inner.dealer_no_more_bets())

    def decide(_: TrackedRound, at: int) -> Action:
        return _human_decision(inner, seat, out) if at == seat else inner.simple_strategy(at)

    play_out(rnd, decide)
    _report(inner, out)
    net: int = inner.settlement().get(str(seat), {"net": 0})["net"]
    return net


def _abandon(rnd: TrackedRound | None) -> None:
    """A round left before any card was dealt is void (nothing to settle); one left later stays
    open in the store, as after a crash (``RoundStore.open_rounds`` lists it)."""
    from croupier.games.records import VoidRound
    from croupier.games.round import Phase

    if rnd is not None and not rnd.is_over and rnd.phase is Phase.BETTING:
        # The shared void returns the wagers placed (the store refuses a bare status change).
        rnd.apply(VoidRound(by="croupier play", reason="the player left before the deal"))


def play_terminal(
    game: Game,
    *,
    seat: int,
    seed: int | None,
    out: TextIO,
    db: str | None = None,
    table: str = "terminal",
) -> int:
    """Play rounds of ``game`` (its rules and pay tables in force) until the player says no or
    input ends, each stored in the database at ``db`` (default :func:`database_url`; seeded
    practice rounds only where ``db`` is given) under table name ``table``; returns the exit
    status."""
    from croupier.store import RoundStore, SqlMeters, open_engine

    if not 1 <= seat <= 7:
        raise InvalidInput(f"seat {seat} is not a betting position 1-7")
    if not table or any(c.isspace() for c in table):
        raise InvalidInput(f"--table {table!r} must be a name without spaces")
    shuffler: Shuffler = SeededShuffler(seed) if seed is not None else SecureShuffler()
    others = [s for s in (1, 4, 7) if s != seat][:2]
    players = {seat: "you", **{s: f"house player {s}" for s in others}}
    # Seeded shuffles are practice, never real play: their rounds go to the database only when
    # one is named (--db), else to a private in-memory one.
    url = database_url(db) if seed is None or db else "sqlite://"
    engine = open_engine(url)
    store, meters = RoundStore(engine), SqlMeters(engine)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    seats = " and ".join(str(s) for s in others)
    out.write(f"{game.title}: you sit at seat {seat}; house players at seats {seats}.\n")
    out.write("Posted limits: " + "; ".join(posted_limits(game)) + "\n")
    total, number = 0, 0
    rnd: TrackedRound | None = None
    try:
        while True:
            meter = _meter_line(game, meters)
            if meter:
                out.write(meter + "\n")
            number += 1
            shoe = Shoe.shuffled(shuffler, decks=game.deck_count)
            rnd = store.track(
                f"{table}-{stamp}-{number}",
                game.new_round(shoe=shoe, players=players, meters=meters),
            )
            mine = _play_round(rnd, seat, others, out)
            total += mine
            out.write(f"You: {format_cents(mine)} this round, {format_cents(total)} in all.\n")
            if _ask("Another round? [Y/n] ", out).lower().startswith("n"):
                break
    except _Quit:
        out.write("\n")
        _abandon(rnd)
    finally:
        engine.dispose()
    out.write(f"You leave the table with {format_cents(total)}.\n")
    if url == "sqlite://":
        out.write("Practice rounds (seeded shuffle) are not kept; give --db URL to keep them.\n")
    else:
        where = f" --db {db}" if db else ""
        out.write(
            f"Hand history: {number} round(s) stored as table {table!r}; "
            f"read it back with: croupier recall --table {table}{where}\n"
        )
    return 0
