"""Card art: the deck registry and a cache of the decks' faces and index boxes.

A deck is 52 faces plus at least one back, drawn by an installed SVG deck (Debian
``gnome-cards-data`` / ``kdegames-card-data-kf5``, the npm package
``@heruka_urgyen/react-playing-cards``) or by :mod:`training.synth.procedural`.
A deck is rasterized the first time a render draws it, into the cache (``$CRIBCOUNT_CACHE``
or ``data/cache/synth``): ``faces.pngs`` holds its ``(52 + backs, H, 512, 4)`` BGRA
faces in :attr:`Card.index` order followed by backs (:mod:`training.synth.deck_store`),
and ``meta.json`` the two index boxes of every face (rank+suit glyph group in the top-left
corner and its rotated copy in the bottom-right), as fractions of the face.

Index boxes of SVG decks are found by image analysis (:mod:`training.synth.index_boxes`)
and checked by eye on ``cribcount synth --deck-sheet``; procedural decks know theirs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm  # a well-kept progress bar, rather than one of our own

from scorer.cards import JACK, KING, QUEEN, SUITS, Card, Suit
from training.synth.deck_store import FaceStack, evict, mark_used, max_cache_bytes, write_faces
from training.synth.index_boxes import apply_overrides, find_index_boxes

REPO_ROOT = Path(__file__).resolve().parents[2]
GNOME_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
NPM_DIR = REPO_ROOT / "scripts" / "npm" / "node_modules"
HERUKA_DIR = NPM_DIR / "@heruka_urgyen" / "react-playing-cards" / "src" / "images"

# Face widths a scene picks from: 256 px serves scenes up to ~1000 px wide (cards are at
# most ~35% of the width), 512 px the phone-size ones. Only the widest is stored.
LEVELS_PX = (256, 512)
# Bump RENDER_VERSION when the art changes, BOXES_VERSION when the index finder does.
RENDER_VERSION = 1
# 1: raw arrays per width (~95 MB a deck); 2: the widest as PNGs (1-9 MB a deck, same pixels).
CACHE_FORMAT = 2
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
# guyenne-classic (courts carry no rank index), tango_nuevo (faces cut off), the oxygen decks (one
# rank index only, top right), konqi-modern and xskat-french (their SVGs have no size: rsvg-convert
# cannot cut cards out).
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


# --- the cache ----------------------------------------------------------------------------

@dataclass
class DeckArt:
    """A rasterized deck, read from the cache (faces decoded when first drawn)."""

    name: str
    family: str
    faces: dict[int, FaceStack]
    """Face width -> ``(52 + backs, H, W, 4)`` BGRA faces (Card.index order, then backs)."""
    index_boxes: np.ndarray
    """``(52, 2, 4)``: top-left and bottom-right index boxes as fractions of the face."""
    n_backs: int

    def level(self, width_px: float) -> FaceStack:
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
    blob = json.dumps([RENDER_VERSION, spec.name, spec.path, spec.ids, proc, LEVELS_PX, CACHE_FORMAT],
                      sort_keys=True, default=str)
    return hashlib.sha1(blob.encode()).hexdigest()[:12]


def _boxes_key(spec: DeckSpec) -> str:
    blob = json.dumps([BOXES_VERSION, _render_key(spec), spec.params], sort_keys=True, default=str)
    return hashlib.sha1(blob.encode()).hexdigest()[:12]


def _read_key(path: Path) -> str | None:
    try:
        return json.loads(path.read_text()).get("key")
    except (OSError, ValueError):
        return None


def _stored_faces(folder: Path, render: dict) -> FaceStack:
    return FaceStack(folder / "faces.pngs", render["offsets"], tuple(render["shape"]))


def build_deck(spec: DeckSpec, root: Path | None = None) -> Path:
    """Rasterize one deck into the cache and find its index boxes (each step only when stale).

    Faces (``faces.pngs`` + ``render.json``) and boxes (``meta.json``) are keyed apart,
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
            from training.synth.svg_art import render_svg_deck

            faces, backs = render_svg_deck(spec, big)
        if not backs:
            from training.synth.procedural import draw_back

            back_rng = np.random.default_rng(int(rkey, 16) % 2**32)
            backs = [draw_back(faces[0].shape[1], faces[0].shape[0], back_rng)]
        stack = np.stack([*faces, *backs])
        # Transparent pixels carry no colour: zero them so resizing never bleeds fringes.
        stack[stack[..., 3] == 0] = 0
        offsets = write_faces(tmp, stack)
        extra = {"boxes": np.round(proc_boxes, 5).tolist()} if proc_boxes is not None else {}
        (tmp / "render.json").write_text(json.dumps({"key": rkey, "n_backs": len(backs), "shape": stack.shape,
                                                     "offsets": offsets, **extra}))
        shutil.rmtree(folder, ignore_errors=True)
        tmp.rename(folder)
    if _read_key(folder / "meta.json") != bkey:
        render = json.loads((folder / "render.json").read_text())
        if "boxes" in render:
            boxes = np.array(render["boxes"])
        else:
            faces = _stored_faces(folder, render)
            boxes = apply_overrides(find_index_boxes([faces[i] for i in range(52)], spec.params), spec.params)
        fallbacks = getattr(find_index_boxes, "last_fallbacks", []) if "boxes" not in render else []
        meta = {"key": bkey, "name": spec.name, "family": spec.family, "n_backs": render["n_backs"],
                "index_boxes": np.round(boxes, 5).tolist(), "fallback_corners": fallbacks}
        (folder / "meta.json.tmp").write_text(json.dumps(meta))
        (folder / "meta.json.tmp").rename(folder / "meta.json")
    return folder


