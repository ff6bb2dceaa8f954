"""POST /api/peg: the play, card by card, scored for every player (2, 3, or 4 in partnership)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from api.schemas import ErrorOut, PegIn, PegOut
from scorer.cards import InvalidCardError
from scorer.pegging import IllegalPlayError, score_pegging

router = APIRouter(prefix="/api", tags=["cards"])


@router.post("/peg", response_model=PegOut, summary="Score the play (pegging)",
             responses={422: {"model": ErrorOut, "description": "An illegal play, named by its position."}})
def peg(body: PegIn) -> PegOut:
    """Score a play given in the order laid, first player first, with ``go`` tokens."""
    try:
        return PegOut.from_pegging(score_pegging(body.sequence, players=body.players))
    except (IllegalPlayError, InvalidCardError) as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
