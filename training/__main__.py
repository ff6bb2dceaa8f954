"""``python -m training COMMAND [ARGS]`` (``cribcount-lab``): one entry point for the lab's tools.

Each command is a module of this package with a ``main(argv)``; ``synth`` and ``eval`` are the
synthetic engine and the research evaluation (every recognizer setting and made-over photo).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

COMMANDS = {
    "synth": ("training.synth.cli", "render labelled synthetic photos of cribbage hands"),
    "recipe": ("training.recipe", "make a shipped model from nothing: detector, classifier, ..."),
    "eval": ("training.eval.cli", "measure the recognizer: settings, other models, photos made over"),
    "table-eval": ("training.eval.table_eval", "whole-table photos: groups and cards right per layout"),
    "sweep": ("training.eval.sweep", "recognizer settings side by side, paired by photo"),
    "train-classifier": ("training.train.classifier", "fit a classifier (Ultralytics, torch)"),
    "train-detector": ("training.train.detector", "fit the index detector (Ultralytics, torch)"),
    "cls-data": ("training.data.cls_data", "classifier crop sets from renders and photos"),
    "det-data": ("training.data.det_data", "detector sets from renders and photos"),
    "real-crops": ("training.data.real_crops", "index crops cut from labelled real photos"),
    "real-scenes": ("training.data.real_scenes", "labelled real photos as detector scenes"),
    "mined-crops": ("training.data.mined_crops", "crops the shipped models read wrong, for fine-tuning"),
    "close-ups": ("training.data.close_ups", "close-ups of big indices cut from phone-size renders"),
    "crop-pack": ("training.data.crop_pack", "a crop set packed small for a lent GPU"),
    "scene-pack": ("training.data.scene_pack", "a detector mix packed small for a lent GPU"),
    "chunky-clubs": ("training.data.chunky_clubs", "the chunky-club designs' crops cleaned and weighted"),
    "soup": ("training.train.soup", "average fine-tunes' weights into one model"),
    "half-weights": ("training.train.half_weights", "store a model's weights as 16-bit floats"),
    "onnx-init": ("training.train.onnx_init", "a trainable checkpoint rebuilt from a shipped .onnx"),
    "fast-dfl": ("training.train.fast_dfl", "an exported detector's box decoding rewritten to run faster"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {about}" for name, (_, about) in COMMANDS.items()]
    head = "usage: python -m training COMMAND [ARGS]   (cribcount-lab COMMAND)\n\ncommands:\n"
    return head + "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"cribcount-lab: error: unknown command {name!r}\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    try:
        return int(module.main(rest) or 0)
    except (ValueError, OSError) as exc:  # a bad option or file: one line, as the runtime CLI says it
        print(f"cribcount-lab {name}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