def build_all(names: Sequence[str] | None = None, workers: int = 1, progress: bool = False) -> list[str]:
    """Make sure every (or every named) deck is in the cache, then hold the cache to its size cap.

    A render names only the decks its scenes draw: rasterizing all ~330 takes about half an hour.
    With ``progress``, a bar on stderr counts the decks rasterized. Returns the names built or found.
    """
    specs = all_decks() if names is None else [get_deck_spec(n) for n in dict.fromkeys(names)]
    root = cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    todo = [s for s in specs if not _is_cached(s, root)]
    if todo and progress:
        print(f"rasterizing {len(todo)} deck(s) the scenes draw into {root} (once; past "
              f"CRIBCOUNT_CACHE_MAX_GB={max_cache_bytes() / 1e9:g} the least recently used go)",
              file=sys.stderr)
    with tqdm(total=len(todo), desc="decks", unit="deck", file=sys.stderr,
              disable=not (progress and todo)) as bar:
        if workers > 1 and len(todo) > 1:
            from multiprocessing import get_context

            with get_context("spawn").Pool(min(workers, len(todo))) as pool:
                for name in pool.imap_unordered(_build_by_name, [s.name for s in todo]):
                    bar.set_postfix_str(name, refresh=False)
                    bar.update()
        else:
            for s in todo:
                build_deck(s, root)
                bar.set_postfix_str(s.name, refresh=False)
                bar.update()
    for s in specs:
        mark_used(root / s.name)
    evict(root, max_cache_bytes(), keep={s.name for s in specs})
    return [s.name for s in specs]


def _build_by_name(name: str) -> str:
    build_deck(get_deck_spec(name))
    return name


def _is_cached(spec: DeckSpec, root: Path) -> bool:
    return _read_key(root / spec.name / "meta.json") == _boxes_key(spec)


_LOADED: dict[str, DeckArt] = {}


def load_deck(name: str) -> DeckArt:
    """The cached deck (built first if missing), faces decoded on use; memoized per process."""
    if name in _LOADED:
        return _LOADED[name]
    spec = get_deck_spec(name)
    folder = build_deck(spec)
    mark_used(folder)
    meta = json.loads((folder / "meta.json").read_text())
    big = _stored_faces(folder, json.loads((folder / "render.json").read_text()))
    faces = {lw: big if lw == big.shape[2] else FaceStack.resized(big, lw) for lw in LEVELS_PX}
    art = DeckArt(name, spec.family, faces, np.array(meta["index_boxes"]), meta["n_backs"])
    _LOADED[name] = art
    return art


def card_names() -> list[str]:
    """The 52 classifier class names in Card.index order (``AC AD AH AS 2C ... KS``)."""
    return [str(Card.from_index(i)) for i in range(52)]


__all__ = ["DeckSpec", "DeckArt", "HELD_OUT_DECKS", "EVAL_ONLY_SOURCES", "EVAL_DECKS", "SVG_DECKS",
           "all_decks", "deck_names", "load_deck", "build_deck", "build_all", "find_index_boxes", "cache_dir",
           "SUITS"]
