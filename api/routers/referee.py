"""POST /api/referee: a photo of the whole table at the show -> the groups, whose is which, every count
in show order and every claim and muggins call ruled; POST /api/referee/table: the same from the
table's cards sent back with the player's fixes, so a moved card or a named group is re-ruled at once,
without the photo.

Photo requests take the same path as ``/api/count``: read in memory by the photo workers, admitted
by the same gate (:data:`api.main.PHOTO_ROUTES`), never stored. The workers read them as a whole table
(:class:`api.workers.WholeTable`: the table's finer settings, the closer look where in doubt), as
``cribcount referee`` does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile, status
from fastapi.responses import JSONResponse

from api.deps import ReaderDep, read_upload
from api.referee_schemas import (
    MAX_ENTRIES,
    NotCountedOut,
    RefereeOut,
    RefereeRequest,
    TableIn,
    TableNotCounted,
    corrected,
    parse_game,
    parse_players,
    parse_role,
    referee,
    typed_words,
)
from api.schemas import ErrorOut, NotAShowOut
from api.workers import WholeTable
from vision.detections import Detections
from vision.table import TableLayoutError

router = APIRouter(prefix="/api", tags=["referee"])

_UNPROCESSABLE = status.HTTP_422_UNPROCESSABLE_CONTENT
_RESPONSES = {
    422: {"model": NotCountedOut | NotAShowOut | ErrorOut,
          "description": "A claim, call, role or move that cannot be made (one line); a photo without the "
                         "table's number of cards (the cards seen listed); or groups that cannot be counted "
                         "as they lie (the table as seen, to move a card)."},
}
Entries = list[str] | None


def _listed(description: str):  # -> a FastAPI Form: repeated fields, at most MAX_ENTRIES of them
    return Form(max_length=MAX_ENTRIES, description=description)


def _ruled(detections: Detections, request: RefereeRequest, size: tuple[int, int] | None) -> JSONResponse:
    """The table ruled, or the 422 that says what to fix (with what was seen, so the page can fix it)."""
    try:
        refereed = referee(detections, request)
    except TableNotCounted as exc:
        body = NotCountedOut(detail=str(exc), table=RefereeOut.from_refereed(exc.refereed, size))
        return JSONResponse(body.model_dump(), status_code=_UNPROCESSABLE)
    except TableLayoutError as exc:
        if size is None:
            raise HTTPException(_UNPROCESSABLE, str(exc)) from None
        body = NotAShowOut.from_detections(str(exc), detections, size)
        return JSONResponse(body.model_dump(), status_code=_UNPROCESSABLE)
    except ValueError as exc:  # a claim, a call, a role: the players' words, said back in one line
        raise HTTPException(_UNPROCESSABLE, str(exc)) from None
    return JSONResponse(RefereeOut.from_refereed(refereed, size).model_dump())


@router.post("/referee", response_model=RefereeOut, summary="Referee a whole table from one photo",
             responses={**_RESPONSES, 413: {"model": ErrorOut}, 415: {"model": ErrorOut},
                        503: {"model": ErrorOut}})
async def referee_photo(
    request: Request,
    reader: ReaderDep,
    photo: Annotated[UploadFile | str, File(description="The table at the show: JPEG, PNG, WebP, HEIC or "
                                                        "AVIF; at most 20 MB and 50 megapixels.")],
    players: Annotated[str, Form(max_length=4, description="Players at the table: 2, 3 or 4.")],
    seat: Annotated[str, Form(max_length=20, description="Your seat: the hand nearest the photo's bottom "
                                                         "edge (pone, dealer, second, ...).")] = "pone",
    five_card: Annotated[bool, Form(description="Five-card cribbage: hands of 3.")] = False,
    muggins: Annotated[bool, Form(description="Whether the players turned muggins on.")] = True,
    claim: Annotated[Entries, _listed("ROLE=N, e.g. pone=10; repeat per hand.")] = None,
    call: Annotated[Entries, _listed("Muggins for X: ROLE=X[:CALLER], e.g. pone=2.")] = None,
    role: Annotated[Entries, _listed("GROUP=ROLE, e.g. 2=crib.")] = None,
    move: Annotated[Entries, _listed("CARD=GROUP or CARD=starter, e.g. 5H=2.")] = None,
    fix: Annotated[Entries, _listed("A card read wrong: READ=CARD, e.g. 6S=7H.")] = None,
    add: Annotated[Entries, _listed("A card the photo missed: CARD=BESIDE (a card read in its group) or "
                                    "CARD=starter, e.g. 7H=8D.")] = None,
    score: Annotated[Entries, _listed("SIDE=N as the show begins, e.g. dealer=110.")] = None,
    game: Annotated[str, Form(max_length=4, description="The game hole: 121 or 61.")] = "121",
):
    """Read the table's cards (with the player's ``fix`` and ``add`` entries), split them into the hands,
    the crib and the starter, name the groups (the player's ``role`` entries, else a suggestion from the
    layout and ``seat``), count each in the order of the show and rule each ``claim`` and muggins
    ``call``."""
    if isinstance(photo, str):
        raise HTTPException(_UNPROCESSABLE, "photo: send the photo as a file (a multipart part with a "
                                            "filename), not as text")
    try:
        n = parse_players(players)
        base = RefereeRequest(n, parse_role(seat, n), five_card, muggins, game=parse_game(game))
        words = typed_words(base, claims=claim or [], calls=call or [], roles=role or [], scores=score or [])
    except ValueError as exc:
        raise HTTPException(_UNPROCESSABLE, str(exc)) from None
    reading = await read_upload(request, reader, photo, WholeTable(n, five_card))
    try:
        detections, moves = corrected(reading.detections, reading.original_size, n, fixes=fix or [],
                                      additions=add or [], moves=move or [])
    except ValueError as exc:  # InvalidCardError is one
        raise HTTPException(_UNPROCESSABLE, str(exc)) from None
    return _ruled(detections, replace(words, moves=moves), reading.original_size)


@router.post("/referee/table", response_model=RefereeOut, summary="Referee a table from its cards",
             responses=_RESPONSES)
def referee_table(body: TableIn) -> JSONResponse:
    """The table as the page holds it (the cards with their boxes, the player's card moves and roles,
    claims and calls): ruled again without the photo."""
    try:
        request, detections = body.request(), body.detections()
    except ValueError as exc:
        raise HTTPException(_UNPROCESSABLE, str(exc)) from None
    return _ruled(detections, request, None)
