"""``python -m croupier.server.par_worker IN_FD OUT_FD``: the par sheets' worker process, started
by :class:`croupier.server.par_routes.ParSheets` (never by hand)."""

from __future__ import annotations

import sys

from croupier.server.par_routes import worker_main

if __name__ == "__main__":
    worker_main(sys.argv[1:])
