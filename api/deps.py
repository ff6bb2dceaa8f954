"""Dependencies shared by the routes: settings and the recognizer loaded once at start-up.

The recognizer is whatever object has ``config.min_long_side`` and
``recognize_photo(photo, expected) -> Detections``: in production the ONNX
:class:`~vision.recognizer.Recognizer` built by :func:`load_recognizer` in the app's
lifespan; a test passes its own to ``create_app``. When the model files are
missing the app still starts (the page, typed scoring and pegging work), and
photo routes answer 503 saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Protocol

from fastapi import Depends, HTTPException, Request, UploadFile, status

from api.settings import Settings
from api.workers import ModelsNotLoaded, PhotoReader, PhotoReading
from vision.detections import Detections, Expected
from vision.image_io import MAX_BYTES, ImageError, Photo, UnsupportedImage, screen_photo
from vision.recognizer import RecognizerConfig


class PhotoRecognizer(Protocol):
    """What the photo routes need from a recognizer."""

    config: RecognizerConfig

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections: ...


@dataclass(frozen=True)
class LoadedRecognizer:
    """The outcome of loading the models at start-up: a recognizer, or why there is none."""

    recognizer: PhotoRecognizer | None
    error: str | None = None
    in_workers: bool = False
    """The models are loaded in the photo worker processes (:mod:`api.workers`), not here."""

    @property
    def ready(self) -> bool:
        """Whether photos can be read."""
        return self.error is None and (self.recognizer is not None or self.in_workers)


def load_recognizer(settings: Settings) -> LoadedRecognizer:
    """Load the ONNX models from ``settings.models_dir``; a missing or broken file becomes ``error``."""
    from vision.recognizer import Recognizer

    try:
        return LoadedRecognizer(Recognizer(settings.models_dir))
    except (OSError, ValueError, KeyError) as exc:
        # OSError covers ModelMissingError; ValueError/KeyError a sidecar JSON that does not parse.
        return LoadedRecognizer(None, f"the card recognizer is not available: {exc}")
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own types for a corrupt model
        return LoadedRecognizer(None, f"the card recognizer failed to load: {type(exc).__name__}: {exc}")


async def get_loaded(request: Request) -> LoadedRecognizer:
    """The recognizer state the lifespan stored on the app (async: no thread-pool wait for it)."""
    return request.app.state.recognizer


async def get_reader(request: Request, loaded: Annotated[LoadedRecognizer, Depends(get_loaded)]) -> PhotoReader:
    """What reads a photo (worker processes, or this process), or 503 with the reason the models are not there."""
    if not loaded.ready:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, loaded.error or "the card recognizer is not loaded")
    return request.app.state.reader


async def read_upload(request: Request, reader: PhotoReader, photo: UploadFile,
                      expected: Expected | None) -> PhotoReading:
    """An uploaded photo read by ``reader``, for every photo route: what is plainly no photo is refused
    in the event loop (a few ms, no pixel) and never reaches a worker; a refused photo is a 415, 413
    or 422 with the reason, missing models a 503; the time it took teaches the admission gate
    (:mod:`api.admission`) how many photos it takes next."""
    data = await photo.read()
    await photo.close()  # the form's in-memory copy goes now, not after the worker's answer
    try:
        screen_photo(data)
        reading = await reader.read(data, expected)
    except UnsupportedImage as exc:
        raise HTTPException(status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, f"photo: {exc}") from None
    except ImageError as exc:
        code = status.HTTP_413_CONTENT_TOO_LARGE if len(data) > MAX_BYTES else status.HTTP_422_UNPROCESSABLE_CONTENT
        raise HTTPException(code, f"photo: {exc}") from None
    except ModelsNotLoaded as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from None
    request.app.state.admission.observe(reading.seconds)
    return reading


LoadedDep = Annotated[LoadedRecognizer, Depends(get_loaded)]
ReaderDep = Annotated[PhotoReader, Depends(get_reader)]
