"""Solve Ultimate Texas Hold 'Em (under each Blind table, A and B) and Four Card Poker (the
§ 641a.12(b) Ante Bonus) afresh and write the package's shipped copies
(``src/croupier/analysis/solved/``).

Every block is solved by the real kernels: no cache folder is read (a fresh temporary one) and
no shipped file (``CROUPIER_SHIPPED=0``).  Run after a change to a solver, its kernels or the
games' settlement (the shipped file of the old key is then unused, and ``tests/test_solved.py``
fails until the new one is written):
``PYTHONPATH=src python scripts/write_solved.py [uth] [fcp]`` (about 4 CPU-minutes for all).
Both Blind tables are shipped because a par sheet's report prices every table offered
(``croupier.analysis.report.paytable_returns``): with only table A, the report of the default
sheet solved table B cold (about 70 CPU-s).
"""

import os
import sys
import tempfile

from croupier.analysis import shipped
from croupier.analysis.four_card_poker import solver as fcp_solver
from croupier.analysis.ultimate_texas_holdem import solver as uth_solver
from croupier.games.four_card_poker import ANTE_BONUS
from croupier.games.ultimate_texas_holdem.paytables import BLIND


def _write(solver: str, specs: list[tuple[shipped.SolveSpec, str]]) -> None:
    keep = {spec.shipped.name for spec, _ in specs}
    for old in shipped.SHIPPED_DIR.glob(f"{solver}-v*.npz"):
        if old.name not in keep:
            old.unlink()  # an old key's file is of no use
    for spec, detail in specs:
        blocks = {b: spec.solve_block(b) for b in spec.blocks}
        shipped.write(spec, blocks, detail, spec.shipped)
        print(f"wrote {spec.shipped} ({spec.shipped.stat().st_size:,} bytes)")


def main(games: list[str]) -> None:
    os.environ["CROUPIER_SHIPPED"] = "0"
    with tempfile.TemporaryDirectory() as cache:
        os.environ["CROUPIER_CACHE"] = cache
        if "uth" in games:
            specs = []
            for letter, table in BLIND.items():
                pays = ", ".join(f"{ln.hand} {ln.odds}" for ln in table.lines if ln.odds)
                detail = f"Blind table {letter} ({table.section}: {pays}); the rules of § 569.11"
                specs.append((uth_solver.solve_spec(table), detail))
            _write("uth-base", specs)
        if "fcp" in games:
            pays = ", ".join(f"{ln.hand} {ln.odds}" for ln in ANTE_BONUS.lines if ln.odds)
            detail = f"the Ante Bonus of {ANTE_BONUS.section} ({pays}); the rules of § 641a.11"
            _write("fcp-ante-play", [(fcp_solver.solve_spec(ANTE_BONUS), detail)])


if __name__ == "__main__":
    main(sys.argv[1:] or ["uth", "fcp"])
