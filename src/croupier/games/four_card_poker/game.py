"""Four Card Poker (58 Pa. Code Chapter 641a; temporary Chapter 557 as amended, seed 002).

===========  ===========  ===============================  ============  ========================
phase        who acts     legal actions                    next phase    sections
===========  ===========  ===============================  ============  ========================
betting      players      place ante / aces_up /           dealing       § 641a.7(b)-(e),
                          progressive; dealer: no more                   § 557.7(a)(4)
                          bets
dealing      chance       deal (5 to each player, 6 to     stub_count    § 641a.8(d), § 641a.9(b),
                          the dealer, the 6th face up)     or decisions  § 641a.10(b)
stub_count   dealer       count the stub                   decisions     § 641a.8(f)-(h)
decisions    each Ante    play any whole-cent amount from  reveal        § 641a.7(d)(1),
             seat, 1→7    1x to 3x the Ante, or fold                     § 641a.11(b)
reveal       dealer       collect forfeits, reveal the     settlement    § 641a.11(c)
                          dealer's best four of six
settlement   dealer       settle seat 7→1, each            over          § 641a.11(c)(1)-(5),
                          completely                                     § 641a.12
===========  ===========  ===============================  ============  ========================

Irregularities (§ 641a.13) may be reported while dealing; a void returns every wager.

A folded hand follows § 641a.11(c): its forfeited wagers and cards go to the discard rack before
the reveal, so it qualifies nobody for an Envy Bonus unless an Aces Up wager keeps it in play.
(The temporary § 557.11(d) left a folded hand with a progressive wager on the table; the
permanent chapter collects it.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

from croupier.core.cards import Card, Rank
from croupier.core.errors import IllegalAction
from croupier.core.frozen import frozen_dict
from croupier.games._made import dealer_revealed, folded, wager_settled
from croupier.games.amounts import AmountRange, PlayRule
from croupier.games.base import DealStep, EnvyRule, Game, Round
from croupier.games.four_card_poker.regs import FOUR_CARD_POKER_REGS
from croupier.games.paytables import EnvySchedule, PayLine, PayTable, for_, to
from croupier.games.records import (
    DEALER,
    Action,
    Fold,
    Play,
    Record,
    Result,
)
from croupier.games.states import known_plan
from croupier.hands import Category, HandRank, Ranking
from croupier.rules.submission import DealMethod, Problem, RulesSubmission

__all__ = [
    "ACES_UP",
    "ANTE_BONUS",
    "ENVY",
    "GAME_CLASSES",
    "PROGRESSIVE",
    "BaseNet",
    "FourCardPoker",
    "FourCardPokerRound",
    "aces_up_line",
    "ante_bonus_line",
    "base_net",
    "hand_keys",
    "showdown",
]

_AB = "§ 641a.12(b)"
_AU = "§ 641a.12(c)"
_PR = "§ 641a.12(d)(1)"
_EN = "§ 641a.12(d)(5)"

# § 641a.12(c): Aces Up pay tables A-F, "to 1", the highest line only.
ACES_UP: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="aces_up",
            letter="A",
            section=_AU,
            lines=(
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(30)),
                PayLine(hand="three_of_a_kind", odds=to(9)),
                PayLine(hand="flush", odds=to(6)),
                PayLine(hand="straight", odds=to(4)),
                PayLine(hand="two_pair", odds=to(2)),
                PayLine(hand="pair_of_aces", odds=to(1)),
            ),
        ),
        "B": PayTable(
            wager="aces_up",
            letter="B",
            section=_AU,
            lines=(
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(30)),
                PayLine(hand="three_of_a_kind", odds=to(7)),
                PayLine(hand="flush", odds=to(6)),
                PayLine(hand="straight", odds=to(5)),
                PayLine(hand="two_pair", odds=to(2)),
                PayLine(hand="pair_of_aces", odds=to(1)),
            ),
        ),
        "C": PayTable(
            wager="aces_up",
            letter="C",
            section=_AU,
            lines=(
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(8)),
                PayLine(hand="flush", odds=to(5)),
                PayLine(hand="straight", odds=to(4)),
                PayLine(hand="two_pair", odds=to(3)),
                PayLine(hand="pair_of_aces", odds=to(1)),
            ),
        ),
        "D": PayTable(
            wager="aces_up",
            letter="D",
            section=_AU,
            lines=(
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(8)),
                PayLine(hand="flush", odds=to(6)),
                PayLine(hand="straight", odds=to(4)),
                PayLine(hand="two_pair", odds=to(2)),
                PayLine(hand="pair_of_aces", odds=to(1)),
            ),
        ),
        "E": PayTable(
            wager="aces_up",
            letter="E",
            section=_AU,
            lines=(
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(30)),
                PayLine(hand="three_of_a_kind", odds=to(8)),
                PayLine(hand="flush", odds=to(6)),
                PayLine(hand="straight", odds=to(4)),
                PayLine(hand="two_pair", odds=to(2)),
                PayLine(hand="pair_of_aces", odds=to(1)),
            ),
        ),
        "F": PayTable(
            wager="aces_up",
            letter="F",
            section=_AU,
            lines=(
                PayLine(hand="four_of_a_kind", odds=to(50)),
                PayLine(hand="straight_flush", odds=to(40)),
                PayLine(hand="three_of_a_kind", odds=to(7)),
                PayLine(hand="flush", odds=to(5)),
                PayLine(hand="straight", odds=to(4)),
                PayLine(hand="two_pair", odds=to(3)),
                PayLine(hand="pair_of_aces", odds=to(1)),
            ),
        ),
    }
)

# § 641a.12(b): the Ante Bonus, paid on any played hand whatever the dealer holds.
ANTE_BONUS = PayTable(
    wager="ante_bonus",
    letter="-",
    section=_AB,
    lines=(
        PayLine(hand="four_of_a_kind", odds=to(25)),
        PayLine(hand="straight_flush", odds=to(20)),
        PayLine(hand="three_of_a_kind", odds=to(2)),
    ),
)

# § 641a.12(d)(1): progressive pay tables A and B ("for 1": the collected wager is included).
PROGRESSIVE: Mapping[str, PayTable] = MappingProxyType(
    {
        "A": PayTable(
            wager="progressive",
            letter="A",
            section=_PR,
            lines=(
                PayLine(hand="four_aces", meter_share=Fraction(1)),
                PayLine(hand="four_of_a_kind", odds=for_(300)),
                PayLine(hand="straight_flush", odds=for_(100)),
                PayLine(hand="three_of_a_kind", odds=for_(9)),
            ),
        ),
        "B": PayTable(
            wager="progressive",
            letter="B",
            section=_PR,
            lines=(
                PayLine(hand="four_aces", meter_share=Fraction(1)),
                PayLine(hand="four_of_a_kind", odds=for_(300)),
                PayLine(hand="straight_flush", odds=for_(100)),
                PayLine(hand="three_of_a_kind", odds=for_(15)),
            ),
        ),
    }
)

# § 641a.12(d)(5): Envy Bonus schedules by the receiving player's own wager ($1 or $5).
ENVY: Mapping[str, EnvySchedule] = MappingProxyType(
    {
        "A": EnvySchedule(
            letter="A",
            section=_EN,
            by_wager=MappingProxyType(
                {
                    100: (
                        PayLine(hand="four_aces", amount=10_000),
                        PayLine(hand="four_of_a_kind", amount=1_000),
                        PayLine(hand="straight_flush", amount=500),
                    ),
                    500: (
                        PayLine(hand="four_aces", amount=50_000),
                        PayLine(hand="four_of_a_kind", amount=5_000),
                        PayLine(hand="straight_flush", amount=2_500),
                    ),
                }
            ),
        ),
        "B": EnvySchedule(
            letter="B",
            section=_EN,
            by_wager=MappingProxyType(
                {
                    100: (
                        PayLine(hand="four_aces", amount=10_000),
                        PayLine(hand="four_of_a_kind", amount=2_500),
                    ),
                    500: (
                        PayLine(hand="four_aces", amount=50_000),
                        PayLine(hand="four_of_a_kind", amount=12_500),
                    ),
                }
            ),
        ),
    }
)


PLAY_RULE = AmountRange(label="Play wager", section="§ 641a.7(d)(1)", low=1, high=3)
"""§ 641a.7(d)(1), § 641a.11(b) (§ 557.7(a)(1), § 557.11(c)): "an amount from one to three
times" the Ante: any whole number of cents from the Ante to three times it, not only 1x-3x."""


