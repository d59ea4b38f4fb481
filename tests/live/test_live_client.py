"""The Python client (:mod:`croupier.faces.client`) against a real server: a client dropped
without ``close()`` closes its connections when it is collected, as a file does, so no socket
is left to a later garbage collection's ``ResourceWarning`` (which ``-W error`` turns into a
failure of whatever test is running then: CI met one in an unrelated test)."""

from __future__ import annotations

import gc
import warnings

from croupier.faces.client import Client
from live.live_harness import Server


def test_a_dropped_client_closes_its_connections_when_collected(sqlite_server: Server) -> None:
    client = Client(sqlite_server.url)
    client.login("observer", "observer-demo")
    assert client.get("/api/tables")  # a pooled keep-alive connection to the server
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del client
        gc.collect()
    assert [w for w in caught if issubclass(w.category, ResourceWarning)] == []
