"""Card art: the deck registry, a raster cache of every deck's faces, and index boxes.

A deck is 52 faces plus at least one back, drawn by an installed SVG deck (Debian
``gnome-cards-data`` / ``kdegames-card-data-kf5``, the npm package
``@heruka_urgyen/react-playing-cards``) or by :mod:`training.synth.procedural`.
Each deck is rasterized once into the cache (``$CRIBCOUNT_CACHE`` or
``data/cache/synth``): ``faces_<W>.npy`` holds ``(52 + backs, H, W, 4)`` RGBA
faces in :attr:`Card.index` order followed by backs, and ``meta.json`` the two
index boxes of every face (rank+suit glyph group in the top-left corner and its
rotated copy in the bottom-right), as fractions of the face.

Index boxes of SVG decks are found by image analysis (:func:`find_index_boxes`)
and checked by eye on ``cribcount synth --deck-sheet``; procedural decks know theirs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import JACK, KING, QUEEN, SUITS, Card, Suit

REPO_ROOT = Path(__file__).resolve().parents[2]
GNOME_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
NPM_DIR = REPO_ROOT / "scripts" / "npm" / "node_modules"
HERUKA_DIR = NPM_DIR / "@heruka_urgyen" / "react-playing-cards" / "src" / "images"

# Face widths kept in the cache: 256 px serves scenes up to ~1000 px wide (cards are at
# most ~35% of the width), 512 px the phone-size ones.
LEVELS_PX = (256, 512)
# Bump RENDER_VERSION when the art changes, BOXES_VERSION when the index finder does.
RENDER_VERSION = 1
# Procedural decks re-render when their drawing code changes.
PROC_VERSION = 3
BOXES_VERSION = 8

_GNOME_SUIT = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart", Suit.SPADES: "spade"}
_RANK_WORD = {JACK: "jack", QUEEN: "queen", KING: "king"}


def cache_dir() -> Path:
    """Where rasterized decks live: ``$CRIBCOUNT_CACHE`` or ``<repo>/data/cache/synth``."""
    return Path(os.environ.get("CRIBCOUNT_CACHE") or REPO_ROOT / "data" / "cache" / "synth")


@dataclass(frozen=True)
class DeckSpec:
    """One deck design and where its art comes from."""

    name: str
    """Stable name used in labels and splits, e.g. ``gnome-paris``."""
    family: str
    """``gnome``, ``kde``, ``npm`` or ``procedural``."""
    path: str = ""
    """The SVG(Z) file, or the folder of per-card SVG files."""
    ids: str = ""
    """How a card's SVG element or file is named: ``gnome``, ``kde``, ``files`` (``AS.svg``, back one
    folder up) or ``numbered`` (``1s.svg``, ``back.svg`` beside them)."""
    params: dict = field(default_factory=dict, hash=False, compare=False)
    """Procedural drawing parameters, or overrides for the index finder (``gap``, ``zone``)."""

    def element_id(self, card: Card) -> str:
        if self.ids == "gnome":
            rank = _RANK_WORD.get(card.rank, str(card.rank))
            return f"{_GNOME_SUIT[card.suit]}_{rank}"
        if self.ids == "kde":
            rank = _RANK_WORD.get(card.rank, str(card.rank))
            return f"{rank}_{_GNOME_SUIT[card.suit]}"
        if self.ids == "files":
            sym = {1: "A", 10: "T", JACK: "J", QUEEN: "Q", KING: "K"}.get(card.rank, str(card.rank))
            return f"{sym}{card.suit.value}.svg"
        if self.ids == "numbered":
            return f"{card.rank}{card.suit.value.lower()}.svg"
        raise ValueError(f"deck {self.name} has no element ids")

    @property
    def available(self) -> bool:
        return self.family == "procedural" or Path(self.path).exists()


def _gnome(name: str, **params) -> DeckSpec:
    return DeckSpec(f"gnome-{name}", "gnome", str(GNOME_DIR / f"{name}.svgz"), "gnome", params)


def _kde(folder: str, file: str, **params) -> DeckSpec:
    return DeckSpec(f"kde-{folder}", "kde", str(KDE_DIR / f"svg-{folder}" / file), "kde", params)


def _heruka(style: str, **params) -> DeckSpec:
    return DeckSpec(f"npm-heruka-{style}", "npm", str(HERUKA_DIR / style), "files", params)


# French-suited designs with English indices (A 2..10 J Q K). Left out on purpose:
# German/Swiss/Italian/tarot suits (berlin, swiss-xvii, tarocco, xskat-german), decks that
# index the queen "D" or the ace "T" or "1" (lattmann, rheinland, atlasnye, slavic_costumes,
# ancient_french),
# duplicates of listed art (anglo_bitmap, gnomangelo_bitmap), svg-future (not cards) and
# guyenne-classic (courts carry no rank index), tango_nuevo (faces cut off), the oxygen decks (one rank index only, top right), konqi-modern and xskat-french (their SVGs have no size: rsvg-convert cannot cut cards out).
SVG_DECKS: tuple[DeckSpec, ...] = (
    _gnome("anglo"),
    _gnome("anglo_modern"),
    _gnome("anglo_modern_4_color"),
    _gnome("anglo_poker"),
    _gnome("bellot", max_h=0.3),
    _gnome("dondorf"),
    _gnome("gnomangelo"),
    _gnome("neoclassical"),
    _gnome("neoclassical_4_color"),
    _gnome("orell"),
    _gnome("ornamental", max_h=0.3, zone_h=0.4, zone_w=0.35),
    _gnome("paris"),
    _gnome("plastic"),
    _gnome("simplistic"),
    _gnome("tango", suit_gap=-1),  # rank only: its corner suit sits in the other top corner
    _gnome("tigullio"),
    _kde("ancient-egyptians", "Ancient_Egyptians.svgz"),
    _kde("gm-paris", "paris.svgz"),
    _kde("jolly-royal", "jolly-royal.svgz"),
    _kde("nicu-white", "white.svgz", max_h=0.3, zone_h=0.4, zone_w=0.35),
    _kde("penguins", "penguins.svgz"),
    _kde("standard", "standard.svgz"),
    _kde("tigullio-international", "tigullio-international.svgz"),
    _heruka("2color"),
    _heruka("4color"),
)

# Never in train or val splits; the test split draws only from these. One of each family.
# Chosen so no training deck shares their art: gnome-tigullio/kde-tigullio-international and
# gnome-paris/kde-gm-paris are pairs, and the two heruka styles differ only in colour.
HELD_OUT_DECKS: tuple[str, ...] = ("gnome-plastic", "kde-standard", "npm-heruka-2color", "npm-heruka-4color",
                                   "proc-slab")

# Reserved for independent evaluation: never trained or tuned on, so that one deck measures how
# the recognizer reads a design nobody has looked at (the held-out decks above have been looked at
# while choosing models). Not in all_decks(): only the "eval" split renders it, without crops.
EVAL_ONLY_SOURCES: tuple[str, ...] = ("@younestouati/playing-cards-standard-deck",)
EVAL_DECKS: tuple[DeckSpec, ...] = (
    DeckSpec("npm-younestouati", "npm", str(NPM_DIR / EVAL_ONLY_SOURCES[0] / "cards"), "numbered"),
)


def all_decks() -> list[DeckSpec]:
    """Every registered deck whose art is installed (procedural ones always are)."""
    from training.synth.procedural import PROCEDURAL_DECKS, RANDOM_DECKS

    return [d for d in (*SVG_DECKS, *PROCEDURAL_DECKS, *RANDOM_DECKS) if d.available]


def deck_names(split: str) -> list[str]:
    """Decks a split may draw from: ``train``/``val`` never see :data:`HELD_OUT_DECKS`; ``test`` sees only
    them; ``eval`` only :data:`EVAL_DECKS`, which no other split sees."""
    if split == "eval":
        return [d.name for d in EVAL_DECKS if d.available]
    names = [d.name for d in all_decks()]
    if split == "test":
        return [n for n in names if n in HELD_OUT_DECKS]
    if split in ("train", "val"):
        return [n for n in names if n not in HELD_OUT_DECKS]
    raise ValueError(f"unknown split {split!r} (train, val, test or eval)")


def get_deck_spec(name: str) -> DeckSpec:
    for d in (*all_decks(), *EVAL_DECKS):
        if d.name == name:
            return d
    raise ValueError(f"unknown or uninstalled deck {name!r}")


# --- rasterizing -----------------------------------------------------------------------

def _rsvg(path: str, element: str | None, zoom: float) -> np.ndarray:
    cmd = ["rsvg-convert", "-z", f"{zoom:.5f}", "-b", "none"]
    if element:
        cmd += ["-i", element]
    res = subprocess.run([*cmd, path], capture_output=True, check=False)
    if res.returncode != 0 or not res.stdout:
        raise RuntimeError(f"rsvg-convert failed on {path} #{element}: {res.stderr.decode()[:200]}")
    img = cv2.imdecode(np.frombuffer(res.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if img.ndim == 2 or img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA if img.ndim == 2 else cv2.COLOR_BGR2BGRA)
    return img


def _trim_alpha(img: np.ndarray) -> np.ndarray:
    """Cut transparent margins so the face's bounds are the card's bounds."""
    ys, xs = np.nonzero(img[:, :, 3] > 8)
    if len(xs) == 0:
        return img
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _render_svg_deck(spec: DeckSpec, width: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Faces (Card.index order) and backs, BGRA, each resized to the deck's common size."""
    def source(card_or_back: Card | str) -> tuple[str, str | None]:
        if spec.ids in ("files", "numbered"):
            name = "back.svg" if card_or_back == "back" else spec.element_id(card_or_back)
            folder = Path(spec.path)
            backs_in = folder.parent if spec.ids == "files" else folder
            return str((backs_in if name == "back.svg" else folder) / name), None
        return spec.path, "back" if card_or_back == "back" else spec.element_id(card_or_back)

    probe_path, probe_id = source(Card.parse("AS"))
    probe = _trim_alpha(_rsvg(probe_path, probe_id, 1.0))
    zoom = width * 1.02 / probe.shape[1]
    faces = []
    for i in range(52):
        p, e = source(Card.from_index(i))
        faces.append(_trim_alpha(_rsvg(p, e, zoom)))
    h = int(round(np.median([f.shape[0] * width / f.shape[1] for f in faces])))
    faces = [cv2.resize(f, (width, h), interpolation=cv2.INTER_AREA) for f in faces]
    backs = []
    try:
        p, e = source("back")
        b = _trim_alpha(_rsvg(p, e, zoom))
        if abs(b.shape[0] / b.shape[1] - h / width) < 0.08:
            backs.append(cv2.resize(b, (width, h), interpolation=cv2.INTER_AREA))
    except RuntimeError:
        pass
    return faces, backs