def hand_keys(rank: HandRank) -> frozenset[str]:
    """The pay-table names a Four Card Poker hand satisfies: its category, plus ``four_aces``
    and ``pair_of_aces`` (the Aces Up minimum, § 557.1)."""
    keys = {rank.category._value_}  # .value, without the enum property call
    if rank.category is Category.FOUR_OF_A_KIND and rank.top_rank == Rank.ACE:
        keys.add("four_aces")
    if rank.category is Category.PAIR and rank.top_rank == Rank.ACE:
        keys.add("pair_of_aces")
    return frozenset(keys)


# -- the base game's settlement, as pure functions over hand ranks and the decision ----------


def showdown(player: HandRank, dealer: HandRank) -> Result:
    """§ 641a.11(c)(3): the higher best four wins the Ante and the Play; a tie goes to the
    player.  There is no dealer qualification."""
    return Result.WIN if player.value >= dealer.value else Result.LOSE


@dataclass(frozen=True, slots=True)
class BaseNet:
    """What the Ante, the Play and the Ante Bonus of one hand net, in the Ante's units (cents,
    or any unit: :func:`base_net` is exact whenever the Ante Bonus odds divide the Ante)."""

    result: Result
    """The Ante's and the Play's result: ``WIN``/``LOSE`` (§ 641a.11(c)(3)), ``FORFEIT`` on a
    fold (§ 641a.11(b))."""
    ante: int
    """The Ante's net: won 1 to 1 (§ 641a.12(a)), or lost."""
    play: int
    """The Play's net: won 1 to 1 (§ 641a.12(a)), lost, or 0 when folded."""
    bonus: int
    """The Ante Bonus won on a played hand, whatever the dealer holds (§ 641a.12(b))."""
    bonus_line: str | None
    """The Ante Bonus line paid, or ``None``."""

    @property
    def total(self) -> int:
        return self.ante + self.play + self.bonus


