"""Minibaccarat and Midibaccarat, with EZ Baccarat, Dragon 7 Insurance and the Dragon Bonus
(58 Pa. Code Chapters 627a and 629a; temporary Chapters 541 and 543 as amended, seed 002).

===========  ========  ==================================  ===========  =========================
phase        who acts  legal actions                       next phase   sections
===========  ========  ==================================  ===========  =========================
betting      players   place banker / player / tie /       dealing      § 541.8(a)-(c),
                       dragon_7 (EZ) / dragon_bonus_*;                  § 541.2(c)(6)-(7)
                       verbal wager with cash; dealer:
                       no more bets
dealing      chance    four cards: 1 and 3 to the Player,  (third       § 627a.8(c)(1)-(2)
                       2 and 4 to the Banker, face up or   cards)
                       down per the Rules Submission
dealing      chance    a third card to the Player, then    reveal       § 541.10-541.11 (rules
                       to the Banker, as the rules say                  of § 631a.11, Table 1)
reveal       dealer    announce the counts ("Tie Hand",    settlement   § 541.12(a), (b)
                       "Dragon 7"); collect every losing   or over
                       wager
settlement   dealer    seat 7→1: mark or collect the vig,  over         § 541.12(b), (c),
                       pay the winning wagers; the cards                § 541.13(c)-(i)
                       go to the discard rack in order
                       (Midi: the discard bucket)
===========  ========  ==================================  ===========  =========================

Games: ``mini-baccarat`` (Chapter 541/627a) and ``midi-baccarat`` (Chapter 543/629a); EZ
Baccarat is the Rules Submission option ``table.ez = true`` of either.  ``ez-baccarat`` is its own
small class, Minibaccarat with ``ez`` forced on: an alias of the registry names a slug only and
cannot carry an option, so ``croupier play ez-baccarat`` would otherwise deal plain Minibaccarat.

Between rounds: :class:`VigLedger` holds deferred vigorish by seat (§ 541.13(g)) and
:class:`BaccaratShoe` opens an eight-deck shoe (shuffle, cut card, burn), runs rounds from it
until the cut card's last round, and collects the markers before the reshuffle.
:func:`check_facility` checks the same vigorish at every table of a facility (§ 541.13(i)).

Seats.  Chapter 543 (Midibaccarat) as amended names no number of betting positions; the engine's
positions 1-7 (:data:`croupier.games.round.SEATS`) are used for both games.  Irregularities
(§ 541.14 / § 627a.13) are not in the texts at hand: the shared handling of the engine applies
(a card found face up in the shoe is discarded, two void the round), with no section cited.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from croupier.core.cards import Card
from croupier.core.errors import IllegalAction, InvalidInput, RulesViolation
from croupier.core.frozen import frozen_dict
from croupier.core.modes import PlayMode
from croupier.core.money import verify_amount, vigorish
from croupier.games._made import checked_record
from croupier.games.baccarat.deal import FIRST_FOUR, THIRD_CARD, first_four, next_card_to
from croupier.games.baccarat.facility import (
    CUT_CARD,
    BaccaratShoe,
    ShoeStage,
    open_shoe,
    stage_after,
)
from croupier.games.baccarat.markers import (
    CollectReason,
    MarkerCollected,
    MarkerTransferred,
    VigLedger,
)
from croupier.games.baccarat.paytables import (
    BANKER,
    DRAGON_7,
    DRAGON_BONUS,
    EVEN_MONEY,
    PLAYER,
    TIE,
    WAGERS,
    CardsPickedUp,
    Coup,
    CutCardOut,
    HandTurned,
    ResultAnnounced,
    ShoeOpened,
    VerbalWager,
    VerbalWagerPlaced,
    VigCollected,
    VigMarked,
    WagerPay,
    effective_vig,
    sections,
    vig_problems,
    wager_pay,
    wager_settlement,
)
from croupier.games.base import BASE_TABLE_OPTIONS, DealStep, Game, Round
from croupier.games.paytables import PayTable
from croupier.games.records import (
    IrregularityKind,
    PlaceWager,
    Record,
    ReportIrregularity,
    Result,
    Reveal,
    Settle,
)
from croupier.games.round import Phase, StubCheck
from croupier.games.settlement import Settlement
from croupier.games.table_regs import DeckRules
from croupier.hands.baccarat import (
    point_count,
)
from croupier.rules.progressive import MeterBank
from croupier.rules.submission import (
    CardSource,
    DealMethod,
    Problem,
    RulesSubmission,
    VigRules,
    load_rules,
)
from croupier.table.shoe import Shoe

__all__ = [
    "BANKER",
    "CUT_CARD",
    "DRAGON_7",
    "DRAGON_BONUS",
    "EVEN_MONEY",
    "GAME_CLASSES",
    "PLAYER",
    "TIE",
    "BaccaratGame",
    "BaccaratRound",
    "BaccaratShoe",
    "CardsPickedUp",
    "CollectReason",
    "Coup",
    "CutCardOut",
    "EZBaccarat",
    "HandTurned",
    "MarkerCollected",
    "MarkerTransferred",
    "MidiBaccarat",
    "MidiBaccaratRound",
    "MiniBaccarat",
    "MiniBaccaratRound",
    "ResultAnnounced",
    "ShoeOpened",
    "ShoeStage",
    "VerbalWager",
    "VerbalWagerPlaced",
    "VigCollected",
    "VigLedger",
    "VigMarked",
    "WagerPay",
    "check_facility",
    "next_card_to",
    "open_shoe",
    "stage_after",
    "wager_pay",
    "wager_settlement",
]

SHOE_DECKS = (6, 8)
"""Decks allowed in the shoe: casino practice (six or eight); § 541.3 / § 627a.3 is not at hand."""


# --------------------------------------------------------------------------------------------
# The round


_VIG_OWED: dict[tuple[int, int, int], tuple[int, str]] = {}
_VIG_OWED_KEPT = 4096
_COUP_PAYS_KEPT = 4096


def _vig_owed(stake: int, rate: Fraction) -> tuple[int, str]:
    """``vigorish(stake, rate)`` (rounded up to 5 cents, § 541.13(f)) and the rate as text,
    worked out once for each stake and rate."""
    if type(rate) is not Fraction:
        return vigorish(stake, rate), str(rate)
    key = (stake, rate.numerator, rate.denominator)
    known = _VIG_OWED.get(key)
    if known is None:
        known = (vigorish(stake, rate), str(rate))
        if len(_VIG_OWED) < _VIG_OWED_KEPT:
            _VIG_OWED[key] = known
    return known


class BaccaratRound(Round):
    """One round (coup) of Minibaccarat or Midibaccarat."""

    game: BaccaratGame
    sections: ClassVar[Mapping[str, str]] = sections("541", "627a")

    def __init__(
        self,
        game: Game,
        *,
        shoe: Shoe,
        meters: MeterBank | None = None,
        players: Mapping[int, str] | None = None,
        stub_check: StubCheck = StubCheck.NOT_REQUIRED,
        mode: PlayMode = PlayMode.SIMULATION,
    ) -> None:
        super().__init__(
            game, shoe=shoe, meters=meters, players=players, stub_check=stub_check, mode=mode
        )
        self.__dict__.update(_closed=set(), _coup_of=None)  # private: no guard
        self._closed: set[tuple[int, str]]
        """Wagers settled so far, as (seat, wager)."""
        self._coup_of: tuple[tuple[Card, ...], tuple[Card, ...], Coup] | None
        """The last :attr:`coup` with the hands it was counted on."""

    # -- wagers ----------------------------------------------------------------------------

    def _verify_place_wager(self, action: PlaceWager) -> None:
        if action.wager == "dragon_7" and not self.game.ez:
            raise IllegalAction(
                f"Dragon 7 Insurance Wager at seat {action.seat} refused: it is offered only at a "
                "table designated for play as an EZ Baccarat table",
                section=self.sections["dragon_7"],
            )
        if action.wager.startswith("dragon_bonus") and self.game.dragon_bonus_letter is None:
            raise IllegalAction(
                f"{action.wager} wager at seat {action.seat} refused: this table's Rules "
                "Submission does not offer the Dragon Bonus Wager",
                section=self.sections["layout_dragon_bonus"],
            )
        super()._verify_place_wager(action)

    def _verify_wager(self, seat: int, wager: str, amount: int) -> None:
        placed = self._stakes.of(seat)
        if wager.startswith("dragon_bonus") and not ({"banker", "player", "tie"} & set(placed)):
            # § 631b.9(a) (the Baccarat chapter's margin wager: placed by a player who has a
            # Baccarat wager); § 541.8(a)(4) is elided in the seed.
            raise IllegalAction(
                f"{wager} wager at seat {seat} refused: it follows a Banker, Player or Tie wager "
                f"at that seat (wagers placed: {', '.join(placed) or 'none'})",
                section="§ 631b.9(a)",
            )

    def _verify_verbal_wager(self, action: VerbalWager) -> None:
        self._verify_place_wager(action.as_place_wager())
        cash = verify_amount(action.cash, what="cash with the verbal wager")
        if cash < action.amount:
            raise IllegalAction(
                f"verbal {action.wager} wager of {action.amount} cents at seat {action.seat} "
                f"refused: the {cash} cents of cash with it do not cover it",
                section=self.sections["verbal"],
            )
        if not isinstance(action.confirmed_by, str) or not action.confirmed_by.strip():
            raise IllegalAction(
                f"verbal {action.wager} wager at seat {action.seat} refused: it must be confirmed "
                f"by the dealer calling the game (confirmed_by={action.confirmed_by!r})",
                section=self.sections["verbal"],
            )

    def _do_verbal_wager(self, action: VerbalWager) -> list[Record]:
        # § 541.8(b): accepted once confirmed; the cash is converted into chips at once.
        self._stakes.place(action.seat, action.wager, action.amount)
        return [
            VerbalWagerPlaced(
                seat=action.seat,
                wager=action.wager,
                amount=action.amount,
                cash=action.cash,
                confirmed_by=action.confirmed_by,
            )
        ]

    def house_wagers(self, seat: int, unit: int = 500) -> list[PlaceWager]:
        """A house player bets the Banker's Hand."""
        return [PlaceWager(seat=seat, wager="banker", amount=unit)]

    # -- dealing ---------------------------------------------------------------------------

    def _deal_plan(self) -> Sequence[DealStep]:
        up = self.game.rules.table.face_up
        return FIRST_FOUR[up] if type(up) is bool else first_four(up)  # § 627a.8(c)

    def _dealing_done(self) -> list[Record]:
        player, banker = self._hands.get(PLAYER, ()), self._hands.get(BANKER, ())
        turned = self._turn_first_four(player, banker)
        # The third cards depend on the cards: queue the next one, if any, and keep dealing.
        due = next_card_to(player, banker)
        if due is not None:
            self._deal.plan((THIRD_CARD[due],))
            return turned
        return turned + super()._dealing_done()

    def _turn_first_four(self, player: Sequence[Card], banker: Sequence[Card]) -> list[Record]:
        """The first four cards dealt face down are turned before any third card: the Player's
        Hand is called, then the Banker's cards come from under the shoe's corner face up."""
        # § 627a.8(c)(2); Midibaccarat's § 629a.8(c)(2), whose text is not at hand, is taken as
        # the same option (§ 629b.1(d) refers to cards positioned under its (c)(1) and (2)).
        # A face-up deal has nothing to turn.
        if self.game.rules.table.face_up or len(player) != 2 or len(banker) != 2:
            return []
        section = self.sections["initial_face_down"]
        return [
            HandTurned(hand=hand, cards=tuple(cards), count=point_count(cards), section=section)
            for hand, cards in ((PLAYER, player), (BANKER, banker))
        ]

    def _verify_irregularity(self, action: ReportIrregularity) -> None:
        if action.kind is IrregularityKind.DEALER_CARD_EXPOSED:
            raise IllegalAction("baccarat has no dealer's hand to expose")
        super()._verify_irregularity(action)

    # -- the result ------------------------------------------------------------------------

    @property
    def player_hand(self) -> tuple[Card, ...]:
        return tuple(self._hands.get(PLAYER, ()))

    @property
    def banker_hand(self) -> tuple[Card, ...]:
        return tuple(self._hands.get(BANKER, ()))

    @property
    def coup(self) -> Coup:
        """The coup's totals, what every wager is settled on."""
        return self._counted()[2]

    def _counted(self) -> tuple[tuple[Card, ...], tuple[Card, ...], Coup]:
        """The Player's and Banker's Hands and their :attr:`coup` (counted once a hand)."""
        player, banker = self.player_hand, self.banker_hand
        known = self._coup_of
        if known is None or known[0] != player or known[1] != banker:
            known = self._coup_of = (player, banker, Coup.of_hands(player, banker))
        return known

    @property
    def dragon_7(self) -> bool:
        """A Dragon 7 on an EZ Baccarat table (§ 541.1; only EZ tables treat it specially)."""
        return self.game.ez and self.coup.dragon_7

    def hands_report(self) -> dict[str, Any]:
        """The Player's and Banker's Hands as announced (§ 541.12(a), § 543.12(a)): each hand's
        cards in the order dealt and its final Point Count, and the result."""
        report: dict[str, Any] = {
            name: {"cards": [str(c) for c in cards], "total": point_count(cards)}
            for name, cards in ((PLAYER, self.player_hand), (BANKER, self.banker_hand))
            if cards
        }
        if self.is_over and self.player_hand and self._phase is not Phase.VOID:
            report["winner"] = self.winner()
            if self.game.ez:
                report["dragon_7"] = self.dragon_7
        return report

    def winner(self) -> str:
        return self.coup.winner

    def pay(self, wager: str) -> WagerPay:
        """How ``wager`` settles on this coup (:func:`~.paytables.wager_pay`)."""
        return self._pay_on(self.coup, wager)

    def _pays_on(self, coup: Coup) -> dict[str, WagerPay]:
        """:meth:`pay`'s answers so far on ``coup`` (the round's coup now): the game's."""
        return self.game.pays_of(coup)

    def _pay_on(self, coup: Coup, wager: str) -> WagerPay:
        pays = self._pays_on(coup)
        found = pays.get(wager)
        if found is None:
            found = pays[wager] = self.game.wager_pay(wager, coup)
        return found

    def outcome(self, seat: int, wager: str) -> tuple[Result, int, str]:
        """How ``wager`` at ``seat`` ends: its result, the winnings paid, and the line."""
        pay = self.pay(wager)
        return pay.result, pay.winnings(self._wagers[seat][wager]), pay.line

    # -- reveal and settlement -------------------------------------------------------------

    def _reveal(self) -> list[Record]:
        player, banker, coup = self._counted()
        p, b = coup.player, coup.banker  # the hands' Point Counts
        win = coup.winner
        dragon_7 = self.game.ez and coup.dragon_7  # as :attr:`dragon_7`
        if dragon_7:
            words = "Dragon 7"
        elif win == "tie":
            words = self.game.tie_announcement
        else:
            words = f"{win.capitalize()} wins, {max(p, b)} over {min(p, b)}"
        announced = {
            "player": player,
            "banker": banker,
            "player_count": p,
            "banker_count": b,
            "winner": win,
            "announcement": words,
            "dragon_7": dragon_7,
            "section": self.sections["announce"],
        }
        new: list[Record] = [checked_record(ResultAnnounced, announced)]
        # § 541.12(b): every losing wager is collected first.
        pays, wager_pay = self._pays_on(coup), self.game.wager_pay
        for seat in reversed(self._stakes.in_action):
            for wager in self._wagers[seat]:
                pay = pays.get(wager)  # the result and line of :meth:`outcome`
                if pay is None:
                    pay = pays[wager] = wager_pay(wager, coup)
                if pay.result is Result.LOSE:
                    new.append(self.settle(seat, wager, Result.LOSE, line=pay.line))
                    self._closed.add((seat, wager))
        return new

    def _open_wagers(self, seat: int) -> list[str]:
        return [w for w in self._wagers[seat] if (seat, w) not in self._closed]

    def _settlement_order(self) -> list[int]:
        # § 541.12(b): from the highest-numbered position with a winning (or returned) wager.
        settled, closed, stakes = self._settled, self._closed, self._wagers
        order = []
        for s in reversed(self._stakes.in_action):
            if s not in settled:
                for w in stakes[s]:
                    if (s, w) not in closed:  # an open wager (:meth:`_open_wagers`)
                        order.append(s)
                        break
        return order

    def _settle_seat(self, seat: int) -> list[Record]:
        new: list[Record] = []
        stakes = self._wagers[seat]
        vig = self.game.vig
        coup = self.coup
        pays = {w: self._pay_on(coup, w) for w in self._open_wagers(seat)}
        banker = pays.get(BANKER)
        if banker is not None and banker.vig:
            stake = stakes[BANKER]
            owed, rate = _vig_owed(stake, banker.vig)
            if banker.result is not Result.WIN:
                # § 541.8(a)(1)(iii)(B), § 541.13(h): 25% of the Banker wager on a tie,
                # collected at the end of the round.
                tie = self.sections["tie_vig"]
                vig_tie = {"seat": seat, "amount": owed, "basis": stake, "rate": rate}
                new.append(checked_record(VigCollected, {**vig_tie, "how": "tie", "section": tie}))
            elif vig.collect == "deferred":
                # § 541.13(c), (f), (g): mark or collect the vigorish, then pay.
                marked = self.sections["vig_deferred"]
                new.append(
                    VigMarked(seat=seat, amount=owed, basis=stake, rate=rate, section=marked)
                )
            else:
                won = self.sections["vig"]
                levied = {"seat": seat, "amount": owed, "basis": stake, "rate": rate}
                new.append(
                    checked_record(VigCollected, {**levied, "how": "commission", "section": won})
                )
        for wager, pay in pays.items():  # each as :meth:`outcome`
            paid = pay.winnings(stakes[wager])
            new.append(self.settle(seat, wager, pay.result, paid=paid, line=pay.line))
            self._closed.add((seat, wager))
        return new

    def _do_reveal(self, action: Reveal) -> list[Record]:
        return self._with_pick_up(super()._do_reveal(action))

    def _do_settle(self, action: Settle) -> list[Record]:
        return self._with_pick_up(super()._do_settle(action))

    def _with_pick_up(self, new: list[Record]) -> list[Record]:
        if self._phase is Phase.OVER:
            # § 541.12(c): to the discard rack in order (the hands can be rebuilt);
            # § 543.12(c): Midibaccarat's go into the discard bucket.
            picked = {
                "player": self.player_hand,
                "banker": self.banker_hand,
                "to": self.game.discard,
                "in_order": self.game.discard == "discard_rack",
                "section": self.sections["pick_up"],
            }
            new.append(checked_record(CardsPickedUp, picked))
        return new

    def books(self) -> Settlement:
        """The shared settlement, with each seat's vigorish (collected or marked) taken off its
        net: the player owes a marked vigorish from this round on."""
        out = super().books()
        for rec in self._records:
            if isinstance(rec, VigCollected):
                out = out.charged(rec.seat, collected=rec.amount)
            elif isinstance(rec, VigMarked):
                out = out.charged(rec.seat, marked=rec.amount)
        return out


