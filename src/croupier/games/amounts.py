"""Wager sizes against the Ante, in each chapter's own words.

The chapters word a decision wager's size in two different ways, and the difference matters:

* **a range**: Four Card Poker's Play Wager is "an amount from one to three times" the Ante
  (§ 641a.7(d)(1), § 641a.11(b); § 557.7(a)(1), § 557.11(c)): any whole number of cents from the
  Ante to three times the Ante (:class:`AmountRange`);
* **listed multiples**: Mississippi Stud's street wagers are "equal to one, two or three times"
  the Ante (§ 571.11(a), (c), (e); § 655a.1), Ultimate Texas Hold 'Em's river Play is "equal in
  amount to" the Ante (§ 569.11(e)), Three Card Poker's Play equals the Ante: exactly those
  amounts (:class:`Multiples`).

A :class:`~croupier.games.records.Play` names its size either as ``multiple`` (times the Ante) or
as ``amount`` (cents, what the live table's API sends); :func:`play_cents` turns either into
cents and :meth:`PlayRule.verify` checks them against the chapter, so every game refuses a size
the same way, naming the section.  Scenario decisions read both forms
(:func:`parse_play_size`): ``play 3`` / ``play 3x`` (a multiple, up to two decimals:
``play 1.5``), ``play $7.50`` (dollars) and ``play 750c`` (cents).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from croupier.core.errors import IllegalAction, InvalidInput
from croupier.core.money import format_cents
from croupier.games.records import Play

__all__ = ["AmountRange", "Multiples", "PlayRule", "parse_play_size", "play_cents"]


def play_cents(action: Play, ante: int, *, section: str | None = None) -> int:
    """The size of ``action`` in cents against an Ante of ``ante`` cents.

    ``amount`` (cents) or ``multiple`` (times the Ante), not both; neither means the Ante itself.
    A type error is :class:`~croupier.core.errors.InvalidInput` (naming ``section``, the rule the
    size is for); whether the size is allowed is the game's :class:`PlayRule`.
    """
    if action.amount is not None:
        if action.multiple is not None:
            raise InvalidInput(
                f"Play at seat {action.seat} gives both multiple {action.multiple!r} and amount "
                f"{action.amount!r}; give one",
                section=section,
            )
        if isinstance(action.amount, bool) or not isinstance(action.amount, int):
            raise InvalidInput(
                f"Play amount {action.amount!r} at seat {action.seat} is not a whole number of "
                "cents",
                section=section,
            )
        return action.amount
    multiple = 1 if action.multiple is None else action.multiple
    if isinstance(multiple, bool) or not isinstance(multiple, int):
        raise InvalidInput(
            f"Play multiple {multiple!r} at seat {action.seat} is not a whole number; give a "
            "size that is not a whole multiple as an amount in cents",
            section=section,
        )
    return multiple * ante


@dataclass(frozen=True, slots=True)
class PlayRule:
    """How a chapter words the size of one decision wager against the Ante."""

    label: str
    """The wager's name in messages, e.g. "Play wager", "4th Street wager"."""
    section: str

    def allows(self, amount: int, ante: int) -> bool:
        raise NotImplementedError

    def wording(self, ante: int) -> str:
        raise NotImplementedError

    def candidates(self) -> tuple[int, ...]:
        """Whole multiples offered as representative decisions (``legal_actions``)."""
        raise NotImplementedError

    def verify(self, action: Play, ante: int) -> int:
        """The size of ``action`` in cents; raises the error that refuses it, naming the
        section."""
        amount = play_cents(action, ante, section=self.section)
        if not self.allows(amount, ante):
            size = (
                f"{amount} cents"
                if action.amount is not None
                else f"{1 if action.multiple is None else action.multiple} times the Ante "
                f"({amount} cents)"
            )
            raise IllegalAction(
                f"{self.label} of {size} at seat {action.seat} refused: {self.wording(ante)}",
                section=self.section,
            )
        return amount

    def multiple_of(self, amount: int, ante: int) -> int | None:
        """``amount`` as a whole multiple of the Ante, or ``None`` when it is not one."""
        whole, rest = divmod(amount, ante)
        return whole if rest == 0 else None


def _times(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four"}.get(n, str(n))


@dataclass(frozen=True, slots=True)
class AmountRange(PlayRule):
    """ "An amount from ``low`` to ``high`` times" the Ante: any whole number of cents between."""

    low: int = 1
    high: int = 3

    def allows(self, amount: int, ante: int) -> bool:
        return self.low * ante <= amount <= self.high * ante

    def wording(self, ante: int) -> str:
        return (
            f"an amount from {_times(self.low)} to {_times(self.high)} times the Ante of "
            f"{ante} cents ({self.low * ante} to {self.high * ante} cents, any whole cent)"
        )

    def candidates(self) -> tuple[int, ...]:
        return tuple(range(self.low, self.high + 1))


@dataclass(frozen=True, slots=True)
class Multiples(PlayRule):
    """ "Equal to" one of ``multiples`` times the Ante: exactly those amounts."""

    multiples: tuple[int, ...] = (1,)

    def allows(self, amount: int, ante: int) -> bool:
        return amount in {m * ante for m in self.multiples}

    def wording(self, ante: int) -> str:
        if self.multiples == (1,):
            return f"it equals the Ante of {ante} cents"
        names = [_times(m) for m in self.multiples]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        short = " or ".join(f"{m}x" for m in self.multiples)
        shown = " or ".join(str(m * ante) for m in self.multiples)
        return f"equal to {listed} times the Ante of {ante} cents ({short}: {shown} cents)"

    def candidates(self) -> tuple[int, ...]:
        return self.multiples


_MULTIPLE = re.compile(r"(\d+)(?:\.(\d{1,2}))?x?")
_DOLLARS = re.compile(r"\$(\d+)(?:\.(\d{2}))?")
_CENTS = re.compile(r"(\d+)c")


def parse_play_size(seat: int, text: str, ante: int, rule: PlayRule | None) -> Play:
    """A Play of the size a scenario writes: ``3``/``3x`` or ``1.5`` (times the Ante, up to two
    decimals), ``$7.50`` (dollars) or ``750c`` (cents).

    A multiple that does not make a whole number of cents of this Ante is refused with the
    section of ``rule`` (the game's rule for this decision).
    """
    word = text.strip().lower()
    if match := _CENTS.fullmatch(word):
        return Play(seat=seat, amount=int(match.group(1)))
    if match := _DOLLARS.fullmatch(word):
        return Play(seat=seat, amount=int(match.group(1)) * 100 + int(match.group(2) or 0))
    if match := _MULTIPLE.fullmatch(word):
        if match.group(2) is None:
            return Play(seat=seat, multiple=int(match.group(1)))
        times = Fraction(Decimal(f"{match.group(1)}.{match.group(2)}"))
        cents = times * ante
        if cents.denominator != 1:
            raise IllegalAction(
                f"Play of {word} times the Ante of {format_cents(ante)} at seat {seat} is "
                f"{float(cents):.2f} cents, not a whole number of cents",
                section=rule.section if rule is not None else None,
            )
        return Play(seat=seat, amount=int(cents))
    raise InvalidInput(
        f"Play size {text!r} at seat {seat} is not understood: a multiple of the Ante (3, 3x, "
        "1.5), dollars ($7.50) or cents (750c)"
    )