def ante_bonus_line(player: HandRank, table: PayTable = ANTE_BONUS) -> PayLine | None:
    """§ 641a.12(b): the Ante Bonus line a played hand earns (``None``: no bonus)."""
    line = table.line_for(hand_keys(player))
    return line if line is not None and line.odds is not None else None


def aces_up_line(player: HandRank, table: PayTable) -> PayLine | None:
    """§ 641a.12(c), § 641a.11(c)(4): the Aces Up line the player's best four earns under
    ``table``, whatever the dealer holds and even after a fold (``None``: the wager loses)."""
    line = table.line_for(hand_keys(player))
    return line if line is not None and line.odds is not None else None


def base_net(
    player: HandRank, dealer: HandRank, ante: int, play: int, table: PayTable = ANTE_BONUS
) -> BaseNet:
    """The net of the Ante, the Play and the Ante Bonus of the player's best four against the
    dealer's, for the decision ``play``: the Play wager (from one to three times ``ante``,
    § 641a.7(d)(1)), or 0 for a fold (§ 641a.11(b): the Ante is forfeited, nothing else paid).
    ``table``: the Ante Bonus (default § 641a.12(b))."""
    if play == 0:
        return BaseNet(result=Result.FORFEIT, ante=-ante, play=0, bonus=0, bonus_line=None)
    result = showdown(player, dealer)
    sign = 1 if result is Result.WIN else -1
    line = ante_bonus_line(player, table)
    bonus = line.odds.winnings(ante) if line is not None and line.odds is not None else 0
    return BaseNet(
        result=result,
        ante=sign * ante,
        play=sign * play,
        bonus=bonus,
        bonus_line=None if line is None else line.hand,
    )


