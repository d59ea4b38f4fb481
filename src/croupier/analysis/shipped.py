"""The block solvers' finished solves shipped in the package, and their proof.

The exact solvers of Ultimate Texas Hold 'Em
(:mod:`croupier.analysis.ultimate_texas_holdem.solver`) and Four Card
Poker (:mod:`croupier.analysis.four_card_poker.solver`) save every finished block of work (integer
sums and
decisions) under the cache folder, in a folder named after the solver, its version and its
parameters (:func:`croupier.analysis.block_solver.block_store`).  The package ships those
blocks for the default tables of both games (and Blind table B, which a par sheet's report
prices), one compressed ``.npz`` per solve under
``croupier/analysis/solved/``, named after the same folder: ``<solver>-v<version>-<digest>.npz``.
The digest covers the solver version, the pay table and a fingerprint of every settlement array
the kernels read (tabulated from the game's rules), so a custom pay table, or a rule change that
changes any settlement array, names another folder with no shipped file: it is solved (and
cached) as before.  A shipped block is read only when its own SHA-256 matches (a damaged file
is solved instead).

The solver stays the definition: ``scripts/write_solved.py`` writes the files from fresh solves
(no cache, no shipped data), each with a ``# Source:`` provenance entry; :func:`verify` re-solves
blocks with the real kernels and compares them with the shipped ones byte for byte (dtypes,
shapes, contents).  ``make test`` re-solves a seeded sample (``tests/test_solved.py``) and
``make bench`` every block (``benchmarks/bench_solved.py``).  ``CROUPIER_SHIPPED=0`` in the
environment makes the solvers ignore the shipped files (a full solve, as on a machine without
them).
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "SHIPPED_DIR",
    "SolveSpec",
    "block_digest",
    "fingerprint",
    "folder_name",
    "load_block",
    "shipped_file",
    "verify",
    "write",
]

SHIPPED_DIR = Path(__file__).with_name("solved")
"""The package's shipped solves: ``<solver>-v<version>-<digest>.npz``."""

Block = dict[str, npt.NDArray[Any]]


def fingerprint(*parts: object) -> str:
    """A short, platform-independent digest of settlement arrays and numbers (their integer
    lists, not their bytes): the part of a solve's key that names the rules it was solved under."""
    sha = hashlib.sha256()
    for part in parts:
        value = part.tolist() if isinstance(part, np.ndarray) else part
        sha.update(repr(value).encode())
        sha.update(b";")
    return sha.hexdigest()[:16]


def folder_name(solver: str, version: int, params: str) -> str:
    """The checkpoint folder of a solve: the solver, its version and the digest of the key."""
    digest = hashlib.sha256(f"{solver}/{version}/{params}".encode()).hexdigest()[:16]
    return f"{solver}-v{version}-{digest}"


@dataclass(frozen=True, slots=True)
class SolveSpec:
    """One solve as its checkpoint folder knows it: the solver's name, version and parameters
    (the folder's name is their digest), its block numbers, and how to solve one block."""

    solver: str
    version: int
    params: str
    blocks: tuple[int, ...]
    solve_block: Callable[[int], Block]

    @property
    def key(self) -> str:
        return f"{self.solver}/{self.version}/{self.params}"

    @property
    def name(self) -> str:
        """The checkpoint folder's name, and the shipped file's (with ``.npz``)."""
        return folder_name(self.solver, self.version, self.params)

    @property
    def shipped(self) -> Path:
        """Where the package ships this solve (the file may not exist)."""
        return SHIPPED_DIR / f"{self.name}.npz"


def shipped_file(name: str) -> Path | None:
    """The shipped file of the checkpoint folder ``name``, if the package has one and
    ``CROUPIER_SHIPPED`` is not ``0``."""
    if os.environ.get("CROUPIER_SHIPPED", "1") == "0":
        return None
    path = SHIPPED_DIR / f"{name}.npz"
    return path if path.is_file() else None


def block_digest(arrays: Mapping[str, npt.NDArray[Any]]) -> str:
    """SHA-256 over a block's names, dtypes, shapes and bytes."""
    sha = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        sha.update(f"{name}:{array.dtype.str}:{array.shape};".encode())
        sha.update(array.tobytes())
    return sha.hexdigest()


def _prefix(block: int) -> str:
    return f"block-{block:05d}."


def load_block(path: Path, block: int) -> Block | None:
    """Block ``block`` of a shipped file, or None if absent, damaged or not matching its
    digest."""
    prefix = _prefix(block)
    try:
        with path.open("rb") as handle, np.load(handle, allow_pickle=False) as data:
            names = [n for n in data.files if n.startswith(prefix) and n != prefix + "sha256"]
            if not names:
                return None
            found = {n[len(prefix) :]: data[n] for n in names}
            digest = str(data[prefix + "sha256"])
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    return found if block_digest(found) == digest else None


def source_text(spec: SolveSpec, detail: str) -> str:
    """The provenance entry of a shipped solve."""
    return (
        f"# Source: {spec.solver} solver (croupier.analysis, SOLVER_VERSION {spec.version}), "
        f"fresh solve of every block (no cache, no shipped data) under {detail}; key "
        f"{spec.key!r}; written by `scripts/write_solved.py`; tests/test_solved.py re-solves a "
        "seeded sample and benchmarks/bench_solved.py every block, byte for byte."
    )


def write(spec: SolveSpec, blocks: Mapping[int, Block], detail: str, path: Path) -> None:
    """Write the blocks of ``spec`` (every one) as a shipped file with its provenance."""
    if sorted(blocks) != sorted(spec.blocks):
        raise ValueError(f"{spec.name}: blocks {sorted(blocks)} are not {sorted(spec.blocks)}")
    arrays: dict[str, npt.NDArray[Any]] = {
        "source": np.array(source_text(spec, detail)),
        "key": np.array(spec.key),
    }
    for block in spec.blocks:
        prefix = _prefix(block)
        arrays.update({prefix + k: v for k, v in sorted(blocks[block].items())})
        arrays[prefix + "sha256"] = np.array(block_digest(blocks[block]))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]


def differences(solved: Mapping[str, npt.NDArray[Any]], shipped: Block | None) -> list[str]:
    """What differs between a block solved now and the shipped one (empty: byte-identical)."""
    if shipped is None:
        return ["not shipped (or damaged)"]
    out = []
    for name in sorted(set(solved) | set(shipped)):
        a, b = solved.get(name), shipped.get(name)
        if a is None or b is None:
            out.append(f"{name}: only in the {'shipped' if a is None else 'solved'} block")
        elif (a.dtype, a.shape) != (b.dtype, b.shape) or a.tobytes() != b.tobytes():
            out.append(f"{name}: solved {a.dtype}{a.shape} differs from shipped {b.dtype}{b.shape}")
    return out


def verify(
    spec: SolveSpec, blocks: Iterable[int], path: Path | None = None
) -> dict[int, list[str]]:
    """Re-solve ``blocks`` of ``spec`` with the real kernels and compare each with the shipped
    file (``path``, default the package's): the differences by block (empty: all identical)."""
    where = spec.shipped if path is None else path
    found: dict[int, list[str]] = {}
    for block in blocks:
        diff = differences(spec.solve_block(block), load_block(where, block))
        if diff:
            found[block] = diff
    return found
