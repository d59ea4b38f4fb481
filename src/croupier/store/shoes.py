"""The card order a round deals from, persisted apart from its public records.

When a round is first stored, :func:`capture` takes the order of its shoe (the cards already
taken by earlier rounds from the same shoe, then the round's own, then the rest, top first) with
a fresh random nonce (``secrets``).  The order lives in its own table, never in the records, a
view, a recall or an export: only the server side reads it (:meth:`RoundStore.shoe
<croupier.store.RoundStore.shoe>`), to resume a round after a crash with exactly the cards it
was dealing from (:func:`PersistedShoe.rebuild`).  :attr:`PersistedShoe.commitment` is
``SHA-256(order || "\\n" || nonce)``: the server may publish it before the deal and the order
and nonce after, so anyone can check the deal (:func:`commitment`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from croupier.core.cards import Card, parse_cards
from croupier.core.errors import IllegalAction, InvalidInput
from croupier.games.records import CardDealt, CardDiscarded
from croupier.games.round import Round
from croupier.table.reported import ReportedShoe
from croupier.table.shoe import Shoe, StackedShoe

__all__ = ["PersistedShoe", "capture", "commitment"]

NONCE_BYTES = 32


def commitment(cards: tuple[Card, ...], nonce: str) -> str:
    """SHA-256 (hex) of the order (``"As Kd ..."``, top first), a newline and the nonce."""
    text = " ".join(str(c) for c in cards) + "\n" + nonce
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, kw_only=True, slots=True)
class PersistedShoe:
    """A round's shoe as persisted (server side only: never part of a view)."""

    cards: tuple[Card, ...]
    """The whole shoe, top first, as it stood when it was filled (or shuffled)."""
    taken: int
    """Cards of ``cards`` dealt or burned before this round began (earlier rounds)."""
    decks: int
    stacked: bool
    """The round dealt from a :class:`~croupier.table.shoe.StackedShoe` (a scenario or a test)."""
    nonce: str

    @property
    def commitment(self) -> str:
        return commitment(self.cards, self.nonce)

    @property
    def text(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def rebuild(self) -> Shoe:
        """A shoe in the state the round found it: the same order, ``taken`` cards gone."""
        cls = StackedShoe if self.stacked else Shoe
        shoe = cls(self.cards, decks=self.decks)
        if self.taken:
            shoe.burn(self.taken)
        return shoe

    @classmethod
    def parse(
        cls, text: str, *, taken: int, decks: int, stacked: bool, nonce: str
    ) -> PersistedShoe:
        return cls(
            cards=parse_cards(text, distinct=False) if text else (),
            taken=taken,
            decks=decks,
            stacked=stacked,
            nonce=nonce,
        )


def _remaining(shoe: Shoe) -> list[Card]:
    """The cards still in ``shoe``, top first."""
    stack: list[Card] = shoe._stack  # the store is the server side: it may read the order
    return list(reversed(stack))


def capture(rnd: Round) -> PersistedShoe | None:
    """The order of the shoe ``rnd`` deals from, with a fresh nonce; ``None`` where nobody knows
    it (a shoe of real cards whose cards are reported as they leave, issue 39: its round's
    records are all there is, and the audit rebuilds it from them)."""
    shoe = rnd._deal.shoe  # the server side reads the shoe the round deals from
    if isinstance(shoe, ReportedShoe):
        return None
    if not isinstance(shoe, Shoe):
        raise InvalidInput(f"round deals from {shoe!r}, which is not a Shoe")
    shown = [r.card for r in rnd.records if isinstance(r, CardDealt | CardDiscarded)]
    before = [*shoe.dealt, *shoe.burned]
    for card in shown:
        if card not in before:
            raise IllegalAction(f"card {card} in the round's records did not leave its shoe")
        before.remove(card)
    cards = (*before, *shown, *_remaining(shoe))
    return PersistedShoe(
        cards=tuple(cards),
        taken=len(before),
        decks=shoe.decks,
        stacked=isinstance(shoe, StackedShoe),
        nonce=secrets.token_hex(NONCE_BYTES),
    )
