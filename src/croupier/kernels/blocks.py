"""The building blocks of the analysis's own numba kernels, public: the perfect-hash key of a
hand and its lookup tables, the rank multisets of seven cards, and numba's first call reported.

Each is defined once in its private module here (``_jit``, ``_rank``, ``_tables``, ``_count7``,
``_load``); a kernel elsewhere (the exact solvers of :mod:`croupier.analysis`) imports them from
this module, never from the private ones (issue 37: nothing imports a private module across
packages).  Importing this module loads nothing :mod:`croupier.kernels` does not already load
but :func:`load_kernel`'s small module.
"""

from croupier.kernels._count7 import plain_hands, rank_multisets, seven_card_values
from croupier.kernels._jit import HASH_SHIFT, RANK_MASK, hash_value, suit_init
from croupier.kernels._load import load_kernel
from croupier.kernels._rank import hash_values, rank_flat
from croupier.kernels._tables import Tables, tables

__all__ = [
    "HASH_SHIFT",
    "RANK_MASK",
    "Tables",
    "hash_value",
    "hash_values",
    "load_kernel",
    "plain_hands",
    "rank_flat",
    "rank_multisets",
    "seven_card_values",
    "suit_init",
    "tables",
]