class MiniBaccaratRound(BaccaratRound):
    sections: ClassVar[Mapping[str, str]] = sections("541", "627a")


class MidiBaccaratRound(BaccaratRound):
    sections: ClassVar[Mapping[str, str]] = sections("543", "629a")


# --------------------------------------------------------------------------------------------
# The games


class BaccaratGame(Game):
    """What Minibaccarat and Midibaccarat share; the subclasses set the chapter knobs."""

    temp_chapter: ClassVar[str] = "541"
    tie_announcement: ClassVar[str] = "Tie Hand"
    discard: ClassVar[str] = "discard_rack"
    forced_ez: ClassVar[bool] = False
    wagers = WAGERS
    wager_names: ClassVar[Mapping[str, str]] = frozen_dict(
        {
            "dragon_bonus_banker": "Dragon Bonus (Banker)",
            "dragon_bonus_player": "Dragon Bonus (Player)",
        }
    )
    paytables: ClassVar[Mapping[str, Mapping[str, PayTable]]] = frozen_dict(
        {"tie": TIE, **DRAGON_BONUS}
    )
    default_paytables: ClassVar[dict[str, str]] = {"tie": "A"}
    deal_methods = frozenset({DealMethod.MANUAL_SHOE, DealMethod.AUTOMATED_SHOE})
    deck_count = 8
    shoe_cut_card = CUT_CARD
    deck_rules = DeckRules(
        counts=frozenset({1, *SHOE_DECKS}),  # 1: the default, read as eight (shoe_decks)
        counts_problem="the shoe holds six or eight decks (casino practice; the deck count "
        "section is not in the texts at hand)",
        counts_section=None,
        two_decks=None,
    )
    takes_vig = True
    table_options = BASE_TABLE_OPTIONS | {"ez", "face_up"}
    # The outcomes the Tie and Dragon Bonus tables (and the fixed ones on the sign) pay.
    extra_hands = frozenset(
        {"banker_wins", "player_wins", "tie", "natural_win", "natural_tie", "dragon_7"}
        | {f"win_by_{points}" for points in range(4, 10)}
    )
    round_class: ClassVar[type[Round]] = MiniBaccaratRound

    def __init__(self, rules: RulesSubmission | Mapping[str, Any] | None = None) -> None:
        if self.forced_ez:
            if rules is None:
                rules = RulesSubmission(game=self.slug)
            elif not isinstance(rules, RulesSubmission):
                rules = load_rules({"game": self.slug, **rules})
            rules = replace(rules, table=replace(rules.table, ez=True))
        super().__init__(rules)

    # -- what the rules chose --------------------------------------------------------------

    @property
    def ez(self) -> bool:
        return self.rules.table.ez

    @cached_property
    def vig(self) -> VigRules:
        """The vigorish in force: none on EZ tables; 5% at payout where the rules name none."""
        return effective_vig(self.rules)

    def wager_pay(self, wager: str, coup: Coup) -> WagerPay:
        """How ``wager`` settles on ``coup`` here (kept once per game: ``base._MEMOIZED``)."""
        return wager_pay(self, wager, coup)

    @cached_property
    def _coup_pays(self) -> dict[int, tuple[Coup, dict[str, WagerPay]]]:
        return {}

    def pays_of(self, coup: Coup) -> dict[str, WagerPay]:
        """The :meth:`wager_pay` answers known on ``coup``, by wager, for the caller to add to
        (pure functions of the rules and the coup: kept with the game, by the coup's identity,
        with the coup; equal coups are one object, :meth:`Coup.of_hands`)."""
        known = self._coup_pays.get(id(coup))
        if known is None or known[0] is not coup:
            if len(self._coup_pays) >= _COUP_PAYS_KEPT:
                return {}  # enough kept: answers on a fresh dict, as the memo gives them
            known = self._coup_pays[id(coup)] = (coup, {})
        return known[1]

    @property
    def shoe_decks(self) -> int:
        """Decks in the shoe: ``table.decks`` when 6 or 8, else (the default 1) eight."""
        return self.rules.table.decks if self.rules.table.decks in SHOE_DECKS else self.deck_count

    @cached_property
    def dragon_bonus_letter(self) -> str | None:
        named = [
            self.rules.paytables[w]
            for w in ("dragon_bonus_banker", "dragon_bonus_player")
            if w in self.rules.paytables
        ]
        return named[0] if named else None

    def paytable(self, wager: str) -> PayTable | None:
        if wager.startswith("dragon_bonus"):
            letter = self.dragon_bonus_letter
            return DRAGON_BONUS[wager][letter] if letter is not None else None
        return super().paytable(wager)

    def offered_wagers(self) -> tuple[str, ...]:
        offered = ["banker", "player", "tie"]
        if self.ez:
            offered.append("dragon_7")  # § 541.8(a)(5)
        if self.dragon_bonus_letter is not None:
            offered += ["dragon_bonus_banker", "dragon_bonus_player"]  # § 541.2(c)(6)
        return tuple(offered)

    # -- the Rules Submission ---------------------------------------------------------------

    @classmethod
    def check_table(cls, rules: RulesSubmission) -> list[Problem]:
        problems: list[Problem] = []
        table = rules.table
        problems += vig_problems(rules, cls.temp_chapter, ez=table.ez or cls.forced_ez)
        letters = {
            rules.paytables[w]
            for w in ("dragon_bonus_banker", "dragon_bonus_player")
            if w in rules.paytables
        }
        if len(letters) > 1:
            problems.append(
                (
                    f"the Dragon Bonus is paid by one pay table, not {sorted(letters)}",
                    "§ 631b.9(f)",
                )
            )
        if rules.payout_limit is not None:
            problems.append(("the texts at hand set no baccarat payout limit to apply", None))
        deferred = rules.vig is not None and rules.vig.collect == "deferred"
        if table.cards is not CardSource.SHUFFLE and deferred:
            # croupier keeps the marker buttons with its own shoe (collected at the shoe's end
            # or when the player leaves); a shoe of real cards ends at the felt, so a table of
            # real cards takes the commission at payout (§ 541.13(f)) rather than mark it
            problems.append(
                (
                    f"a table of real cards (cards = {table.cards.value!r}) collects the "
                    'commission at payout: vig collect = "deferred" needs croupier\'s own shoe',
                    f"§ {cls.temp_chapter}.13(g)",
                )
            )
        return problems

    # -- the sign ----------------------------------------------------------------------------

    def fixed_tables(self) -> tuple[PayTable, ...]:
        base = EVEN_MONEY[self.temp_chapter]  # § 541.13(c), § 543.13(c)
        return (base, DRAGON_7) if self.ez else (base,)

    def sign(self) -> str:
        s = f"§ {self.temp_chapter}"
        lines = [super().sign()]
        vig = self.vig
        if self.ez:
            lines.append(
                f"EZ Baccarat: no vigorish; a Banker wager that results in a Dragon 7 ties and is "
                f"returned ({s}.2(c)(7)(ii), {s}.8(a)(1)(iv))"
            )
        elif vig.type == "tie":
            lines.append(
                f"Vigorish: 25% of every Banker wager when the hands tie, rounded up to 5 cents "
                f"({s}.13(f), (h))"
            )
        else:
            pct = vig.rate * 100
            when = "later (marked)" if vig.collect == "deferred" else "at payout"
            lines.append(
                f"Vigorish: {pct.numerator}% of a winning Banker wager, rounded up to 5 cents, "
                f"collected {when} ({s}.13(c), (f), (g))"
            )
        lines.append(f"Shoe: {self.shoe_decks} decks")
        return "\n".join(lines)