def deal_plan(method: DealMethod, active: tuple[int, ...]) -> list[DealStep]:
    """The initial deal to the wagering seats ``active`` (seat 1 first) by ``method``."""
    seats = [str(s) for s in active]
    if method is DealMethod.AUTOMATED_SHOE:
        # § 641a.10(b): a stack of five to each player from the far left, five to the
        # dealer; from the next stack of five the bottom card (taken here as the first card
        # dispensed) is the dealer's up card and the other four are discarded unseen.
        plan = [DealStep(to=s) for s in seats for _ in range(5)]
        plan += [DealStep(to=DEALER) for _ in range(5)]
        plan.append(DealStep(to=DEALER, face_up=True, note="bottom card of the next stack"))
        plan += [DealStep(to="discard", note="rest of the stack") for _ in range(4)]
        return plan
    # § 641a.8(d), § 641a.9(b): one card at a time clockwise from the far left, the dealer
    # last in each pass; the dealer's fifth and sixth cards consecutive, the sixth face up.
    plan = []
    for _ in range(5):
        plan += [DealStep(to=s) for s in seats]
        plan.append(DealStep(to=DEALER))
    plan.append(DealStep(to=DEALER, face_up=True, note="sixth card"))
    return plan


_ANTE_AND_PLAY = frozenset({"ante", "play"})
"""What a folded hand with nothing else in action holds (settled before the reveal)."""


