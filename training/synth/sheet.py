"""Contact sheets: scenes with their label overlays (drawn from the label files), and decks
with their index boxes, to check by eye."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card

SHEET_CARDS = ("AS", "10D", "QH", "7C", "KS", "4H", "JD", "9S")


def deck_sheet(names: Sequence[str], out: Path, cards: Sequence[str] = SHEET_CARDS,
               face_h: int = 260) -> Path:
    """One row per deck: a few faces with their top-left (green) and bottom-right (magenta) index boxes."""
    from training.synth.decks import load_deck

    rows = []
    for name in names:
        art = load_deck(name)
        faces = art.faces[max(art.faces)]
        tiles = []
        for c in cards:
            i = Card.parse(c).index
            f = np.asarray(faces[i])
            a = f[:, :, 3:4].astype(np.float32) / 255
            rgb = (f[:, :, :3] * a + 90 * (1 - a)).astype(np.uint8)
            h, w = rgb.shape[:2]
            for k, col in enumerate(((0, 200, 0), (200, 0, 200))):
                x0, y0, x1, y1 = art.index_boxes[i, k] * [w, h, w, h]
                cv2.rectangle(rgb, (int(x0), int(y0)), (int(round(x1)), int(round(y1))), col, 2)
            s = face_h / h
            tiles.append(cv2.resize(rgb, (int(w * s), face_h), interpolation=cv2.INTER_AREA))
        back = np.asarray(faces[52])
        a = back[:, :, 3:4].astype(np.float32) / 255
        back = (back[:, :, :3] * a + 90 * (1 - a)).astype(np.uint8)
        tiles.append(cv2.resize(back, (tiles[0].shape[1], face_h)))
        row = np.hstack([np.pad(t, ((0, 0), (0, 6), (0, 0)), constant_values=90) for t in tiles])
        rows.append(_titled(f"{name} ({art.family})", row, 24, 0.6))
    return _write_stacked(rows, out, gap=4)


def corner_sheet(names: Sequence[str], out: Path, tile_px: int = 90,
                 suits: Sequence[int] = (0, 1, 2, 3)) -> Path:
    """Zoomed corners (top-left, then bottom-right turned upright) with their index boxes.

    One block per deck: for each corner, a row of 13 ranks per suit offset in ``suits``
    (rank r shows suit ``(r + offset) % 4``, so a row mixes colours).
    """
    from training.synth.decks import load_deck

    blocks = []
    for name in names:
        art = load_deck(name)
        faces = art.faces[max(art.faces)]
        h, w = faces.shape[1:3]
        reach = art.index_boxes[:, 0, 2:].max(axis=0) * 1.25
        zh, zw = int(h * min(0.5, reach[1])), int(w * min(0.5, reach[0]))
        rows = []
        for k in range(2):
            for s in suits:
                tiles = []
                for r in range(13):
                    i = r * 4 + (r + s) % 4
                    f = np.asarray(faces[i])
                    a = f[:, :, 3:4].astype(np.float32) / 255
                    rgb = np.ascontiguousarray((f[:, :, :3] * a + 90 * (1 - a)).astype(np.uint8))
                    x0, y0, x1, y1 = art.index_boxes[i, k]
                    if k == 1:
                        rgb = rgb[::-1, ::-1]
                        x0, y0, x1, y1 = 1 - x1, 1 - y1, 1 - x0, 1 - y0
                    t = np.ascontiguousarray(cv2.resize(rgb[:zh, :zw], (tile_px, int(tile_px * zh / zw)),
                                                        interpolation=cv2.INTER_AREA))
                    sx, sy = tile_px / zw * w, t.shape[0] / zh * h
                    col = (0, 190, 0) if k == 0 else (200, 0, 200)
                    cv2.rectangle(t, (int(x0 * sx), int(y0 * sy)), (int(x1 * sx), int(y1 * sy)), col, 1)
                    tiles.append(t)
                rows.append(np.hstack(tiles))
        blocks.append(_titled(name, np.vstack(rows), 22, 0.55))
    return _write_stacked(blocks, out, gap=6)


def _titled(title: str, block: np.ndarray, height: int, scale: float) -> np.ndarray:
    """``block`` under a white strip with ``title`` in black."""
    label = np.full((height, block.shape[1], 3), 255, np.uint8)
    cv2.putText(label, title, (4, height - 6), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 1)
    return np.vstack([label, block])


def _write_stacked(blocks: list[np.ndarray], out: Path, gap: int) -> Path:
    """Stack blocks top to bottom on white (padded to the widest, ``gap`` px apart) and write them."""
    width = max(b.shape[1] for b in blocks)
    sheet = np.vstack([np.pad(b, ((0, gap), (0, width - b.shape[1]), (0, 0)), constant_values=255)
                       for b in blocks])
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), sheet)
    return out


def draw_label(img: np.ndarray, label: dict) -> np.ndarray:
    """Overlay a scene's label on its photo: card outlines (blue, starter orange), index quads
    (green >= 0.6 visible, yellow 0.3-0.6, red below), card names, backs and props (grey)."""
    out = img.copy()
    s = max(1, round(max(img.shape[:2]) / 800))
    for obj in label.get("objects", []):
        cv2.polylines(out, [np.round(np.array(obj["corners"])).astype(np.int32)], True, (160, 160, 160), s)
    for card in label["cards"]:
        col = (0, 140, 255) if card["is_starter"] else (255, 120, 0)
        cv2.polylines(out, [np.round(np.array(card["corners"])).astype(np.int32)], True, col, s)
        for idx in card["indices"]:
            vf = idx["visible_fraction"]
            c = (0, 220, 0) if vf >= 0.6 else ((0, 220, 220) if vf >= 0.3 else (0, 0, 255))
            cv2.polylines(out, [np.round(np.array(idx["quad"])).astype(np.int32)], True, c, s)
            if vf >= 0.3:
                x0, y0 = idx["quad"][0]
                cv2.putText(out, card["card"] + ("*" if card["is_starter"] else ""), (int(x0), int(y0) - 3),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.4 * s, c, s)
    return out


def contact_sheet(folder: Path, out: Path, n: int = 24, overlays: bool = False, tile_px: int = 420,
                  cols: int = 6) -> Path:
    """A grid of the first ``n`` scenes under ``folder`` (JSON labels beside JPEGs); overlays drawn
    from the label files when ``overlays``."""
    labels = sorted(Path(folder).rglob("*.json"))
    # Spread the picks over the whole run (all splits), not just its first files.
    labels = labels[::max(1, len(labels) // n)][:n]
    tiles = []
    for lab_path in labels:
        label = json.loads(lab_path.read_text())
        img = cv2.imread(str(lab_path.parent / label["image"]))
        if img is None:
            continue
        if overlays:
            img = draw_label(img, label)
        h, w = img.shape[:2]
        sc = tile_px / max(h, w)
        img = cv2.resize(img, (int(w * sc), int(h * sc)), interpolation=cv2.INTER_AREA)
        tile = np.full((tile_px, tile_px, 3), 255, np.uint8)
        tile[:img.shape[0], :img.shape[1]] = img
        text = f"{label['scene_type']} {label['deck']} {label['width']}x{label['height']}"
        cv2.putText(tile, text, (4, tile_px - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (255, 255, 255), 3)
        cv2.putText(tile, text, (4, tile_px - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1)
        tiles.append(np.pad(tile, ((2, 2), (2, 2), (0, 0)), constant_values=255))
    if not tiles:
        raise ValueError(f"no labelled scenes under {folder}")
    while len(tiles) % cols:
        tiles.append(np.full_like(tiles[0], 255))
    rows = [np.hstack(tiles[i:i + cols]) for i in range(0, len(tiles), cols)]
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 90])
    return out
