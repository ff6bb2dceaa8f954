"""The recognizer the service reads photos with: what a photo route needs of one, and the shipped
models loaded once (in each photo worker, :mod:`api.workers`, or handed to ``create_app``).

When the model files are missing or broken the app still starts (the page, typed scoring and
pegging work), and photo routes answer 503 saying why: :class:`LoadedRecognizer` carries the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from vision.config import RecognizerConfig
from vision.decode import Photo
from vision.detections import Detections, Expected


class PhotoRecognizer(Protocol):
    """What the photo routes need from a recognizer: the ONNX :class:`~vision.pipeline.Recognizer`,
    or a test's double."""

    config: RecognizerConfig

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections: ...

    def configured(self, config: RecognizerConfig) -> PhotoRecognizer:
        """The same models read with other settings (a whole table's)."""
        ...


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


def load_recognizer(models_dir: Path) -> LoadedRecognizer:
    """Load the ONNX models from ``models_dir``; a missing or broken file becomes ``error``."""
    from vision.pipeline import Recognizer  # onnxruntime loads here, in the process that reads photos

    try:
        return LoadedRecognizer(Recognizer(models_dir))
    except (OSError, ValueError, KeyError) as exc:
        # OSError covers ModelMissingError; ValueError/KeyError a sidecar JSON that does not parse.
        return LoadedRecognizer(None, f"the card recognizer is not available: {exc}")
    except Exception as exc:  # onnxruntime raises its own types for a corrupt model
        return LoadedRecognizer(None, f"the card recognizer failed to load: {type(exc).__name__}: {exc}")
