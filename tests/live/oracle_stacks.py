"""Rare outcomes through the real server: stacked rounds at training tables (issue 35,
contracts 2 and 3), as a table of cases the money oracle plays.

A training table is one whose Rules Submission says ``[table] training = true``; the
supervisor creates it (``POST /api/tables``) with the demo table's rules and that flag, and the
dealer opens a round with ``{"stack": "As Kd ..."}`` (top first, in the order the cards leave
the shoe).  Each case gives the game, the seats' wagers and decision paths, the stack, and
what the round must come to; the runner plays it, approves its hand-pays, and holds its chips
to the offline replay of its export like every other round (:mod:`live.oracle_check`).

The stacks follow the dealing order each game's export shows (``cards`` of
``GET /api/rounds/{id}/scenario``): Ultimate Texas Hold 'Em one card to each seat in turn and
the dealer, again, then burn, flop, burn, turn, (burn,) river; Let It Ride and Three Card Poker
three to each seat in turn, then the board or the dealer; Mississippi Stud two rounds of one
card a seat, then three community cards; baccarat Player, Banker, Player, Banker, then the
third cards (a baccarat table deals one shoe coup after coup: a stack is the next coup's first
cards, put on the rest of the shoe, after a new shoe's first card and burn,
``server/live_shoe.py`` ``stack_next``; the coup's export holds its own cards alone).
``test_training_case_replays_offline_to_its_outcome`` settles every case offline, so a stack
that would not reach its outcome fails apart from the server.  A shoe case
(``Case.shoe``) plays on, coup after coup, to the end of its shoe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from live.oracle_check import Finding, check_round, check_session, replay_all
from live.oracle_client import Refused, StreamGap
from live.oracle_play import Floor, PlayedRound, TableSession

__all__ = ["CASES", "Case", "play_cases", "scenario_of", "stacking", "unmet", "with_blocks"]


@dataclass(frozen=True)
class Case:
    """One stacked round: its seats (one player each), the stack, and what must happen."""

    name: str
    game: str
    stack: str
    wagers: Mapping[int, Mapping[str, int]]
    paths: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    lines: Mapping[tuple[int, str], str] = field(default_factory=dict)
    """(seat, wager) -> the pay line it must be paid on."""
    results: Mapping[tuple[int, str], str] = field(default_factory=dict)
    """(seat, wager) -> its result."""
    envy: frozenset[int] = frozenset()
    """Seats that must receive an Envy Bonus."""
    handpays: int = 0
    """100% progressive awards the supervisor approves (hand-pays)."""
    capped: Mapping[int, tuple[tuple[str, ...], int]] = field(default_factory=dict)
    """seat -> (wagers, limit): what those wagers are paid together stops at the table's
    payout limit (the progressive's award is not held to it)."""
    void_at: str | None = None
    rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Rules blocks the training table adds to its demo table's (``custom_paytables``,
    ``limits``, ``table``), each block merged key by key."""
    shoe: Mapping[int, Mapping[str, int]] | None = None
    """A baccarat case played to the end of its shoe: after the stacked coup, coups of these
    wagers until the shoe is done (``None``: the case is one round)."""
    why: str = ""


THREE_CARD_PROGRESSIVE: Mapping[str, Any] = {
    # Let It Ride's Three-Card Progressive (§ 643a.7(g)) as the live tests bring it (the demo
    # table offers none: no filed table to cite): 100% of its meter from a straight flush up
    "meter": "three-card",
    "wager": 100,
    "reset": 500000,
    "rate": "0.25",
    "lines": {
        "mini_royal": "100% of meter",
        "straight_flush": "100% of meter",
        "three_of_a_kind": "20% of meter",
        "straight": "10% of meter",
    },
    "envy": {"mini_royal": 5000},
}

CASES: tuple[Case, ...] = (
    Case(
        "uth-royal-flush-hand-pay-and-envy-to-two-seats",
        "ultimate-texas-holdem",
        # s1 s2 s3 dealer, s1 s2 s3 dealer-cover, burn, flop x3, burn, turn, river
        "As 2c 3d 5c Ks 7d 8h 9c 2h Qs Js Ts 3c 4d 5d",
        {s: {"ante": 500, "blind": 500, "progressive": 100} for s in (1, 2, 3)},
        {1: ("play 4",), 2: ("check", "check", "fold"), 3: ("check", "check", "play 1")},
        lines={(1, "progressive"): "royal_flush"},
        envy=frozenset({2, 3}),
        handpays=1,
        why="a royal flush of the two hole cards and the flop: 100% of the meter, a hand-pay "
        "the supervisor approves; Envy Bonuses to both other seats (§ 569.12(f))",
    ),
    Case(
        "lir-royal-flush-payout-limit-two-hand-pays-and-envy",
        "let-it-ride",
        # s1 x3, s2 x3, s3 x3, board x2, the third community card discarded unseen
        "As Ks Qs 2c 7d 9h 3c 8d 4h Js Ts 5c",
        {
            1: {
                "bet1": 1000,
                "bet2": 1000,
                "bet3": 1000,
                "three_card_progressive": 100,
                "five_card_progressive": 100,
            },
            2: {
                "bet1": 500,
                "bet2": 500,
                "bet3": 500,
                "three_card_progressive": 100,
                "five_card_progressive": 100,
            },
            3: {"bet1": 500, "bet2": 500, "bet3": 500, "five_card_progressive": 100},
        },
        {
            1: ("ride bet1", "ride bet2"),
            2: ("pull bet1", "pull bet2"),
            3: ("ride bet1", "pull bet2"),
        },
        lines={
            (1, "bet3"): "royal_flush",
            (1, "five_card_progressive"): "royal_flush",
            (1, "three_card_progressive"): "mini_royal",
        },
        envy=frozenset({2, 3}),
        handpays=2,
        capped={1: (("bet1", "bet2", "bet3"), 2_500_000)},
        rules={"custom_paytables": {"three_card_progressive": THREE_CARD_PROGRESSIVE}},
        why="a royal flush on three $10 bets pays 1000 to 1 up to the $25,000 payout limit "
        "(§ 643a.12(d)); the five- and three-card progressives each pay 100% of a meter as "
        "hand-pays; Envy Bonuses to the other seats",
    ),
    Case(
        "tcp-mini-royal-progressive-hand-pay-and-envy",
        "three-card-poker",
        "As Ks Qs 2c 7d 9h 3c 8d Jh 4h 5h 6c",
        {s: {"ante": 500, "progressive": 100} for s in (1, 2, 3)},
        {1: ("play 1",), 2: ("fold",), 3: ("play 1",)},
        lines={(1, "progressive"): "mini_royal_spades"},
        envy=frozenset({2, 3}),
        handpays=1,
        why="a mini royal in spades pays 100% of the linked meter; Envy to the others, the "
        "folded seat too",
    ),
    Case(
        "ms-royal-flush-payout-limit-and-hand-pay",
        "mississippi-stud",
        # s1 s2 s3, s1 s2 s3, community x3
        "As 2c 3d Ks 7d 8h Qs Js Ts",
        {s: {"ante": 5000, "progressive": 100} for s in (1, 2, 3)},
        {1: ("play 3", "play 3", "play 3"), 2: ("fold",), 3: ("play 1", "play 1", "fold")},
        lines={(1, "ante"): "royal_flush", (1, "progressive"): "royal_flush"},
        handpays=1,
        capped={1: (("ante", "third_street", "fourth_street", "fifth_street"), 5_000_000)},
        why="a royal flush on $500 of action pays 500 to 1 up to the $50,000 payout limit "
        "(§ 655a.12(b)); the mega meter's 100% award is a hand-pay",
    ),
    Case(
        "uth-royal-flush-voided-at-decisions-returns-the-progressive",
        "ultimate-texas-holdem",
        "As 2c 3d 5c Ks 7d 8h 9c 2h Qs Js Ts 3c 4d 5d",
        {s: {"ante": 500, "blind": 500, "progressive": 100} for s in (1, 2, 3)},
        {1: ("play 4",), 2: ("check", "check", "fold"), 3: ("check", "check", "play 1")},
        results={(1, "progressive"): "void", (2, "ante"): "void"},
        void_at="decisions",
        why="a void before settlement returns every open wager, the royal's progressive too",
    ),
    Case(
        "mini-dragon-bonus-nine-point-win",
        "mini-baccarat",
        # Player 2+2, Banker K+Q; the Player draws a 5 (9), the Banker draws on 0 (a jack)
        "2c Kd 2h Qd 5s Jd",
        {
            1: {"player": 1000, "dragon_bonus_player": 500},
            2: {"banker": 1000, "dragon_bonus_banker": 500},
        },
        results={(1, "dragon_bonus_player"): "win", (2, "banker"): "lose"},
        why="a non-natural win by nine points pays the Dragon Bonus at its top line",
    ),
    Case(
        "ez-dragon-7",
        "ez-baccarat",
        # Player A+2 (3) draws a 3 (6); Banker 2+2 (4) draws on a 3 (7): a three-card 7
        "Ac 2c 2h 2d 3h 3s",
        {1: {"banker": 1000, "dragon_7": 500}, 2: {"player": 1000, "dragon_7": 500}},
        results={(1, "banker"): "push", (1, "dragon_7"): "win", (2, "player"): "lose"},
        why="EZ Baccarat: the Banker's three-card 7 bars the Banker wager and pays Dragon 7",
    ),
    Case(
        "midi-tie-vigorish-at-payout",
        "midi-baccarat",
        # Player K+7, Banker K+7: both stand, a tie
        "Kc Kd 7h 7s",
        {1: {"banker": 1000}, 2: {"player": 1000, "tie": 500}},
        results={(2, "tie"): "win"},
        why="Midibaccarat charging 25% of the Banker wager when the hands tie (§ 543.13(h))",
    ),
    Case(
        "mini-deferred-commission-collected-when-the-player-leaves",
        "mini-baccarat",
        # Player K+Q (0), Banker 4+4 (a natural 8)
        "Kc 4d Qh 4s",
        {1: {"banker": 1000}, 2: {"banker": 2000, "player": 500}},
        results={(1, "banker"): "win", (2, "banker"): "win"},
        why="a Banker win marks 5% commission (deferred); leaving the table collects it, so "
        "each balance ends at its buy-in plus the replayed net (§ 541.13(g)): the players of "
        "every case leave after its round, and the session check holds them to it",
    ),
    Case(
        "mini-deferred-commission-collected-at-the-end-of-the-shoe",
        "mini-baccarat",
        # the shoe's first coup (after its burn): Player K+Q (0), Banker 4+4 (a natural 8)
        "Kc 4d Qh 4s",
        {1: {"banker": 1000}, 2: {"banker": 2000, "player": 500}},
        results={(1, "banker"): "win", (2, "banker"): "win"},
        rules={"table": {"decks": 6}},  # six decks: the shoe ends in about sixty coups
        shoe={1: {"banker": 500}, 2: {"player": 500}},
        why="markers owed coup after coup are all collected when the shoe ends, before the "
        "reshuffle (§ 541.13(g)): nothing is owed when the players leave",
    ),
)

SHOE_COUPS = 90
"""Coups at most in one six-deck shoe (312 cards, 16 under the cut card, 4 to 6 a coup)."""


def scenario_of(case: Case, rules: Mapping[str, Any]) -> dict[str, Any]:
    """The case as a scenario ``croupier replay`` settles: the table's rules, the seats'
    wagers and decisions, the stack as the shoe's first cards."""
    seats: dict[str, Any] = {}
    for seat, wagers in case.wagers.items():
        entry: dict[str, Any] = {"wagers": dict(wagers)}
        if case.paths.get(seat):
            entry["decisions"] = list(case.paths[seat])
        seats[str(seat)] = entry
    plain = with_blocks({k: v for k, v in rules.items() if k != "game"}, case.rules)
    scenario: dict[str, Any] = {
        "game": case.game,
        "rules": plain,
        "seats": seats,
        "cards": case.stack.split(),
    }
    if case.void_at == "decisions":  # the live runner voids once a decision is made
        scenario["events"] = [
            {"kind": "void", "by": "supervisor", "reason": "oracle", "after_decisions": 1}
        ]
    return scenario


