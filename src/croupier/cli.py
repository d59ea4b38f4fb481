"""The ``croupier`` command line: parse, call the library, print, set the exit code.

Every command prints JSON with ``--json`` (``hand`` and ``count`` always do); errors are one line
on stderr and exit status 2.  No game logic lives here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from croupier.errors import CroupierError

__all__ = ["main", "run"]

Handler = Callable[[argparse.Namespace, TextIO], int]


def _dump(obj: object, out: TextIO, *, pretty: bool = True) -> None:
    out.write(json.dumps(obj, indent=2 if pretty else None) + "\n")


def _cmd_hand(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.hands import evaluate

    if args.cards:
        result = evaluate(" ".join(args.cards), args.ranking)
        _dump(result.to_json() | {"input": [str(c) for c in result.cards]}, out)
        return 0
    status = 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            _dump(evaluate(line, args.ranking).to_json(), out, pretty=False)
        except CroupierError as exc:
            print(f"croupier: line {number}: {exc}", file=sys.stderr)
            status = 2
    return status


def _cmd_count(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.analysis.counts import count_table

    table = count_table(args.ranking, args.cards, progress_bar=not args.quiet)
    if args.json:
        _dump(table.to_json(), out)
    else:
        out.write(table.render() + "\n")
    return 0


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from croupier.demo import run_demo

    out.write(run_demo(seed=args.seed) + "\n")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier",
        description="Runs and proves the table games regulated in Pennsylvania (58 Pa. Code).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    hand = sub.add_parser("hand", help="rank one hand (or one hand a line from stdin)")
    hand.add_argument("cards", nargs="*", help="cards such as 'As Kd Th 9c 2s' ('10h' also read)")
    hand.add_argument("--ranking", default="poker5", help="poker5, four-card, three-card, ...")
    hand.add_argument("--json", action="store_true", help="JSON output (always JSON)")
    hand.set_defaults(handler=_cmd_hand)

    count = sub.add_parser("count", help="category counts over every N-card hand (exhaustive)")
    count.add_argument("--ranking", default="poker5")
    count.add_argument("--cards", type=int, required=True, help="hand size N")
    count.add_argument("--json", action="store_true", help="JSON output")
    count.add_argument("--quiet", action="store_true", help="no progress bar")
    count.set_defaults(handler=_cmd_count)

    demo = sub.add_parser("demo", help="a seeded demonstration of what croupier does so far")
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--json", action="store_true", help="(the demo is text)")
    demo.set_defaults(handler=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or refused action)."""
    parser = _parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, out or sys.stdout)
    except CroupierError as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        return 2


def run() -> None:  # pragma: no cover - the console script
    """Entry point of the ``croupier`` console script."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
