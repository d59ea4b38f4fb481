"""Browser tests: Playwright for Python driving Debian's Chromium against a real server.

The browser is Debian's ``chromium-headless-shell`` package (Chromium's headless shell, the
build Playwright itself runs headless: the same Blink and V8 as ``chromium`` without the
browser's own WebUI, a third of its CPU a round), launched by ``executable_path`` (no browser
build is ever downloaded; ``playwright install`` is never run).  When it is missing the setup
installs the Debian package (``scripts/chromium-install.sh``: ``apt-get install -y
chromium-headless-shell``; CI runs the script before the suite).  One browser a test
process (a session fixture); each role gets its own browser context (its own cookies and
storage).

Screenshots (:mod:`shots`) go to ``test-artifacts/web/`` (gitignored): the named ones with
``CROUPIER_WEB_SCREENSHOTS=1``, and one of every page still open when a test fails.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright
from shots import Shots

from croupier.faces.client import tls_context

CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM_INSTALL = ROOT / "scripts" / "chromium-install.sh"
"""Installs Debian's package when missing; ``--name`` prints the package's name."""


def chromium_package() -> str:
    """The Debian package of the browser, as ``scripts/chromium-install.sh`` names it."""
    named = subprocess.run(
        [CHROMIUM_INSTALL, "--name"], check=True, capture_output=True, text=True, timeout=60
    )
    return named.stdout.strip()


def ensure_chromium() -> Path:
    """Debian's Chromium headless shell, installed from the distribution's package when
    missing (``scripts/chromium-install.sh``, which CI runs before the suite)."""
    if CHROMIUM.exists():
        return CHROMIUM
    install = [str(CHROMIUM_INSTALL)]
    done = subprocess.run(install, check=False, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0 or not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM_INSTALL.name} did not provide {CHROMIUM}: {done.stderr[-2000:]}")
    return CHROMIUM


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for(url: str, proc: subprocess.Popen[bytes], *, attempts: int = 300) -> None:
    """Poll ``url`` until it answers (bounded: ``attempts`` tries 0.1 s apart; one client for
    every attempt)."""
    with httpx.Client(timeout=1.0, verify=tls_context()) as http:
        for _ in range(attempts):
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                http.get(url)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
    raise RuntimeError(f"server at {url} did not answer")


def start_server(
    argv: list[str], port: int, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start a server process on 127.0.0.1:``port`` and wait until it answers."""
    log = ARTIFACTS / f"server-{port}.log"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # the test profile of argon2 (as the live tests' servers): sign-ins cost microseconds
    test_env = {"PYTHONPATH": str(ROOT / "src"), "CROUPIER_ARGON2_PROFILE": "test"}
    full_env = {**os.environ, **test_env, **(env or {})}
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=full_env, cwd=ROOT)
    try:
        wait_for(f"http://127.0.0.1:{port}/", proc)
    except RuntimeError:
        stop(proc)
        raise RuntimeError(log.read_text(errors="replace")[-4000:]) from None
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=15)


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    exe = ensure_chromium()
    b = playwright_session.chromium.launch(executable_path=str(exe), args=CHROMIUM_ARGS)
    version = ["dpkg-query", "--showformat=${Version}", "--show", chromium_package()]
    debian = subprocess.run(version, check=True, capture_output=True, text=True, timeout=60)
    assert debian.stdout.startswith(f"{b.version}-"), f"not Debian's: {b.version} / {debian.stdout}"
    yield b
    b.close()


@pytest.fixture(scope="session")
def shots() -> Shots:
    return Shots(ARTIFACTS)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A browser test that fails leaves a screenshot of every page it still has open (before
    its fixtures close them), named after the test."""
    report = yield
    funcargs = getattr(item, "funcargs", {})
    if report.when == "call" and report.failed and "browser" in funcargs:
        for path in Shots(ARTIFACTS).of_failure(funcargs["browser"], item.name):
            report.sections.append(("screenshot", str(path)))
    return report


@pytest.fixture(scope="session")
def pages_server() -> Iterator[str]:
    """A small FastAPI app with only the web pages mounted (par sheets and static files); the
    table tests use the real ``croupier serve`` app instead."""
    port = free_port()
    code = (
        "import uvicorn; from fastapi import FastAPI; from croupier.web import mount; "
        "app = FastAPI(); mount(app); "
        f"uvicorn.run(app, host='127.0.0.1', port={port}, log_level='warning')"
    )
    proc = start_server([sys.executable, "-c", code], port)
    yield f"http://127.0.0.1:{port}"
    stop(proc)


def _serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``croupier serve`` with its demo floor (one table of every game, demo accounts) on a
    fresh SQLite file and a free loopback port (``python -m croupier`` is the ``croupier``
    console script, run from this checkout's sources)."""
    db = tmp_path_factory.mktemp("serve") / "floor.sqlite"
    port = free_port()
    argv = [sys.executable, "-m", "croupier", "serve", "--db", f"sqlite:///{db}"]
    proc = start_server([*argv, "--host", "127.0.0.1", "--port", str(port)], port)
    yield f"http://127.0.0.1:{port}"
    stop(proc)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server the full rounds are played on."""
    yield from _serve(tmp_path_factory)


@pytest.fixture(scope="module")
def pit_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own for the pit's tests (voids, closed tables), apart from the rounds."""
    yield from _serve(tmp_path_factory)


@dataclass(frozen=True)
class Training:
    """A training floor (``tests/web/training_server.py``) and its stack file: the cards written
    there go on top of the next shuffle."""

    url: str
    stack: Path

    def stack_deck(self, cards: str) -> None:
        self.stack.write_text(cards)


@pytest.fixture(scope="module")
def training_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Training]:
    """A server of its own in training mode whose deck the test stacks (real play refuses it);
    the module's ``TRAINING_STACK`` is on top from the start (the tables shuffle when the demo
    floor sets them up)."""
    root = tmp_path_factory.mktemp("training")
    stack = root / "stack.txt"
    stack.write_text(getattr(request.module, "TRAINING_STACK", ""))
    port = free_port()
    script = ROOT / "tests" / "web" / "training_server.py"
    argv = [sys.executable, str(script), f"sqlite:///{root / 'floor.sqlite'}", str(port)]
    proc = start_server(argv, port, env={"CROUPIER_WEB_STACK": str(stack)})
    yield Training(f"http://127.0.0.1:{port}", stack)
    stop(proc)
