"""The web pages of ``croupier serve`` mounted on the server's FastAPI app: the static files
of :mod:`croupier.web` (HTML, CSS and vanilla JavaScript, no build step), the par-sheet
routes and the caller's actions.

:func:`mount` adds them:

===========================  ================================================================
``/``                        the single page: sign in, then the page of the role (player,
                             dealer, supervisor / pit view, auditor) and the par sheets
``/static/...``              the CSS and JavaScript files
``/api/par``                 every game and its pay tables (JSON)
``/api/par/{game}``          the exact par sheet and strategy (202 while computing)
``/par/{game}.json|.html``   the par sheet as a download (JSON, or the self-contained report)
``/api/pit/shift``           the pit's shift figures and players' ratings (theoretical win
                             priced by the par sheets' worker); on the live-table server
``/api/tables/{id}/actions`` what the caller may do now (the engine's legal actions for the
                             caller's seats, or the dealer's steps); on the live-table server
===========================  ================================================================

The pages talk to the live-table API (``/api/...``) and its WebSocket streams only; they hold no
game rule.  What a page receives is what the server's ``view(pov)`` sends: the page cannot show
what the server did not send it.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from croupier.server.actions import actions_router
from croupier.server.par_routes import ParSheets, par_router
from croupier.server.pit_routes import pit_router
from croupier.web import STATIC_DIR

__all__ = ["ParSheets", "mount"]


def mount(app: FastAPI, *, sheets: ParSheets | None = None) -> ParSheets:
    """Add the web pages and the par-sheet routes to ``app``; returns the par-sheet cache
    (computed on demand in a worker process, kept for the life of the server; the
    server closes it when it stops)."""
    cache = sheets if sheets is not None else ParSheets()
    app.include_router(par_router(cache))
    if hasattr(app.state, "floor"):
        app.include_router(actions_router())
        app.include_router(pit_router(cache))
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="croupier-static")

    index = STATIC_DIR / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html")

    for path in (
        "/",
        "/player",
        "/dealer",
        "/pit",
        "/audit",
        "/accounts",
        "/par-sheets",
        "/drills",
    ):
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
    return cache
