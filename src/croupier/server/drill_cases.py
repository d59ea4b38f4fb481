"""Drills from the rulebook's edge cases (issue 40): the package's scenario library
(:data:`croupier.table.scenario.LIBRARY`, each scenario a round written from the regulation's
text and named after the subsection it shows) replayed through the engine; a drill asks what one
seat's wager pays, or its commission, and is graded against the replay with the scenario's
subsection (:mod:`croupier.server.drills` asks and grades it as any other drill, kind
``case``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from croupier.core.money import format_cents
from croupier.games import Game, game_class, get_game
from croupier.games.base import spoken_words
from croupier.games.records import Result
from croupier.rules.compliance import parse_test_name
from croupier.server.drills import RESULTS, DrillKind, Hand, Question, _whose, ruling_for
from croupier.table.scenario import COMMUNITY, LIBRARY, load_scenario, run_scenario

__all__ = ["Case", "case_question"]

COMMISSION_ASKED = "commission"
"""A case's question about the seat's commission (not one of its wagers)."""


@dataclass(frozen=True, slots=True)
class Case:
    """A scenario of the library, replayed: its subsections, its name in words, its rules
    and the engine's report of the round."""

    refs: tuple[str, ...]
    title: str
    rules: Mapping[str, Any]
    report: Mapping[str, Any]

    @property
    def section(self) -> str:
        return ", ".join(f"§ {ref}" for ref in self.refs)


def _case_named(stem: str) -> tuple[tuple[str, ...], str]:
    """A scenario's name read: the subsections it cites and the words after them
    (``541_13_h_tie_vig_...``: 541.13(h), "tie vig ...")."""
    refs = tuple(parse_test_name(stem))
    words = stem.split("_")
    cut = next(
        i for i in range(1, len(words) + 1) if tuple(parse_test_name("_".join(words[:i]))) == refs
    )
    return refs, " ".join(words[cut:])


@cache
def _cases(slug: str) -> tuple[tuple[Case, int, str], ...]:
    """Every question the library's scenarios of ``slug`` hold: (the case, a seat, a wager it
    settled or :data:`COMMISSION_ASKED` where the seat paid a commission), in file order."""
    found: list[tuple[Case, int, str]] = []
    for path in sorted(LIBRARY.glob("*.json")):
        data = load_scenario(path)
        if game_class(str(data.get("game"))).slug != slug:
            continue
        refs, title = _case_named(path.stem)
        case = Case(refs, title, dict(data.get("rules") or {}), run_scenario(data))
        for seat, settled in sorted(case.report["seats"].items(), key=lambda kv: int(kv[0])):
            found += [(case, int(seat), wager) for wager in settled.get("wagers", {})]
            if (settled.get("vig") or {}).get("collected"):
                found.append((case, int(seat), COMMISSION_ASKED))
    return tuple(found)


def case_question(game: Game, seed: int) -> Question | None:
    """A question of one of the game's edge cases (the seed chooses it)."""
    held = _cases(game.slug)
    if not held:
        return None
    case, seat, asked = random.Random(seed).choice(held)
    played = get_game({**case.rules, "game": game.slug})
    names = played.spoken_names()
    settled = case.report["seats"][str(seat)]
    if asked == COMMISSION_ASKED:
        vig = settled["vig"]
        basis = settled["wagers"].get("banker", {}).get("stake", 0)
        prompt = (
            f"{game.spoken_name()}, the rulebook's case: seat {seat}, Banker wager "
            f"{format_cents(basis)}. What commission does the seat pay?"
        )
        expected, ruling = int(vig["collected"]), ""
        explanation = f"commission {format_cents(expected)}"
    else:
        wager = settled["wagers"][asked]
        result = Result(wager["result"])
        said = names.get(asked, spoken_words(asked))
        line = wager.get("line")
        on = f" ({names.get(line, spoken_words(line).lower())})" if line else ""
        prompt = (
            f"{game.spoken_name()}, the rulebook's case: seat {seat}, {said} "
            f"{format_cents(wager['stake'])}{on}. What does it pay?"
        )
        expected = int(wager["paid"])
        back = (
            f"; the {format_cents(wager['returned'])} wager goes back" if wager["returned"] else ""
        )
        ruling = ruling_for(played, played.round_class.sections, asked, result)
        explanation = f"{said} {RESULTS[result]}: pays {format_cents(expected)}{back}"
    if ruling and ruling != case.section:
        explanation += f", as {ruling} rules"
    return Question(
        game=game.slug,
        kind=DrillKind.CASE,
        seed=seed,
        prompt=prompt,
        hands=_case_hands(case.report, seat),
        facts=_case_facts(case, seat, names),
        expected=str(expected),
        section=case.section,
        explanation=explanation,
    )