class MiniBaccarat(BaccaratGame):
    """Minibaccarat (Chapter 541; permanent Chapter 627a)."""

    slug = "mini-baccarat"
    title = "Minibaccarat"
    display_name = "Mini-Baccarat"
    chapter = "58 Pa. Code Ch. 627a (temporary Ch. 541)"
    aliases: ClassVar[tuple[str, ...]] = ("minibaccarat",)
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "mini-baccarat",
        "paytables": {"tie": "A", "dragon_bonus_banker": "A", "dragon_bonus_player": "A"},
        "vig": {"type": "commission", "rate": "0.05", "collect": "deferred"},
        "table": {"decks": 8, "face_up": False, "adjacent_boxes": 2},
    }


class EZBaccarat(MiniBaccarat):
    """EZ Baccarat: Minibaccarat with ``table.ez`` on (no vigorish, Dragon 7 Insurance)."""

    slug = "ez-baccarat"
    title = "EZ Baccarat (Minibaccarat)"
    display_name = "EZ Baccarat"
    aliases: ClassVar[tuple[str, ...]] = ()  # not Minibaccarat's: an alias names one game
    forced_ez = True
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "ez-baccarat",
        "paytables": {"dragon_bonus_banker": "E", "dragon_bonus_player": "E"},
        "table": {"decks": 8, "ez": True},
    }


