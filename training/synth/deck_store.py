"""How rasterized decks are kept on disk: lossless PNG faces, decoded on use, under a size cap.

Why PNG: the cache used to hold every deck as raw arrays at two widths, about 95 MB a deck, so the
~330 registered decks filled 31 GB. The same 512 px faces as PNG take 1-9 MB a deck (measured:
proc-classic 1.1 MB, kde-penguins 3.3 MB, gnome-orell 8.9 MB), decode in about 10 ms a face and
come back byte for byte, so renders do not change. Smaller widths are resized from the stored
one on use, exactly as the old cache made its 256 px level.

Least recently used decks are deleted once the cache passes ``$CRIBCOUNT_CACHE_MAX_GB`` (default
:data:`DEFAULT_MAX_GB`); a deck is "used" when a process loads it (the mtime of its ``used`` file).
"""

from __future__ import annotations

import os
import shutil
import time
from collections import OrderedDict
from collections.abc import Collection
from pathlib import Path

import cv2
import numpy as np

FACES_FILE = "faces.pngs"
"""One deck's faces: PNG files back to back; their offsets are in ``render.json``."""
USED_STAMP = "used"
DEFAULT_MAX_GB = 4.0
# Enough decoded faces for a few scenes of one deck (a scene shows at most ~12 faces and backs),
# bounded so a worker that meets every deck in a long run holds at most ~150 MB of them.
DECODED_FACES = 96
# A build folder this old belongs to a process that died (a deck builds in seconds to minutes).
STALE_TMP_S = 6 * 3600

_DECODED: OrderedDict[tuple[str, int, int], np.ndarray] = OrderedDict()


def write_faces(folder: Path, stack: np.ndarray) -> list[int]:
    """Write ``(N, H, W, 4)`` faces as PNGs into ``folder/faces.pngs``; returns the N + 1 byte offsets."""
    offsets = [0]
    with open(folder / FACES_FILE, "wb") as f:
        for face in stack:
            ok, buf = cv2.imencode(".png", face, [cv2.IMWRITE_PNG_COMPRESSION, 3])
            if not ok:
                raise RuntimeError(f"could not encode a face of {folder.name} as PNG")
            f.write(buf.tobytes())
            offsets.append(offsets[-1] + len(buf))
    return offsets


class FaceStack:
    """A deck's faces at one width, read like the ``(N, H, W, 4)`` BGRA array the cache used to hold.

    ``stack[i]`` decodes face ``i`` (read-only); widths other than the stored one are resized
    from it with ``INTER_AREA``, as the old cache's smaller level was.
    """

    dtype = np.dtype(np.uint8)
    ndim = 4

    def __init__(self, path: Path, offsets: list[int], shape: tuple[int, int, int, int],
                 source: FaceStack | None = None):
        self.path, self.offsets, self.shape, self.source = path, offsets, tuple(shape), source

    @classmethod
    def resized(cls, source: FaceStack, width: int) -> FaceStack:
        n, h, w, c = source.shape
        return cls(source.path, source.offsets, (n, round(h * width / w), width, c), source)

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, key: int | np.integer | slice) -> np.ndarray:
        if isinstance(key, slice):
            return np.stack([self[i] for i in range(*key.indices(len(self)))])
        i = int(key)
        if not -len(self) <= i < len(self):
            raise IndexError(f"face {i} of {len(self)}")
        return self._face(i % len(self))

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        arr = self[:]
        return arr if dtype is None else arr.astype(dtype)

    def _face(self, i: int) -> np.ndarray:
        key = (str(self.path), self.shape[2], i)
        face = _DECODED.get(key)
        if face is not None:
            _DECODED.move_to_end(key)
            return face
        if self.source is not None:
            face = cv2.resize(self.source[i], (self.shape[2], self.shape[1]), interpolation=cv2.INTER_AREA)
        else:
            with open(self.path, "rb") as f:
                f.seek(self.offsets[i])
                data = f.read(self.offsets[i + 1] - self.offsets[i])
            face = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
        if face is None or face.shape != self.shape[1:]:
            raise RuntimeError(f"{self.path}: face {i} is damaged; delete the folder to rebuild it")
        face.flags.writeable = False
        _DECODED[key] = face
        if len(_DECODED) > DECODED_FACES:
            _DECODED.popitem(last=False)
        return face


# --- size cap ---------------------------------------------------------------------------------

def max_cache_bytes() -> int:
    """``$CRIBCOUNT_CACHE_MAX_GB`` (default 4) in bytes. Raises ``ValueError`` when it is not a number > 0."""
    text = os.environ.get("CRIBCOUNT_CACHE_MAX_GB", "").strip()
    try:
        gb = float(text) if text else DEFAULT_MAX_GB
    except ValueError:
        raise ValueError(f"CRIBCOUNT_CACHE_MAX_GB must be a number of GB, got {text!r}") from None
    if not gb > 0:
        raise ValueError(f"CRIBCOUNT_CACHE_MAX_GB must be more than 0, got {text!r}")
    return int(gb * 1e9)


def mark_used(folder: Path) -> None:
    """Note that a deck was just used, for the least-recently-used order of :func:`evict`."""
    stamp = folder / USED_STAMP
    try:
        os.utime(stamp)
    except FileNotFoundError:
        stamp.touch()


def tree_bytes(path: Path) -> int:
    """Bytes of the files under ``path`` (or of ``path`` itself)."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _last_used(folder: Path) -> float:
    for p in (folder / USED_STAMP, folder):
        try:
            return p.stat().st_mtime
        except FileNotFoundError:
            continue
    return 0.0


def evict(root: Path, max_bytes: int, keep: Collection[str] = ()) -> list[str]:
    """Delete least recently used deck folders until ``root`` holds at most ``max_bytes``.

    Never deletes a folder named in ``keep`` (the decks of the running render) nor other files
    (the texture bank); build folders left by dead processes go first. Returns what was deleted.
    """
    if not root.is_dir():
        return []
    now = time.time()
    removed = []
    for tmp in root.glob(".*.tmp*"):
        if tmp.is_dir() and now - tmp.stat().st_mtime > STALE_TMP_S:
            shutil.rmtree(tmp, ignore_errors=True)
            removed.append(tmp.name)
    entries = [p for p in root.iterdir() if not p.name.startswith(".")]
    sizes = {p.name: tree_bytes(p) for p in entries}
    total = sum(sizes.values()) + sum(tree_bytes(p) for p in root.glob(".*"))
    decks = sorted((p for p in entries if p.is_dir() and p.name not in keep), key=_last_used)
    for folder in decks:
        if total <= max_bytes:
            break
        shutil.rmtree(folder, ignore_errors=True)
        total -= sizes[folder.name]
        removed.append(folder.name)
    return removed


__all__ = ["FaceStack", "write_faces", "max_cache_bytes", "mark_used", "tree_bytes", "evict",
           "DEFAULT_MAX_GB"]
