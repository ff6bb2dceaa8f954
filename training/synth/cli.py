"""`python -m training synth` (`cribcount synth`): options, the run, and a held-out render for the lab
eval."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from training.synth.layouts import SCENE_TYPES, TableProps


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, help="output folder (yolo/ and cls/ are written inside)")
    p.add_argument("--n", type=int, default=100, help="number of scenes to render")
    p.add_argument("--seed", type=int, default=0, help="seed: same seed, same images, byte for byte")
    p.add_argument("--split", choices=("train", "val", "test", "eval"), default=None,
                   help="render into one split (test = held-out decks only; eval = the eval-only deck, "
                        "never trained or tuned on, no crops); default: 85/10/5 train/val/test")
    p.add_argument("--size", default="640", help="long side in px: N, or LO:HI for a random size per image")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--decks", default=None, metavar="A,B,...",
                   help="only these decks (names as in --deck-sheet); held-out decks stay test-only")
    p.add_argument("--scene", default=None, choices=SCENE_TYPES,
                   help="only this kind of scene (default: all, weighted like real use)")
    p.add_argument("--cards", action="store_true", help="also label whole cards as YOLO class 1")
    p.add_argument("--board-chance", type=float, default=0.3, metavar="P",
                   help="chance a scene holds a cribbage board "
                        "(default 0.3, what the shipped models trained on)")
    p.add_argument("--numbered-boards", action="store_true",
                   help="boards print their counts (5, 10, ...), START and 121: glyphs the detector may "
                        "take for an index (models/HISTORY.md, Numbered boards)")
    p.add_argument("--no-crops", action="store_true", help="skip the classifier crops (cls/)")
    p.add_argument("--back-corners", action="store_true",
                   help="also 'none' crops at the corners of card backs (the other crops stay the same)")
    p.add_argument("--back-corners-of", default=None, metavar="SCENES",
                   help="write only the back-corner 'none' crops of scenes rendered before into --out "
                        "(as --back-corners would have added them)")
    p.add_argument("--sheet", default=None, metavar="SHEET.jpg", help="write a contact sheet of the scenes")
    p.add_argument("--check", action="store_true",
                   help="draw the labels (read back from the label files) on the contact sheet")
    p.add_argument("--deck-sheet", default=None, metavar="DECKS.jpg",
                   help="write every deck's corners with their index boxes, to check by eye")


def run(args: argparse.Namespace) -> int:
    from training.synth.decks import HELD_OUT_DECKS, all_decks
    from training.synth.export import back_corner_crops_of, render_dataset
    from training.synth.sheet import contact_sheet, corner_sheet

    if args.n < 0:
        raise ValueError("--n must be >= 0")
    if not 0 <= args.board_chance <= 1:
        raise ValueError(f"--board-chance must be between 0 and 1, not {args.board_chance}")
    out = Path(args.out)
    if args.back_corners_of:
        scenes = Path(args.back_corners_of)
        if not (scenes / "yolo" / "images").is_dir():
            raise ValueError(f"--back-corners-of {scenes}: no yolo/images/ of rendered scenes there")
        print(f"wrote {back_corner_crops_of(scenes, out)} back-corner crops of {scenes} to {out}")
        return 0
    if args.deck_sheet:
        names = [d.name for d in all_decks()]
        path = corner_sheet(names, Path(args.deck_sheet), tile_px=70, suits=(0,))
        print(f"deck sheet: {path} ({len(names)} decks; held out: {', '.join(HELD_OUT_DECKS)})")
    if args.n:
        decks = [d.strip() for d in args.decks.split(",") if d.strip()] if args.decks else None
        results, rate = render_dataset(out, args.n, args.seed, args.split, args.size, args.workers,
                                       args.cards, not args.no_crops, decks=decks, scene_type=args.scene,
                                       back_corners=args.back_corners,
                                       table=TableProps(args.board_chance, args.numbered_boards))
        by_split = Counter(r[0] for r in results)
        by_type = Counter(r[2] for r in results)
        print(f"wrote {len(results)} scenes to {out} ("
              + ", ".join(f"{k} {v}" for k, v in sorted(by_split.items())) + "); scene types: "
              + ", ".join(f"{k} {v}" for k, v in sorted(by_type.items())))
        print(f"{rate:.1f} images/s on {args.workers} worker(s) at size {args.size}")
    if args.sheet or args.check:
        sheet = Path(args.sheet) if args.sheet else out / "check.jpg"
        contact_sheet(out / "yolo" / "images", sheet, n=24, overlays=args.check)
        print(f"contact sheet: {sheet}" + (" (labels drawn from the label files)" if args.check else ""))
    return 0


def render_held_out(out: Path, n: int, seed: int, size: str = "640:1600") -> Path:
    """Render ``n`` scenes of the held-out decks (test split); returns the folder of JPEG + JSON."""
    from training.synth.export import render_dataset

    render_dataset(out, n, seed, "test", size, workers=2, crops=False, progress=sys.stderr.isatty())
    return out / "yolo" / "images" / "test"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training synth",
                                description="Synthetic table photos of card hands with labels, as an "
                                            "Ultralytics detect set (yolo/) and classifier crops (cls/).")
    add_arguments(p)
    return run(p.parse_args(argv))
