"""axe-core (Deque's accessibility engine) run on a page: its npm package installed by
``scripts/axe-core-install.sh`` (into the gitignored ``.cache/``, when missing), its
``axe.min.js`` evaluated in the page (through the DevTools protocol: the page's
Content-Security-Policy, which allows no inline script, is not in the way) and ``axe.run`` asked
for the page's violations."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "scripts" / "axe-core-install.sh"
SERIOUS = ("serious", "critical")

RUN = """async ([within, rules]) => {
  const options = { resultTypes: ['violations'] };
  if (rules) options.runOnly = { type: 'rule', values: rules };
  const found = await axe.run(within ? document.querySelector(within) : document, options);
  return found.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 8).map((n) => n.target.join(' ')) }));
}"""


@cache
def axe_source() -> str:
    """axe.min.js, installed first where missing."""
    done = subprocess.run([INSTALL], check=False, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"{INSTALL.name} did not install axe-core: {done.stderr[-2000:]}")
    return Path(done.stdout.strip()).read_text()


def violations(
    page: Page, within: str | None = None, rules: list[str] | None = None
) -> list[dict[str, Any]]:
    """axe-core's violations on ``page`` as it is now (rule, impact, help, the first nodes):
    of the whole page or the element ``within`` selects, every rule or only ``rules``."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate(RUN, [within, rules])
    return found


def serious(
    page: Page, within: str | None = None, rules: list[str] | None = None
) -> list[dict[str, Any]]:
    """The serious and critical violations only."""
    return [v for v in violations(page, within, rules) if v["impact"] in SERIOUS]
