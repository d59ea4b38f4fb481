"""``python -m croupier.server [--db URL] [--host H] [--port P] [--no-demo | --training]
[--tables A,B] [--lock-after N] [--address-lock-after N] [--lock-for S] [--sign-in-delay S]
[--tls-cert FILE --tls-key FILE] [--allowed-host NAME]... [--allowed-origin ORIGIN]...
[--trusted-proxy ADDRESS]... [--docs] [--session-idle MINUTES] [--session-lifetime HOURS]``
(the options of ``croupier serve``)."""

from __future__ import annotations

import argparse
import sys
from datetime import timedelta

from croupier.core.errors import CroupierError
from croupier.server.auth import FloorMode
from croupier.server.db import DEFAULT_SERVER_URL
from croupier.server.perimeter import Perimeter
from croupier.server.run import Tls, serve
from croupier.server.sessions import IDLE, LIFETIME, SessionLimits
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
    parser.add_argument("--tls-cert", help="PEM certificate chain: serve HTTPS")
    parser.add_argument("--tls-key", help="PEM private key of --tls-cert")
    parser.add_argument("--allowed-host", action="append", default=[], help="a Host to answer")
    parser.add_argument("--allowed-origin", action="append", default=[], help="a page origin")
    parser.add_argument("--trusted-proxy", action="append", default=[], help="a TLS proxy")
    parser.add_argument("--docs", action="store_true", help="serve /docs (on a demo floor)")
    parser.add_argument("--session-idle", type=float, default=IDLE.total_seconds() / 60)
    parser.add_argument("--session-lifetime", type=float, default=LIFETIME.total_seconds() / 3600)
    args = parser.parse_args()
    tables = frozenset(t for t in args.tables.split(",") if t) if args.tables else None
    mode = FloorMode.REAL if args.no_demo else FloorMode.TRAINING if args.training else None
    mode = mode or FloorMode.DEMO
    try:
        limits = SignInLimits(
            account_failures=args.lock_after,
            address_failures=args.address_lock_after,
            lock_for=timedelta(seconds=args.lock_for),
            delay=timedelta(seconds=args.sign_in_delay),
        )
        tls = Tls.of(args.tls_cert, args.tls_key)
        perimeter = Perimeter.serving(
            args.host,
            hosts=args.allowed_host,
            origins=args.allowed_origin,
            docs=args.docs or mode is not FloorMode.REAL,
        )
        sessions = SessionLimits.of(
            idle_minutes=args.session_idle, lifetime_hours=args.session_lifetime
        )
    except CroupierError as exc:
        sys.stderr.write(f"{parser.prog}: {exc.message}\n")
        sys.exit(2)
    serve(
        args.db,
        host=args.host,
        port=args.port,
        mode=mode,
        limits=limits,
        tables=tables,
        tls=tls,
        perimeter=perimeter,
        sessions=sessions,
        proxies=args.trusted_proxy,
    )


if __name__ == "__main__":
    main()
