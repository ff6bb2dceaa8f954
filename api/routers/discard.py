"""POST /api/discard: the dealt cards (typed as JSON, or a photo as multipart) -> every way to keep four,
ranked.

One route takes both bodies, as the page sends either: JSON ``{"cards": [...], "seat": "dealer"}``
after cards are tapped in or corrected, a multipart ``photo`` (with ``seat``, ``players``) straight
from the camera. The photo is read in memory and dropped with the request.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from api.deps import LoadedDep, form_number, get_reader, read_upload
from api.discard_schemas import DiscardIn, DiscardOut, NotDealtOut
from api.schemas import ErrorOut, one_line
from scorer.cards import InvalidCardError, parse_cards
from scorer.discard import DiscardError, advise
from vision.dealt import DealtCountError, read_dealt

router = APIRouter(prefix="/api", tags=["discard"])

_UNPROCESSABLE = status.HTTP_422_UNPROCESSABLE_CONTENT
_PHOTO_FORM = {
    "type": "object",
    "required": ["photo", "seat"],
    "properties": {
        "photo": {"type": "string", "format": "binary",
                  "description": "The dealt cards in any layout (fanned, a row, a heap): JPEG, PNG, WebP, "
                                 "HEIC or AVIF, at most 20 MB and 50 megapixels."},
        "seat": {"type": "string", "enum": ["dealer", "pone"]},
        "players": {"type": "integer", "enum": [2, 3, 4], "default": 2},
        "model": {"type": "string", "enum": ["table", "uniform"], "default": "table"},
    },
}


def _advise(cards, body: DiscardIn):
    try:
        return advise(parse_cards(cards), seat=body.seat, players=body.players, model=body.model)
    except (InvalidCardError, DiscardError) as exc:
        raise HTTPException(_UNPROCESSABLE, str(exc)) from None


@router.post(
    "/discard",
    response_model=DiscardOut,
    summary="Which cards to throw to the crib",
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": DiscardIn.model_json_schema()},
        "multipart/form-data": {"schema": _PHOTO_FORM},
    }}},
    responses={
        413: {"model": ErrorOut, "description": "The photo is over 20 MB."},
        415: {"model": ErrorOut, "description": "Neither JSON nor a multipart form, or a photo of a format "
                                                "not accepted (GIF, BMP, TIFF...)."},
        422: {"model": NotDealtOut | ErrorOut,
              "description": "Not card notation, a card twice, the wrong number of cards for the players, a "
                             "photo that cannot be read, or one that does not show the dealt cards (then the "
                             "cards seen are listed)."},
        503: {"model": ErrorOut, "description": "A photo was sent and the recognition models are not "
                                                "installed (or the photo workers are busy)."},
    },
)
async def discard(request: Request, loaded: LoadedDep) -> DiscardOut | JSONResponse:
    """Rank every way to keep four: the hand's exact expectation over every starter, the crib's exact
    expectation over every starter and every throw of the others (weighted by the opponent model),
    and the net (dealer: hand + crib; pone: hand - crib), with a reason for the best choices."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "application/json":
        try:
            body = DiscardIn.model_validate_json(await request.body())
        except ValidationError as exc:
            raise HTTPException(_UNPROCESSABLE, one_line(list(exc.errors()))) from None
        advice = await run_in_threadpool(_advise, body.cards, body)
        return DiscardOut.from_advice(advice)
    if kind != "multipart/form-data":
        raise HTTPException(status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, 'send JSON {"cards": [...], '
                            '"seat": "dealer"} or a multipart form with a photo')
    form = await request.form()
    photo = form.get("photo")
    if not isinstance(photo, UploadFile):
        raise HTTPException(_UNPROCESSABLE,
                            "photo: a photo file is required in the form (or send JSON cards)")
    players = form_number(form.get("players"), "players", default=2, allowed=(2, 3, 4))
    try:
        body = DiscardIn(cards=[], seat=form.get("seat"), players=players, model=form.get("model") or "table")
    except ValidationError as exc:
        raise HTTPException(_UNPROCESSABLE, one_line(list(exc.errors()))) from None
    reader = await get_reader(request, loaded)
    # No expected count: a deal is read card by card, with no starter and no show to make up.
    reading = await read_upload(request, reader, photo, None)
    try:
        dealt = read_dealt(reading.detections, body.players)
    except DealtCountError as exc:
        out = NotDealtOut.from_seen(str(exc), exc.seen, reading.original_size)
        return JSONResponse(out.model_dump(), status_code=_UNPROCESSABLE)
    advice = await run_in_threadpool(_advise, [str(c) for c in dealt.cards], body)
    return DiscardOut.from_advice(advice, dealt, reading.original_size)
