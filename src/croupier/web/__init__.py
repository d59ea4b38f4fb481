"""The web pages of ``croupier serve``: static HTML, CSS and vanilla JavaScript shipped in the
package (no build step), cards and chips drawn as SVG by the project.

This package is files and their locator only: it imports nothing from the server.  The server
mounts them (:func:`croupier.server.pages.mount`); the pages talk to the live-table API
(``/api/...``) and its WebSocket streams only, and hold no game rule.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["STATIC_DIR"]

STATIC_DIR = Path(str(resources.files("croupier.web") / "static"))
"""The directory of the shipped static files."""
