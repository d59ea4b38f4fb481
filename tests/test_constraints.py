"""The pinned environment (``constraints.txt``): ``make`` builds every virtual environment with
``pip install -c constraints.txt``, so the figures ``make bench`` prints on two machines come from
the same releases of the server's stack.  Every requirement ``pyproject.toml`` names is pinned
there at one exact version its range admits, and the environment the suite runs in holds those
versions (a stale ``.venv`` after a bump is rebuilt by ``make``, whose stamp depends on the
file)."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "constraints.txt"


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for number, line in enumerate(CONSTRAINTS.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        assert sep and version, f"constraints.txt:{number}: {line!r} is not name==version"
        key = canonicalize_name(name)
        assert key not in pins, f"constraints.txt:{number}: {name} pinned twice"
        pins[key] = Version(version)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    named = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        named.extend(extra)
    own = canonicalize_name(project["name"])
    return [r for r in map(Requirement, named) if canonicalize_name(r.name) != own]


def test_constraints_pin_each_package_once_at_an_exact_version() -> None:
    pins = _pins()
    for name in ("fastapi", "starlette", "uvicorn", "sqlalchemy", "orjson", "locust"):
        assert name in pins, f"{name} is not pinned"


def test_every_requirement_of_pyproject_is_pinned_within_its_range() -> None:
    pins = _pins()
    problems = []
    for requirement in _requirements():
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None:
            problems.append(f"{requirement} is not pinned")
        elif not requirement.specifier.contains(pin, prereleases=True):
            problems.append(f"{requirement} does not admit the pin {pin}")
    assert not problems, "; ".join(problems)


def test_the_suites_environment_holds_the_pinned_versions() -> None:
    drift = []
    for name, pin in _pins().items():
        try:
            installed = Version(metadata.version(name))
        except metadata.PackageNotFoundError:
            drift.append(f"{name} is not installed (pinned {pin})")
            continue
        if installed != pin:
            drift.append(f"{name} {installed} installed, {pin} pinned")
    assert not drift, "; ".join(drift) + " (make rebuilds .venv from constraints.txt)"