class FourCardPokerRound(Round):
    sections: ClassVar[dict[str, str]] = {
        "seated": "§ 641a.7(b)",
        "no_more_bets": "§ 641a.7(c)",
        "adjacent_boxes": "§ 641a.7(e)",
        "progressive_count": "§ 641a.8(b)",
        "progressive_sensors": "§ 641a.2(c)(1)",
        "progressive_lock_out": "§ 641a.2(c)(2)",
        # a progressive payout: the dealer verifies the hand wins (i), a floorperson verifies
        # the light and validates the payout (ii)-(iii) (hands declared at the felt too)
        "declared_hand": "§ 641a.11(c)(5)(i)",
        "declared_light": "§ 641a.11(c)(5)(ii)",
        "stub_count": "§ 641a.8(f)",
        "decision_order": "§ 641a.11(b)",
        # the dealer reveals once every Ante has a Play or is forfeited (c), then turns and
        # settles each player's hand (c)(1)-(5)
        "reveal_order": "§ 641a.11(c)",
        "settlement_order": "§ 641a.11(c)(1)",
        "card_face_up_in_deck": "§ 641a.13(a)",
        "card_drawn_in_error": "§ 641a.13(b)",
        "wrong_card_count": "§ 641a.13(c)",
        "dealer_card_exposed": "§ 641a.13(d)",
        "automated_shoe_jam": "§ 641a.13(f)",
    }
    game: FourCardPoker
    # § 641a.11(c): every forfeited wager and its cards are collected to the discard rack before
    # the reveal (the Progressive Payout Wager too, § 641a.11(b)(2)); an Aces Up wager is not
    # forfeited (§ 641a.11(b)(1)) and is settled on the hand, which therefore stays.  A hand so
    # collected qualifies nobody for an Envy Bonus (:meth:`Round.hand_held`).
    kept_after_fold = frozenset({"aces_up"})

    # -- wagers ----------------------------------------------------------------------------

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        placed = self._stakes.of(seat)
        if wager == "play":
            raise IllegalAction(
                f"a Play wager at seat {seat} is made after the cards are seen, from one to "
                "three times the Ante",
                section="§ 641a.11(b)",
            )
        if wager == "progressive" and not ({"ante", "aces_up"} & set(placed)):
            raise IllegalAction(
                f"progressive wager at seat {seat} refused: it follows an Ante or Aces Up wager",
                section="§ 641a.7(d)(4)",
            )

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        return known_plan(deal_plan, self.game.rules.table.deal, self._stakes.in_action)

    # -- decisions -------------------------------------------------------------------------

    def next_decider(self) -> int | None:
        stakes, decided = self._wagers, self._decided
        for seat in self._stakes.in_action:
            if "ante" in stakes[seat] and seat not in decided:
                return seat
        return None

    def decision_candidates(self, seat: int) -> Iterable[Action]:
        # Whole multiples stand for the range; any whole cent between is as legal.
        yield from (Play(seat=seat, multiple=m) for m in PLAY_RULE.candidates())
        yield Fold(seat=seat)

    def play_rule(self, seat: int) -> PlayRule:
        return PLAY_RULE

    def _verify_play(self, action: Play) -> None:
        if "ante" not in self._stakes.of(action.seat):
            raise IllegalAction(
                f"Play wager at seat {action.seat} refused: no Ante wager",
                section="§ 641a.11(b)",
            )
        self._verify_decider(action.seat, "Play wager")
        self.verify_play_size(action)

    def _do_play(self, action: Play) -> list[Record]:
        record = self.play_record(action)
        self._stakes.add(action.seat, "play", record.amount)
        self._decisions.decide(action.seat)
        rec: list[Record] = [record]
        return rec + self._after_decision()

    def simple_strategy(self, seat: int) -> Action:
        """Play 3x with a pair of tens or better, 1x with a lower pair, else fold (a simple
        house-player rule, not the optimal strategy)."""
        rank = self.player_rank(seat)
        if rank.category is not Category.HIGH_CARD and (
            rank.category is not Category.PAIR or rank.top_rank >= Rank.TEN
        ):
            return Play(seat=seat, multiple=3)
        if rank.category is Category.PAIR:
            return Play(seat=seat, multiple=1)
        return Fold(seat=seat)

    def _verify_fold(self, action: Fold) -> None:
        if "ante" not in self._stakes.of(action.seat):
            raise IllegalAction(
                f"seat {action.seat} has no Ante wager to forfeit", section="§ 641a.11(b)"
            )
        self._verify_decider(action.seat, "fold")

    def _do_fold(self, action: Fold) -> list[Record]:
        self._decisions.fold(action.seat)
        rec: list[Record] = [folded(action.seat)]
        return rec + self._after_decision()

    # -- reveal and settlement -------------------------------------------------------------

    def player_rank(self, seat: int) -> HandRank:
        return self.rank_of(self._hands[str(seat)], Ranking.FOUR_CARD)

    def dealer_rank(self) -> HandRank:
        return self.rank_of(self._hands[DEALER], Ranking.FOUR_CARD)

    def _reveal(self) -> list[Record]:
        # § 641a.11(b)(1)-(2), (c): forfeited Antes and Progressive wagers are collected before
        # the dealer's cards are revealed; Aces Up and Envy eligibility stay.
        new: list[Record] = []
        for seat in sorted(self._folded):
            for wager in ("ante", "progressive"):
                if wager in self._wagers[seat]:
                    new.append(self.settle(seat, wager, Result.FORFEIT))
        dealer = self.dealer_rank()
        new.append(dealer_revealed(tuple(self._hands[DEALER]), dealer))
        return new

    def _settlement_order(self) -> list[int]:
        # § 641a.11(c): from the dealer's right, counterclockwise; a folded player with only an
        # Ante has nothing left to settle.
        settled, folded = self._settled, self._folded
        return [
            seat
            for seat in reversed(self._stakes.in_action)
            if seat not in settled
            and (seat not in folded or not self._wagers[seat].keys() <= _ANTE_AND_PLAY)
        ]

    def _settle_seat(self, seat: int) -> list[Record]:
        stakes = self._wagers[seat]
        rank = self.player_rank(seat)
        new: list[Record] = []
        if self.hand_held(seat):
            # § 641a.11(c)(1)-(2): the dealer turns the player's five cards face up and selects
            # the best four (a folded hand kept under its Aces Up is settled on them too).
            new.append(self.show_hand(seat, rank))
        if seat not in self._folded and "play" in stakes:
            net = base_net(rank, self.dealer_rank(), stakes["ante"], stakes["play"])
            # § 641a.11(c)(3), § 641a.12(a): Ante and Play 1 to 1, a tie to the player.
            for wager, won in (("ante", net.ante), ("play", net.play)):
                category = rank.category.value
                paid = max(0, won)
                new.append(self.settle(seat, wager, net.result, paid=paid, line=category))
            if net.bonus_line is not None:
                # § 641a.12(b): paid on the Ante whatever the dealer holds.
                new.append(
                    wager_settled(seat, "ante_bonus", 0, Result.WIN, net.bonus, 0, net.bonus_line)
                )
        if "aces_up" in stakes:
            # § 641a.11(c)(4): paid whether or not the hand beats the dealer's, even after a fold.
            table = self.game.paytable("aces_up")
            assert table is not None
            aces_up = aces_up_line(rank, table)
            if aces_up is not None and aces_up.odds is not None:
                paid = aces_up.odds.winnings(stakes["aces_up"])
                new.append(self.settle(seat, "aces_up", Result.WIN, paid=paid, line=aces_up.hand))
            else:
                new.append(self.settle(seat, "aces_up", Result.LOSE))
        if "progressive" in stakes:
            if seat not in self._folded:
                # § 641a.11(c)(5), § 641a.12(d)(2)-(4): the highest hand only, at the meter's
                # amount when it is this player's turn.
                new += self.settle_progressive(seat)
            # § 641a.11(c)(5)(v): an Envy Bonus for each other player's qualifying hand.
            new += self.award_envy(seat, self.game.envy_schedule, self._player_keys)
        return new

    def _player_keys(self, seat: int) -> frozenset[str]:
        return hand_keys(self.player_rank(seat))

    declared_cards: ClassVar[Mapping[str, int]] = frozen_dict({"progressive": 5})
    """A hand declared at a table whose cards croupier does not see: the player's five cards
    (§ 641a.8(d)), ranked by its best four as any hand is (:mod:`croupier.games.declared`)."""

    def _declared_keys(self, cards: tuple[Card, ...], wager: str) -> frozenset[str]:
        # § 641a.12(d)(2): the highest Four Card Poker hand of the five, as _player_keys
        return hand_keys(self.rank_of(cards, Ranking.FOUR_CARD))


