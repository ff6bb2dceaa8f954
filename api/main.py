"""The HTTP service: :func:`create_app` assembles routers, limits and the phone page.

Run it with ``cribcount serve`` (or ``uvicorn --factory api.main:create_app``).
The models load once, in the lifespan, before the first request; a test passes
its own ``recognizer`` instead.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.formparsers import MultiPartParser

from api.admission import Admission, PhotoGate
from api.input_caps import InputCaps
from api.limits import BodyLimit
from api.page_headers import PAGE_HEADERS, SafeHeaders
from api.recognizer import LoadedRecognizer, PhotoRecognizer
from api.routers import count, discard, health, peg, practice, referee, score
from api.schemas import one_line
from api.settings import Settings
from api.workers import PhotoReader, ProcessReader, ThreadReader, WorkerLimits

STATIC_DIR = Path(__file__).resolve().parent / "static"

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]

DESCRIPTION = """Point a phone at a cribbage hand, get the count.

`POST /api/count` takes a photo of the 4 hand (or crib) cards and the starter and returns the cards
with their boxes, the starter, every scoring item and the spoken count. `POST /api/score` counts
typed cards (after correcting a misread card); both check a claimed count (muggins).
Photos are processed in memory and never stored.
"""


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    """Request validation errors as one line, like every other 4xx: ``{"detail": "claim: ..."}``."""
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"detail": one_line(list(exc.errors()))}, status_code=422)


def create_app(settings: Settings | None = None, recognizer: PhotoRecognizer | None = None) -> FastAPI:
    """The service. ``recognizer`` replaces the ONNX models (loaded from ``settings.models_dir`` in
    photo worker processes) and reads photos in this process unless ``settings.photo_workers`` is set."""
    settings = settings or Settings.from_env()
    # FastAPIOffline: FastAPI with /docs and /redoc served from the package's own copies of their
    # scripts, where FastAPI's load them from a CDN (a blank page offline).
    app = FastAPIOffline(title="cribcount", version="0.1.0", summary="Cribbage show counter",
                         description=DESCRIPTION, lifespan=_lifespan(settings, recognizer))
    # Innermost of the limits: a body is counted as it arrives, after the size limit has passed it.
    app.add_middleware(InputCaps, drain_timeout_s=settings.upload_timeout_s,
                       drain_max_bytes=settings.max_body_bytes)
    _add_limits(app, settings)
    app.add_middleware(SafeHeaders)  # outermost: a refusal by the limits gets the headers too
    app.add_exception_handler(RequestValidationError, _validation_error)
    for router in (count.router, score.router, peg.router, health.router, discard.router, practice.router,
                   referee.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        """The phone page."""
        return FileResponse(STATIC_DIR / "index.html", headers={**PAGE_HEADERS, "Cache-Control": "no-cache"})

    _add_install_files(app)
    return app


# What a browser asks for at the root to install the page: a service worker served from / covers the
# whole page (one under /static/ could only control /static/), the manifest, and /favicon.ico.
INSTALL_FILES = {
    "/sw.js": ("sw.js", "text/javascript"),
    "/manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json"),
    "/favicon.ico": ("icons/favicon.ico", "image/x-icon"),
}


def _add_install_files(app: FastAPI) -> None:
    """Serve INSTALL_FILES; no-cache, so a new service worker or manifest is seen on the next visit."""
    for route, (name, media_type) in INSTALL_FILES.items():
        app.add_api_route(route, _file_route(STATIC_DIR / name, media_type), methods=["GET"],
                          include_in_schema=False)


def _file_route(path: Path, media_type: str) -> Callable[[], FileResponse]:
    """A route answering one fixed file (a closure: a default argument would become a query parameter)."""

    def serve() -> FileResponse:
        return FileResponse(path, media_type=media_type, headers={"Cache-Control": "no-cache"})

    return serve


def _lifespan(settings: Settings, recognizer: PhotoRecognizer | None) -> Lifespan:
    """Start the photo reader before the first request (the models load there) and stop it at shutdown."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        reader: PhotoReader
        if recognizer is not None and settings.photo_workers is None:
            loaded, reader = LoadedRecognizer(recognizer), ThreadReader(recognizer)
        else:  # photos are decoded and read in worker processes, which load the models
            limits = WorkerLimits(settings.photo_worker_count, settings.photo_threads,
                                  settings.photo_timeout_s, settings.photo_memory_mb)
            reader = ProcessReader(settings.models_dir, limits, recognizer)
            loaded = LoadedRecognizer(recognizer, await reader.load_error(), in_workers=True)
        if loaded.error:
            logging.getLogger("uvicorn.error").warning("%s; /api/count will answer 503", loaded.error)
        app.state.recognizer, app.state.reader = loaded, reader
        try:
            yield
        finally:
            reader.close()

    return lifespan


PHOTO_ROUTES = frozenset({"/api/count", "/api/discard", "/api/referee"})
"""The routes a photo is sent to: the admission gate turns them away with 503 when the workers are full."""


def _add_limits(app: FastAPI, settings: Settings) -> None:
    """What a request may cost: its body's size and arrival time, and a place among the photos."""
    # Keep an upload up to the limit in RAM: Starlette would otherwise spool anything over 1 MB
    # to a temporary file, and photos are never to be written to disk. (Process-wide setting.)
    MultiPartParser.spool_max_size = max(MultiPartParser.spool_max_size, settings.max_body_bytes)
    app.add_middleware(BodyLimit, max_body_bytes=settings.max_body_bytes,
                       photo_limit=settings.max_photo_bytes, timeout_s=settings.upload_timeout_s,
                       pace=settings.upload_pace)
    app.state.admission = Admission(settings.photo_capacity, settings.photo_worker_count,
                                    settings.photo_target_s, settings.retry_after_s)
    app.add_middleware(PhotoGate, admission=app.state.admission, paths=PHOTO_ROUTES,
                       drain_timeout_s=settings.upload_timeout_s,
                       drain_max_bytes=8 * settings.max_body_bytes)  # added last: runs first
