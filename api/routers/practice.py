"""POST /api/practice/deal and /api/practice/check: the page's practice view, the rules kept in Python.

The page asks for a hand, shows it, and sends the player's count back with the
cards; nothing is stored here: score, streak and the lessons missed live in the
browser.
"""

from __future__ import annotations

import random

from fastapi import APIRouter, HTTPException, status

from api.practice_schemas import (
    PracticeCheckIn,
    PracticeCheckOut,
    PracticeDealIn,
    PracticeDealOut,
)
from api.schemas import ErrorOut
from scorer.cards import InvalidCardError
from scorer.practice import Deal, deal, judge
from scorer.practice_answer import InvalidAnswerError, parse_answer
from scorer.show import InvalidHandError

router = APIRouter(prefix="/api/practice", tags=["practice"])


@router.post("/deal", response_model=PracticeDealOut, summary="Deal a hand to count")
def practice_deal(body: PracticeDealIn) -> PracticeDealOut:
    """A hand (or crib) and starter, chosen by lesson; lessons in ``focus`` come up more often."""
    dealt = deal(random.Random(body.seed), body.level, crib=body.crib, focus=body.focus)
    return PracticeDealOut.from_deal(dealt)


@router.post("/check", response_model=PracticeCheckOut, summary="Check a player's count",
             responses={422: {"model": ErrorOut, "description": "Not a hand of 4 and a starter, or an answer "
                                                                "that is neither a total nor items."}})
def practice_check(body: PracticeCheckIn) -> PracticeCheckOut:
    """What was right, what was missed and what was claimed wrongly, with the true count."""
    try:
        dealt = Deal.parse(body.hand, body.starter, crib=body.crib)
        answer = parse_answer(body.answer, dealt.cards)
    except (InvalidCardError, InvalidHandError, InvalidAnswerError) as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return PracticeCheckOut.from_judgement(judge(dealt, answer))
