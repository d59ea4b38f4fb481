"""Chance and the dealer acting by themselves: :func:`run_dealer`, the loop behind
:meth:`Round.run_dealer <croupier.games.round.Round.run_dealer>`.

Each step is the round's own action (the one :meth:`~croupier.games.round.Round.dealer_step`
names), verified by its verifier and carried out by its doer, as
:meth:`~croupier.games.round.Round.apply` does.  The cards of a dealing stage are dealt by
:func:`deal_due`: the same :class:`~croupier.games.records.DealNext` steps, each refused as the
round's ``_verify_deal`` refuses it and done as its ``_do_deal`` does it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from croupier.errors import CroupierError
from croupier.games._made import cards_dealt
from croupier.games.dispatch import _HANDLERS, MALFORMED, handlers_of, malformed
from croupier.games.records import DealNext, Record
from croupier.games.states import Phase

if TYPE_CHECKING:
    from croupier.games.round import Round

__all__ = ["deal_due", "run_dealer"]

_DEAL_NEXT = DealNext()
_ENDED = (Phase.OVER, Phase.VOID)
_BY_PLAN: dict[type, bool] = {}
"""By round class: whether it deals by the shared ``_verify_deal`` and ``_do_deal`` (then
:func:`deal_due` deals its stages)."""


def _deals_by_plan(cls: type[Round]) -> bool:
    known = _BY_PLAN.get(cls)
    if known is None:
        from croupier.games.round import Round  # the shared class (a cycle at import time)

        verify, do = handlers_of(cls).get(DealNext, (None, None))
        known = _BY_PLAN[cls] = verify is Round._verify_deal and do is Round._do_deal
    return known


def run_dealer(rnd: Round) -> tuple[Record, ...]:
    """Apply chance and dealer steps until a seat must act, wagers are still open, or the
    round is over; returns the records added."""
    added: list[Record] = []
    cls = type(rnd)
    # the class's handlers and dealing, found once per class (asked here a few times a round)
    handlers = _HANDLERS.get(cls) or handlers_of(cls)
    records = rnd._records
    deal_verify, deal_do = handlers.get(DealNext, (None, None))
    by_plan = _BY_PLAN.get(cls)
    if by_plan is None:
        by_plan = _deals_by_plan(cls)
    while True:
        phase = rnd._phase
        if phase is Phase.DEALING and by_plan:
            deal_due(rnd, records, added)
            continue
        if phase is Phase.DEALING and deal_verify is not None and deal_do is not None:
            # chance deals every card now due, each by its verified DealNext (the very steps
            # dealer_step names while the phase is dealing), without asking again
            while rnd._phase is Phase.DEALING:
                deal_verify(rnd, _DEAL_NEXT)
                new = deal_do(rnd, _DEAL_NEXT)
                records.extend(new)
                added += new
            continue
        if phase in _ENDED or phase is Phase.BETTING:
            break
        if phase is Phase.DECISIONS and rnd.next_decider() is not None:
            break  # a seat acts now (to_act)
        action = rnd.dealer_step()
        verifier, do = handlers.get(type(action), (None, None))
        if verifier is None or do is None:
            added += rnd.apply(action)  # refused there, with its reason
            continue
        try:
            verifier(rnd, action)
        except CroupierError:
            raise
        except MALFORMED as exc:
            raise malformed(action, exc) from exc
        new = do(rnd, action)
        records.extend(new)
        added += new
    return tuple(added)


def deal_due(rnd: Round, records: list[Record], added: list[Record]) -> None:
    """Chance deals every card now due: each the step ``dealer_step`` names while the phase is
    dealing (:class:`DealNext`), refused as ``_verify_deal`` refuses it and done as ``_do_deal``
    does it.  The cards of a stage leave the shoe together where it holds them all (nothing
    reads the round between two of them); else one at a time, so that a refusal part way leaves
    the round as the steps one by one would."""
    shoe = rnd._shoe
    hands = rnd._hands
    while rnd._phase is Phase.DEALING:
        plan = rnd._plan
        if not plan or len(shoe) < len(plan):
            rnd._verify_deal(_DEAL_NEXT)  # refused there where no card is due or left
            new = rnd._do_deal(_DEAL_NEXT)
            records += new
            added += new
            continue
        cards = shoe.deal_many(len(plan))
        for card, step in zip(cards, plan, strict=True):
            hand = hands.get(step.to)
            if hand is None:
                hands[step.to] = [card]
            else:
                hand.append(card)
        made = cards_dealt(cards, plan)
        plan.clear()
        made += rnd._dealing_done()
        records += made
        added += made
