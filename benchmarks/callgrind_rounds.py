"""Rounds of one game for an instruction count: the engine's cost without a clock.

Run ``valgrind --tool=callgrind python benchmarks/callgrind_rounds.py GAME N`` for N = 100 and
N = 400 and take the difference of the two counts over 300: the instructions of a round, the
one-time work (imports, the hand tables) cancelled out.  Each round: a fresh shoe from a seeded
shuffler (made before the rounds, one per round), the house player's wagers at seats 1, 3, 5 and
7, "no more bets", the dealer's steps and each seat's ``simple_strategy`` to the end.  The count
moves a little with Python's hash seed (set ``PYTHONHASHSEED`` to compare two trees run for run);
this machine's timings move far more (``bench_engine.py`` is the timed figure).
"""

from __future__ import annotations

import sys

from croupier.games import get_game
from croupier.table.shoe import SeededShuffler, Shoe

SEATS = (1, 3, 5, 7)


def main(argv: list[str]) -> None:
    slug, rounds = argv[0], int(argv[1])
    game = get_game(slug)
    shuffler = SeededShuffler(1)
    shoes = [Shoe.shuffled(shuffler, decks=game.deck_count) for _ in range(rounds)]
    for shoe in shoes:
        rnd = game.new_round(shoe=shoe)
        for seat in SEATS:
            for action in rnd.house_wagers(seat):
                rnd.apply(action)
        rnd.apply(rnd.dealer_no_more_bets())
        rnd.run_dealer()
        while not rnd.is_over:
            decider = rnd.next_decider()
            if decider is None:
                rnd.run_dealer()
                continue
            rnd.apply(rnd.simple_strategy(decider))


if __name__ == "__main__":
    main(sys.argv[1:])
