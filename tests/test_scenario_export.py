"""A stored round exported as a scenario (``croupier.server.round_recall.scenario_of``: the live
server's ``GET /api/rounds/{id}/scenario`` and ``croupier recall --scenario``) replays, by
``croupier replay``'s engine (:func:`croupier.table.scenario.run_scenario`), to the round's own
records and settlement, record for record (issue 35: what the money oracle found).

- a Four Card Poker Play of 1.5 times the Ante (§ 641a.7(d)(1)) is written in cents
  (``play 750c``), never ``play None``;
- the round's events are exported: a supervisor's void at any phase (betting too), the
  dealer's stub count (§ 641a.8(f)) and the dealer's irregularity reports (§ 641a.13), each at
  the point of the round it happened;
- an eight-deck baccarat coup that deals one card twice replays (a card may come up to as many
  times as the shoe's decks hold it).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from croupier.core.errors import InvalidInput
from croupier.games import Game
from croupier.games.records import (
    Action,
    CardDealt,
    CountStub,
    IrregularityKind,
    NoMoreBets,
    PlaceWager,
    Play,
    ReportIrregularity,
    VoidRound,
    record_to_json,
)
from croupier.games.round import ActorKind, Phase, Round, StubCheck
from croupier.server.round_recall import scenario_of
from croupier.store import RoundStore, SqlMeters, TrackedRound, open_engine
from croupier.table.scenario import run_scenario
from croupier.table.shoe import SeededShuffler, Shoe
from store_play import GAME_FILES, drive, game_for

Decide = Callable[[Round, int], Action]


class Floor:
    """An in-memory store and its meters: rounds tracked as the live server tracks them."""

    def __init__(self) -> None:
        self.engine = open_engine("sqlite://")
        self.store = RoundStore(self.engine)
        self.meters = SqlMeters(self.engine)
        self.count = 0

    def round(
        self, game: Game, seed: int, stub: StubCheck = StubCheck.NOT_REQUIRED
    ) -> tuple[str, TrackedRound, Round]:
        self.count += 1
        rid = f"{game.slug}-{self.count}"
        shoe = Shoe.shuffled(SeededShuffler(seed), decks=game.shoe_decks)
        rnd = game.new_round(shoe=shoe, meters=self.meters, stub_check=stub)
        return rid, self.store.track(rid, rnd), rnd

    def exported(self, rid: str) -> dict[str, Any]:
        """The round's scenario, as the server sends it (JSON)."""
        scenario = scenario_of(self.store.info(rid), self.store.load(rid))
        out: dict[str, Any] = json.loads(json.dumps(scenario))
        return out

    def replays_exactly(self, rid: str) -> dict[str, Any]:
        """Replay the export; assert it gives the stored records and settlement; the replay."""
        out = run_scenario(self.exported(rid))
        stored = [record_to_json(r) for r in self.store.load(rid)]
        assert out["records"] == stored, _first_difference(out["records"], stored)
        assert out["seats"] == self.store.rebuild(rid).settlement()
        return out


def _first_difference(replayed: Sequence[Any], stored: Sequence[Any]) -> str:
    for n, (a, b) in enumerate(zip(replayed, stored, strict=False)):
        if a != b:
            return f"record {n}: replay {a} != stored {b}"
    return f"replay {len(replayed)} records, stored {len(stored)}"


@pytest.fixture
def floor() -> Floor:
    return Floor()


def _wager(tracked: TrackedRound, wagers: Mapping[int, Mapping[str, int]]) -> None:
    for seat, placed in wagers.items():
        for wager, amount in placed.items():
            tracked.apply(PlaceWager(seat=seat, wager=wager, amount=amount))


def _play_to(
    tracked: TrackedRound, rnd: Round, decide: Decide, stop: Callable[[Round], bool]
) -> None:
    """From "no more bets" on: the dealer's steps and each seat's ``decide``, until ``stop``
    or the end of the round."""
    while not rnd.is_over and not stop(rnd):
        actor = rnd.to_act()
        if actor.kind is ActorKind.SEAT and actor.seat is not None:
            tracked.apply(decide(rnd, actor.seat))
        else:
            tracked.apply(rnd.dealer_step())


def _never(rnd: Round) -> bool:
    return False


def _play_at_the_ante(rnd: Round, seat: int) -> Action:
    return Play(seat=seat, multiple=1)


def test_641a_7_d_1_play_of_one_and_a_half_antes_is_exported_in_cents_and_replays(
    floor: Floor,
) -> None:
    game = game_for("four-card-poker")
    rid, tracked, rnd = floor.round(game, 7)
    _wager(tracked, {1: {"ante": 500}, 2: {"ante": 1000}})
    tracked.apply(NoMoreBets())
    sizes = {1: Play(seat=1, amount=750), 2: Play(seat=2, multiple=3)}
    _play_to(tracked, rnd, lambda r, seat: sizes[seat], _never)
    seats = floor.exported(rid)["seats"]
    # the README's scenario words: cents for the Play of 1.5x, a whole multiple as it was made
    assert seats["1"]["decisions"] == ["play 750c"]
    assert seats["2"]["decisions"] == ["play 3"]
    out = floor.replays_exactly(rid)
    made = [r for r in out["records"] if r["kind"] == "play_wagered"]
    assert [(r["seat"], r["amount"], r["multiple"]) for r in made] == [(1, 750, None), (2, 3000, 3)]


