"""Roles authenticated: every endpoint refuses a request without a valid token (401) and every
role it is not for (403); a dealer only deals the table assigned to it."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx

from croupier.faces.client import tls_context
from live.live_harness import PASSWORDS, Server

ROLES = {
    "player": "player1",
    "dealer": "dealer",
    "supervisor": "supervisor",
    "observer": "observer",
    "auditor": "auditor",
    "admin": "admin",
    "trainee": "trainee",
}
PARAMS = {
    "table_id": "three-card-poker",
    "round_id": "three-card-poker-000001",
    "player_id": "P1",
    "handpay_id": "1",
    "seat": "1",
    "username": "player2",
    "drill_id": "1",
}


def _endpoints(spec: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    out = []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            if "x-roles" in op:
                url = re.sub(r"\{(\w+)\}", lambda m: PARAMS[m.group(1)], path)
                out.append((method.upper(), url, op["x-roles"]))
    return out


def _tokens(server: Server) -> dict[str, str]:
    tokens = {}
    for role, username in ROLES.items():
        r = httpx.post(
            f"{server.url}/api/login", json={"username": username, "password": PASSWORDS[username]}
        )
        assert r.status_code == 200 and r.json()["role"] == role
        tokens[role] = r.json()["token"]
    return tokens


def test_every_endpoint_refuses_unauthenticated_and_other_roles(sqlite_server: Server) -> None:
    spec = httpx.get(f"{sqlite_server.url}/openapi.json").json()
    endpoints = _endpoints(spec)
    assert len(endpoints) >= 25
    tokens = _tokens(sqlite_server)
    with httpx.Client(base_url=sqlite_server.url, verify=tls_context()) as http:
        for method, url, roles in endpoints:
            for headers in ({}, {"Authorization": "Bearer not-a-token"}):
                r = http.request(method, url, json={}, headers=headers)
                assert r.status_code == 401, (method, url, r.text)
                assert r.headers["content-type"] == "application/problem+json"
            for role, token in tokens.items():
                if role in roles:
                    continue
                headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
                r = http.request(method, url, json={}, headers=headers)
                assert r.status_code == 403, (role, method, url, r.text)
                assert r.json()["status"] == 403


def test_login_refuses_wrong_password_and_unknown_user(sqlite_server: Server) -> None:
    for body in (
        {"username": "dealer", "password": "wrong-password"},
        {"username": "nobody", "password": "dealer-demo"},
    ):
        r = httpx.post(f"{sqlite_server.url}/api/login", json=body)
        assert r.status_code == 401
        assert r.headers["content-type"] == "application/problem+json"


def test_player_may_not_wager_at_another_players_seat(sqlite_server: Server) -> None:
    p1, p2 = sqlite_server.client("player1"), sqlite_server.client("player2")
    dealer = sqlite_server.client("dealer")
    p1.sit("three-card-poker", 1)
    p2.sit("three-card-poker", 2)
    dealer.new_round("three-card-poker")
    r = p2.http.post(
        "/api/tables/three-card-poker/wagers",
        json={"wager": "ante", "amount": 500, "seat": 1},
        headers={"Authorization": f"Bearer {p2.token}", "Idempotency-Key": "k1"},
    )
    assert r.status_code == 403
    assert dealer.view("three-card-poker")["round"]["stakes"] == {}
