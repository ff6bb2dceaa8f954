"""GET /api/health (liveness: answers at once under any load) and GET /api/ready (readiness).

Both are async and touch no thread pool or photo worker, so a server busy reading photos still
answers them in milliseconds: a load balancer tells "alive but busy" from "down".
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.deps import LoadedDep
from api.schemas import HealthOut, ReadyOut

router = APIRouter(prefix="/api", tags=["service"])


@router.get("/health", response_model=HealthOut, summary="Service health")
async def health(loaded: LoadedDep) -> HealthOut:
    """Always 200 while the service runs; ``models_loaded`` says whether /api/count can work."""
    return HealthOut(models_loaded=loaded.ready, detail=loaded.error)


@router.get("/ready", response_model=ReadyOut, summary="Ready for photos",
            responses={503: {"model": ReadyOut,
                             "description": "Models not loaded, the photo workers being replaced, "
                             "or the photo queue is full."}})
async def ready(request: Request, loaded: LoadedDep) -> JSONResponse:
    """200 when a photo sent now would be taken: the models are loaded, the photo workers running (not
    being replaced after a crash) and the queue has room."""
    admission = request.app.state.admission
    workers_down = request.app.state.reader.down() if loaded.ready else None
    body = ReadyOut(ready=loaded.ready and not workers_down and not admission.full,
                    models_loaded=loaded.ready, photos_in_flight=admission.in_flight,
                    photo_capacity=admission.capacity, refused_busy=admission.refused,
                    detail=loaded.error or workers_down)
    return JSONResponse(body.model_dump(), status_code=200 if body.ready else 503)
