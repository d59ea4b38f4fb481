"""The one protocol every game implements: an immutable :class:`Game` and its :class:`Round`.

A ``Game`` is the game plus a validated Rules Submission.  ``game.new_round(...)`` returns a
``Round``: a state machine walked by actions.  Every round exposes the same surface:

==================  ==========================================================================
``phase``           where the round stands (:class:`Phase`)
``to_act``          who acts next: a seat, the dealer, chance, or nobody (:class:`Actor`)
``legal_actions()`` every action allowed now (amounts for wagers are the caller's)
``verify(a)``       raise the typed error that refuses ``a``; ``can(a)`` is its boolean
``apply(a)``        verify, then change the round; returns the frozen records of the change
``run_dealer()``    apply chance and dealer steps until a player must act or the round is over
``settlement()``    per seat: each wager's stake, result and payout, Envy Bonuses, the net
``records``         the hand history; :meth:`Round.rebuild` replays it into an equal round
==================  ==========================================================================

Each legality rule is written once, in a ``_verify_<action>`` method; ``can`` and ``apply``
reuse it, so a refused action never changes anything.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar

from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation, shown_value
from croupier.core.frozen import deep_freeze
from croupier.core.modes import PlayMode
from croupier.core.money import format_cents
from croupier.games import limits as limit_rules
from croupier.games.paytables import (
    CUSTOM,
    UNVERIFIED_MARK,
    CustomShape,
    EnvySchedule,
    PayTable,
    custom_tables,
    hand_names,
    verify_hand_names,
)
from croupier.games.round import (
    SEATS,
    Actor,
    ActorKind,
    DealStep,
    Phase,
    Round,
    StubCheck,
)
from croupier.games.table_regs import DeckRules, TableRegs, deck_problems
from croupier.hands import Ranking
from croupier.rules.progressive import MeterBank, MeterSpec
from croupier.rules.submission import (
    BaseWagers,
    CardSource,
    DealMethod,
    Problem,
    ProgressiveWagers,
    RulesSubmission,
    load_rules,
)
from croupier.table.shoe import Shoe

__all__ = [
    "SEATS",
    "Actor",
    "ActorKind",
    "DealStep",
    "EnvyRule",
    "Game",
    "Phase",
    "ProgressiveOffer",
    "Round",
    "StubCheck",
    "verify_game",
]


class EnvyRule(Enum):
    """How a chapter ties its Envy Bonus to the progressive wager."""

    NONE = "none"
    """The chapter has no Envy Bonus."""
    FIXED = "fixed"
    """One schedule, in force whenever the progressive is offered (named or not)."""
    SELECTED = "selected"
    """The certificate holder selects a schedule in the Rules Submission: required."""


BASE_TABLE_OPTIONS = frozenset({"deal", "shuffle", "decks", "adjacent_boxes", "training"})


def _frozen_rules(rules: RulesSubmission) -> RulesSubmission:
    """The Rules Submission with its mappings deeply immutable (its dataclasses are frozen)."""
    return replace(
        rules,
        paytables=deep_freeze(rules.paytables),
        limits=deep_freeze(rules.limits),
        extra=deep_freeze(rules.extra),
        raw=deep_freeze(rules.raw),
    )


_FROZEN_KNOBS = (
    "paytables",
    "default_paytables",
    "progressive_paytables",
    "envy_schedules",
    "progressive_min_reset",
)


@dataclass(frozen=True, kw_only=True, slots=True)
class ProgressiveOffer:
    """A progressive wager a table offers: its pay table, its amount (cents) and the meter each
    meter-share line pays (the analysis of progressive economics reads it)."""

    wager: str
    table: PayTable
    stake: int
    line_meters: Mapping[str, MeterSpec]


_MEMOIZED = (
    "offered_wagers",
    "paytable",
    "progressive_amount",
    "progressive",
    "meter_specs",
    "progressive_meter",
    "wager_pay",
)
"""Lookups that are pure functions of a game's (deeply immutable) rules and their arguments:
each answer is computed once per game and kept (every wager placed and settled asks them)."""


def _memoized(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def once(self: Game, *args: Any) -> Any:
        memo = self.__dict__.get("_memo")
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        key = (method, args)
        try:
            return memo[key]
        except KeyError:
            found = memo[key] = method(self, *args)
            return found
        except TypeError:  # an argument that cannot be a key: no lookup's name is unhashable
            shown = ", ".join(shown_value(a) for a in args)
            raise InvalidInput(
                f"{self.slug} {method.__name__}({shown}): not a name of this game"
            ) from None

    once.__wrapped_once__ = True  # type: ignore[attr-defined]
    return once


def _memoize_lookups(cls: type) -> None:
    """Keep the answers of :data:`_MEMOIZED` methods ``cls`` defines itself (see there)."""
    for name in _MEMOIZED:
        method = cls.__dict__.get(name)
        if callable(method) and not getattr(method, "__wrapped_once__", False):
            setattr(cls, name, _memoized(method))


def spoken_words(key: str) -> str:
    """A wager's or hand's key in words, each capitalised, a number apart from its word:
    ``bet1`` is "Bet 1", ``three_card_bonus`` "Three Card Bonus"."""
    spaced = re.sub(r"(?<=[a-z])(?=\d)", " ", key).replace("_", " ").replace("-", " ")
    words = spaced.split()
    return " ".join(
        w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)
    )


_SMALL_WORDS = frozenset({"and", "or", "of", "to", "the"})
"""Words a name keeps in lower case past its first ("Banker and Player")."""


class Game:
    """A game under a validated Rules Submission.  Subclasses set the class-level knobs.

    A Game is deeply immutable: its Rules Submission's mappings are frozen, its attributes are
    written once (in ``__init__``) and never rebound, and the class-level tables are read-only
    mappings (frozen when the subclass is made)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in _FROZEN_KNOBS:
            value = cls.__dict__.get(name)
            if isinstance(value, dict):
                frozen = {
                    k: MappingProxyType(dict(v)) if isinstance(v, dict) else v
                    for k, v in value.items()
                }
                setattr(cls, name, MappingProxyType(frozen))
        _memoize_lookups(cls)
        cls.hand_names = hand_names(*cls.hand_rankings, extra=cls.extra_hands)
        tables = cls.declared_tables()
        if tables and not cls.hand_names:
            raise TypeError(f"{cls.__name__} has pay tables but no hand_rankings or extra_hands")
        verify_hand_names(tables, cls.hand_names, cls.__name__)

    @classmethod
    def declared_tables(cls) -> tuple[PayTable | EnvySchedule | CustomShape, ...]:
        """Every table the class declares (lettered, progressive, Envy, fixed, custom shapes):
        those whose hands are checked against :attr:`hand_names` when the class is made."""
        return (
            *(t for tables in cls.paytables.values() for t in tables.values()),
            *cls.progressive_paytables.values(),
            *cls.envy_schedules.values(),
            *cls.fixed_paytables,
            *cls.custom_shapes.values(),
        )

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__dict__:
            raise AttributeError(f"{type(self).__name__}.{name} is immutable")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__}.{name} is immutable")

    slug: ClassVar[str] = ""
    title: ClassVar[str] = ""
    display_name: ClassVar[str] = ""
    """The game as people at the table say it, in the chapter's words ("Ultimate Texas Hold
    'Em", "EZ Baccarat"): what every page shows; "" where it is the :attr:`title`."""
    wager_names: ClassVar[Mapping[str, str]] = {}
    """Wagers whose name in the chapter's words is not their key's words capitalised
    (``dragon_bonus_banker``: "Dragon Bonus (Banker)"); see :meth:`spoken_names`."""
    chapter: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    wagers: ClassVar[tuple[str, ...]] = ()
    paytables: ClassVar[Mapping[str, Mapping[str, PayTable]]] = {}
    """Optional-table wagers: wager -> letter -> table."""
    default_paytables: ClassVar[Mapping[str, str]] = {}
    progressive_paytables: ClassVar[Mapping[str, PayTable]] = {}
    envy_schedules: ClassVar[Mapping[str, EnvySchedule]] = {}
    progressive_wager_amounts: ClassVar[tuple[frozenset[int], str]] = (frozenset(), "")
    progressive_min_reset: ClassVar[Mapping[str, tuple[int, str]]] = {}
    deal_methods: ClassVar[frozenset[DealMethod]] = frozenset(DealMethod)
    deck_count: ClassVar[int] = 1
    shoe_cut_card: ClassVar[int | None] = None
    """Where a table deals one shoe round after round until its cut card comes out: the cards
    under the cut card (baccarat); ``None``: each round deals from a fresh shuffle."""
    table_regs: ClassVar[TableRegs | None] = None
    """The chapter's table-level rules (deck life, stub counts, shuffle and cut, seats) that a
    :class:`~croupier.table.table.Table` follows (:mod:`croupier.games.table_regs`)."""
    deck_rules: ClassVar[DeckRules | None] = None
    """What the Rules Submission's decks, shuffle and dealing method must be; by default those
    of :attr:`table_regs` (:func:`~croupier.games.table_regs.deck_problems`)."""
    decision_wagers: ClassVar[frozenset[str]] = frozenset()
    """Wagers made by a decision after the cards (e.g. the Play), never placed before them."""
    required_wagers: ClassVar[tuple[str, ...]] = ()
    """The wagers a player must make to be dealt in (the par sheet's ``base``); the first is the
    initial wager the base is quoted per unit of.  Empty: any wager deals the player in
    (baccarat)."""
    envy_rule: ClassVar[EnvyRule] = EnvyRule.NONE
    envy_section: ClassVar[str] = ""
    """The section that ties the Envy Bonus to the progressive (see :class:`EnvyRule`)."""
    takes_vig: ClassVar[bool] = False
    """Whether the chapter defines a vigorish (``[vig]``): baccarat only."""
    table_options: ClassVar[frozenset[str]] = BASE_TABLE_OPTIONS
    """The ``[table]`` keys the chapter defines (``ez`` and ``face_up`` are baccarat's)."""
    paytables_section: ClassVar[str] = ""
    """Where the chapter lists its pay tables."""
    hand_rankings: ClassVar[tuple[Ranking, ...]] = ()
    """The rankings whose category names the game's pay tables use."""
    extra_hands: ClassVar[frozenset[str]] = frozenset()
    """The game's own hand keys its tables pay (``four_aces``, baccarat's ``banker_wins``)."""
    hand_names: ClassVar[frozenset[str]] = frozenset()
    """Every hand name the game's tables may use, derived from :attr:`hand_rankings` and
    :attr:`extra_hands` when the class is made (:func:`~croupier.games.paytables.hand_names`);
    a table naming another hand fails at import."""
    fixed_paytables: ClassVar[tuple[PayTable, ...]] = ()
    """Tables with no letter to choose that the class knows (checked with the others)."""
    custom_shapes: ClassVar[Mapping[str, CustomShape]] = {}
    """The wagers whose pay table a Rules Submission may define itself (``[custom_paytables]``)
    and the shape each must have; empty where the chapter allows only its lettered tables."""
    limits_section: ClassVar[str] = ""
    """Where the chapter words the posted minimum and maximum wagers ("" where the texts at hand
    do not: table limits are then the casino's posted practice)."""
    decision_section: ClassVar[str] = ""
    """Where the chapter sets the decision wagers (:attr:`decision_wagers`) as multiples of the
    Ante: never posted, bounded by the Ante's limits (:mod:`croupier.games.limits`)."""
    equal_wagers: ClassVar[tuple[tuple[tuple[str, ...], str], ...]] = ()
    """Wagers the chapter makes equal at a seat, each group with its section: the others'
    posted limits must hold the first one's (:mod:`croupier.games.limits`)."""
    round_class: ClassVar[type[Round]]
    example_rules: ClassVar[Mapping[str, Any]] = {}
    """A full Rules Submission (every option on) used by the docs and the conformance test."""

    @classmethod
    def spoken_name(cls) -> str:
        """The game's name as people say it (:attr:`display_name`, else the title)."""
        return cls.display_name or cls.title

    @classmethod
    def spoken_names(cls) -> dict[str, str]:
        """Every wager's and hand category's key and its name in words, the one source the
        pages name them from: a wager as the chapter names it ("Bet 1", "Pair Plus", or its
        :attr:`wager_names` entry), a hand in lower-case words ("royal flush")."""
        names = {hand: spoken_words(hand).lower() for hand in sorted(cls.hand_names)}
        for wager in cls.wagers:
            names[wager] = cls.wager_names.get(wager) or spoken_words(wager)
        return names

    def __init__(self, rules: RulesSubmission | Mapping[str, Any] | None = None) -> None:
        if rules is None:
            rules = RulesSubmission(game=self.slug)
        elif not isinstance(rules, RulesSubmission):
            rules = load_rules({"game": self.slug, **rules})
        problems = self.check(rules)
        if problems:
            raise RulesViolation.of(problems, f"in the {self.slug} Rules Submission")
        self.rules = _frozen_rules(rules)

    # -- Rules Submission ------------------------------------------------------------------

    @classmethod
    def check(cls, rules: RulesSubmission) -> list[Problem]:
        """Every problem with ``rules`` for this game, each with its section."""
        problems: list[Problem] = list(rules.problems)
        if rules.game not in (cls.slug, *cls.aliases):
            problems.append((f"game {rules.game!r} is not {cls.slug!r}", None))
        problems += cls.check_chapter_options(rules)
        problems += cls.check_limits(rules)
        problems += cls.check_paytables(rules)
        prog = rules.progressive
        if prog is not None:
            problems += cls._check_progressive(rules)
        if rules.table.deal not in cls.deal_methods:
            problems.append((f"deal {rules.table.deal.value!r} is not allowed in {cls.slug}", None))
        problems += cls.check_decks(rules)
        problems += cls.check_table(rules)
        if cls.custom_shapes:
            problems += cls.check_custom(rules)
            problems += [
                (f'{wager} = "{CUSTOM}" needs a [custom_paytables.{wager}] table', None)
                for wager, letter in rules.paytables.items()
                if letter == CUSTOM and wager not in cls.custom_defined(rules)
            ]
        if not problems:  # what the table offers is known once the rest is valid
            problems += cls.check_offered_limits(rules)
        return [cls.cited(p) for p in problems]

    @classmethod
    def cited(cls, problem: Problem) -> Problem:
        """``problem`` as refused: with its section, or else naming the game's chapter (a
        problem of shape or one the chapter's texts at hand give no section for).  Every
        refusal of a Rules Submission says where its rule comes from (issue 35)."""
        message, section = problem
        if section or "§" in message or "Ch." in message:
            return problem
        return (message, cls.chapter)

    @classmethod
    def check_paytables(cls, rules: RulesSubmission) -> list[Problem]:
        """``[paytables]``: each wager's letter one of the chapter's (a wager the submission
        defines itself, or names ``"custom"``, is checked by :meth:`check_custom`)."""
        problems: list[Problem] = []
        for wager, letter in rules.paytables.items():
            if cls.custom_shapes and (letter == CUSTOM or wager in cls.custom_defined(rules)):
                continue
            tables = cls.paytables.get(wager)
            if tables is None:
                problems.append(cls._no_choice(wager, letter))
            elif letter not in tables:
                section = next(iter(tables.values())).section
                letters = ", ".join(sorted(tables))
                problems.append((f"{wager} pay table {letter!r} is not one of {letters}", section))
        return problems

    @classmethod
    def _no_choice(cls, wager: str, letter: str) -> Problem:
        """``[paytables] wager = letter`` for a wager without lettered tables: a wager of the
        game paid by its one table (that table's section), or no wager of the game at all."""
        given = f"[paytables] {wager} = {shown_value(letter)}"
        if wager not in cls.wagers:
            return (
                f"{given}: {cls.title} has no {shown_value(wager)} wager (its wagers: "
                f"{', '.join(cls.wagers)}); [paytables] chooses among the chapter's tables",
                cls.paytables_section or cls.chapter,
            )
        fixed = next((t for t in cls.fixed_paytables if t.wager == wager), None)
        section = fixed.section if fixed is not None else cls.paytables_section or cls.chapter
        return (
            f"{given}: the {wager} wager has no pay table choice in {cls.title}: one table pays it",
            section,
        )

    @staticmethod
    def custom_defined(rules: RulesSubmission) -> frozenset[str]:
        """The wagers ``[custom_paytables]`` defines a table for."""
        raw = rules.extra.get("custom_paytables")
        return frozenset(raw) if isinstance(raw, Mapping) else frozenset()

    @classmethod
    def parse_custom(cls, rules: RulesSubmission) -> tuple[dict[str, PayTable], list[Problem]]:
        """The tables ``[custom_paytables]`` defines, each checked against its wager's shape in
        :attr:`custom_shapes` (:func:`~croupier.games.paytables.custom_tables`), and every
        problem with them."""
        raw = rules.extra.get("custom_paytables")
        return custom_tables(raw, rules.paytables, cls.custom_shapes, cls.title)

    @classmethod
    def check_custom(cls, rules: RulesSubmission) -> list[Problem]:
        """Every problem with ``[custom_paytables]``; games with more than plain tables (Let It
        Ride's progressives) extend it."""
        return cls.parse_custom(rules)[1]

    @classmethod
    def _check_progressive(cls, rules: RulesSubmission) -> list[Problem]:
        prog = rules.progressive
        assert prog is not None
        problems: list[Problem] = []
        if not cls.progressive_paytables:
            return [(f"{cls.where()} defines no progressive wager: [progressive] is refused", None)]
        table = cls.progressive_paytables.get(prog.paytable)
        if table is None:
            letters = ", ".join(sorted(cls.progressive_paytables))
            section = next(iter(cls.progressive_paytables.values())).section
            problems.append(
                (f"progressive pay table {prog.paytable!r} is not one of {letters}", section)
            )
        problems += cls.check_envy(rules)
        amounts, section = cls.progressive_wager_amounts
        if amounts and prog.wager not in amounts:
            allowed = " or ".join(f"{a} cents" for a in sorted(amounts))
            problems.append((f"progressive wager {prog.wager} cents must be {allowed}", section))
        minimum = cls.progressive_min_reset.get(prog.paytable)
        if minimum is not None and prog.reset < minimum[0]:
            problems.append(
                (
                    f"progressive reset {prog.reset} cents is below {minimum[0]} cents for "
                    f"pay table {prog.paytable}",
                    minimum[1],
                )
            )
        if not 0 < prog.rate <= 1:
            problems.append((f"rate of progression {prog.rate} is outside (0, 1]", None))
        return problems

    @classmethod
    def check_decks(cls, rules: RulesSubmission) -> list[Problem]:
        """The decks, shuffle and dealing method against :attr:`deck_rules` (or those of the
        chapter's :attr:`table_regs`): the one deck check."""
        deck = cls.deck_rules or (cls.table_regs.deck_rules if cls.table_regs else None)
        problems = deck_problems(rules.table, deck) if deck is not None else []
        return problems + cls.check_felt(rules) + cls.check_chip_reading(rules)

    @classmethod
    def check_chip_reading(cls, rules: RulesSubmission) -> list[Problem]:
        """A chip-reading layout (``base_wagers = "chip_reading"``, issue 39) reports each
        wager's amount through the table's sensor device, and croupier settles those wagers:
        it needs the sensors and cards croupier sees (not ``felt``)."""
        if rules.table.base_wagers is not BaseWagers.CHIP_READING:
            return []
        problems: list[Problem] = []
        if rules.table.progressive_wagers is not ProgressiveWagers.SENSORS:
            problems.append(
                ('[table] base_wagers = "chip_reading" needs progressive_wagers = "sensors"', None)
            )
        if rules.table.cards is CardSource.FELT:
            problems.append(
                (
                    '[table] base_wagers = "chip_reading" with cards = "felt": croupier would '
                    "hold wagers whose cards it never sees (a reader, the keypad or a shuffle)",
                    None,
                )
            )
        return problems

    @classmethod
    def check_felt(cls, rules: RulesSubmission) -> list[Problem]:
        """A table whose cards croupier does not see (``cards = "felt"``, issue 39) knows its
        progressive wagers from sensors and settles them on hands the dealer declares: it
        needs the sensors, a progressive, and a game that takes a declared hand."""
        if rules.table.cards is not CardSource.FELT:
            return []
        problems: list[Problem] = []
        if rules.table.progressive_wagers is not ProgressiveWagers.SENSORS:
            problems.append(('[table] cards = "felt" needs progressive_wagers = "sensors"', None))
        if rules.progressive is None:
            problems.append(('[table] cards = "felt" needs a [progressive] to settle', None))
        if not cls.round_class.declared_cards:
            problems.append((f'{cls.where()} takes no declared hand: cards = "felt" refused', None))
        return problems

    @classmethod
    def check_table(cls, rules: RulesSubmission) -> list[Problem]:
        """Game-specific table checks; subclasses extend."""
        return []

    @classmethod
    def where(cls) -> str:
        """The game and its chapter, for messages: ``Four Card Poker (58 Pa. Code Ch. 641a)``."""
        return f"{cls.title} ({cls.chapter})"

    @classmethod
    def check_chapter_options(cls, rules: RulesSubmission) -> list[Problem]:
        """Refuse every option the chapter does not define, even written at its default."""
        problems: list[Problem] = []
        if rules.names("vig") and not cls.takes_vig:
            problems.append((f"{cls.where()} defines no vigorish: [vig] is refused", None))
        for option in ("ez", "face_up"):
            if rules.names(f"table.{option}") and option not in cls.table_options:
                problems.append(
                    (
                        f"{cls.where()} defines no table option {option!r} (a baccarat option): "
                        f"[table] {option} is refused",
                        None,
                    )
                )
        if rules.names("custom_paytables") and not cls.custom_shapes:
            problems.append(
                (
                    f"{cls.where()} allows only its own lettered pay tables: "
                    "[custom_paytables] is refused",
                    cls.paytables_section or None,
                )
            )
        return problems

    @classmethod
    def check_envy(cls, rules: RulesSubmission) -> list[Problem]:
        """The Envy Bonus that comes with the progressive (see :attr:`envy_rule`)."""
        prog = rules.progressive
        if prog is None:
            return []
        letters = ", ".join(sorted(cls.envy_schedules))
        section = cls.envy_section or None
        if cls.envy_rule is EnvyRule.NONE:
            if prog.envy is None:
                return []
            return [(f"{cls.where()} defines no Envy Bonus: progressive envy is refused", None)]
        if prog.envy is None:
            if cls.envy_rule is EnvyRule.SELECTED:
                msg = (
                    f"the progressive comes with an Envy Bonus: select its schedule "
                    f"(progressive envy = one of {letters})"
                )
                return [(msg, section)]
            return []
        if prog.envy not in cls.envy_schedules:
            return [(f"Envy Bonus schedule {prog.envy!r} is not one of {letters}", section)]
        return []

    @classmethod
    def check_limits(cls, rules: RulesSubmission) -> list[Problem]:
        """``[limits]``: a posted minimum and maximum for wagers placed before the cards
        (:mod:`croupier.games.limits`)."""
        return limit_rules.class_problems(cls, rules)

    @classmethod
    def check_offered_limits(cls, rules: RulesSubmission) -> list[Problem]:
        """``[limits]`` against the wagers the (otherwise valid) ``rules`` offer."""
        if not rules.limits:
            return []
        probe = cls.__new__(cls)  # unchecked: the rules' other problems are none
        object.__setattr__(probe, "rules", rules)
        return limit_rules.offered_problems(probe)

    # -- what the rules chose --------------------------------------------------------------

    @property
    def shoe_decks(self) -> int:
        """Decks in the shoe a round is dealt from (:attr:`deck_count`; baccarat reads its
        Rules Submission)."""
        return self.deck_count

    def paytable(self, wager: str) -> PayTable | None:
        tables = self.paytables.get(wager)
        if not tables:
            return None
        letter = self.rules.paytables.get(wager, self.default_paytables.get(wager))
        return tables.get(letter) if letter else None

    @property
    def progressive_table(self) -> PayTable | None:
        prog = self.rules.progressive
        return self.progressive_paytables.get(prog.paytable) if prog else None

    @property
    def envy_schedule(self) -> EnvySchedule | None:
        prog = self.rules.progressive
        if prog is None:
            return None
        if prog.envy is None and self.envy_rule is EnvyRule.FIXED and len(self.envy_schedules):
            # The chapter's one schedule is in force with the progressive, named or not.
            return next(iter(self.envy_schedules.values()))
        return self.envy_schedules.get(prog.envy) if prog.envy else None

    # -- table limits ----------------------------------------------------------------------

    def wager_bounds(self, wager: str) -> tuple[int, int]:
        """The amounts of ``wager`` this table's posted limits allow, both ends included (1 cent
        to :data:`~croupier.core.money.MAX_WAGER` where none is posted): what
        :meth:`verify_limit` holds a wager to."""
        return limit_rules.bounds(self.rules.limits.get(wager))

    def verify_limit(self, seat: int, wager: str, amount: int) -> None:
        """Refuse a wager outside this table's posted minimum and maximum (``[limits]``)."""
        if wager not in self.rules.limits:
            return
        low, high = self.wager_bounds(wager)
        side = "below the table minimum" if amount < low else "above the table maximum"
        if amount < low or amount > high:
            raise IllegalAction(
                f"{wager} wager of {amount} cents at seat {seat} is {side} of "
                f"{low if amount < low else high} cents (posted: {low} to {high} cents)",
                section=self.limits_section or None,
            )

    def fixed_wager(self, wager: str) -> tuple[int, str] | None:
        """The amount the Rules Submission fixes for ``wager`` (a progressive wager) and the
        section that fixes it, or ``None`` (any amount within the limits)."""
        prog = self.rules.progressive
        if wager == "progressive" and prog is not None:
            return prog.wager, self.progressive_wager_amounts[1]
        return None

    def posted_limits(self) -> dict[str, dict[str, int]]:
        """Each wager placed before the cards with its posted ``min`` and ``max`` (cents)."""
        return limit_rules.posted_limits(self)

    def limit_lines(self) -> list[str]:
        """The table limits as posted on the sign."""
        rows: list[str] = []
        for wager, limit in self.rules.limits.items():
            low = format_cents(limit.min) if limit.min is not None else "no minimum"
            high = format_cents(limit.max) if limit.max is not None else "no maximum"
            name = self.spoken_names().get(wager) or spoken_words(wager)
            rows.append(f"  {name}: {low} to {high}")
        return ["Table limits per wager:", *rows] if rows else []

    @functools.cached_property
    def meter_spec(self) -> MeterSpec | None:
        """:meth:`progressive_meter`, kept (every round asks it)."""
        return self.progressive_meter()

    def progressive_meter(self) -> MeterSpec | None:
        """The ``progressive`` wager's meter under the rules (:attr:`meter_spec`), or ``None``."""
        prog = self.rules.progressive
        if prog is None:
            return None
        return MeterSpec(
            name=prog.meter,
            reset=prog.reset,
            rate=prog.rate,
            wager=prog.wager,
            paytable=prog.paytable,
        )

    def progressive_offers(self) -> tuple[ProgressiveOffer, ...]:
        """Each progressive wager offered: the ``progressive`` wager paying from
        :attr:`meter_spec` here; games with several meters or progressives override it."""
        prog, table, spec = self.rules.progressive, self.progressive_table, self.meter_spec
        if prog is None or table is None or spec is None:
            return ()
        meters = {ln.hand: spec for ln in table.lines if ln.meter_share is not None}
        return (
            ProgressiveOffer(
                wager="progressive", table=table, stake=prog.wager, line_meters=meters
            ),
        )

    def offered_wagers(self) -> tuple[str, ...]:
        """The wagers this table takes (the progressive only where the rules offer it)."""
        return tuple(w for w in self.wagers if w != "progressive" or self.rules.progressive)

    @functools.cached_property
    def offered_set(self) -> frozenset[str]:
        """:meth:`offered_wagers` as a set (every wager placed is looked up in it)."""
        return frozenset(self.offered_wagers())

    def sign(self) -> str:
        """The posted pay-table sign for this table."""
        lines = [f"{self.title} ({self.chapter})"]
        for wager in self.wagers:
            table = self.paytable(wager)
            if table is not None:
                lines += table.render(self.sign_name(table))
        for table in self.fixed_tables():
            lines += table.render(self.sign_name(table))
        if self.progressive_table is not None and self.rules.progressive is not None:
            prog = self.rules.progressive
            lines += self.progressive_table.render(self.sign_name(self.progressive_table))
            lines.append(
                f"  Progressive wager {format_cents(prog.wager)}; the meter resets to "
                f"{format_cents(prog.reset)}"
            )
            if self.envy_schedule is not None:
                lines += self.envy_schedule.render()
        if self.rules.payout_limit is not None:
            lines.append(f"Payout limit per hand: {format_cents(self.rules.payout_limit)}")
        lines += self.limit_lines()
        return "\n".join(lines)

    def sign_name(self, table: PayTable) -> str:
        """The name a pay table is signed under: its wager as people say it (issue 40: no key
        on a page; the compliance sign reads the same)."""
        return self.spoken_names().get(table.wager) or spoken_words(table.wager)

    def posted_sign(self) -> str:
        """The sign as posted at the table, for players and the dealer: :meth:`sign` without
        the compliance marks (:data:`~croupier.games.paytables.UNVERIFIED_MARK`), which stay on
        the compliance sign (``croupier rules sign``, the par sheets)."""
        return self.sign().replace(UNVERIFIED_MARK, "")

    def fixed_tables(self) -> tuple[PayTable, ...]:
        """Tables that have no letter to choose (e.g. the Ante Bonus); shown on the sign."""
        return ()

    # -- rounds ----------------------------------------------------------------------------

    def new_round(
        self,
        *,
        shoe: Shoe,
        meters: MeterBank | None = None,
        players: Mapping[int, str] | None = None,
        stub_check: StubCheck = StubCheck.NOT_REQUIRED,
        mode: PlayMode = PlayMode.SIMULATION,
    ) -> Round:
        """A round at this table.  ``players`` maps seat -> player (default: seats 1-7, one
        player each); ``meters`` defaults to fresh in-memory meters at their reset."""
        return self.round_class(
            self, shoe=shoe, meters=meters, players=players, stub_check=stub_check, mode=mode
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r})"


_memoize_lookups(Game)


def verify_game(game: object) -> Game:
    """``game`` if it is a :class:`Game` (a game object, as :func:`~croupier.games.get_game`
    makes one), else :class:`InvalidInput` naming what was given."""
    if not isinstance(game, Game):
        raise InvalidInput(
            f"game {shown_value(game)} is not a Game; make one with get_game(slug or rules)"
        )
    return game
