"""The accounts in the browser (issue 36): a demo account says so in every page's header, and the
administrator's page lists the accounts, disables one and releases the failures counted on a
name."""

from __future__ import annotations

import httpx
from desks import sign_in
from playwright.sync_api import Browser, expect


def test_demo_account_is_marked_on_every_page(browser: Browser, pit_server: str) -> None:
    page = sign_in(browser, pit_server, "supervisor")
    badge = page.locator("#demo-badge")
    expect(badge).to_be_visible(timeout=15_000)
    expect(badge).to_have_text("Demo account")
    page.get_by_role("button", name="Par sheets").click()  # another page: still marked
    expect(badge).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    expect(badge).to_be_hidden()
    page.context.close()


def test_administrator_disables_an_account_and_releases_a_name(
    browser: Browser, pit_server: str
) -> None:
    failed = httpx.post(
        f"{pit_server}/api/login", json={"username": "player6", "password": "not it at all"}
    )
    assert failed.status_code == 401  # counted on the name player6 (and the address)
    page = sign_in(browser, pit_server, "admin")
    expect(page.locator("#accounts-title")).to_have_text("Accounts", timeout=15_000)
    row = page.locator('tr[data-account="player5"]')
    expect(row).to_contain_text("active")
    row.get_by_role("button", name="Disable").click()
    expect(row).to_contain_text("disabled")
    r = httpx.post(
        f"{pit_server}/api/login", json={"username": "player5", "password": "player5-demo"}
    )
    assert r.status_code == 401
    locks = page.get_by_role("table", name="sign-in locks")
    named = locks.locator("tr", has_text="account player6")
    expect(named).to_contain_text("1")
    named.get_by_role("button", name="Release").click()
    expect(locks.locator("tr", has_text="account player6")).to_have_count(0)
    r = httpx.post(
        f"{pit_server}/api/login", json={"username": "player6", "password": "player6-demo"}
    )
    assert r.status_code == 200
    released = [e for e in _log(pit_server) if e["event"] == "unlocked"]
    assert [(e["username"], e["actor"], e["detail"]) for e in released] == [
        ("player6", "admin", {"account": "player6", "failures": 1, "refused": 0, "locked": False})
    ]
    page.context.close()


def _log(base: str) -> list[dict[str, object]]:
    token = httpx.post(
        f"{base}/api/login", json={"username": "auditor", "password": "auditor-demo"}
    ).json()["token"]
    r = httpx.get(
        f"{base}/api/security/log?limit=1000", headers={"Authorization": f"Bearer {token}"}
    )
    return list(r.json())
