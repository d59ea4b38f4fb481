"""The installed croupier version."""

from __future__ import annotations

from importlib import metadata

__all__ = ["version"]


def version() -> str:
    """The installed croupier version (``0+unknown`` when running from a bare checkout)."""
    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:  # pragma: no cover - not installed
        return "0+unknown"