def with_blocks(
    rules: Mapping[str, Any], blocks: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """``rules`` with each of ``blocks`` merged into the block of its name, key by key."""
    out = dict(rules)
    for name, block in blocks.items():
        out[name] = {**out.get(name, {}), **block}
    return out


def unmet(case: Case, settlement: Mapping[str, Any], handpays: int | None = None) -> list[str]:
    """What the case asked for and the settlement (a replay's or the server's) does not show."""
    out = []
    for (seat, wager), line in case.lines.items():
        got = settlement.get(str(seat), {}).get("wagers", {}).get(wager, {})
        if got.get("line") != line or got.get("result") != "win":
            out.append(f"seat {seat} {wager}: wanted a win on {line}, got {got}")
    for (seat, wager), result in case.results.items():
        got = settlement.get(str(seat), {}).get("wagers", {}).get(wager, {})
        if got.get("result") != result:
            out.append(f"seat {seat} {wager}: wanted {result}, got {got}")
    for seat in case.envy:
        if not settlement.get(str(seat), {}).get("envy"):
            out.append(f"seat {seat}: wanted an Envy Bonus, got none")
    for seat, (names, limit) in case.capped.items():
        wagers = settlement.get(str(seat), {}).get("wagers", {})
        paid = sum(int(wagers.get(w, {}).get("paid", 0)) for w in names)
        if paid != limit:
            out.append(
                f"seat {seat}: wanted {'+'.join(names)} paid {limit} (the limit), got {paid}"
            )
    if handpays is not None and handpays != case.handpays:
        out.append(f"wanted {case.handpays} hand-pays approved, {handpays} were")
    return out


def stacking(openapi: Mapping[str, Any]) -> bool:
    """Whether the server's new-round body takes a ``stack`` (contract 3), from its OpenAPI
    document: the request body of ``POST /api/tables/{table_id}/rounds``."""
    body = openapi["paths"]["/api/tables/{table_id}/rounds"]["post"].get("requestBody", {})
    schema = body.get("content", {}).get("application/json", {}).get("schema", {})
    ref = str(schema.get("$ref", ""))
    if ref.startswith("#/components/schemas/"):
        schema = openapi["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return "stack" in schema.get("properties", {})


def _own_meters(value: Any, table: str) -> Any:
    """The rules with every meter renamed for the training table, so that its stacked
    jackpots never touch the floor's linked meters."""
    if isinstance(value, dict):
        return {
            k: f"{table}-{v}" if k == "meter" and isinstance(v, str) else _own_meters(v, table)
            for k, v in value.items()
        }
    return value


def training_table(floor: Floor, case: Case, n: int) -> str:
    """A training table of the case's game (the demo table's rules, ``training = true``, meters
    of its own), created by the supervisor; its id."""
    table = f"training-{n}-{case.game}"[:100]
    rules = with_blocks(floor.dealer.get(f"/api/tables/{case.game}")["rules"], case.rules)
    rules = _own_meters(rules, table)
    rules["table"] = {**rules.get("table", {}), "training": True}
    floor.supervisor.post(
        "/api/tables", {"id": table, "name": f"Training {case.name}"[:200], "rules": rules}
    )
    if floor.dealer.get(f"/api/tables/{table}")["status"] != "open":
        floor.supervisor.post(f"/api/tables/{table}/open")
    return table


def _play_case(
    floor: Floor, case: Case, n: int
) -> tuple[list[PlayedRound], TableSession, dict[str, int], list[str]]:
    """The case at a training table of its own; its rounds, the session, the balances after
    the players left, and what the end of the shoe did not do (a shoe case)."""
    table = training_table(floor, case, n)
    players = floor.enrol(f"oracle-t{n}-{case.game}", len(case.wagers))
    session = TableSession(floor, table, players, adjacent=False)
    shoe: list[str] = []
    with session.seated():
        played = [session.play(case.paths, case.void_at, stack=case.stack, wagers=case.wagers)]
        if case.shoe is not None:
            while _stage(floor, table) != "done" and len(played) < SHOE_COUPS:
                played.append(session.play({}, wagers=case.shoe))
            owed = {
                pid: int(p.get("/api/me")["commission_owed"]) for pid, p in session.players.items()
            }
            shoe = _shoe_unmet(session, played, owed)
    return played, session, session.final_balances(), shoe


def _stage(floor: Floor, table: str) -> str:
    return str(floor.dealer.get(f"/api/tables/{table}/view")["shoe"]["stage"])


def _shoe_unmet(
    session: TableSession, played: list[PlayedRound], owed: Mapping[str, int]
) -> list[str]:
    """What the end of the shoe did not do: the shoe ended; each player owed commission
    before its last coup, and owes none after it (``/api/me`` and the ledger) with every
    marker collected for the reshuffle, as much as the coups' settlements marked
    (§ 541.13(g))."""
    out = []
    if _stage(session.floor, session.table) != "done":
        out.append(f"the shoe did not end in {len(played)} coups")
    marked: dict[str, int] = {}
    for rnd in played:
        for seat, s in rnd.seats.items():
            vig = rnd.settlement.get(str(seat), {}).get("vig", {})
            marked[s.player] = marked.get(s.player, 0) + int(vig.get("marked", 0))
    collected: dict[str, int] = {}
    for event in session.streams["supervisor"].events:
        record = event.data.get("record", {}) if event.type == "shoe" else {}
        if record.get("kind") == "vig_marker_collected":
            pid = session.seat_of[int(record["seat"])].player_id or ""
            if record.get("reason") != "reshuffle":
                out.append(f"{pid}: a marker collected for {record.get('reason')}")
            collected[pid] = collected.get(pid, 0) + int(record["amount"])
    for pid in session.players:
        before = [r.books_after.get(f"commission:{pid}", 0) for r in played[:-1]]
        if not before or min(before) >= 0:
            out.append(f"{pid} owed no commission before the shoe's last coup")
        left = session.books_end.get(f"commission:{pid}", 0)
        if owed[pid] != 0 or left != 0:
            out.append(f"{pid} still owes {owed[pid]} (/api/me), {left} (ledger) at the shoe's end")
        if collected.get(pid, 0) != marked.get(pid, 0) or not marked.get(pid):
            out.append(
                f"{pid}: {collected.get(pid, 0)} collected for the reshuffle, "
                f"{marked.get(pid, 0)} marked"
            )
    return out


def play_cases(
    floor: Floor, cases: tuple[Case, ...], directory: Path
) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Each case through the live server, held to its offline replay like any round, and to
    what the case asks for; its findings by case name (empty: all well), and the rounds each
    played."""
    out: dict[str, list[str]] = {}
    played_rounds: dict[str, int] = {}
    for n, case in enumerate(cases, 1):
        try:
            rounds, session, final, shoe = _play_case(floor, case, n)
        except (Refused, StreamGap, AssertionError) as exc:  # the case's finding, not the run's
            out[case.name] = [f"live: {type(exc).__name__}: {exc}"]
            continue
        played_rounds[case.name] = len(rounds)
        replays = replay_all(rounds, directory / "training")
        findings: list[Finding] = [f for r in rounds for f in check_round(r, replays[r.round_id])]
        findings += check_session(session, rounds, replays, final)
        problems = [str(f) for f in findings] + [f"shoe: {u}" for u in shoe]
        played, replay = rounds[0], replays[rounds[0].round_id]
        problems += [f"live: {u}" for u in unmet(case, played.settlement, len(played.handpays))]
        if replay.out is not None:
            problems += [f"replay: {u}" for u in unmet(case, replay.out["seats"])]
        out[case.name] = problems
    return out, played_rounds
