"""``python -m croupier.web.par_worker IN_FD OUT_FD``: the par sheets' worker process, started
by :class:`croupier.web.par.ParSheets` (never by hand)."""

from __future__ import annotations

import sys

from croupier.web.par import worker_main

if __name__ == "__main__":
    worker_main(sys.argv[1:])
