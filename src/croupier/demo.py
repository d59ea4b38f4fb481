"""``make run``: a seeded demonstration of everything croupier can do so far."""

from __future__ import annotations

from croupier.analysis.counts import count_table
from croupier.cards import DECK, format_cards
from croupier.hands import Ranking, evaluate
from croupier.hands.baccarat import banker_draws, outcome, player_draws, point_count
from croupier.shoe import SeededShuffler

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


def run_demo(*, seed: int = 2026) -> str:
    """Ranked sample hands and exhaustive count tables, as text."""
    lines = _ranked_samples(seed)
    for ranking, size in ((Ranking.POKER5, 5), (Ranking.FOUR_CARD, 5), (Ranking.THREE_CARD, 3)):
        lines.append("")
        lines.append(count_table(ranking, size).render())
    return "\n".join(lines)
