"""Accounts against a real server (issue 36): a disable and a password change end every session
at once, a weak password is refused, the ``croupier accounts`` command line round trip (the
first administrator, staff, a dealer bound to its tables), and the security log's chain checked
by ``croupier audit verify``, a forged, deleted or cut entry named."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from croupier.cli import main
from live.live_harness import PASSWORDS, Server

STRONG = "six decks, one shoe, no peeking"


def _login(server: Server, username: str, password: str) -> httpx.Response:
    return httpx.post(f"{server.url}/api/login", json={"username": username, "password": password})


def _token(server: Server, username: str, password: str | None = None) -> str:
    r = _login(server, username, password or PASSWORDS[username])
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _call(server: Server, method: str, path: str, token: str, body: Any = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": f"k-{time.monotonic_ns()}"}
    return httpx.request(method, f"{server.url}{path}", json=body, headers=headers)


def _new_dealer(server: Server, admin: str, name: str) -> None:
    body = {"username": name, "password": STRONG, "role": "dealer", "tables": ["let-it-ride"]}
    r = _call(server, "POST", "/api/accounts", admin, body)
    assert r.status_code == 200, r.text


def test_disabled_account_sessions_end_at_once(server: Server) -> None:
    admin = _token(server, "admin")
    _new_dealer(server, admin, "dana")
    sessions = [_token(server, "dana", STRONG) for _ in range(2)]
    for token in sessions:
        assert _call(server, "GET", "/api/me", token).json()["tables"] == ["let-it-ride"]
    r = _call(server, "POST", "/api/accounts/Dana/disable", admin)
    assert r.status_code == 200 and r.json()["status"] == "disabled", r.text
    for token in sessions:  # at once: no wait for the token cache
        assert _call(server, "GET", "/api/me", token).status_code == 401
        assert _call(server, "POST", "/api/tables/let-it-ride/rounds", token, {}).status_code == 401
    refused, wrong = _login(server, "dana", STRONG), _login(server, "dan", "not his password")
    assert refused.status_code == 401 and refused.json() == wrong.json()
    assert _call(server, "POST", "/api/accounts/dana/enable", admin).status_code == 200
    assert _login(server, "dana", STRONG).status_code == 200
    entry = _entries(server, "account_disabled")[-1]
    assert entry["username"] == "dana" and entry["actor"] == "admin"
    assert entry["detail"] == {"sessions_ended": 2}


def test_password_change_ends_sessions(sqlite_server: Server) -> None:
    admin = _token(sqlite_server, "admin")
    _new_dealer(sqlite_server, admin, "pat")
    old = _token(sqlite_server, "pat", STRONG)
    new_password = "deal from the left, always"
    r = _call(
        sqlite_server, "POST", "/api/accounts/pat/password", admin, {"password": new_password}
    )
    assert r.status_code == 200, r.text
    assert _call(sqlite_server, "GET", "/api/me", old).status_code == 401
    assert _login(sqlite_server, "pat", new_password).status_code == 200
    assert _login(sqlite_server, "pat", STRONG).status_code == 401
    demo = _call(
        sqlite_server, "POST", "/api/accounts/dealer/password", admin, {"password": STRONG}
    )
    assert demo.status_code == 409 and "demo account" in demo.json()["detail"]


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short-pw", "at least 12"),
        ("password1234", "common passwords"),
        ("Supervisor-Demo", "common passwords"),
        ("weak-walter-99", "holds the username"),
        ("abcabcabcabcabc", "repeated"),
    ],
)
def test_weak_password_refused(sqlite_server: Server, password: str, why: str) -> None:
    admin = _token(sqlite_server, "admin")
    body = {"username": "walter", "password": password, "role": "observer"}
    r = _call(sqlite_server, "POST", "/api/accounts", admin, body)
    assert r.status_code == 422 and why in r.json()["detail"], r.text
    assert password not in r.text  # never quoted back
    listed = _call(sqlite_server, "GET", "/api/accounts", admin).json()
    assert "walter" not in [a["username"] for a in listed]


def test_only_an_administrator_manages_accounts(sqlite_server: Server) -> None:
    supervisor = _token(sqlite_server, "supervisor")
    body = {"username": "mallory", "password": STRONG, "role": "admin"}
    assert _call(sqlite_server, "POST", "/api/accounts", supervisor, body).status_code == 403
    refused = _entries(sqlite_server, "access_refused")[-1]
    assert refused["username"] == "supervisor"
    assert refused["detail"]["path"] == "/api/accounts" and refused["detail"]["status"] == 403


def _entries(server: Server, event: str) -> list[dict[str, Any]]:
    auditor = _token(server, "auditor")
    found = _call(server, "GET", "/api/security/log?limit=1000", auditor).json()
    return [e for e in found if e["event"] == event]


# -- the command line -------------------------------------------------------------------------


def _cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out = io.StringIO()
    code = main(list(args), out=out)
    return code, out.getvalue(), capsys.readouterr().err


@pytest.fixture
def real_floor(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A fresh SQLite floor (no demo), its URL and where a server's log goes."""
    yield f"sqlite:///{tmp_path / 'floor.sqlite'}", tmp_path / "server.log"