class FourCardPoker(Game):
    """Four Card Poker: Ante/Play against the dealer's best four of six, Aces Up, progressive."""

    slug = "four-card-poker"
    required_wagers = ("ante",)
    title = "Four Card Poker"
    chapter = "58 Pa. Code Ch. 641a"
    aliases = ("4cp", "four-card")
    wagers = ("ante", "play", "aces_up", "progressive")
    paytables: ClassVar[Mapping[str, Mapping[str, PayTable]]] = {"aces_up": ACES_UP}
    default_paytables: ClassVar[Mapping[str, str]] = {"aces_up": "A"}
    progressive_paytables: ClassVar[Mapping[str, PayTable]] = PROGRESSIVE
    envy_schedules: ClassVar[Mapping[str, EnvySchedule]] = ENVY
    progressive_wager_amounts = (frozenset({100, 500}), "§ 557.7(a)(4)")
    progressive_min_reset: ClassVar[dict[str, tuple[int, str]]] = {
        "A": (500_000, "§ 641a.12(d)(3)"),
        "B": (100_000, "§ 641a.12(d)(3)"),
    }
    decision_wagers = frozenset({"play"})
    decision_section = "§ 641a.7(d)(1)"  # the Play: one to three times the Ante
    # § 641a.12(d)(5): the certificate holder selects Envy schedule A or B with the progressive.
    envy_rule = EnvyRule.SELECTED
    envy_section = _EN
    paytables_section = "§ 641a.12"
    table_regs = FOUR_CARD_POKER_REGS
    hand_rankings = (Ranking.FOUR_CARD,)
    extra_hands = frozenset({"four_aces", "pair_of_aces"})
    fixed_paytables = (ANTE_BONUS,)
    # § 557.7(a)(1)-(2): the Ante and the Aces Up within the posted minimum and maximum.
    limits_section = "§ 557.7(a)(1)"
    round_class = FourCardPokerRound
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "four-card-poker",
        "paytables": {"aces_up": "B"},
        "progressive": {
            "paytable": "A",
            "envy": "A",
            "wager": 100,
            "reset": 500_000,
            "rate": "0.25",
            "meter": "four-card-poker",
        },
        "table": {"adjacent_boxes": 2},
    }

    @classmethod
    def check_table(cls, rules: RulesSubmission) -> list[Problem]:
        problems: list[Problem] = []
        if rules.payout_limit is not None:
            problems.append(("Four Card Poker has no payout limit to set", None))
        return problems

    def fixed_tables(self) -> tuple[PayTable, ...]:
        return (ANTE_BONUS,)

    @property
    def ante_bonus_table(self) -> PayTable:
        """The Ante Bonus table (§ 641a.12(b): one table, so :data:`ANTE_BONUS` unless a
        pricing variant puts another in force for ``ante_bonus``)."""
        return self.paytable("ante_bonus") or ANTE_BONUS


GAME_CLASSES = (FourCardPoker,)
