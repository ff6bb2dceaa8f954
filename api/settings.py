"""Service settings: one frozen object, read from the environment once.

Like a pydantic-settings ``Settings`` without the extra dependency: the runtime
reads two variables, and tests replace :func:`get_settings` through FastAPI's
``dependency_overrides`` or pass a :class:`Settings` to ``create_app``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from vision.image_io import MAX_BYTES
from vision.recognizer import MODELS_DIR

# Multipart framing (boundaries, part headers, the small form fields) around the photo itself.
_FORM_OVERHEAD_BYTES = 64 * 1024


class Settings(BaseModel):
    """What the service needs to know at start-up."""

    model_config = ConfigDict(frozen=True)

    models_dir: Path = Field(MODELS_DIR, description="Folder with detector.onnx and classifier.onnx "
                                                     "(env CRIBCOUNT_MODELS).")
    max_photo_bytes: int = Field(MAX_BYTES, description="Largest photo accepted, in bytes (20 MB).")

    @property
    def max_body_bytes(self) -> int:
        """Largest request body: a photo at the limit plus its multipart framing."""
        return self.max_photo_bytes + _FORM_OVERHEAD_BYTES

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from ``CRIBCOUNT_MODELS`` (the models folder), defaults otherwise."""
        models = os.environ.get("CRIBCOUNT_MODELS")
        return cls(models_dir=Path(models)) if models else cls()


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once."""
    return Settings.from_env()
