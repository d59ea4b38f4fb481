"""``make run``: a seeded demonstration of everything croupier can do so far."""

from __future__ import annotations

from croupier.analysis.counts import count_table
from croupier.core.cards import DECK, format_cards
from croupier.core.money import format_cents
from croupier.games import GAMES, game_class, get_game
from croupier.games.play import play_out
from croupier.games.pov import supervisor_hands
from croupier.games.records import CardDealt, PlayWagered, WagerPlaced, record_to_json
from croupier.games.round import SEATS
from croupier.hands import Ranking, evaluate
from croupier.hands.baccarat import banker_draws, outcome, player_draws, point_count
from croupier.rules.progressive import MemoryMeters
from croupier.table.shoe import SeededShuffler, Shoe

__all__ = ["run_demo"]


def _ranked_samples(seed: int) -> list[str]:
    shuffler = SeededShuffler(seed)
    deck = shuffler.shuffle(DECK)
    lines = [f"Ranked sample hands (seeded shuffle, seed {seed}):"]
    plan = [
        (Ranking.POKER5, 7, "Ultimate Texas Hold 'Em: best five of seven"),
        (Ranking.POKER5, 5, "Let It Ride / Mississippi Stud: five cards"),
        (Ranking.FOUR_CARD, 5, "Four Card Poker player: best four of five (§ 641a.6)"),
        (Ranking.FOUR_CARD, 6, "Four Card Poker dealer: best four of six (§ 641a.6)"),
        (Ranking.THREE_CARD, 3, "Three Card Poker (§ 649a.6)"),
        (Ranking.THREE_CARD_BONUS, 3, "Three Card Bonus (§ 643a.6(c))"),
    ]
    position = 0
    for ranking, size, label in plan:
        hand = deck[position : position + size]
        position += size
        rank = evaluate(hand, ranking)
        lines.append(
            f"  {label:<52} {format_cards(hand):<22} -> {rank.category.value:<16}"
            f" plays {format_cards(rank.cards)}"
        )
    player, banker = (
        list(deck[position : position + 3 : 2]),
        list(deck[position + 1 : position + 4 : 2]),
    )
    position += 4
    if player_draws(player, banker):
        player.append(deck[position])
        position += 1
    third = player[2] if len(player) == 3 else None
    if banker_draws(player[:2], banker, third):
        banker.append(deck[position])
    lines.append(
        f"  {'Baccarat coup (cards 1 and 3 to the Player)':<52} Player {format_cards(player)}"
        f" ({point_count(player)}), Banker {format_cards(banker)} ({point_count(banker)})"
        f" -> {outcome(player, banker).value}"
    )
    return lines


def _demo_round(slug: str, seed: int) -> list[str]:
    """A seeded round of ``slug`` at a full table: house players at seats 1-7."""
    game = get_game(game_class(slug).example_rules or slug)
    shuffler = SeededShuffler(f"{seed}-{slug}")
    players = {seat: f"P{seat}" for seat in SEATS}
    rnd = game.new_round(
        shoe=Shoe.shuffled(shuffler, decks=game.deck_count), meters=MemoryMeters(), players=players
    )
    for seat in SEATS:
        for action in rnd.house_wagers(seat):
            rnd.apply(action)
    rnd.apply(rnd.dealer_no_more_bets())
    play_out(rnd, lambda r, seat: r.simple_strategy(seat))
    lines = [f"{game.title}: a seeded round at a full table ({len(rnd.records)} records)"]
    for rec in rnd.records:
        if isinstance(rec, CardDealt | WagerPlaced | PlayWagered):
            continue  # summarised below
        lines.append(f"  {_record_line(record_to_json(rec))}")
    for place, hand in sorted(supervisor_hands(rnd).items()):
        lines.append(f"  cards {place:>8}: {format_cards(hand)}")
    for place, entry in sorted(rnd.settlement().items(), key=lambda kv: int(kv[0])):
        wagers = ", ".join(
            f"{name} {w['stake']} {w['result']} +{w['paid']}" for name, w in entry["wagers"].items()
        )
        lines.append(f"  seat {place}: {wagers}; net {format_cents(entry['net'])}")
    return lines


def _record_line(data: dict[str, object]) -> str:
    """A record as one readable line: its kind, then its fields as ``name=value``."""
    kind = data.get("kind", "record")
    fields = []
    for key, value in data.items():
        if key == "kind":
            continue
        shown = " ".join(map(str, value)) if isinstance(value, list) else value
        fields.append(f"{key}={shown}")
    return f"{kind:<16} " + ", ".join(fields)


def run_demo(*, seed: int = 2026) -> str:
    """Ranked sample hands, exhaustive count tables and a seeded round of every game."""
    lines = _ranked_samples(seed)
    for ranking, size in ((Ranking.POKER5, 5), (Ranking.FOUR_CARD, 5), (Ranking.THREE_CARD, 3)):
        lines.append("")
        lines.append(count_table(ranking, size).render())
    for slug in GAMES:
        lines.append("")
        lines += _demo_round(slug, seed)
    return "\n".join(lines)
