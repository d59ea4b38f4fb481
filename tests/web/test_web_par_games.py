"""The par sheets page for every game in Chromium: each game's wagers with their exact house
edges, the outcome table and plot of every wager, the strategy and the sign, both downloads
(HTML report and JSON), every pay table offered in the choosers, and a second sheet under other
pay tables (one per side wager offering several: the base game's tables are left as they are,
so no game is solved twice).

One browser page for the module against the session's pages server; the figures on the page
are checked against the JSON the page downloads (the analysis itself is checked against
published values and the solvers elsewhere: tests/test_analysis.py)."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from shots import Shots

from croupier.games import GAMES
from croupier.server.par_routes import game_catalogue

CATALOGUE = {g["game"]: g for g in game_catalogue()}
BASE_TABLES = {"base", "blind"}
"""Pay tables that change the base game (a new optimal strategy to solve): left at default."""
COMPUTE = 600_000
"""Milliseconds a cold sheet may take (Four Card Poker and Ultimate Texas Hold 'Em solve by
blocks; the page polls the server meanwhile)."""


def _pct(x: float) -> str:
    return f"{100 * x:.4f}%"


def _words(slug: str) -> str:
    return slug.replace("_", " ").replace("-", " ")


def alternates(slug: str) -> dict[str, str]:
    """Another pay table for every side wager that offers several."""
    game = CATALOGUE[slug]
    return {
        w: next(letter for letter in letters if letter != game["current"].get(w, letters[0]))
        for w, letters in game["paytables"].items()
        if len(letters) > 1 and w not in BASE_TABLES
    }


@pytest.fixture(scope="module")
def par_page(browser: Browser, pages_server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    page = context.new_page()
    page.goto(pages_server + "/par-sheets")
    expect(page.get_by_label("Game")).to_be_visible()
    yield page
    context.close()


def _show(page: Page, slug: str, chosen: dict[str, str]) -> Locator:
    page.get_by_label("Game").select_option(slug)
    game = CATALOGUE[slug]
    for wager, letters in game["paytables"].items():
        if len(letters) < 2:
            continue
        chooser = page.get_by_label(f"{_words(wager)} pay table")
        # every pay table of the regulation is offered, the one in force selected
        options = chooser.locator("option").evaluate_all("els => els.map(e => e.value)")
        assert options == letters, (slug, wager)
        # a wager the default rules leave out is offered at its first table
        chooser.select_option(chosen.get(wager, game["current"].get(wager, letters[0])))
    page.get_by_role("button", name="Show par sheet").click()
    summary = page.locator("#par-summary")
    expect(summary).to_be_visible(timeout=COMPUTE)
    return summary


def _download(page: Page, name: str) -> Path:
    link = page.get_by_role("link", name=name)
    # the report is drawn on the first click: the page waits for it, then saves it
    with page.expect_download(timeout=COMPUTE) as info:
        link.click()
    path = info.value.path()
    assert path is not None
    return Path(path)


def _downloaded_sheet(page: Page, base: str, slug: str) -> dict[str, Any]:
    """The sheet the page's JSON download gives (the pay tables chosen are in its query)."""
    link = page.get_by_role("link", name="Download JSON")
    expect(link).to_be_visible()
    href = link.get_attribute("href") or ""
    assert href.startswith(f"/par/{slug}.json"), href
    sheet: dict[str, Any] = httpx.get(base + href, timeout=60).json()
    return sheet


def _check_sheet(page: Page, summary: Locator, sheet: dict[str, Any]) -> None:
    named = ([("base", sheet["base"])] if sheet.get("base") else []) + list(sheet["wagers"].items())
    assert named
    for name, figures in named:
        row = summary.locator(f'tr[data-wager="{name}"]')
        expect(row).to_contain_text(_pct(figures["house_edge"]))
        expect(row).to_contain_text(figures["house_edge_exact"])
        expect(row).to_contain_text(_pct(figures["hit_frequency"]))
        if figures.get("paytable"):
            expect(row).to_contain_text(figures["paytable"])
        label = _words(name)
        plot_name = f"{label}: probability of each outcome, log scale"
        plot = page.get_by_role("img", name=plot_name, exact=True)
        expect(plot).to_be_visible()
        shown = [o for o in figures["outcomes"] if o["probability"] > 0]
        expect(plot.locator("rect")).to_have_count(len(shown))
        table = page.get_by_role("table", name=f"{label} outcomes", exact=True)
        expect(table.locator("tbody tr")).to_have_count(len(figures["outcomes"]))
        for outcome in figures["outcomes"]:
            expect(table).to_contain_text(outcome["net_exact"])
    # the sanity flags (a house edge below zero or above 50%), each shown once, none invented
    flags = [f for _, figures in named for f in figures["flags"]]
    expect(page.locator("#par-out p.flag")).to_have_count(len(flags))
    for flag in flags:
        expect(page.locator("#par-out")).to_contain_text(f"Warning: {flag}")


@pytest.mark.parametrize("slug", list(GAMES))
def test_par_page_of_every_game_shows_its_exact_sheet_strategy_and_downloads(
    par_page: Page, pages_server: str, shots: Shots, slug: str
) -> None:
    page = par_page
    summary = _show(page, slug, {})
    expect(summary).to_contain_text(CATALOGUE[slug]["title"])
    sheet = _downloaded_sheet(page, pages_server, slug)
    _check_sheet(page, summary, sheet)
    strategy = page.locator("pre.text")
    expect(strategy).not_to_be_empty()
    expect(page.locator(".sign")).not_to_be_empty()
    shots.take(page, f"par-{slug}", "viewport")

    downloaded = _download(page, "Download JSON")
    assert json.loads(downloaded.read_text(encoding="utf-8")) == sheet
    report = _download(page, "Download HTML report").read_text(encoding="utf-8")
    assert report.startswith("<!DOCTYPE html>")
    assert f"Par sheet: {html.escape(CATALOGUE[slug]['title'])}" in report

    chosen = alternates(slug)
    if not chosen:
        return
    summary = _show(page, slug, chosen)
    other = _downloaded_sheet(page, pages_server, slug)
    for wager, letter in chosen.items():
        assert other["wagers"][wager]["paytable"] == letter, (slug, wager)
    _check_sheet(page, summary, other)
