"""GET /api/health: up, and whether photos can be read (the models loaded at start-up)."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import LoadedDep
from api.schemas import HealthOut

router = APIRouter(prefix="/api", tags=["service"])


@router.get("/health", response_model=HealthOut, summary="Service health")
def health(loaded: LoadedDep) -> HealthOut:
    """Always 200 while the service runs; ``models_loaded`` says whether /api/count can work."""
    return HealthOut(models_loaded=loaded.recognizer is not None, detail=loaded.error)
