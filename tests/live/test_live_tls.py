"""``croupier serve --tls-cert/--tls-key`` (issue 36): a real server on a self-signed
certificate made here answers HTTPS and WSS only, with ``Strict-Transport-Security``; a client
that trusts the certificate signs in, reads and streams; plain HTTP on its port gets nothing."""

from __future__ import annotations

import importlib.util
import ipaddress
import json
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from croupier.faces.client import Client
from live.live_harness import PASSWORDS, Server

TABLE = "three-card-poker"


def _with_cryptography(cert: Path, key: Path) -> None:
    # (not a dependency: mypy may not find it)
    from cryptography import x509  # type: ignore[import-not-found,unused-ignore]
    from cryptography.hazmat.primitives import (  # type: ignore[import-not-found,unused-ignore]
        hashes,
        serialization,
    )
    from cryptography.hazmat.primitives.asymmetric import (  # type: ignore[import-not-found,unused-ignore]
        ec,
    )
    from cryptography.x509.oid import NameOID  # type: ignore[import-not-found,unused-ignore]

    private = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    at = datetime.now(UTC)
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(at - timedelta(minutes=5))
        .not_valid_after(at + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .sign(private, hashes.SHA256())
    )
    cert.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(
        private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )


def _with_openssl(cert: Path, key: Path) -> None:
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made with the ``cryptography`` package where it
    is installed, else the ``openssl`` command."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    if importlib.util.find_spec("cryptography") is not None:
        _with_cryptography(cert, key)
    elif shutil.which("openssl"):
        _with_openssl(cert, key)
    else:
        pytest.fail("neither the cryptography package nor the openssl command is installed")
    return cert, key


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[tuple[Server, ssl.SSLContext]]:
    cert, key = self_signed(tmp_path)
    server = Server(
        f"sqlite:///{tmp_path / 'floor.sqlite'}",
        tmp_path / "server.log",
        args=("--tls-cert", str(cert), "--tls-key", str(key)),
    )
    server.start()
    yield server, ssl.create_default_context(cafile=str(cert))
    server.stop()


def test_serve_over_tls_with_a_self_signed_certificate(
    tls_server: tuple[Server, ssl.SSLContext],
) -> None:
    server, trusted = tls_server
    url = f"https://127.0.0.1:{server.port}"
    with Client(url, tls=trusted) as observer:
        observer.login("observer", PASSWORDS["observer"])
        seq = observer.view(TABLE)["seq"]
        with Client(url, tls=trusted) as player:
            player.login("player1", PASSWORDS["player1"])
            player.sit(TABLE, 1)
        with observer.stream(TABLE, since=seq) as stream:
            assert stream.next(timeout=30).type == "seats"
        # the browsers' way over WSS: the token as the first message
        wss = f"wss://127.0.0.1:{server.port}/api/floor/stream"
        with connect(wss, ssl=trusted) as conn:
            conn.send(json.dumps({"token": observer.token}))
            assert json.loads(conn.recv(timeout=30))["type"] == "floor"
        answer = observer.http.get("/api/me", headers={"Authorization": f"Bearer {observer.token}"})
    assert answer.status_code == 200
    assert answer.headers["strict-transport-security"].startswith("max-age=")
    # Without trusting the certificate, or in clear: no answer.
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/api/par")
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{server.port}/api/par")
