"""Table surfaces: wood, felt, cloth, stone, painted tops and patterned fabric.

Procedural textures are made from a few octaves of smooth noise; real-photo micro
texture comes from GIMP's pattern files (Debian ``gimp-data``), tiled and mixed in.
The bank is built from fixed seeds, so every process holds the same textures.
"""

from __future__ import annotations

import functools
import os
import struct
from pathlib import Path

import cv2
import numpy as np

GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")
# Patterns that read as a table top, a cloth or a floor (not sky, fire or cartoons).
PATTERN_FILES = ("Wood/pine.pat", "Wood/walnut.pat", "Wood/wood1.pat", "Wood/wood2.pat", "Wood/wood3.pat",
                 "Wood/wood4.pat", "Wood/wood5.pat", "Wood/burlwood.pat", "Wood/corkboard.pat",
                 "Wood/parque1.pat", "Stone/granite1.pat", "Stone/marble1.pat", "Stone/marble2.pat",
                 "Stone/slate.pat", "Stone/pink_marble.pat", "Fabric/burlap.pat", "Paper/paper.pat",
                 "Paper/crinklepaper.pat", "Animal/leather.pat", "Legacy/fibers.pat")
TEX_PX = 768


def read_gimp_pattern(path: Path) -> np.ndarray:
    """A GIMP .pat file as a BGR image (grey and RGB patterns; alpha dropped)."""
    data = path.read_bytes()
    header_size, _version, w, h, bpp = struct.unpack(">IIIII", data[:20])
    px = np.frombuffer(data[header_size:header_size + w * h * bpp], np.uint8).reshape(h, w, bpp)
    if bpp in (1, 2):
        return cv2.cvtColor(np.ascontiguousarray(px[:, :, 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(px[:, :, :3]), cv2.COLOR_RGB2BGR)


def smooth_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Value noise in [0, 1]: random cells upsampled with cubic interpolation."""
    grid = rng.random((cells + 3, cells + 3)).astype(np.float32)
    side = size + size * 3 // cells
    big = cv2.resize(grid, (side, side), interpolation=cv2.INTER_CUBIC)
    o = size // cells
    return np.clip(big[o:o + size, o:o + size], 0, 1)


def fractal(rng: np.random.Generator, size: int, base: int = 4, octaves: int = 5,
            gain: float = 0.5) -> np.ndarray:
    out = np.zeros((size, size), np.float32)
    amp, total = 1.0, 0.0
    for k in range(octaves):
        out += amp * smooth_noise(rng, size, min(size // 2, base * 2 ** k))
        total += amp
        amp *= gain
    return out / total


def _muted(rng: np.random.Generator) -> np.ndarray:
    """A household fabric colour (BGR): any hue, mostly low saturation, dark to light."""
    hsv = np.uint8([[[rng.integers(0, 180),
                      rng.uniform(15, 150) if rng.random() < 0.8 else rng.uniform(150, 230),
                      rng.uniform(30, 230)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _colourize(v: np.ndarray, c0, c1) -> np.ndarray:
    c0, c1 = np.array(c0, np.float32), np.array(c1, np.float32)
    return (c0 + v[..., None] * (c1 - c0)).clip(0, 255).astype(np.uint8)


# Wood tones (BGR): light oak, pine, walnut, cherry, mahogany, dark stain, grey-washed, teak.
WOOD_TONES = ((120, 170, 215), (140, 195, 230), (45, 75, 115), (55, 85, 150), (40, 55, 110), (25, 35, 50),
              (150, 160, 170), (70, 120, 175))


def _wood(rng, n):
    # Grain runs along x: rings are stripes across y, bent by slow noise; fibres are noise
    # stretched along the grain; planks meet in dark seams.
    y = np.linspace(0, 1, n, dtype=np.float32)[:, None] * np.ones((1, n), np.float32)
    bend = cv2.resize(rng.random((6, 3)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC)
    period = rng.uniform(8, 30)
    rings = (np.sin((y * period + bend * rng.uniform(0.5, 2.0)) * np.pi * 2) + 1) / 2
    fibres = cv2.GaussianBlur(rng.random((n, n)).astype(np.float32), (0, 0), sigmaX=12, sigmaY=0.7)
    fibres = (fibres - fibres.min()) / (np.ptp(fibres) + 1e-6)
    streaks = cv2.resize(rng.random((n, 4)).astype(np.float32), (n, n), interpolation=cv2.INTER_LINEAR)
    v = 0.3 * rings ** rng.uniform(1, 3) + 0.4 * fibres + 0.3 * streaks
    base = np.array(WOOD_TONES[int(rng.integers(len(WOOD_TONES)))], np.float32) * rng.uniform(0.85, 1.1)
    img = _colourize(v, base * 0.7, np.minimum(base * 1.25, 255))
    if rng.random() < 0.7:
        planks = int(rng.integers(2, 6))
        for k in range(1, planks):
            yy = int(n * k / planks + rng.normal(0, 4))
            img[max(0, yy - 1):yy + 1] = (img[max(0, yy - 1):yy + 1] * 0.5).astype(np.uint8)
    return img


def _felt(rng, n):
    colours = [(40, 100, 30), (30, 70, 20), (90, 40, 20), (30, 30, 120), (50, 50, 55), (20, 60, 90)]
    c = np.array(colours[int(rng.integers(len(colours)))], np.float32) * rng.uniform(0.6, 1.3)
    v = 0.6 * fractal(rng, n, 8, 5) + 0.4 * rng.random((n, n)).astype(np.float32)
    return _colourize(v, c * 0.75, c * 1.25)


def _cloth(rng, n):
    # A woven cloth: a fine weave plus colour and stripes or checks.
    period = rng.uniform(3, 7)
    x = np.arange(n, dtype=np.float32)
    wx = (np.sin(x * 2 * np.pi / period) + 1) / 2
    weave = 0.5 * wx[None, :] + 0.5 * wx[:, None]
    c = _muted(rng)
    v = 0.25 * weave + 0.5 * fractal(rng, n, 6, 4) + 0.25
    img = _colourize(v, c * 0.6, np.minimum(c * 1.2, 255)).astype(np.float32)
    if rng.random() < 0.5:
        c2 = _muted(rng)
        stripe = rng.uniform(20, 120)
        s = ((x // stripe) % 2).astype(np.float32)
        m = s[None, :] if rng.random() < 0.5 else np.maximum(s[None, :], s[:, None])
        img = img * (1 - m[..., None] * 0.6) + c2 * 0.6 * m[..., None] * (0.5 + v[..., None])
    return img.clip(0, 255).astype(np.uint8)


def _stone(rng, n):
    v = fractal(rng, n, 4, 6, 0.6)
    veins = np.abs(np.sin((fractal(rng, n, 3, 5) * rng.uniform(6, 14)) * np.pi))
    v = 0.6 * v + 0.4 * veins ** rng.uniform(0.3, 1.0)
    light = rng.random() < 0.6
    c0 = rng.uniform(150, 220, 3) if light else rng.uniform(20, 80, 3)
    c1 = np.minimum(c0 + rng.uniform(30, 70), 255) if light else c0 + rng.uniform(40, 100)
    if light:
        c0, c1 = c0 * 0.8, c1
    return _colourize(v, c0, c1)


def _painted(rng, n):
    # Plain table tops: white, grey, beige or black laminate with faint texture.
    tones = [(235, 235, 232), (220, 225, 230), (200, 210, 220), (190, 200, 205), (60, 60, 60), (30, 30, 32),
             (170, 200, 225), (245, 245, 245)]
    c = np.array(tones[int(rng.integers(len(tones)))], np.float32) * rng.uniform(0.85, 1.05)
    v = 0.7 * fractal(rng, n, 2, 3) + 0.3 * rng.random((n, n)).astype(np.float32) * 0.3
    return _colourize(v, c * 0.92, np.minimum(c * 1.04, 255))


def _fabric_print(rng, n):
    # A printed throw or bedspread: a plain ground (often dark) with a scattered motif.
    ground = _muted(rng) * (rng.uniform(0.2, 0.5) if rng.random() < 0.6 else 1.0)
    ink = [_muted(rng) for _ in range(2)]
    img = np.empty((n, n, 3), np.float32)
    img[:] = ground
    for k, c in enumerate(ink):
        a = fractal(rng, n, int(rng.integers(4, 12)), 3)
        m = (a > np.quantile(a, rng.uniform(0.65, 0.85) + 0.08 * k)).astype(np.float32)
        m = cv2.GaussianBlur(m, (0, 0), 1.5)[..., None]
        img = img * (1 - m) + c * m
    weave = _cloth(rng, n).astype(np.float32) / 255
    return (img * (0.8 + 0.3 * weave.mean(axis=2, keepdims=True))).clip(0, 255).astype(np.uint8)


def _tiled_pattern(rng, n, pattern: np.ndarray):
    scale = rng.uniform(1.0, 2.5)
    p = cv2.resize(pattern, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    reps = (n // p.shape[0] + 2, n // p.shape[1] + 2)
    tile = np.tile(p, (reps[0], reps[1], 1))[:n, :n].astype(np.float32)
    # Break the repetition with a low-frequency brightness field.
    tile *= (0.8 + 0.4 * fractal(rng, n, 3, 3))[..., None]
    return tile.clip(0, 255).astype(np.uint8)


GENERATORS = {"wood": _wood, "felt": _felt, "cloth": _cloth, "stone": _stone, "painted": _painted,
              "fabric": _fabric_print}
# How often each kind of surface is drawn; plain painted tops and wood are the commonest tables.
SURFACE_WEIGHTS = {"wood": 0.25, "painted": 0.24, "cloth": 0.16, "fabric": 0.06, "felt": 0.09, "stone": 0.08,
                   "pattern": 0.12}


@functools.lru_cache(maxsize=1)
def _patterns() -> tuple[np.ndarray, ...]:
    out = []
    for f in PATTERN_FILES:
        p = GIMP_PATTERNS / f
        if p.exists():
            try:
                out.append(read_gimp_pattern(p))
            except (OSError, ValueError, struct.error):
                pass
    return tuple(out)


BANK_VERSION = 4


@functools.lru_cache(maxsize=1)
def _bank() -> dict[str, np.ndarray]:
    """All textures, made once into the cache (``textures_v<N>.npz``) and memory-mapped after."""
    from training.synth.decks import cache_dir

    path = cache_dir() / f"textures_v{BANK_VERSION}.npy"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        arr = np.stack([make_texture(k, v) for k in BANK_KINDS for v in range(VARIANTS)])
        tmp = path.with_suffix(f".tmp{os.getpid()}.npy")
        np.save(tmp, arr)
        tmp.rename(path)
    arr = np.load(path, mmap_mode="r")
    return {k: arr[i * VARIANTS:(i + 1) * VARIANTS] for i, k in enumerate(BANK_KINDS)}


def texture(kind: str, variant: int) -> np.ndarray:
    """One table texture (TEX_PX square, BGR), the same in every process."""
    return _bank()[kind][variant % VARIANTS]


def make_texture(kind: str, variant: int) -> np.ndarray:
    """Draw one texture from its fixed seed."""
    rng = np.random.default_rng([hash_kind(kind), variant])
    if kind == "pattern":
        pats = _patterns()
        if not pats:
            return _painted(rng, TEX_PX)
        return _tiled_pattern(rng, TEX_PX, pats[variant % len(pats)])
    return GENERATORS[kind](rng, TEX_PX)


def hash_kind(kind: str) -> int:
    return sum(ord(c) * 31 ** i for i, c in enumerate(kind)) % 2**31


VARIANTS = 12
BANK_KINDS = (*GENERATORS, "pattern")


def pick_surface(rng: np.random.Generator) -> tuple[str, np.ndarray, np.ndarray]:
    """A table texture and a colour gain for it (so 12 variants become many tables)."""
    kinds = list(SURFACE_WEIGHTS)
    p = np.array([SURFACE_WEIGHTS[k] for k in kinds])
    kind = kinds[int(rng.choice(len(kinds), p=p / p.sum()))]
    tex = texture(kind, int(rng.integers(VARIANTS)))
    gain = (rng.uniform(0.85, 1.15, 3) * rng.uniform(0.8, 1.15)).astype(np.float32)
    return kind, tex, gain
