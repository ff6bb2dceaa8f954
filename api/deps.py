"""Dependencies shared by the photo routes: the recognizer state and the photo reader the app's
lifespan stored, and an upload read into cards with its refusals as 4xx.

What a recognizer is and how the models load lives in :mod:`api.recognizer`; this module only hands
them to the routes (imports point one way: deps -> workers -> recognizer).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request, UploadFile, status

from api.recognizer import LoadedRecognizer
from api.workers import Holds, ModelsNotLoaded, PhotoReader, PhotoReading, WorkerLost
from scorer.typed import quoted, whole_number
from vision.decode import MAX_BYTES, ImageError, UnsupportedImage, screen_photo


async def get_loaded(request: Request) -> LoadedRecognizer:
    """The recognizer state the lifespan stored on the app (async: no thread-pool wait for it)."""
    return request.app.state.recognizer


LoadedDep = Annotated[LoadedRecognizer, Depends(get_loaded)]


async def get_reader(request: Request, loaded: LoadedDep) -> PhotoReader:
    """What reads a photo (worker processes, or this process), or 503 with the reason the models are
    not there."""
    if not loaded.ready:
        why = loaded.error or "the card recognizer is not loaded"
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, why)
    return request.app.state.reader


async def read_upload(request: Request, reader: PhotoReader, photo: UploadFile,
                      holds: Holds) -> PhotoReading:
    """An uploaded photo read by ``reader`` as what it ``holds`` (one hand, or the whole table), for
    every photo route: what is plainly no photo is refused
    in the event loop (a few ms, no pixel) and never reaches a worker; a refused photo is a 415, 413
    or 422 with the reason, missing models a 503, a worker lost to something else a 503 with
    Retry-After; the time it took teaches the admission gate
    (:mod:`api.admission`) how many photos it takes next."""
    data = await photo.read()
    await photo.close()  # the form's in-memory copy goes now, not after the worker's answer
    try:
        screen_photo(data)
        reading = await reader.read(data, holds)
    except UnsupportedImage as exc:
        raise HTTPException(status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, f"photo: {exc}") from None
    except ImageError as exc:
        too_big = len(data) > MAX_BYTES
        code = status.HTTP_413_CONTENT_TOO_LARGE if too_big else status.HTTP_422_UNPROCESSABLE_CONTENT
        raise HTTPException(code, f"photo: {exc}") from None
    except ModelsNotLoaded as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from None
    except WorkerLost as exc:  # not the photo's doing: a client or a proxy may send it again
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc),
                            headers=request.app.state.admission.retry_after) from None
    request.app.state.admission.observe(reading.seconds)
    return reading


ReaderDep = Annotated[PhotoReader, Depends(get_reader)]


def form_number(value: object, name: str, *, default: int, allowed: tuple[int, ...]) -> int:
    """A number from a form field (blank: ``default``), one of ``allowed``, else a 422 naming the field.

    Typed strictly (:func:`scorer.typed.whole_number`): ``²``, ``٣`` or 5,000 digits are refused here."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    text = value.strip() if isinstance(value, str) else ""
    number = whole_number(text)
    if number is not None and number in allowed:
        return number
    expected = ", ".join(map(str, allowed[:-1])) + f" or {allowed[-1]}"
    raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                        f"{name}: expected {expected}, not {quoted(text, longest=12) if text else 'a file'}")