VOID_POINTS: dict[str, Callable[[Round], bool]] = {
    # where the supervisor voids a Three Card Poker round whose stub is counted
    "betting": lambda r: r.phase is Phase.BETTING and bool(r.stakes),
    "dealing, before the first card": lambda r: r.phase is Phase.DEALING,
    "dealing, four cards out": lambda r: sum(isinstance(x, CardDealt) for x in r.records) == 4,
    "stub count": lambda r: r.phase is Phase.STUB_COUNT,
    "decisions, after one": lambda r: r.phase is Phase.DECISIONS and r.next_decider() == 2,
    "reveal": lambda r: r.phase is Phase.REVEAL,
}


@pytest.mark.parametrize("where", list(VOID_POINTS))
def test_void_by_a_supervisor_is_exported_and_replays_voided_at_the_same_point(
    floor: Floor, where: str
) -> None:
    stop = VOID_POINTS[where]
    game = game_for("three-card-poker")
    rid, tracked, rnd = floor.round(game, 11, StubCheck.REQUIRED)
    _wager(tracked, {1: {"ante": 500, "pair_plus": 500}, 2: {"ante": 500, "progressive": 100}})
    if not stop(rnd):
        tracked.apply(rnd.dealer_no_more_bets())
        _play_to(tracked, rnd, _play_at_the_ante, stop)
    tracked.apply(VoidRound(by="Sup. Ortiz", reason=f"void at {where}"))
    assert rnd.phase is Phase.VOID
    events = floor.exported(rid).get("events", [])
    voids = [e for e in events if e["kind"] == "void"]
    assert [(e["by"], e["reason"]) for e in voids] == [("Sup. Ortiz", f"void at {where}")]
    out = floor.replays_exactly(rid)
    assert out["phase"] == "void"


@pytest.mark.parametrize(("off", "phase"), [(0, "over"), (-1, "void")])
def test_641a_8_f_the_dealers_stub_count_is_exported_and_replayed(
    floor: Floor, off: int, phase: str
) -> None:
    game = game_for("three-card-poker")
    rid, tracked, rnd = floor.round(game, 13, StubCheck.REQUIRED)
    _wager(tracked, {1: {"ante": 500}, 3: {"ante": 1000}})
    tracked.apply(NoMoreBets())
    _play_to(tracked, rnd, _play_at_the_ante, lambda r: r.phase is Phase.STUB_COUNT)
    count = rnd.dealer_step()
    assert isinstance(count, CountStub)
    tracked.apply(CountStub(count=count.count + off))
    _play_to(tracked, rnd, _play_at_the_ante, _never)
    events = floor.exported(rid)["events"]
    assert [(e["kind"], e["count"]) for e in events] == [("stub_count", count.count + off)]
    out = floor.replays_exactly(rid)
    assert out["phase"] == phase
    assert [r["count"] for r in out["records"] if r["kind"] == "stub_counted"] == [
        count.count + off
    ]


IRREGULARITIES: dict[str, tuple[Callable[[Round], bool], str]] = {
    # § 641a.13(a): a card found face up in the deck while dealing is discarded
    "card_face_up_in_deck": (lambda r: len(r.records) > 6 and r.phase is Phase.DEALING, "over"),
    # § 641a.13(b): a card drawn in error, face unseen, is used as the next card
    "card_drawn_in_error": (lambda r: r.phase is Phase.DEALING and len(r.records) > 4, "over"),
    # § 641a.13(d): a dealer card exposed before the reveal voids the round
    "dealer_card_exposed": (lambda r: r.phase is Phase.DECISIONS and r.next_decider() == 2, "void"),
    # § 641a.13(c): a wrong number of cards dealt voids the round
    "wrong_card_count": (lambda r: r.phase is Phase.STUB_COUNT, "void"),
}


@pytest.mark.parametrize("kind", list(IRREGULARITIES))
def test_641a_13_the_dealers_irregularity_report_is_exported_and_replayed(
    floor: Floor, kind: str
) -> None:
    stop, phase = IRREGULARITIES[kind]
    game = game_for("four-card-poker")
    rid, tracked, rnd = floor.round(game, 17, StubCheck.REQUIRED)
    _wager(tracked, {1: {"ante": 500}, 2: {"ante": 500, "aces_up": 500}})
    tracked.apply(NoMoreBets())
    _play_to(tracked, rnd, _play_at_the_ante, stop)
    tracked.apply(ReportIrregularity(kind=IrregularityKind(kind)))
    _play_to(tracked, rnd, _play_at_the_ante, _never)
    events = floor.exported(rid)["events"]
    assert kind in [e["kind"] for e in events]
    out = floor.replays_exactly(rid)
    assert out["phase"] == phase


ROUNDS_PER_GAME = 12


def _supervisor_void(tracked: TrackedRound, rnd: Round) -> None:
    void = VoidRound(by="Sup. Ortiz", reason="the oracle's void")
    if rnd.can(void):
        tracked.apply(void)


