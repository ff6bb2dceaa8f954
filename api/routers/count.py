"""POST /api/count: a photo of the show -> the cards, the starter and the itemized count.

The photo is read into memory, decoded and recognized, and dropped with the
request: it is never written anywhere.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, HTTPException, UploadFile, status
from fastapi.responses import JSONResponse

from api.counting import count_detections
from api.deps import RecognizerDep
from api.schemas import CountOut, ErrorOut, NotAShowOut
from scorer.cards import Card, InvalidCardError
from scorer.muggins import MAX_CLAIM, InvalidClaimError
from scorer.show import InvalidHandError
from vision.image_io import MAX_BYTES, ImageError, decode_photo
from vision.starter import CardCountError, show_in_view

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
        413: {"model": ErrorOut, "description": "The photo is over 20 MB."},
        422: {"model": NotAShowOut | ErrorOut,
              "description": "Not a readable photo (not an image, truncated, over 50 megapixels), a bad "
                             "field, or a photo that does not hold a show (then the cards seen are listed)."},
        503: {"model": ErrorOut, "description": "The recognition models are not installed."},
    },
)
def count_photo(
    recognizer: RecognizerDep,
    photo: Annotated[UploadFile, File(description="JPEG, PNG, WebP or HEIC; at most 20 MB and 50 megapixels.")],
    crib: Annotated[bool, Form(description="Count as the crib (a 4-card flush does not score).")] = False,
    starter: Annotated[str | None, Form(description="The starter, e.g. 5C: required when the photo shows "
                                                    "only the 4 hand cards; with 5 it picks which is the starter.")] = None,
    claim: Annotated[int | None, Form(ge=0, le=MAX_CLAIM, description="What the player counted (muggins).")] = None,
):
    """Recognize the cards as a show (five, or four besides a named starter: the likeliest such set),
    find the starter from the layout, count the show and check the claim."""
    given = parse_starter(starter)
    data = photo.file.read()
    try:
        decoded = decode_photo(data, min_long_side=recognizer.config.min_long_side)
    except ImageError as exc:
        code = status.HTTP_413_CONTENT_TOO_LARGE if len(data) > MAX_BYTES else status.HTTP_422_UNPROCESSABLE_CONTENT
        raise HTTPException(code, f"photo: {exc}") from None
    detections = recognizer.recognize_photo(decoded, show_in_view(given))
    try:
        result = count_detections(detections, crib=crib, starter=given, claim=claim)
    except CardCountError as exc:
        body = NotAShowOut.from_detections(str(exc), detections, decoded.original_size)
        return JSONResponse(body.model_dump(), status_code=status.HTTP_422_UNPROCESSABLE_CONTENT)
    except (InvalidHandError, InvalidClaimError) as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return CountOut.from_count(result, decoded.original_size)
