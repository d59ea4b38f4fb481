"""Screenshots of the pages under ``test-artifacts/web/`` (gitignored), for a person to look at:
no test asserts on them.  A full-page PNG costs the browser ~0.3 CPU-s (the page laid out at its
full height, painted and encoded): the suite takes the named ones only when asked
(``CROUPIER_WEB_SCREENSHOTS=1``), and always one of every page still open when a test fails
(tests/web/conftest.py).

The documentation's screenshots (``docs/web-*.png``, shown in README.md and docs/web.md) are
taken by ``tests/web/test_web_readme_shots.py`` at the viewport's size and written to docs/ only
when asked: ``CROUPIER_README_SHOTS=1`` (:func:`for_docs`), reduced to 256 colours to keep the
repository small."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Literal

from playwright.sync_api import Browser, Error, Locator, Page

WANTED_ENV = "CROUPIER_WEB_SCREENSHOTS"
DOCS_ENV = "CROUPIER_README_SHOTS"
DOCS = Path(__file__).resolve().parents[2] / "docs"
Extent = Literal["full page", "viewport"]


class Shots:
    """Where the screenshots go, and whether the named ones are taken."""

    def __init__(self, root: Path, env: dict[str, str] | None = None) -> None:
        self.root = root
        self.wanted = (os.environ if env is None else env).get(WANTED_ENV, "") not in ("", "0")

    def take(self, target: Page | Locator, name: str, extent: Extent = "full page") -> None:
        """``name``.png of a page (its full height, or the viewport) or of one element."""
        if not self.wanted:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        path = str(self.root / f"{name}.png")
        if isinstance(target, Locator):
            target.screenshot(path=path)
        else:
            target.screenshot(path=path, full_page=extent == "full page")

    def of_failure(self, browser: Browser, test: str) -> list[Path]:
        """A full-page screenshot of every page still open, named after the failed ``test``;
        a page that cannot be shot (closed, crashed) is passed over, the test's own failure is
        what is reported."""
        self.root.mkdir(parents=True, exist_ok=True)
        stem = "failed-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", test).strip("-")
        taken = []
        pages = [page for ctx in browser.contexts for page in ctx.pages]
        for n, page in enumerate(pages, start=1):
            path = self.root / f"{stem}-{n}.png"
            try:
                page.screenshot(path=str(path), full_page=True, timeout=10_000)
            except Error:
                continue
            taken.append(path)
        return taken


def for_docs(page: Page, name: str, env: dict[str, str] | None = None) -> Path | None:
    """``docs/<name>.png``: the page's viewport, in 256 colours (a palette PNG, no dithering: the
    text stays sharp), when ``CROUPIER_README_SHOTS=1``; None (nothing written) otherwise."""
    if (os.environ if env is None else env).get(DOCS_ENV, "") in ("", "0"):
        return None
    from PIL import Image  # matplotlib's dependency (croupier[analysis]); only when asked

    path = DOCS / f"{name}.png"
    shot = Image.open(io.BytesIO(page.screenshot(full_page=False))).convert("RGB")
    shot.quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)
    return path