def test_every_games_rounds_export_scenarios_that_replay_to_their_records(floor: Floor) -> None:
    """Every game: seeded rounds with stub counts, the dealer's irregularities now and then,
    and supervisor voids after a random number of actions (any phase), each exported and
    replayed record for record (baccarat from eight-deck shoes: cards dealt twice)."""
    rng = random.Random(35)
    seen: Counter[str] = Counter()
    for name in GAME_FILES:
        game = game_for(name)
        for i in range(ROUNDS_PER_GAME):
            stub = StubCheck.REQUIRED if i % 3 == 0 else StubCheck.NOT_REQUIRED
            rid, tracked, rnd = floor.round(game, rng.getrandbits(32), stub)
            seats = tuple(sorted(rng.sample(range(1, 8), rng.randint(2, 4))))
            for seat in seats:
                for action in rnd.house_wagers(seat, unit=rng.choice((500, 1000))):
                    tracked.apply(action)
            stop = rng.randint(0, 14) if i % 3 == 1 else None
            if stop != 0:  # 0: voided while the bets are still taken
                drive(tracked, rnd, rng, seats=(), irregular=0.05, stop_after=stop)
            if not rnd.is_over:
                _supervisor_void(tracked, rnd)
            if rnd.is_over:
                out = floor.replays_exactly(rid)
                seen[out["phase"]] += 1
                seen.update(e["kind"] for e in floor.exported(rid).get("events", []))
                cards = floor.exported(rid)["cards"]
                seen["card dealt twice"] += len(cards) != len(set(cards))
    assert seen["over"] and seen["void"] and seen["stub_count"] and seen["card dealt twice"]
    assert seen["void"] > 0 and sum(seen[k.value] for k in IrregularityKind) > 0, seen


@pytest.mark.parametrize("decks", [6, 8])
def test_baccarat_scenario_deals_a_card_up_to_its_decks_times(decks: int) -> None:
    """An eight-deck (six-deck) shoe holds each card eight (six) times: a scenario's ``cards``
    may give one up to that many times, never more (``[table] decks``)."""
    rules = {"tie": "A"}
    cards = ["2c", "2c", "2c", "2c"]  # Player 2+2, Banker 2+2: both draw
    cards += ["Kd", "Kh"]
    scenario: dict[str, Any] = {
        "game": "mini-baccarat",
        "rules": {"paytables": rules, "table": {"decks": decks}},
        "seats": {"1": {"wagers": {"banker": 1000}}},
        "cards": cards,
    }
    out = run_scenario(scenario)
    assert out["player"]["cards"] == ["2c", "2c", "Kd"]
    over = {**scenario, "cards": ["2c"] * (decks + 1)}
    with pytest.raises(InvalidInput, match=f"2c .*{decks + 1} times"):
        run_scenario(over)


def test_a_one_deck_game_still_refuses_a_card_given_twice() -> None:
    scenario = {
        "game": "three-card-poker",
        "seats": {"1": {"wagers": {"ante": 500}, "decisions": ["play"]}},
        "cards": ["As", "As", "Qs", "2c", "7d", "9h"],
    }
    with pytest.raises(InvalidInput, match="a card is given twice in 'cards'"):
        run_scenario(scenario)


def _tcp(**extra: Any) -> dict[str, Any]:
    return {
        "game": "three-card-poker",
        "seats": {"1": {"wagers": {"ante": 500}, "decisions": ["play"]}},
        "cards": ["As", "Ks", "Qs", "2c", "7d", "9h"],
        **extra,
    }


def test_a_void_in_betting_returns_the_wagers_before_no_more_bets() -> None:
    void = {"kind": "void", "by": "Sup. Ortiz", "reason": "dispute", "in_betting": True}
    out = run_scenario(_tcp(cards=[], events=[void]))
    kinds = [r["kind"] for r in out["records"]]
    assert kinds[:2] == ["wager_placed", "round_voided"] and "no_more_bets_called" not in kinds
    assert out["phase"] == "void" and out["seats"]["1"]["net"] == 0


@pytest.mark.parametrize(
    ("event", "named"),
    [
        ({"kind": "leave", "seat": 1, "in_betting": True}, "only a void happens in_betting"),
        (
            {"kind": "void", "by": "S", "reason": "r", "in_betting": True, "after_records": 3},
            "a void in_betting happens before the deal: it takes no timing",
        ),
        ({"kind": "cut", "cut_at": 5, "after_records": 3}, "cut happens before the deal"),
    ],
)
def test_scenario_event_timing_is_refused_where_it_cannot_apply(
    event: dict[str, Any], named: str
) -> None:
    with pytest.raises(InvalidInput, match=named):
        run_scenario(_tcp(events=[event]))


def test_641a_8_f_stub_check_not_required_with_a_stub_count_is_refused() -> None:
    scenario = _tcp(stub_check="not_required", events=[{"kind": "stub_count", "count": 46}])
    with pytest.raises(InvalidInput, match="stub_check 'not_required' disagrees"):
        run_scenario(scenario)