class MidiBaccarat(BaccaratGame):
    """Midibaccarat (Chapter 543; permanent Chapter 629a)."""

    slug = "midi-baccarat"
    title = "Midibaccarat"
    display_name = "Midi-Baccarat"
    chapter = "58 Pa. Code Ch. 629a (temporary Ch. 543)"
    aliases = ("midibaccarat",)
    temp_chapter = "543"
    tie_announcement = "tie hand"  # § 543.12(a) writes it in lower case
    discard = "discard_bucket"
    round_class = MidiBaccaratRound
    example_rules: ClassVar[dict[str, Any]] = {
        "game": "midi-baccarat",
        "paytables": {"tie": "B", "dragon_bonus_banker": "C", "dragon_bonus_player": "C"},
        "vig": {"type": "tie", "rate": "0.25", "collect": "at_payout"},
        "table": {"decks": 6},
    }


# --------------------------------------------------------------------------------------------
# Between rounds: the facility (the shoe over many rounds: games/baccarat/facility.py)


def check_facility(submissions: Iterable[RulesSubmission | Mapping[str, Any]]) -> None:
    """Refuse a facility whose tables of one game charge different vigorish (§ 541.13(i),
    § 543.13(i)): the same type and percentage at every Minibaccarat (Midibaccarat) table.

    EZ Baccarat tables collect no vigorish by definition (§ 541.13(c)) and are left out of the
    comparison.  Every problem is reported at once.
    """
    groups: dict[str, list[tuple[int, str, str, Fraction]]] = {}
    for index, raw in enumerate(submissions, start=1):
        rules = raw if isinstance(raw, RulesSubmission) else load_rules(raw)
        cls = _BY_NAME.get(rules.game)
        if cls is None:
            raise InvalidInput(f"table {index}: game {rules.game!r} is not a baccarat game")
        if rules.table.ez or cls.forced_ez:
            continue
        vig = effective_vig(rules)
        groups.setdefault(cls.temp_chapter, []).append((index, rules.game, vig.type, vig.rate))
    problems: list[Problem] = []
    for chapter, tables in groups.items():
        first = tables[0]
        for index, game, kind, rate in tables[1:]:
            if (kind, rate) != first[2:]:
                problems.append(
                    (
                        f"table {index} ({game}) charges {kind} vigorish at {rate}, table "
                        f"{first[0]} {first[2]} at {first[3]}: every table of the game in the "
                        "facility charges the same type and percentage",
                        f"§ {chapter}.13(i)",
                    )
                )
    if problems:
        raise RulesViolation.of(problems, "across the facility", section=problems[0][1])


GAME_CLASSES = (MiniBaccarat, MidiBaccarat, EZBaccarat)
_BY_NAME: dict[str, type[BaccaratGame]] = {
    name: cls for cls in GAME_CLASSES for name in (cls.slug, *cls.aliases)
}