# --- index boxes -----------------------------------------------------------------------

def _ink_mask(face: np.ndarray, zone: tuple[int, int]) -> np.ndarray:
    """Pixels in the top-left zone that stand out from the paper (ink of any colour)."""
    zh, zw = zone
    roi = face[:zh, :zw]
    rgb = roi[:, :, :3].astype(np.int16)
    # Stay clear of the card's edge: outlines and anti-aliased rounded corners are not ink.
    k = max(3, int(face.shape[1] * 0.025))
    opaque = cv2.erode((face[:, :, 3] > 200).astype(np.uint8), np.ones((k, k), np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0)[:zh, :zw] > 0
    paper = np.median(rgb[opaque], axis=0) if opaque.any() else np.array([255, 255, 255])
    diff = np.abs(rgb - paper).sum(axis=2)
    return (diff > 110) & opaque


def _components(ink: np.ndarray, min_area: int) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of ink blobs; blobs a pixel or two apart count as one glyph."""
    if not ink.any():
        return []
    joined = cv2.dilate(ink.astype(np.uint8), np.ones((3, 3), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out = []
    for j in range(1, n):
        x, y, w, h, _a = stats[j]
        m = ink[y:y + h, x:x + w] & (lab[y:y + h, x:x + w] == j)
        if m.sum() < min_area:
            continue
        ys, xs = np.nonzero(m)
        out.append((x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1))
    return out


def _index_group(comps: list[tuple[int, int, int, int]], min_h: float, max_h: float,
                 suit_gap: float = 0.8, two_glyphs: bool = False) -> tuple[int, int, int, int] | None:
    """The rank glyph(s) nearest the corner plus the suit right under them.

    A second digit joins when it is as tall and top-aligned (the 0 of 10); the suit joins
    when it sits below within ``suit_gap`` rank heights and is centred under the rank.
    Pips and court pictures fail both tests, so they stay out.
    """
    # A glyph, not a rule: tall enough and not a hairline.
    cands = [c for c in comps if min_h <= c[3] - c[1] <= max_h and 0.2 * min_h <= c[2] - c[0] <= max_h]
    if not cands:
        return None
    seed = min(cands, key=lambda c: c[0] + c[1])
    x0, y0, x1, y1 = seed
    h = y1 - y0
    for c in sorted(comps, key=lambda c: c[0]) if two_glyphs else ():
        if c == seed:
            continue
        ch = c[3] - c[1]
        if 0.7 * h <= ch <= 1.3 * h and abs(c[1] - y0) < 0.2 * h and 0 <= c[0] - x1 < 0.35 * h:
            x1, y1 = max(x1, c[2]), max(y1, c[3])
            break  # "10" has two glyphs, never three: what follows is a pip
    suits = [c for c in comps if c[1] >= y1 - 0.1 * h and c[1] - y1 < suit_gap * h
             and 0.2 * h <= c[3] - c[1] <= 1.15 * h and x0 - 0.3 * h <= (c[0] + c[2]) / 2 <= x1 + 0.3 * h]
    if suits:
        s = min(suits, key=lambda c: c[1])
        x0, x1, y1 = min(x0, s[0]), max(x1, s[2]), max(y1, s[3])
        # A suit drawn in two blobs (a club's stem) : take what else lies inside its rows.
        for c in comps:
            if c[1] >= s[1] - 2 and c[3] <= s[3] + 0.3 * h and x0 - 2 <= c[0] and c[2] <= x1 + 2:
                y1 = max(y1, c[3])
    return x0, y0, x1, y1


def find_index_boxes(faces: Sequence[np.ndarray], params: dict | None = None) -> np.ndarray:
    """Index boxes of 52 faces as ``(52, 2, 4)`` fractions ``x0 y0 x1 y1`` (top-left, bottom-right).

    Ink shared by most faces of a kind (frames, borders) is ignored; then the rank glyph
    nearest the corner and the suit under it form the index (:func:`_index_group`).
    Boxes far from the deck's median shape fall back to that median.
    """
    params = params or {}
    h, w = faces[0].shape[:2]
    zone = (int(h * params.get("zone_h", 0.30)), int(w * params.get("zone_w", 0.30)))
    min_area = int(w * w * 0.0002)
    min_h = w * params.get("min_h", 0.04)
    courts = np.array([Card.from_index(i).rank >= JACK for i in range(52)])
    boxes = np.zeros((52, 2, 4), np.float64)
    fallbacks: list[str] = []
    for corner in range(2):
        views = [f if corner == 0 else f[::-1, ::-1] for f in faces]
        inks = np.stack([_ink_mask(v, zone) for v in views])
        if "common" in params:
            # Frames drawn on every face of a kind: ignore them. Off by default, since the
            # cores of the four suit glyphs overlap and would be erased too.
            for group in (courts, ~courts):
                common = inks[group].mean(axis=0) > params["common"]
                common = cv2.dilate(common.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
                inks[group] &= ~common
        raw = np.zeros((52, 4))
        for i in range(52):
            b = _index_group(_components(inks[i], min_area), min_h, w * params.get("max_h", 0.2),
                             params.get("suit_gap", 0.8), two_glyphs=Card.from_index(i).rank == 10)
            if b is not None:
                raw[i] = b
        found = raw[:, 2] > 0
        if found.sum() < 13:
            raise ValueError(f"index finder: only {found.sum()} of 52 corners found; tune this deck's params")
        med = np.median(raw[found], axis=0)
        mh = med[3] - med[1]
        single = found & np.array([Card.from_index(i).rank != 10 for i in range(52)])
        mw = np.median(raw[single, 2] - raw[single, 0]) if single.any() else med[2] - med[0]
        for i in range(52):
            x0, y0, x1, y1 = raw[i]
            max_w = (2.3 if Card.from_index(i).rank == 10 else 1.5) * mw
            ok = (x1 > 0 and 0.75 * mh < y1 - y0 < 1.3 * mh and abs(y0 - med[1]) < 0.3 * mh
                  and abs(x0 - med[0]) < 0.5 * mh and x1 - x0 < max_w)
            if not ok:
                fallbacks.append(f"{Card.from_index(i)}{'/br' if corner else ''}")
                # Something joined the index (a court's big pip) or nothing was found:
                # the deck's usual box, as wide as this card's rank needs.
                raw[i] = (med[0], med[1], med[0] + (max_w / 1.5 * 1.1 if Card.from_index(i).rank == 10 else mw), med[3])
        fr = raw / np.array([w, h, w, h])
        if corner == 1:  # back to the unrotated face
            fr = np.stack([1 - fr[:, 2], 1 - fr[:, 3], 1 - fr[:, 0], 1 - fr[:, 1]], axis=1)
        boxes[:, corner] = fr
    find_index_boxes.last_fallbacks = fallbacks  # type: ignore[attr-defined]
    return boxes


# --- the cache ----------------------------------------------------------------------------

@dataclass
class DeckArt:
    """A rasterized deck, read from the cache (faces memory-mapped)."""

    name: str
    family: str
    faces: dict[int, np.ndarray]
    """Face width -> ``(52 + backs, H, W, 4)`` BGRA array (Card.index order, then backs)."""
    index_boxes: np.ndarray
    """``(52, 2, 4)``: top-left and bottom-right index boxes as fractions of the face."""
    n_backs: int

    def level(self, width_px: float) -> np.ndarray:
        """The smallest cached resolution that is at least ``width_px`` wide (or the largest)."""
        for w in sorted(self.faces):
            if w >= width_px:
                return self.faces[w]
        return self.faces[max(self.faces)]

    @property
    def aspect(self) -> float:
        """Face height / width."""
        arr = self.faces[min(self.faces)]
        return arr.shape[1] / arr.shape[2]


def _render_key(spec: DeckSpec) -> str:
    proc = [PROC_VERSION, spec.params] if spec.family == "procedural" else {}
    blob = json.dumps([RENDER_VERSION, spec.name, spec.path, spec.ids, proc, LEVELS_PX], sort_keys=True, default=str)
    return hashlib.sha1(blob.encode()).hexdigest()[:12]


def _boxes_key(spec: DeckSpec) -> str:
    blob = json.dumps([BOXES_VERSION, _render_key(spec), spec.params], sort_keys=True, default=str)
    return hashlib.sha1(blob.encode()).hexdigest()[:12]


def _read_key(path: Path) -> str | None:
    try:
        return json.loads(path.read_text()).get("key")
    except (OSError, ValueError):
        return None


def build_deck(spec: DeckSpec, root: Path | None = None) -> Path:
    """Rasterize one deck into the cache and find its index boxes (each step only when stale).

    Faces (``faces_<W>.npy`` + ``render.json``) and boxes (``meta.json``) are keyed apart,
    so retuning the index finder never re-renders the art.
    """
    root = root or cache_dir()
    folder = root / spec.name
    rkey, bkey = _render_key(spec), _boxes_key(spec)
    big = max(LEVELS_PX)
    proc_boxes = None
    if _read_key(folder / "render.json") != rkey:
        tmp = root / f".{spec.name}.tmp{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        if spec.family == "procedural":
            from training.synth.procedural import render_procedural_deck

            faces, backs, proc_boxes = render_procedural_deck(spec, big)
        else:
            faces, backs = _render_svg_deck(spec, big)
        if not backs:
            from training.synth.procedural import draw_back

            backs = [draw_back(faces[0].shape[1], faces[0].shape[0], np.random.default_rng(int(rkey, 16) % 2**32))]
        stack = np.stack([*faces, *backs])
        # Transparent pixels carry no colour: zero them so resizing never bleeds fringes.
        stack[stack[..., 3] == 0] = 0
        for lw in LEVELS_PX:
            lh = int(round(stack.shape[1] * lw / stack.shape[2]))
            arr = stack if lw == stack.shape[2] else np.stack(
                [cv2.resize(f, (lw, lh), interpolation=cv2.INTER_AREA) for f in stack])
            np.save(tmp / f"faces_{lw}.npy", arr)
        extra = {"boxes": np.round(proc_boxes, 5).tolist()} if proc_boxes is not None else {}
        (tmp / "render.json").write_text(json.dumps({"key": rkey, "n_backs": len(backs), **extra}))
        shutil.rmtree(folder, ignore_errors=True)
        tmp.rename(folder)
    if _read_key(folder / "meta.json") != bkey:
        render = json.loads((folder / "render.json").read_text())
        if "boxes" in render:
            boxes = np.array(render["boxes"])
        else:
            faces = np.load(folder / f"faces_{big}.npy", mmap_mode="r")
            boxes = _apply_overrides(find_index_boxes([np.asarray(f) for f in faces[:52]], spec.params), spec.params)
        fallbacks = getattr(find_index_boxes, "last_fallbacks", []) if "boxes" not in render else []
        meta = {"key": bkey, "name": spec.name, "family": spec.family, "n_backs": render["n_backs"],
                "index_boxes": np.round(boxes, 5).tolist(), "fallback_corners": fallbacks}
        (folder / "meta.json.tmp").write_text(json.dumps(meta))
        (folder / "meta.json.tmp").rename(folder / "meta.json")
    return folder


def _apply_overrides(boxes: np.ndarray, params: dict) -> np.ndarray:
    """Per-deck fixed boxes (``box_tl``: fractions) where image analysis can't be trusted."""
    if "box_tl" in params:
        x0, y0, x1, y1 = params["box_tl"]
        boxes[:, 0] = (x0, y0, x1, y1)
        boxes[:, 1] = (1 - x1, 1 - y1, 1 - x0, 1 - y0)
    return boxes


def build_all(names: Sequence[str] | None = None, workers: int = 1,
              progress: Callable[[str], None] | None = None) -> list[str]:
    """Make sure every (or every named) deck is in the cache. Returns the names built or found."""
    specs = [s for s in all_decks() if names is None or s.name in names]
    root = cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    todo = [s for s in specs if not _is_cached(s, root)]
    if todo and progress:
        progress(f"rasterizing {len(todo)} decks into {root} (once)")
    if workers > 1 and len(todo) > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(workers) as pool:
            for name in pool.imap_unordered(_build_by_name, [s.name for s in todo]):
                if progress:
                    progress(f"  {name}")
    else:
        for s in todo:
            build_deck(s, root)
            if progress:
                progress(f"  {s.name}")
    return [s.name for s in specs]


def _build_by_name(name: str) -> str:
    build_deck(get_deck_spec(name))
    return name


def _is_cached(spec: DeckSpec, root: Path) -> bool:
    return _read_key(root / spec.name / "meta.json") == _boxes_key(spec)


_LOADED: dict[str, DeckArt] = {}


def load_deck(name: str) -> DeckArt:
    """The cached deck (built first if missing), faces memory-mapped; memoized per process."""
    if name in _LOADED:
        return _LOADED[name]
    spec = get_deck_spec(name)
    folder = build_deck(spec)
    meta = json.loads((folder / "meta.json").read_text())
    faces = {lw: np.load(folder / f"faces_{lw}.npy", mmap_mode="r") for lw in LEVELS_PX}
    art = DeckArt(name, spec.family, faces, np.array(meta["index_boxes"]), meta["n_backs"])
    _LOADED[name] = art
    return art


def card_names() -> list[str]:
    """The 52 classifier class names in Card.index order (``AC AD AH AS 2C ... KS``)."""
    return [str(Card.from_index(i)) for i in range(52)]


__all__ = ["DeckSpec", "DeckArt", "HELD_OUT_DECKS", "EVAL_ONLY_SOURCES", "EVAL_DECKS", "SVG_DECKS", "all_decks",
           "deck_names", "load_deck", "build_deck", "build_all", "find_index_boxes", "cache_dir", "SUITS"]
