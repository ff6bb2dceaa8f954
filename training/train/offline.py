"""Make Ultralytics run with the network off (training and export only).

Ultralytics fetches a font for its plots, weights for the AMP check and syncs
settings/analytics. Nothing may download here, so before ``import ultralytics``
we point its config dir at a project-local folder that already holds a Debian
font named ``Arial.ttf``, and switch off online features. Call
:func:`prepare_offline` first thing in every ``train_*`` entry point.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# Debian fonts (fonts-dejavu-core / fonts-liberation), any one is enough for plot labels.
_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
)


def prepare_offline(config_dir: str | Path | None = None) -> Path:
    """Set the environment so a later ``import ultralytics`` never touches the network.

    Returns the config dir used. Raises ``FileNotFoundError`` when no Debian font is installed.
    """
    cfg = Path(config_dir or os.environ.get("YOLO_CONFIG_DIR") or PROJECT_ROOT / ".yolo")
    cfg.mkdir(parents=True, exist_ok=True)
    os.environ["YOLO_CONFIG_DIR"] = str(cfg)
    os.environ["YOLO_OFFLINE"] = "true"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    os.environ.setdefault("YOLO_VERBOSE", "true")
    # Matplotlib also caches under $HOME; keep its cache project-local and quiet.
    os.environ.setdefault("MPLCONFIGDIR", str(cfg / "matplotlib"))
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        target = cfg / "Ultralytics" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            font = next((f for f in _FONT_CANDIDATES if Path(f).exists()), None)
            if font is None:
                raise FileNotFoundError("no Debian TrueType font found; run scripts/setup.sh")
            _write_aside(target, functools.partial(shutil.copyfile, font))
    settings = cfg / "Ultralytics" / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    data.update(sync=False, hub=False, clearml=False, comet=False, dvc=False, mlflow=False,
                neptune=False, raytune=False, tensorboard=False, wandb=False)
    _write_aside(settings, lambda part: part.write_text(json.dumps(data, indent=2)))
    return cfg


def _write_aside(target: Path, write: Callable[[Path], object]) -> None:
    """Have ``write`` fill a file beside ``target``, then rename it into place. Two trainings
    started together (two training runs side by side) each set up this folder, and one once
    read Ultralytics' settings half-written and crashed: a reader sees the old file or the new one."""
    part = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    write(part)
    part.replace(target)
