"""``python -m croupier``: the command line."""

from croupier.cli import run

run()
