"""The pages under the server's perimeter and sessions (issue 36), in Chromium against a real
``croupier serve``: they run under its Content-Security-Policy without one violation (no inline
script or style), their streams authenticate by their first message, "Sign out" ends the
session on the server, and a page whose session ends elsewhere goes back to sign-in."""

from __future__ import annotations

import httpx
from desks import close_contexts, sign_in
from playwright.sync_api import Browser, Page, expect

from croupier.faces.client import tls_context

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""
"""Collects the page's CSP violations (added by the test, outside the page's own scripts)."""


def _token(page: Page) -> str:
    token: str = page.evaluate("sessionStorage.getItem('croupier.token')")
    assert token
    return token


def _status(base: str, token: str) -> int:
    with httpx.Client(base_url=base, verify=tls_context()) as http:
        return http.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code


def _watched(browser: Browser, base: str, user: str) -> Page:
    """``user`` signed in on a page whose CSP violations are collected from its first load."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(WATCH)
    page = context.new_page()
    page.goto(base + "/")
    page.get_by_label("User name").fill(user)
    page.get_by_label("Password").fill(f"{user}-demo")
    page.get_by_role("button", name="Sign in").click()
    return page


def test_the_pages_run_under_the_csp_without_a_violation(
    browser: Browser, live_server: str
) -> None:
    """The dealer's console (the felt, its cards, the table stream) and the pit (the floor
    stream) load and draw without one CSP violation."""
    try:
        dealer = _watched(browser, live_server, "dealer")
        name = dealer.locator("button[aria-label^='deal at']").first
        expect(name).to_be_visible(timeout=15_000)
        name.click()
        expect(dealer.locator("#dealer-title")).to_have_text("Dealer console", timeout=15_000)
        expect(dealer.locator(".felt")).to_be_visible(timeout=15_000)
        pit = _watched(browser, live_server, "observer")
        expect(pit.locator(".tile[data-table]").first).to_be_visible(timeout=15_000)
        answer = pit.request.get(live_server + "/")
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        for page in (dealer, pit):
            assert page.evaluate("window.__violations") == [], page.url
    finally:
        close_contexts(browser)


def test_sign_out_ends_the_session_on_the_server(browser: Browser, live_server: str) -> None:
    try:
        page = sign_in(browser, live_server, "observer")
        expect(page.locator("#pit-title")).to_be_visible(timeout=15_000)
        token = _token(page)
        assert _status(live_server, token) == 200
        page.get_by_role("button", name="Sign out").click()
        expect(page.locator("#signin-form")).to_be_visible()
        assert _status(live_server, token) == 401
    finally:
        close_contexts(browser)


def test_a_page_whose_session_ends_elsewhere_goes_back_to_sign_in(
    browser: Browser, live_server: str
) -> None:
    """The pit page's floor stream is closed (1008) when its session is signed out by another
    client: the page says so and shows the sign-in form, without a request of its own."""
    try:
        page = sign_in(browser, live_server, "observer")
        expect(page.locator(".tile[data-table]").first).to_be_visible(timeout=15_000)
        token = _token(page)
        with httpx.Client(base_url=live_server, verify=tls_context()) as http:
            ended = http.post("/api/logout", headers={"Authorization": f"Bearer {token}"})
        assert ended.status_code == 200 and ended.json()["username"] == "observer"
        expect(page.locator("#signin-form")).to_be_visible(timeout=15_000)
        expect(page.locator("#callout")).to_contain_text("session has ended")
    finally:
        close_contexts(browser)
