"""Small peer simulators, written the way a typical hobbyist Python simulator plays the game:
a list of card tuples, ``random.shuffle``, a Counter-based hand evaluator, one pay table, no
records, no validation.  :mod:`benchmarks.bench_engine` runs them beside the round engine so
the ratio is printed (PokerKit's heads-up hold'em state machine is the one installed peer)."""
