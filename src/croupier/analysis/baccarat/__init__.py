"""the baccarat family (mini, midi, EZ): all of its analysis in one place.

``ANALYSIS`` is its entry (``BY_GAME``: each game's, by class) of
:mod:`croupier.analysis.registry`; it is imported on first use
(:mod:`croupier.analysis.baccarat.entry`), so importing one module of this package (a kernel, the
solver) does not import the rest.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ANALYSIS", "BY_GAME"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from croupier.analysis.baccarat import entry

        return getattr(entry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
