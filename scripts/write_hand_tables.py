"""Rebuild the ranking lookup tables from first principles and write the package's shipped copy.

Run after any change to ``croupier.kernels._tables`` or the rank keys of ``croupier.kernels._jit``
(``tests/test_kernels.py`` fails until the shipped copy equals a rebuild):
``PYTHONPATH=src python scripts/write_hand_tables.py``.
"""

from croupier.kernels._tables import SHIPPED, build_tables, write_shipped

if __name__ == "__main__":
    write_shipped(build_tables())
    print(f"wrote {SHIPPED}")
