"""Where the photo routes decode and read a photo: in worker processes, bounded in time and memory.

The header checks (:mod:`vision.formats`) refuse every known bomb before a pixel is decoded; what
remains (a photo under the limits that is still slow or greedy to decode, a model run that goes
wrong) runs in a pool of worker processes (pebble's ``ProcessPool``: it kills a worker whose task
passes its timeout and starts a new one). Each worker loads the models once, caps its own data
memory (``RLIMIT_DATA``) at what it used after loading plus ``memory_mb``, and holds ``threads`` CPU
cores that no other worker holds (CPU affinity: onnxruntime sizes its thread pool to it, so workers x
threads = cores however many server processes share the machine). The worst photo costs one worker
``timeout_s`` and ``memory_mb``, and gets a 422 with the reason; a worker lost to anything else
(killed from outside) is a 503 with Retry-After, since the same photo sent again is read; a pool that
pebble gives up on (a worker killed before it took its photo) is replaced by a fresh one. The server
process itself never decodes a stranger's pixels. Memory a burst took comes back: a worker hands
freed heap back to the system after each photo and is replaced after :data:`PHOTOS_PER_WORKER`.

A recognizer handed to ``create_app`` (a test's double, or code embedding the service) runs in
the server process instead (:class:`ThreadReader`), unless settings ask for workers.
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import resource
import signal
import time
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from pebble import ProcessExpired, ProcessPool
from starlette.concurrency import run_in_threadpool

from api.cores import claim_cores
from api.recognizer import PhotoRecognizer, load_recognizer
from vision.decode import UPLOAD, ImageError, decode_photo
from vision.detections import Detections, Expected
from vision.table_read import read_table_cards, table_reader


@dataclass(frozen=True)
class PhotoReading:
    """What a photo held, and its size (the boxes are in its pixels)."""

    detections: Detections
    original_size: tuple[int, int]
    seconds: float = 0.0
    """How long the decode and recognition took (in the worker: no queue wait)."""


@dataclass(frozen=True)
class WholeTable:
    """A photo of the whole table at the show (13-21 cards): read with the table's settings, finer
    than a hand's, and again closer where in doubt (:func:`vision.table_read.read_table_cards`), as
    ``cribcount referee`` reads it."""

    players: int
    five_card: bool = False


Holds = Expected | WholeTable | None
"""What the sender says a photo holds, so how it is read: a show of so many cards or nothing said
(one hand's settings), or the whole table."""


class PhotoTooCostly(ImageError):
    """The photo passed the time or memory a photo may take to decode and read."""


class ModelsNotLoaded(RuntimeError):
    """The worker has no recognizer: the model files are missing or broken (HTTP 503)."""


class WorkerLost(RuntimeError):
    """The worker reading the photo was stopped from outside (killed, the machine short of memory),
    not by the photo: the same photo sent again is read (HTTP 503 with Retry-After)."""


# A decoder that crashes on a file (a fault or an abort: C++'s failed allocation past the memory cap)
# stops its worker with one of these; a kill from outside (SIGKILL, SIGTERM) or an exit is not the photo.
_CRASH_SIGNALS = frozenset({signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT, signal.SIGFPE, signal.SIGILL})


def _worker_lost(exc: ProcessExpired) -> Exception:
    """What a worker's death during a photo means for the sender: its photo crashed the decoder (422),
    or the worker was lost to something else (503, send it again)."""
    code = exc.exitcode or 0
    if code < 0 and -code in _CRASH_SIGNALS:
        return PhotoTooCostly("the photo crashed the worker decoding it (a damaged file, or past the memory "
                              "a photo may use); send it again as a smaller JPEG")
    why = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
    return WorkerLost(f"the photo worker reading the photo stopped ({why}) and is being replaced; "
                      f"send the photo again")


_log = logging.getLogger("uvicorn.error")

PHOTOS_PER_WORKER = 500
"""Photos a worker reads before it is replaced by a fresh one: what onnxruntime's arenas and the
decoders kept of the largest photos goes with it. A fresh worker loads the models in about a second
while the others read on; at 2-4 photos a second per worker that is once every few minutes."""


class PhotoReader(Protocol):
    """What the photo routes need: a photo's bytes in, its cards out."""

    async def read(self, data: bytes, holds: Holds) -> PhotoReading: ...

    def down(self) -> str | None:
        """Why a photo sent now could not be read at once (``None``: it could)."""
        ...

    def close(self) -> None: ...


def read_photo_bytes(recognizer: PhotoRecognizer, data: bytes, holds: Holds) -> PhotoReading:
    """Decode an uploaded photo (upload limits) and recognize its cards: a whole table with the
    table's settings and models shared (:func:`vision.table_read.table_reader`), else as one hand."""
    t = time.perf_counter()
    if isinstance(holds, WholeTable):
        reader = table_reader(recognizer)
        decoded = decode_photo(data, min_long_side=reader.config.min_long_side, limits=UPLOAD)
        detections = read_table_cards(decoded, holds.players, five_card=holds.five_card, reader=reader)
    else:
        decoded = decode_photo(data, min_long_side=recognizer.config.min_long_side, limits=UPLOAD)
        detections = recognizer.recognize_photo(decoded, holds)
    return PhotoReading(detections, decoded.original_size, time.perf_counter() - t)


@dataclass(frozen=True)
class ThreadReader:
    """Photos read in the server process's thread pool, by a recognizer handed over in memory."""

    recognizer: PhotoRecognizer

    async def read(self, data: bytes, holds: Holds) -> PhotoReading:
        return await run_in_threadpool(read_photo_bytes, self.recognizer, data, holds)

    def down(self) -> str | None:
        """Never: the recognizer is in this process."""
        return None

    def close(self) -> None:
        """Nothing to stop."""


@dataclass(frozen=True)
class WorkerLimits:
    """How many worker processes read photos, and what one photo may cost in one of them."""

    workers: int
    threads: int
    """CPU cores (so onnxruntime threads) each worker holds."""
    timeout_s: float
    memory_mb: int


class ProcessReader:
    """Photos read by ``limits.workers`` worker processes, each with the models loaded once.

    pebble gives up on a pool whose worker dies before it has taken its task ("All workers expired":
    a worker killed at its first tick of work, or while idle) and refuses every task after. Such a
    pool is replaced by a fresh one, once, by whoever finds it broken first (a photo, or the watch
    the start-up begins); photos meanwhile wait for it, and :meth:`down` says so to ``/api/ready``.
    """

    def __init__(self, models_dir: Path, limits: WorkerLimits,
                 recognizer: PhotoRecognizer | None = None) -> None:
        self.limits = limits
        self._start_args = (str(models_dir), recognizer, limits.threads, limits.memory_mb)
        self._pool = self._new_pool()
        self._replacing = asyncio.Lock()
        self._watch: asyncio.Task[None] | None = None

    def _new_pool(self) -> ProcessPool:
        # spawn, not fork: the server process runs threads (uvicorn, onnxruntime) that a fork copies
        # mid-flight; the workers import the runtime afresh.
        return ProcessPool(max_workers=self.limits.workers, max_tasks=PHOTOS_PER_WORKER,
                           initializer=_start_worker, initargs=self._start_args,
                           context=multiprocessing.get_context("spawn"))

    async def load_error(self) -> str | None:
        """Why the workers have no recognizer (``None``: loaded); waits for a worker to start. Called
        by the start-up, in the event loop: from then on a watch replaces a pool that breaks while idle."""
        if self._watch is None:
            self._watch = asyncio.get_running_loop().create_task(self._watch_pool())
        return await asyncio.wrap_future(self._pool.submit(_load_error, None))

    def down(self) -> str | None:
        """Why a photo sent now would wait for workers (``None``: it would not)."""
        if self._replacing.locked() or not self._pool.active:
            return "the photo workers are being replaced"
        return None

    async def read(self, data: bytes, holds: Holds) -> PhotoReading:
        pool = self._pool
        if not pool.active:
            pool = await self._replace(pool)
        try:
            future = pool.submit(_read_in_worker, self.limits.timeout_s, data, holds)
        except (RuntimeError, BrokenProcessPool) as exc:  # broke since the check: replace it for the next
            raise await self._lost(pool, exc) from None
        try:
            return await asyncio.wrap_future(future)
        except FutureTimeout:
            raise PhotoTooCostly(f"the photo took over {self.limits.timeout_s:g} s to decode and read; "
                                 f"send a smaller JPEG") from None
        except ProcessExpired as exc:  # the worker is replaced; was it the photo?
            raise _worker_lost(exc) from None
        except (ModelsNotLoaded, ImageError):
            raise
        except (BrokenProcessPool, RuntimeError) as exc:  # pebble gave up on the pool, not on the photo
            raise await self._lost(pool, exc) from None
        except asyncio.CancelledError:
            future.cancel()
            raise

    async def _lost(self, broken: ProcessPool, exc: Exception) -> WorkerLost:
        """``broken`` replaced, and what the photo it failed is told."""
        await self._replace(broken)
        return WorkerLost(f"the photo workers stopped ({exc}) and were replaced; send the photo again")

    async def _replace(self, broken: ProcessPool) -> ProcessPool:
        """A fresh pool for ``broken``, started once: who comes later while it starts waits for it."""
        async with self._replacing:
            if self._pool is broken:
                _log.warning("the photo workers stopped (pebble gave up on the pool); starting new ones")
                await asyncio.to_thread(_stop_pool, broken)  # first: its live workers free their cores
                fresh = self._new_pool()
                try:  # one worker up with its models before photos go to it
                    await asyncio.wrap_future(fresh.submit(_load_error, None))
                except (BrokenProcessPool, RuntimeError, ProcessExpired) as exc:
                    _log.warning("the new photo workers did not start (%s); trying again", exc)
                self._pool = fresh
            return self._pool

    async def _watch_pool(self) -> None:
        """Replace a pool that broke with no photo in it (a worker killed while idle)."""
        while True:
            await asyncio.sleep(WATCH_S)
            if not self._pool.active:
                await self._replace(self._pool)

    def close(self) -> None:
        """Stop the workers (at shutdown)."""
        if self._watch is not None:
            self._watch.cancel()
        _stop_pool(self._pool)


WATCH_S = 1.0
"""How often the start-up's watch looks whether the pool broke while no photo was in it."""


def _stop_pool(pool: ProcessPool) -> None:
    pool.stop()
    pool.join(timeout=10)


# -- inside a worker process ----------------------------------------------------------------------

_recognizer: PhotoRecognizer | None = None
_error: str | None = None
_memory_mb = 0


def _start_worker(models_dir: str, recognizer: PhotoRecognizer | None, threads: int, memory_mb: int) -> None:
    """Hold free cores at a lower priority, load the models, then cap this process's data memory."""
    global _recognizer, _error, _memory_mb
    claim_cores(threads)
    # Below the server process: its event loop (uploads, /api/health) must get a core at once
    # while the workers keep every core busy with photos.
    os.nice(10)
    from PIL import Image

    # Pillow refuses, from the header, images over twice this: the upload limit, in this process.
    Image.MAX_IMAGE_PIXELS = UPLOAD.pixels // 2
    if recognizer is None:
        loaded = load_recognizer(Path(models_dir))
        recognizer, _error = loaded.recognizer, loaded.error
    _recognizer, _memory_mb = recognizer, memory_mb
    _cap_data_memory(memory_mb)


def _load_error() -> str | None:
    return _error


def _read_in_worker(data: bytes, holds: Holds) -> PhotoReading:
    if _recognizer is None:
        raise ModelsNotLoaded(_error or "the card recognizer is not loaded")
    try:
        return read_photo_bytes(_recognizer, data, holds)
    except Exception as exc:
        # Past the memory cap: a MemoryError, or OpenCV's "Insufficient memory" in a cv2.error mid-decode.
        if isinstance(exc, MemoryError) or ("memory" in str(exc).lower() and not isinstance(exc, ImageError)):
            raise PhotoTooCostly(f"decoding the photo took more than the {_memory_mb} MB a photo may "
                                 f"use; send a smaller JPEG") from None
        raise
    finally:
        _return_freed_memory()


def _return_freed_memory() -> None:
    """Hand the heap a photo freed back to the system (glibc keeps it for reuse otherwise: a worker's
    RSS stayed at its largest photo's). About a millisecond; nothing where the C library is not glibc."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _cap_data_memory(memory_mb: int) -> None:
    """Limit heap and private mappings to what the loaded models use plus ``memory_mb``."""
    used = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmData:"):
            used = int(line.split()[1]) * 1024
    if used:
        _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        limit = used + memory_mb * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
