"""The perimeter's rules (issue 36; :mod:`croupier.server.perimeter`) and the pages it
protects: allowed hosts and origins as given on the command line (bad ones refused before the
server starts, as a bad TLS pair or session limit is), what is cached, and pages
that run under a Content-Security-Policy without inline script (no inline ``<script>``, no
``on...=`` handler, no ``style`` attribute in the HTML or made by the JavaScript)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.core.errors import InvalidInput
from croupier.server.perimeter import CSP, WILDCARDS, Perimeter, host_name, public_path
from croupier.web import STATIC_DIR


@pytest.mark.parametrize(
    ("header", "name"),
    [("127.0.0.1:8000", "127.0.0.1"), ("[::1]:8000", "::1"), ("[::1]", "::1"),
     ("Tables.Casino.Example.", "tables.casino.example"), ("localhost", "localhost"),
     ("::1", "::1")],
)  # fmt: skip
def test_a_host_header_is_compared_by_its_name_without_port(header: str, name: str) -> None:
    assert host_name(header) == name


def test_the_bound_address_and_loopback_names_are_allowed_and_nothing_else() -> None:
    served = Perimeter.serving("10.1.2.3", hosts=["tables.casino.example"])
    assert served.hosts == {"10.1.2.3", "localhost", "127.0.0.1", "::1", "tables.casino.example"}
    assert served.allows_host("10.1.2.3:8000") and served.allows_host("TABLES.casino.example")
    for refused in ("attacker.example", "10.1.2.3.attacker.example", "", None):
        assert not served.allows_host(refused), refused
    # an address of every interface (IPv4's, IPv6's, none given) names no host of its own;
    # nothing is bound here, the perimeter is computed from the address alone
    for every in WILDCARDS:
        assert Perimeter.serving(every).hosts == {"localhost", "127.0.0.1", "::1"}, every


def test_a_handshake_origin_is_its_own_or_an_allowed_one() -> None:
    served = Perimeter.serving("127.0.0.1", origins=["https://pit.casino.example"])
    own = "127.0.0.1:8000"
    assert served.allows_origin("http://127.0.0.1:8000", "ws", own)
    assert served.allows_origin("https://127.0.0.1:8000", "wss", own)
    assert served.allows_origin("https://pit.casino.example", "ws", own)
    assert not served.allows_origin("https://127.0.0.1:8000", "ws", own)  # another scheme
    assert not served.allows_origin("http://127.0.0.1:8001", "ws", own)
    assert not served.allows_origin("null", "ws", own)
    assert served.allows_origin(None, "ws", own)  # not a browser


@pytest.mark.parametrize(
    ("hosts", "origins", "named"),
    [(["a/b"], [], "--allowed-host"), (["user@host"], [], "--allowed-host"),
     ([], ["pit.casino.example"], "--allowed-origin"),
     ([], ["ftp://pit.casino.example"], "--allowed-origin"),
     ([], ["https://pit.casino.example/page"], "--allowed-origin")],
)  # fmt: skip
def test_a_bad_host_or_origin_on_the_command_line_is_refused(
    hosts: list[str], origins: list[str], named: str
) -> None:
    with pytest.raises(InvalidInput, match=named):
        Perimeter.serving("127.0.0.1", hosts=hosts, origins=origins)


def test_only_static_files_and_par_sheets_may_be_cached() -> None:
    for path in ("/static/core.js", "/api/par", "/api/par/three-card-poker", "/par/x.json"):
        assert public_path(path), path
    for path in ("/", "/player", "/api/me", "/api/login", "/api/parx", "/api/tables/x/view"):
        assert not public_path(path), path


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        self.found += [f"<{tag} {n}=...>" for n in names if n.startswith("on") or n == "style"]
        if tag == "script" and "src" not in names:
            self.found.append("<script> without src")
        self._script = tag == "script"

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.found.append(f"inline script {data.strip()[:40]!r}")

    def handle_endtag(self, tag: str) -> None:
        self._script = False


def test_the_pages_hold_no_inline_script_handler_or_style_attribute() -> None:
    """The CSP (``script-src 'self'; style-src 'self'``) would block them in the browser."""
    assert "script-src 'self';" in CSP and "unsafe-inline" not in CSP
    for page in STATIC_DIR.glob("*.html"):
        tags = _Tags()
        tags.feed(page.read_text(encoding="utf-8"))
        assert tags.found == [], page.name
    made = re.compile(
        r"""setAttribute\(\s*["'](style|on\w+)["']|[{,]\s*["']?style["']?\s*:|\son\w+\s*=\s*["'`]|"""
        r"""innerHTML\s*=.*\b(style|on\w+)\s*="""
    )
    for script in STATIC_DIR.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert [m.group(0) for m in made.finditer(text)] == [], script.name
        assert "eval(" not in text and "new Function" not in text, script.name


@pytest.mark.parametrize(
    ("options", "needle"),
    [(["--tls-cert", "{cert}"], "--tls-key"),
     (["--tls-cert", "{missing}", "--tls-key", "{cert}"], "--tls-cert"),
     (["--session-idle", "0"], "--session-idle"),
     (["--session-lifetime", "-2"], "--session-lifetime"),
     (["--allowed-host", "a/b"], "--allowed-host"),
     (["--allowed-origin", "tables.casino.example"], "--allowed-origin")],
)  # fmt: skip
def test_croupier_serve_refuses_bad_options_in_one_line_before_serving(
    options: list[str], needle: str, tmp_path: Path
) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text("not read: the server never starts\n")
    given = [o.format(cert=cert, missing=tmp_path / "missing.pem") for o in options]
    db = f"sqlite:///{tmp_path / 'floor.sqlite'}"
    result = CliRunner().invoke(app, ["serve", "--db", db, *given])
    assert result.exit_code == 2, result.stdout
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("croupier: ")
    assert needle in result.stderr
    assert not (tmp_path / "floor.sqlite").exists()  # refused before the database is opened
