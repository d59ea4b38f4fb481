"""The web pages are a client of the public API and the event stream only (issue 37): the
package :mod:`croupier.web` is static files and their locator, and imports nothing from the
server (the server mounts the files: :mod:`croupier.server.pages`)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import croupier.web

WEB = Path(croupier.web.__file__).parent


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports (a relative import resolved against ``croupier.web``)."""
    package = ".".join(("croupier", "web", *path.relative_to(WEB).parent.parts))
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            out |= {module, *(f"{module}.{alias.name}" for alias in node.names)}
    return out


def test_no_module_of_the_web_package_imports_the_server() -> None:
    modules = sorted(WEB.rglob("*.py"))
    assert modules, WEB
    found = {
        str(path.relative_to(WEB)): sorted(
            m for m in _imported(path) if m == "croupier.server" or m.startswith("croupier.server.")
        )
        for path in modules
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_the_web_package_is_static_files_and_one_locator() -> None:
    assert sorted(p.name for p in WEB.rglob("*.py")) == ["__init__.py"]
    assert (croupier.web.STATIC_DIR / "index.html").is_file()


def test_importing_the_web_package_loads_no_server_module() -> None:
    code = (
        "import sys, croupier.web; "
        "print(sorted(m for m in sys.modules if m.startswith('croupier.server')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
