"""POST /api/count: a photo of the show -> the cards, the starter and the itemized count.

The photo is read into memory, decoded and recognized (in a worker process: :mod:`api.workers`),
and dropped with the request: it is never written anywhere. The route is async, so waiting for a
worker holds no thread; at most ``photo_capacity`` such requests are in hand (:mod:`api.admission`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile, status
from fastapi.responses import JSONResponse

from api.deps import ReaderDep, read_upload
from api.schemas import CountOut, ErrorOut, NotAShowOut
from scorer.cards import Card, InvalidCardError
from scorer.muggins import MAX_CLAIM, InvalidClaimError
from scorer.show import InvalidHandError
from vision.roles import CardCountError, count_photo, show_in_view

router = APIRouter(prefix="/api", tags=["photo"])


def parse_starter(text: str | None) -> Card | None:
    """The starter typed in a form field (blank: let the layout decide); bad notation is a 422."""
    if text is None or not text.strip():
        return None
    try:
        return Card.parse(text)
    except InvalidCardError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, f"starter: {exc}") from None


@router.post(
    "/count",
    response_model=CountOut,
    summary="Count the show in a photo",
    responses={
        408: {"model": ErrorOut, "description": "The upload took longer than the server waits for one."},
        413: {"model": ErrorOut, "description": "The photo is over 20 MB."},
        415: {"model": ErrorOut, "description": "An image of a format not accepted (GIF, BMP, TIFF...)."},
        422: {"model": NotAShowOut | ErrorOut,
              "description": "Not a readable photo (not an image, truncated, over 50 megapixels, too costly "
                             "to decode), a bad field, or a photo that does not hold a show (then the cards "
                             "seen are listed)."},
        503: {"model": ErrorOut, "description": "The recognition models are not installed, or the server "
                                                "is busy (then with Retry-After)."},
    },
)
async def post_count(
    request: Request,
    reader: ReaderDep,
    photo: Annotated[UploadFile | str, File(description="JPEG, PNG, WebP, HEIC or AVIF; at most 20 MB and 50 "
                                                        "megapixels.")],
    crib: Annotated[bool, Form(description="Count as the crib (a 4-card flush does not score).")] = False,
    starter: Annotated[str | None, Form(description="The starter, e.g. 5C: required when the photo shows "
                                                    "only the 4 hand cards; with 5 it picks which is the "
                                                    "starter.")] = None,
    claim: Annotated[int | None, Form(ge=0, le=MAX_CLAIM,
                                      description="What the player counted (muggins).")] = None,
):
    """Recognize the cards as a show (five, or four besides a named starter: the likeliest such set),
    find the starter from the layout, count the show and check the claim."""
    given = parse_starter(starter)
    if isinstance(photo, str):  # a form field without a filename: the page or client sent text
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                            "photo: send the photo as a file (a multipart part with a filename), not as text")
    reading = await read_upload(request, reader, photo, show_in_view(given))
    detections, size = reading.detections, reading.original_size
    try:
        result = count_photo(detections, crib=crib, starter=given, claim=claim)
    except CardCountError as exc:
        body = NotAShowOut.from_detections(str(exc), detections, size)
        return JSONResponse(body.model_dump(), status_code=status.HTTP_422_UNPROCESSABLE_CONTENT)
    except (InvalidHandError, InvalidClaimError) as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return CountOut.from_count(result, size)