def test_accounts_cli_round_trip(
    real_floor: tuple[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url, log = real_floor

    def cli(*args: str, stdin: str = "") -> tuple[int, str, str]:
        return _cli(monkeypatch, capsys, *args, "--db", url, stdin=stdin)

    code, out, _ = cli(
        "accounts", "create", "Alice", "--role", "admin", stdin="the whole floor at dawn\n"
    )
    assert code == 0 and out == "created: alice admin active\n"
    code, _, err = cli("accounts", "create", "bob", "--role", "supervisor", stdin="bob\n")
    assert code == 2 and err.startswith("croupier: the password of 'bob' has 3 characters")
    code, _, err = cli("accounts", "create", "bob", "--role", "croupier", stdin=STRONG + "\n")
    assert code == 2 and "role 'croupier' is not one of" in err
    assert cli("accounts", "create", "bob", "--role", "supervisor", stdin=STRONG + "\n")[0] == 0
    assert cli("accounts", "create", "dee", "--role", "dealer", stdin=STRONG + "\n")[0] == 0
    code, _, err = cli("accounts", "bind", "dee", "no-such-table")
    assert code == 2 and "do not exist" in err
    server = Server(url, log, args=("--no-demo",))
    server.start()
    try:
        assert "set-up token" not in log.read_text()  # it has an administrator
        bob = _token(server, "bob", STRONG)
        rules = _call(server, "GET", "/api/tables", bob).json()
        assert rules == []
        from croupier.server.demo import demo_rules

        every = demo_rules()
        for table in ("three-card-poker", "let-it-ride"):
            body = {"id": table, "name": table, "rules": every[table]}
            assert _call(server, "POST", "/api/tables", bob, body).status_code == 200
        code, out, _ = cli("accounts", "bind", "DEE", "three-card-poker")
        assert code == 0 and out == "bound: dee dealer active (tables three-card-poker)\n"
        dee = _token(server, "dee", STRONG)
        assert _call(server, "GET", "/api/tables/three-card-poker/view", dee).status_code == 200
        other = _call(server, "POST", "/api/tables/let-it-ride/rounds", dee, {})
        assert other.status_code == 403 and "deals three-card-poker, not let-it-ride" in other.text
        code, out, _ = cli("accounts", "list", "--json")
        listed = {a["username"]: a for a in json.loads(out)}
        assert set(listed) == {"alice", "bob", "dee"}
        assert listed["dee"]["tables"] == ["three-card-poker"] and not listed["dee"]["demo"]
        assert (
            cli("accounts", "disable", "dee")[1]
            == "disabled: dee dealer disabled (tables three-card-poker)\n"
        )
        _refused_within_the_cache(server, dee)
        code, _, err = cli("accounts", "disable", "alice")
        assert code == 2 and "last active administrator" in err
    finally:
        server.stop()
    code, out, _ = cli("audit", "verify")
    assert code == 0 and "security events" in out, out


def _refused_within_the_cache(server: Server, token: str) -> None:
    """A session ended by another process stops answering within the token cache's time."""
    from croupier.server.sessions import RECHECK_SECONDS

    deadline = time.monotonic() + RECHECK_SECONDS + 2
    while _call(server, "GET", "/api/me", token).status_code != 401:
        assert time.monotonic() < deadline, "the disabled dealer's token still answers"
        time.sleep(0.2)


# -- the security log -------------------------------------------------------------------------


def test_security_log_chain_verified_and_forged_entry_caught(
    db_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = Server(db_url, tmp_path / "server.log")
    server.start()
    try:
        assert _login(server, "observer", "not the password").status_code == 401
        _token(server, "supervisor")
        admin = _token(server, "admin")
        assert _call(server, "POST", "/api/accounts/player4/disable", admin).status_code == 200
        verified = _call(server, "GET", "/api/audit/verify", _token(server, "auditor")).json()
        assert verified["ok"] and verified["audit"]["checked"]["security_events"] > 15
    finally:
        server.stop()

    def audit() -> tuple[int, str, str]:
        return _cli(monkeypatch, capsys, "audit", "verify", "--db", db_url, "--json")

    code, out, _ = audit()
    assert code == 0 and json.loads(out)["ok"]
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            seq = conn.execute(
                text("SELECT seq FROM security_log WHERE event = 'sign_in_failed'")
            ).scalar_one()
            conn.execute(
                text("UPDATE security_log SET detail = :d WHERE seq = :s"),
                {"d": '{"reason":"nothing happened"}', "s": seq},
            )
        code, out, _ = audit()
        assert code == 1
        assert json.loads(out)["findings"] == [
            {
                "table": "security_log",
                "key": f"entry {seq}",
                "what": "the sign_in_failed entry does not match its hash",
            }
        ]
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM security_log WHERE seq = :s"), {"s": seq})
        assert json.loads(audit()[1])["findings"][0]["what"].startswith(f"entry {seq} is missing")
        with engine.begin() as conn:  # the log cut short: its last entries deleted
            last = conn.execute(text("SELECT MAX(seq) FROM security_log")).scalar_one()
            conn.execute(text("DELETE FROM security_log WHERE seq >= :s"), {"s": seq})
        found = json.loads(audit()[1])["findings"]
        assert found == [
            {
                "table": "security_head",
                "key": "head",
                "what": f"the log ends at entry {seq - 1}, its head names entry {last}",
            }
        ]
    finally:
        engine.dispose()
