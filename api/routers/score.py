"""POST /api/score: typed cards -> the itemized count, and a claim checked (muggins).

The page calls this after every correction (a card tapped and changed, the
starter or hand/crib switched), so the count follows at once without the photo.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from api.schemas import ErrorOut, ScoreIn, ShowOut
from scorer.cards import Card, InvalidCardError, parse_cards
from scorer.muggins import InvalidClaimError, score_and_check
from scorer.show import InvalidHandError

router = APIRouter(prefix="/api", tags=["cards"])


@router.post("/score", response_model=ShowOut, summary="Count typed cards",
             responses={422: {"model": ErrorOut,
                              "description": "Not card notation, a card twice, or a bad claim."}})
def score(body: ScoreIn) -> ShowOut:
    """Count a hand or crib with its starter; with ``claim``, say whether the claim is right."""
    try:
        hand = parse_cards(body.hand)
        starter = Card.parse(body.starter)
        show, verdict = score_and_check(hand, starter, crib=body.crib, claim=body.claim)
    except (InvalidCardError, InvalidHandError, InvalidClaimError) as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return ShowOut.from_show(show, verdict)
