"""scripts/sources.sh: the renders scripts/retrain.sh and scripts/first_pack.sh draw, named once.

Each script calls ``render NAME...``; a name sources.sh does not know would stop a retraining hours
in, and two sources drawn with one seed would be the same scenes twice. The renders themselves are
not run here: a stand-in ``cribcount`` records what it was asked to draw."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"


def render_names(script: Path) -> list[str]:
    return [name for line in script.read_text().splitlines()
            if (m := re.match(r"render ((?:[\w]+ ?)+)$", line.strip())) for name in m.group(1).split()]


def run_render(tmp_path: Path, names: list[str]) -> tuple[subprocess.CompletedProcess, list[str]]:
    """``render NAMES`` in an empty folder whose .venv/bin/cribcount only logs its arguments."""
    stub = tmp_path / ".venv/bin/cribcount"
    stub.parent.mkdir(parents=True)
    stub.write_text('#!/usr/bin/env bash\necho "$@" >> calls.log\n')
    stub.chmod(0o755)
    script = f'set -euo pipefail\nPY={sys.executable}\nscenes() {{ echo "$1"; }}\nsource {SCRIPTS}/sources.sh\nrender {" ".join(names)}\n'
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    log = tmp_path / "calls.log"
    return done, log.read_text().splitlines() if log.exists() else []


def test_every_render_the_scripts_name_is_a_source(tmp_path):
    names = render_names(SCRIPTS / "retrain.sh") + render_names(SCRIPTS / "first_pack.sh")
    assert {"det", "hires", "rp3", "nbT"} <= set(names)
    unique = list(dict.fromkeys(names))
    done, calls = run_render(tmp_path, unique)
    assert done.returncode == 0, done.stderr
    assert [re.search(r"--out data/(\w+)", c).group(1) for c in calls] == unique
    for call in calls:
        assert call.startswith("synth --numbered-boards"), call


def test_each_source_is_drawn_with_its_own_seed(tmp_path):
    names = list(dict.fromkeys(render_names(SCRIPTS / "retrain.sh")))
    done, calls = run_render(tmp_path, names)
    assert done.returncode == 0, done.stderr
    seeds = [re.search(r"--seed (\d+)", c).group(1) for c in calls]
    assert len(set(seeds)) == len(seeds)


def test_the_first_classifiers_renders_are_the_retrainings(tmp_path):
    """first_pack.sh draws the scenes retrain.sh does under the same names (det: 4,000 at 640 px, seed 11)."""
    done, calls = run_render(tmp_path, ["det"])
    assert done.returncode == 0, done.stderr
    assert re.search(r"--n 4000 --seed 11 --size 640 --decks \S+", calls[0])


def test_a_render_already_done_is_skipped(tmp_path):
    (tmp_path / "data/rp3v/yolo").mkdir(parents=True)
    (tmp_path / "data/rp3v/yolo/data.yaml").write_text("done")
    done, calls = run_render(tmp_path, ["rp3v", "rp3"])
    assert done.returncode == 0, done.stderr
    assert len(calls) == 1 and "--out data/rp3 " in calls[0]


def test_an_unknown_source_is_refused(tmp_path):
    done, calls = run_render(tmp_path, ["det", "nosuch"])
    assert done.returncode == 2
    assert "no source named nosuch" in done.stderr
    assert len(calls) == 1
