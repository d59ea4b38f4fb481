"""Solve Ultimate Texas Hold 'Em (Blind table A) and Four Card Poker (the § 641a.12(b) Ante
Bonus) afresh and write the package's shipped copies (``src/croupier/analysis/solved/``).

Every block is solved by the real kernels: no cache folder is read (a fresh temporary one) and
no shipped file (``CROUPIER_SHIPPED=0``).  Run after a change to a solver, its kernels or the
games' settlement (the shipped file of the old key is then unused, and ``tests/test_solved.py``
fails until the new one is written):
``PYTHONPATH=src python scripts/write_solved.py [uth] [fcp]`` (about 3 CPU-minutes for both).
"""

import os
import sys
import tempfile

from croupier.analysis import _solved, fcp_solver, uth_solver
from croupier.games._uth_tables import BLIND
from croupier.games.four_card_poker import ANTE_BONUS


def _write(spec: _solved.SolveSpec, detail: str) -> None:
    blocks = {b: spec.solve_block(b) for b in spec.blocks}
    for old in _solved.SHIPPED_DIR.glob(f"{spec.solver}-v*.npz"):
        old.unlink()  # one shipped solve per solver: the old key's file is of no use
    _solved.write(spec, blocks, detail, spec.shipped)
    print(f"wrote {spec.shipped} ({spec.shipped.stat().st_size:,} bytes)")


def main(games: list[str]) -> None:
    os.environ["CROUPIER_SHIPPED"] = "0"
    with tempfile.TemporaryDirectory() as cache:
        os.environ["CROUPIER_CACHE"] = cache
        if "uth" in games:
            table = BLIND["A"]
            pays = ", ".join(f"{ln.hand} {ln.odds}" for ln in table.lines if ln.odds)
            detail = f"Blind table A ({table.section}: {pays}); the rules of § 569.11"
            _write(uth_solver.solve_spec(table), detail)
        if "fcp" in games:
            pays = ", ".join(f"{ln.hand} {ln.odds}" for ln in ANTE_BONUS.lines if ln.odds)
            detail = f"the Ante Bonus of {ANTE_BONUS.section} ({pays}); the rules of § 641a.11"
            _write(fcp_solver.solve_spec(ANTE_BONUS), detail)


if __name__ == "__main__":
    main(sys.argv[1:] or ["uth", "fcp"])
