"""Sign-in against a real server (issue 36): demo accounts refused on a real floor, the delay
and the lock after repeated failures (per account name and per client address) and their
release by time and by a supervisor, answers alike for an unknown name and a wrong password,
confusable usernames, and the first administrator made with the one-time set-up token."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from live.live_harness import PASSWORDS, Server

LOCK = ("--lock-after", "3", "--lock-for", "2", "--sign-in-delay", "0")
"""A lock after 3 failures that lasts 2 s, no delay between failures (a short test)."""


def _login(server: Server, username: str, password: str) -> httpx.Response:
    return httpx.post(f"{server.url}/api/login", json={"username": username, "password": password})


def _token(server: Server, username: str) -> str:
    r = _login(server, username, PASSWORDS[username])
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _get(server: Server, path: str, token: str) -> httpx.Response:
    return httpx.get(f"{server.url}{path}", headers={"Authorization": f"Bearer {token}"})


def _post(server: Server, path: str, token: str, body: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": f"k-{time.monotonic_ns()}"}
    return httpx.post(f"{server.url}{path}", json=body, headers=headers)


def _log(server: Server) -> list[dict[str, Any]]:
    r = _get(server, "/api/security/log?limit=1000", _token(server, "auditor"))
    assert r.status_code == 200, r.text
    return list(r.json())


def _started(db_url: str, log: Path, *args: str) -> Server:
    server = Server(db_url, log, args=args)
    server.start()
    return server


def test_demo_supervisor_refused_on_a_real_floor(db_url: str, tmp_path: Path) -> None:
    demo = _started(db_url, tmp_path / "demo.log")
    try:
        token = _token(demo, "supervisor")
        assert _get(demo, "/api/me", token).json()["demo"] is True
        assert "supervisor-demo" in (tmp_path / "demo.log").read_text()  # a demo floor says so
    finally:
        demo.stop()
    real = _started(db_url, tmp_path / "real.log", "--no-demo")
    try:
        refused = _login(real, "supervisor", "supervisor-demo")
        wrong = _login(real, "no-such-name", "not-the-password")
        assert refused.status_code == wrong.status_code == 401
        assert refused.json() == wrong.json()  # alike: nothing says the password was right
        assert _get(real, "/api/me", token).status_code == 401  # its old token too
        buy = _post(real, "/api/players/P1/buy-in", token, {"amount": 10**12})
        assert buy.status_code == 401
        printed = (tmp_path / "real.log").read_text()
        assert "-demo" not in printed  # no password printed on a real floor
        assert "one-time set-up token" in printed  # no administrator yet
    finally:
        real.stop()


def test_lock_after_failures_released_by_time(sqlite_server: Server, tmp_path: Path) -> None:
    sqlite_server.stop()
    server = _started(sqlite_server.db_url, tmp_path / "lock.log", *LOCK)
    try:
        for _ in range(3):
            assert _login(server, "player1", "wrong password!").status_code == 401
        locked = _login(server, "player1", PASSWORDS["player1"])  # the right password
        assert locked.status_code == 429
        wait = int(locked.headers["Retry-After"])
        assert 1 <= wait <= 2
        assert locked.json()["status"] == 429
        time.sleep(wait + 0.2)
        assert _login(server, "player1", PASSWORDS["player1"]).status_code == 200
        events = [(e["event"], e["username"], e["actor"]) for e in _log(server)]
        assert ("locked", "player1", None) in events
        assert ("unlocked", "player1", "time") in events
        unlocked = next(e for e in _log(server) if e["event"] == "unlocked")
        assert unlocked["detail"] == {
            "account": "player1",
            "failures": 3,
            "refused": 1,
            "locked": True,
        }
    finally:
        server.stop()


def test_lock_released_by_a_supervisor(sqlite_server: Server, tmp_path: Path) -> None:
    sqlite_server.stop()
    server = _started(
        sqlite_server.db_url, tmp_path / "lock.log", "--lock-after", "3", "--sign-in-delay", "0"
    )
    try:
        for _ in range(3):
            assert _login(server, "player2", "wrong password!").status_code == 401
        assert _login(server, "player2", PASSWORDS["player2"]).status_code == 429
        supervisor = _token(server, "supervisor")
        locks = _get(server, "/api/sign-in/locks", supervisor).json()
        assert locks[0]["account"] == "player2" and locks[0]["locked_until"] is not None
        dealer = _token(server, "dealer")
        assert (
            _post(server, "/api/sign-in/unlock", dealer, {"username": "player2"}).status_code == 403
        )
        released = _post(server, "/api/sign-in/unlock", supervisor, {"username": "Player2"})
        assert released.status_code == 200, released.text
        assert released.json()["failures"] == 3
        assert _login(server, "player2", PASSWORDS["player2"]).status_code == 200
        unlocked = [e for e in _log(server) if e["event"] == "unlocked"]
        assert [(e["username"], e["actor"]) for e in unlocked] == [("player2", "supervisor")]
    finally:
        server.stop()


def test_progressive_delay_between_failures(sqlite_server: Server) -> None:
    """The default limits: after the n-th failure of a name, 2**(n-1) seconds before the next
    attempt is read."""
    assert _login(sqlite_server, "observer", "wrong password!").status_code == 401
    held = _login(sqlite_server, "observer", PASSWORDS["observer"])
    assert held.status_code == 429 and held.headers["Retry-After"] == "1"
    time.sleep(1.1)
    assert _login(sqlite_server, "observer", "wrong password!").status_code == 401
    held = _login(sqlite_server, "observer", PASSWORDS["observer"])
    assert held.status_code == 429 and held.headers["Retry-After"] == "2"
    time.sleep(2.1)
    assert _login(sqlite_server, "observer", PASSWORDS["observer"]).status_code == 200


def test_unknown_user_and_wrong_password_answer_alike_up_to_the_lock(
    sqlite_server: Server, tmp_path: Path
) -> None:
    sqlite_server.stop()
    server = _started(sqlite_server.db_url, tmp_path / "alike.log", *LOCK)
    try:
        answers = []
        for name in ("dealer", "nobody-here"):
            tries = [_login(server, name, "wrong password!") for _ in range(4)]
            answers.append([(r.status_code, r.json(), r.headers.get("Retry-After")) for r in tries])
        assert answers[0] == answers[1]
        assert [a[0] for a in answers[0]] == [401, 401, 401, 429]
    finally:
        server.stop()


def test_address_locked_after_failures_on_many_names(sqlite_server: Server, tmp_path: Path) -> None:
    sqlite_server.stop()
    server = _started(
        sqlite_server.db_url,
        tmp_path / "spray.log",
        "--address-lock-after",
        "4",
        "--sign-in-delay",
        "0",
    )
    try:
        for n in range(4):
            assert _login(server, f"sprayed-{n}", "wrong password!").status_code == 401
        # every name from that address is held now, the right password too
        assert _login(server, "auditor", PASSWORDS["auditor"]).status_code == 429
        locked = [e for e in _scan_log(server.db_url) if e[0] == "locked"]
        assert locked == [("locked", None, "127.0.0.1")]
    finally:
        server.stop()


def _scan_log(db_url: str) -> list[tuple[str, str | None, str | None]]:
    from sqlalchemy import create_engine, select

    from croupier.store.schema import security_log

    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(security_log).order_by(security_log.c.seq)).all()
    finally:
        engine.dispose()
    return [(r.event, r.username, r.address) for r in rows]


@pytest.mark.parametrize(
    ("given", "refused"),
    [
        ("Player1", "taken"),
        ("player1 ", "taken"),
        ("ＰＬＡＹＥＲ１", "taken"),
        ("play\u202eer9", "RIGHT-TO-LEFT OVERRIDE"),
        ("play\x00er9", "U+0000"),
        ("play\u200der9", "ZERO WIDTH JOINER"),
        ("pl\u0430yer9", "mixes the scripts CYRILLIC, LATIN"),
    ],
)
def test_confusable_usernames_refused(sqlite_server: Server, given: str, refused: str) -> None:
    admin = _token(sqlite_server, "admin")
    body = {"username": given, "password": "a long table-games pass", "role": "observer"}
    r = _post(sqlite_server, "/api/accounts", admin, body)
    assert r.status_code == 422, r.text
    assert refused in r.json()["detail"]
    names = [a["username"] for a in _get(sqlite_server, "/api/accounts", admin).json()]
    assert len(names) == len(set(names)) and all(n.isascii() for n in names)


def test_any_spelling_that_normalises_the_same_signs_in(sqlite_server: Server) -> None:
    for given in ("PLAYER3", " player3", "ｐｌａｙｅｒ３"):
        r = _login(sqlite_server, given, PASSWORDS["player3"])
        assert r.status_code == 200, (given, r.text)
        assert r.json()["username"] == "player3"


def test_first_administrator_by_one_time_setup_token(db_url: str, tmp_path: Path) -> None:
    log = tmp_path / "real.log"
    server = _started(db_url, log, "--no-demo")
    try:
        found = re.search(r"valid 24 hours, shown once\):\n  (\S+)", log.read_text())
        assert found is not None, log.read_text()
        token = found.group(1)
        url = f"{server.url}/api/setup"
        weak = httpx.post(
            url, json={"token": token, "username": "boss", "password": "boss-boss-boss"}
        )
        assert weak.status_code == 422 and "holds the username" in weak.json()["detail"]
        body = {"token": token, "username": "Boss", "password": "the pit at dawn, 1 a.m."}
        made = httpx.post(url, json=body)
        assert made.status_code == 200, made.text
        assert made.json()["role"] == "admin" and made.json()["username"] == "boss"
        assert httpx.post(url, json={**body, "username": "boss2"}).status_code == 401  # spent
        signed = _login(server, "boss", "the pit at dawn, 1 a.m.")
        assert signed.status_code == 200 and signed.json()["demo"] is False
    finally:
        server.stop()
    again = _started(db_url, tmp_path / "again.log", "--no-demo")
    try:
        assert "set-up token" not in (tmp_path / "again.log").read_text()  # printed once only
        # a floor with its own administrator refuses to become a demo floor
    finally:
        again.stop()
    demo = Server(db_url, tmp_path / "demo.log")
    with pytest.raises(AssertionError, match="administrator of its own"):
        demo.start()


def test_attempts_sent_at_once_check_no_more_passwords_than_the_limit(
    db_url: str, tmp_path: Path
) -> None:
    """40 wrong passwords at once for one name (no delay between failures): only 5, the limit,
    are checked, the rest are held back (429), and the name is locked after them."""
    from concurrent.futures import ThreadPoolExecutor

    server = _started(db_url, tmp_path / "burst.log", "--lock-after", "5", "--sign-in-delay", "0")
    try:
        with ThreadPoolExecutor(max_workers=20) as pool:
            answers = list(
                pool.map(lambda n: _login(server, "dealer", f"guess number {n:03}"), range(40))
            )
        statuses = sorted(r.status_code for r in answers)
        assert statuses.count(401) == 5 and statuses.count(429) == 35, statuses
        assert _login(server, "dealer", PASSWORDS["dealer"]).status_code == 429  # locked
        events = [e for e in _scan_log(db_url) if e[1] == "dealer"]
        assert events.count(("sign_in_failed", "dealer", "127.0.0.1")) == 5
        assert events.count(("locked", "dealer", "127.0.0.1")) == 1
    finally:
        server.stop()
