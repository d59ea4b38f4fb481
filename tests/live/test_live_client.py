"""The Python client (:mod:`croupier.faces.client`) against a real server: a client dropped
without ``close()`` closes its connections when it is collected, as a file does, so no socket
is left to a later garbage collection's ``ResourceWarning`` (which ``-W error`` turns into a
failure of whatever test is running then: CI met one in an unrelated test); and a person who
pauses between two commands sends the second on the connection of the first, as a browser
does, rather than make the server accept a new one."""

from __future__ import annotations

import gc
import time
import warnings

import httpx

from croupier.faces.client import KEEP_ALIVE, Client
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


HTTPX_KEEP_ALIVE = 5.0
"""httpx's own default: an idle connection closed after 5 s."""


def _local_port(response: httpx.Response) -> int:
    """The client's port of the connection ``response`` came on."""
    port = response.extensions["network_stream"].get_extra_info("client_addr")[1]
    assert isinstance(port, int)
    return port


def test_a_pause_longer_than_httpx_default_keeps_the_connection(sqlite_server: Server) -> None:
    assert KEEP_ALIVE > HTTPX_KEEP_ALIVE + 1
    with Client(sqlite_server.url) as client:
        first = client.http.get("/")
        port = _local_port(first)
        time.sleep(HTTPX_KEEP_ALIVE + 0.5)
        second = client.http.get("/")
        assert first.status_code == second.status_code == 200
        assert _local_port(second) == port
