"""``python -m croupier.server [--db URL] [--host H] [--port P] [--no-demo | --training]
[--tables A,B] [--lock-after N] [--address-lock-after N] [--lock-for S] [--sign-in-delay S]``."""

from __future__ import annotations

import argparse
from datetime import timedelta

from croupier.server.auth import FloorMode
from croupier.server.db import DEFAULT_SERVER_URL
from croupier.server.run import serve
from croupier.server.signin import SignInLimits


def main() -> None:
    defaults = SignInLimits()
    parser = argparse.ArgumentParser(prog="python -m croupier.server")
    parser.add_argument("--db", default=DEFAULT_SERVER_URL)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    floor = parser.add_mutually_exclusive_group()
    floor.add_argument("--no-demo", action="store_true", help="a real floor: no demo")
    floor.add_argument(
        "--training", action="store_true", help="the demo, every table a training table"
    )
    parser.add_argument(
        "--tables", help="serve only these tables (comma-separated; one of several processes)"
    )
    parser.add_argument("--lock-after", type=int, default=defaults.account_failures)
    parser.add_argument("--address-lock-after", type=int, default=defaults.address_failures)
    parser.add_argument(
        "--lock-for", type=float, default=defaults.lock_for.total_seconds(), help="seconds"
    )
    parser.add_argument(
        "--sign-in-delay", type=float, default=defaults.delay.total_seconds(), help="seconds"
    )
    args = parser.parse_args()
    tables = frozenset(t for t in args.tables.split(",") if t) if args.tables else None
    mode = FloorMode.REAL if args.no_demo else FloorMode.TRAINING if args.training else None
    limits = SignInLimits(
        account_failures=args.lock_after,
        address_failures=args.address_lock_after,
        lock_for=timedelta(seconds=args.lock_for),
        delay=timedelta(seconds=args.sign_in_delay),
    )
    serve(
        args.db,
        host=args.host,
        port=args.port,
        mode=mode or FloorMode.DEMO,
        limits=limits,
        tables=tables,
    )


if __name__ == "__main__":
    main()