def _case_hands(report: Mapping[str, Any], seat: int) -> tuple[Hand, ...]:
    """The seat's cards, the dealer's, the board and baccarat's two hands, as replayed."""
    hands = [Hand(f"Seat {seat}", tuple(report.get("hands", {}).get(str(seat), ())))]
    hands.append(Hand(_whose("dealer"), tuple(report.get("dealer", {}).get("cards", ()))))
    hands.append(Hand(_whose(COMMUNITY), tuple(report.get("community", ()))))
    for side in ("player", "banker"):
        hands.append(Hand(_whose(side), tuple((report.get(side) or {}).get("cards", ()))))
    return tuple(h for h in hands if h.cards)


def _case_facts(case: Case, seat: int, names: Mapping[str, str]) -> tuple[str, ...]:
    """The case's subsection and name, its rules, the seat's wagers and what was announced."""
    stakes = ", ".join(
        f"{names.get(w, spoken_words(w))} {format_cents(int(s['stake']))}"
        for w, s in case.report["seats"][str(seat)].get("wagers", {}).items()
    )
    facts = [f"The case: {case.section}, {case.title}", f"Seat {seat} wagered {stakes}"]
    rules = _rules_words(case.rules, names)
    if rules:
        facts.append("The case's rules: " + "; ".join(rules))
    category = case.report.get("dealer", {}).get("category")
    if category:
        facts.append(f"Dealer: {names.get(category, spoken_words(category).lower())}")
    totals = [
        f"{_whose(side)} {case.report[side]['total']}"
        for side in ("player", "banker")
        if isinstance(case.report.get(side), Mapping) and "total" in case.report[side]
    ]
    if totals:
        winner = str(case.report.get("winner"))
        said = "a tie" if winner == "tie" else f"{spoken_words(winner)} wins"
        facts.append(f"{', '.join(totals)}: {said}")
    return tuple(facts)


def _rules_words(rules: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """What of a case's Rules Submission the dealer must know to pay it, in words: the pay
    tables chosen, the progressive's and Envy Bonus's tables, the commission's rate."""
    out = [
        f"{names.get(wager, spoken_words(wager))} pay table {letter}"
        for wager, letter in (rules.get("paytables") or {}).items()
    ]
    progressive = rules.get("progressive") or {}
    for key, said in (("paytable", "Progressive pay table"), ("envy", "Envy Bonus schedule")):
        if progressive.get(key):
            out.append(f"{said} {progressive[key]}")
    vig = rules.get("vig") or {}
    if vig.get("rate"):
        rate = _percent(str(vig["rate"]))
        kind = str(vig.get("type", "commission")).replace("_", " ")
        out.append(f"commission {rate}" if kind == "commission" else f"{kind} commission {rate}")
    return out


def _percent(rate: str) -> str:
    """A rate as written in a Rules Submission (``0.05``) as a percentage ("5%")."""
    value = Fraction(rate) * 100
    return f"{value.numerator}%" if value.denominator == 1 else f"{float(value)}%"
