"""Service settings: one frozen object, read from the environment once.

Like a pydantic-settings ``Settings`` without the extra dependency: ``create_app`` reads a few
``CRIBCOUNT_*`` variables (:meth:`Settings.from_env`) unless it is handed a :class:`Settings`, as
the tests do.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from api.limits import UPLOAD_GRACE_S, UPLOAD_MIN_RATE, Pace
from vision.config import MODELS_DIR
from vision.decode import MAX_BYTES

# Multipart framing (boundaries, part headers, the small form fields) around the photo itself.
_FORM_OVERHEAD_BYTES = 64 * 1024


class Settings(BaseModel):
    """What the service needs to know at start-up."""

    model_config = ConfigDict(frozen=True)

    models_dir: Path = Field(MODELS_DIR, description="Folder with detector.onnx and classifier.onnx "
                                                     "(env CRIBCOUNT_MODELS).")
    max_photo_bytes: int = Field(MAX_BYTES, description="Largest photo accepted, in bytes (20 MB).")
    server_processes: int = Field(1, ge=1, description="Server processes on this machine (env "
                                  "CRIBCOUNT_SERVER_PROCESSES; `cribcount serve --workers N` sets it): "
                                  "they share the cores among their photo workers.")
    photo_workers: int | None = Field(None, ge=1, description="Worker processes that decode and read "
                                      "photos, per server process (env CRIBCOUNT_PHOTO_WORKERS). Default: "
                                      "one per core, shared among the server processes; a recognizer "
                                      "handed to create_app runs in the server process unless this is set.")
    # 2: at ~2 photos/s on 2 cores, a photo admitted last waits ~2 s at most (issue 70: p99 <= 2 s).
    photo_queue: int = Field(2, ge=0, description="Photos that may wait for a worker beyond those being "
                             "read (env CRIBCOUNT_PHOTO_QUEUE); past that a photo route answers 503.")
    photo_timeout_s: float = Field(8.0, gt=0, description="Wall time one photo may take to decode and read "
                                   "in a worker before the worker is killed and the photo refused (422).")
    photo_memory_mb: int = Field(600, ge=64, description="Memory a worker may take beyond its loaded "
                                 "models for one photo.")
    upload_timeout_s: float = Field(60.0, gt=0, description="Time a request body may take to arrive "
                                    "(env CRIBCOUNT_UPLOAD_TIMEOUT): a slow or stalled upload is dropped "
                                    "with 408. A phone's 5 MB photo over a 1 Mbit/s uplink takes ~40 s.")
    # 1.5 s expected, so that the answers' p99 stays near 2 s (issue 70) as photo times vary.
    photo_target_s: float = Field(1.5, gt=0, description="Answer time a photo is admitted for: while no "
                                  "worker is free, one that would wait longer (at the workers' recent "
                                  "pace) gets 503.")
    retry_after_s: int = Field(2, ge=1, description="Retry-After of a 503 when the photo queue is full.")
    # The HTTP layer (api/server.py; why these figures: docs/deploy.md, "The server").
    upload_min_rate: int = Field(UPLOAD_MIN_RATE, ge=1, description="Bytes per second a request body "
                                 "must keep up after its grace (env CRIBCOUNT_UPLOAD_MIN_RATE; 8 KB/s, a "
                                 "2G uplink); slower, or silent for the grace, it is dropped with 408.")
    upload_grace_s: float = Field(UPLOAD_GRACE_S, gt=0, description="Seconds a request body may take "
                                  "before its rate counts, and the longest it may send nothing (env "
                                  "CRIBCOUNT_UPLOAD_GRACE).")
    max_head_bytes: int = Field(16 * 1024, ge=1024, description="Request line and headers together, in "
                                "bytes (h11's default); more is answered 431.")
    max_url_bytes: int = Field(8 * 1024, ge=256, description="Longest URL (request target); longer: 414.")
    max_headers: int = Field(100, ge=8, description="Most header lines in a request; more: 431.")
    head_timeout_s: float = Field(10.0, gt=0, description="Seconds a connection has to send a complete "
                                  "request head, from its opening or the previous answer (env "
                                  "CRIBCOUNT_HEAD_TIMEOUT); then it is closed.")
    keep_alive_s: int = Field(5, ge=1, description="Seconds an idle kept-alive connection stays open.")
    max_connections: int = Field(4096, ge=16, description="Open connections per server process (env "
                                 "CRIBCOUNT_MAX_CONNECTIONS), and never within 128 of the file limit; past "
                                 "it the one waiting longest for its request is closed.")

    @property
    def max_body_bytes(self) -> int:
        """Largest request body: a photo at the limit plus its multipart framing."""
        return self.max_photo_bytes + _FORM_OVERHEAD_BYTES

    @property
    def upload_pace(self) -> Pace:
        """How fast a request body must arrive once its head has."""
        return Pace(self.upload_min_rate, self.upload_grace_s)

    @property
    def photo_worker_count(self) -> int:
        """Photo workers of this server process: as set, else its share of the cores."""
        return self.photo_workers or max(1, _cores() // self.server_processes)

    @property
    def photo_threads(self) -> int:
        """Cores (onnxruntime intra-op threads) per photo worker: workers x threads <= cores."""
        return max(1, _cores() // (self.server_processes * self.photo_worker_count))

    @property
    def photo_capacity(self) -> int:
        """Photo requests one server process takes at once: being read, or queued for a worker."""
        return self.photo_worker_count + self.photo_queue

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from ``CRIBCOUNT_*`` environment variables, defaults otherwise."""
        values: dict[str, object] = {}
        for name, field in _ENV.items():
            if os.environ.get(name):
                values[field] = os.environ[name]
        return cls(**values)


_ENV = {"CRIBCOUNT_MODELS": "models_dir", "CRIBCOUNT_SERVER_PROCESSES": "server_processes",
        "CRIBCOUNT_PHOTO_WORKERS": "photo_workers", "CRIBCOUNT_PHOTO_QUEUE": "photo_queue",
        "CRIBCOUNT_UPLOAD_TIMEOUT": "upload_timeout_s", "CRIBCOUNT_UPLOAD_MIN_RATE": "upload_min_rate",
        "CRIBCOUNT_UPLOAD_GRACE": "upload_grace_s", "CRIBCOUNT_HEAD_TIMEOUT": "head_timeout_s",
        "CRIBCOUNT_MAX_CONNECTIONS": "max_connections"}


def _cores() -> int:
    """Cores this process may run on (its affinity: a container's or taskset's share)."""
    return len(os.sched_getaffinity(0))
