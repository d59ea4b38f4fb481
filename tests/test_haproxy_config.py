"""The HAProxy configuration of a scale-out (croupier.server.haproxy_config, docs/scale-out.md):
HAProxy itself accepts it (``haproxy -c``; Debian's package installed where missing), it hashes a
table's path to one server, listens on the loopback only by default, keeps an idle client's
connection as long as a server does, and a bad backend is a
typed refusal naming it (the command line: one line on stderr, exit 2)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from croupier.core.errors import InvalidInput
from croupier.faces.client import KEEP_ALIVE as CLIENT_KEEP_ALIVE
from croupier.server.haproxy_config import Backend, haproxy_config, main, parse_backend
from croupier.server.run import KEEP_ALIVE
from live.failover_harness import ensure_haproxy

BACKENDS = [Backend("127.0.0.1", 18001), Backend("127.0.0.1", 18002)]


def test_config_hashes_a_tables_path_to_one_of_every_server_on_the_loopback() -> None:
    text = haproxy_config(BACKENDS, listen_port=18000)
    assert "bind 127.0.0.1:18000" in text
    assert "balance uri depth 3" in text and "hash-type consistent" in text
    assert "timeout tunnel" in text and "option redispatch" in text
    servers = [line.split()[2] for line in text.splitlines() if line.lstrip().startswith("server")]
    assert servers == ["127.0.0.1:18001", "127.0.0.1:18002"]


def test_an_idle_client_connection_stays_open_as_long_behind_haproxy_as_at_a_server() -> None:
    # without its own timeout, HAProxy would close an idle client's connection after
    # ``timeout http-request`` (10 s), where croupier serve keeps it KEEP_ALIVE seconds
    text = haproxy_config(BACKENDS, listen_port=18000)
    assert f"timeout http-keep-alive {KEEP_ALIVE}s" in text
    assert CLIENT_KEEP_ALIVE < KEEP_ALIVE  # the client never reuses one a front is closing


def test_haproxy_accepts_the_config(tmp_path: Path) -> None:
    binary = ensure_haproxy()
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config(BACKENDS, listen_port=18000))
    done = subprocess.run(
        [binary, "-c", "-f", str(config)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_backend_without_a_port_is_refused_naming_it() -> None:
    with pytest.raises(InvalidInput, match=re.escape("'127.0.0.1'")):
        parse_backend("127.0.0.1")
    with pytest.raises(InvalidInput, match="at least one"):
        haproxy_config([], listen_port=18000)


def test_command_line_refusal_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--listen", "18000", "--backend", "nowhere"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nowhere'" in err
