"""The OpenAPI document's links lead where they say, on a real server after a real round.

Every answer of a played session (sign-ins, the table list, each command of a round, the
recalls, a new player) is kept; for each link the document declares on that answer, the link's
runtime expressions (OpenAPI 3.1 § 4.8.20: ``$response.body#/pointer``,
``$request.path.name``, a header built from the body) are evaluated on it and each read it
leads to is sent.  A link must resolve to a real thing: no target answers 404 or 422 (a role
may be refused, 403, where the link is a sign-in's and the read is another role's).  The chains
a client walks must all be there, the round's among them: a sign-in's token to the table list,
the list to a table, a command to its round's records, a recall to a round, a new player to
their buy-in.  The stateful fuzzer (test_live_fuzz.py) walks the same links at random."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import httpx

from croupier.faces.bots import play_round
from croupier.faces.client import Client, tls_context
from live.live_harness import PASSWORDS, Server

Answer = tuple[str, str, dict[str, str], str, Any]
"""(operationId, the request's path, its path parameters, its Authorization header, the
answer's JSON body) of a 200 answer."""

CHAINS = {
    ("login_api_login_post", "me_api_me_get"),
    ("tables_api_tables_get", "view_api_tables__table_id__view_get"),
    ("deal_api_tables__table_id__deal_post", "deal_api_rounds__round_id__deal_get"),
    ("table_rounds_api_tables__table_id__rounds_get", "records_api_rounds__round_id__records_get"),
    (
        "seat_rounds_api_tables__table_id__seats__seat__rounds_get",
        "deal_api_rounds__round_id__deal_get",
    ),
    ("records_api_rounds__round_id__records_get", "scenario_api_rounds__round_id__scenario_get"),
    ("new_player_api_players_post", "buy_in_api_players__player_id__buy_in_post"),
}
"""(source, target) operationIds that must have been walked to a 200 answer: a sign-in to the
reads it authorizes, the table list to a table, a command to its round (the deal commitment:
a dealer may not read the round's records), the recalls to a round, a round's records to its
scenario, a new player to a buy-in."""


def _matcher(doc: dict[str, Any]) -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    """Each operation's path template as a regex (its parameters as named groups)."""
    out = []
    for template, item in doc["paths"].items():
        pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
        for method, operation in item.items():
            out.append((re.compile(f"{method.upper()} {pattern}$"), template, operation))
    return out


def _pointer(body: Any, pointer: str) -> Any:
    """RFC 6901 over a JSON body: None for a null, or past a list's end (an empty list has no
    first element); a key the body does not have is the link's mistake (KeyError)."""
    node = body
    for raw in filter(None, pointer.split("/")):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            if int(part) >= len(node):
                return None
            node = node[int(part)]
        elif isinstance(node, dict):
            node = node[part]
        else:
            return None
    return node


def _evaluate(expression: str, answer: Answer) -> Any:
    """A link's runtime expression (or a string embedding one in braces) on an answer."""
    embedded = re.fullmatch(r"(.*)\{(\$[^}]+)\}(.*)", expression)
    if embedded:
        value = _evaluate(embedded.group(2), answer)
        return None if value is None else f"{embedded.group(1)}{value}{embedded.group(3)}"
    if expression.startswith("$response.body#"):
        return _pointer(answer[4], expression.removeprefix("$response.body#"))
    if expression.startswith("$request.path."):
        return answer[2].get(expression.removeprefix("$request.path."))
    raise AssertionError(f"a runtime expression this test does not read: {expression}")


def _recorder(doc: dict[str, Any], answers: list[Answer]) -> Any:  # an httpx response hook
    operations = _matcher(doc)

    def record(response: httpx.Response) -> None:
        if response.status_code != 200:
            return
        response.read()
        request = response.request
        line = f"{request.method} {request.url.path}"
        for regex, _, operation in operations:
            found = regex.match(line)
            if found:
                auth = request.headers.get("Authorization", "")
                answers.append(
                    (
                        operation["operationId"],
                        request.url.path,
                        found.groupdict(),
                        auth,
                        response.json(),
                    )
                )
                return

    return record


def _session(server: Server, doc: dict[str, Any]) -> list[Answer]:
    """A dealer, a player and a supervisor: sign-ins, a round, the recalls, a new player."""
    answers: list[Answer] = []
    clients = {}
    for role in ("dealer", "player1", "supervisor"):
        client = Client(server.url)
        client.http.event_hooks["response"].append(_recorder(doc, answers))
        client.login(role, PASSWORDS[role])
        server.clients.append(client)
        clients[role] = client
    dealer, player, supervisor = clients["dealer"], clients["player1"], clients["supervisor"]
    table = str(dealer.tables()[0]["id"])
    dealer.table(table)
    player.sit(table, 1)
    played = play_round(dealer, {1: player}, table, dealer.table(table))
    supervisor.records(played.round_id)
    supervisor.rounds(table)
    player.get(f"/api/tables/{table}/seats/1/rounds")
    supervisor.handpays()
    new = supervisor.new_player("linked", "Linked Player", "linked", "a-long-passphrase-1")
    supervisor.buy_in(str(new["player_id"]), 1_000)
    return answers


def _walk(server: Server, doc: dict[str, Any], answers: list[Answer]) -> Counter[Any]:
    """Every link of every answer, its reads sent; (source, target, status) counted."""
    by_id = {
        op["operationId"]: (method.upper(), template)
        for template, item in doc["paths"].items()
        for method, op in item.items()
    }
    walked: Counter[Any] = Counter()
    with httpx.Client(base_url=server.url, timeout=30, verify=tls_context()) as http:
        for answer in answers:
            source = answer[0]
            method, template = next(v for v in by_id.values() if by_id[source] == v)
            links = doc["paths"][template][method.lower()]["responses"]["200"].get("links", {})
            for link in links.values():
                target = link["operationId"]
                values = {k: _evaluate(v, answer) for k, v in link["parameters"].items()}
                if None in values.values():  # a null field, an empty list: nothing to follow
                    walked[source, target, "nothing"] += 1
                    continue
                walked[source, target, _follow(http, by_id[target], values, answer)] += 1
    return walked


def _follow(
    http: httpx.Client, target: tuple[str, str], values: dict[str, Any], answer: Answer
) -> int:
    """Send the target: a read as it is; a chip movement for real (a small one); any other
    command's parameter shown real by the read of the thing it names."""
    method, template = target
    headers = {"Authorization": values.pop("header.Authorization", answer[3])}
    path = template
    for name, value in values.items():
        path = path.replace("{" + name.rpartition(".")[2] + "}", str(value))
    if "{" in path:  # a parameter the link leaves to the client (a seat): not followed
        return 0
    if method == "GET":
        return http.get(path, headers=headers).status_code
    parts = path.split("/")  # "", "api", kind, id, command
    if parts[2] == "players":
        headers["Idempotency-Key"] = f"link-{path}-{answer[1]}"
        return http.post(path, json={"amount": 100}, headers=headers).status_code
    reads = {"tables": "/api/tables/{}", "rounds": "/api/rounds/{}/records"}
    assert parts[2] in reads, f"a command this test cannot check: {path}"
    return http.get(reads[parts[2]].format(parts[3]), headers=headers).status_code


def test_every_openapi_link_of_a_played_round_leads_to_a_real_thing(
    sqlite_server: Server,
) -> None:
    doc = httpx.get(f"{sqlite_server.url}/openapi.json", timeout=30).json()
    answers = _session(sqlite_server, doc)
    walked = _walk(sqlite_server, doc, answers)
    statuses = Counter(status for (_, _, status) in walked.elements())
    assert not {404, 422} & set(statuses), [k for k in walked if k[2] in (404, 422)]
    assert set(statuses) <= {0, 200, 403, "nothing"}, statuses
    reached = {(s, t) for (s, t, status) in walked if status == 200}
    assert reached >= CHAINS, CHAINS - reached
