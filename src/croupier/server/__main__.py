"""``python -m croupier.server [--db URL] [--host H] [--port P] [--no-demo] [--tables A,B]``."""

from __future__ import annotations

import argparse

from croupier.server.db import DEFAULT_SERVER_URL
from croupier.server.run import serve


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m croupier.server")
    parser.add_argument("--db", default=DEFAULT_SERVER_URL)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--no-demo", action="store_true", help="no demo floor")
    parser.add_argument(
        "--tables", help="serve only these tables (comma-separated; one of several processes)"
    )
    args = parser.parse_args()
    tables = frozenset(t for t in args.tables.split(",") if t) if args.tables else None
    serve(args.db, host=args.host, port=args.port, demo=not args.no_demo, tables=tables)


if __name__ == "__main__":
    main()
