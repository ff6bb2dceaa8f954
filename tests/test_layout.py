"""The project's shape: the runtime never loads the lab, modules stay readable, a wheel finds its models."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ("scorer", "vision", "api")


def test_the_runtime_loads_no_module_of_the_lab():
    check = ("import api.main, api.cli, vision, vision.recognizer, scorer, sys; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'training'))")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_no_runtime_module_imports_the_lab():
    for package in RUNTIME:
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            assert "import training" not in text and "from training" not in text, path


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_the_vision_runtime_fits_in_2000_lines_and_no_module_in_400():
    modules = list((ROOT / "vision").glob("*.py"))
    assert sum(map(_lines, modules)) <= 2000
    assert [m.name for m in modules if _lines(m) > 400] == []


def test_no_source_file_is_over_600_lines():
    sources = [p for package in (*RUNTIME, "training", "tests", "scripts") for p in (ROOT / package).rglob("*")
               if p.suffix in {".py", ".js", ".css", ".html", ".sh"} and "node_modules" not in p.parts]
    assert [str(p.relative_to(ROOT)) for p in sources if _lines(p) > 600] == []


@pytest.mark.slow
def test_a_wheel_install_finds_its_models_and_counts_a_photo():
    out = subprocess.run(["bash", str(ROOT / "scripts" / "check_wheel.sh")], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "counted 5S 8D 9C 9H 9S" in out.stdout


def test_the_readme_and_the_model_card_read_in_two_minutes():
    assert len((ROOT / "README.md").read_text().split()) <= 900
    assert len((ROOT / "models" / "README.md").read_text().split()) <= 1500
    assert (ROOT / "docs" / "experiments" / "README.md").is_file()


def test_every_package_is_listed_for_the_wheel():
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for package in (*RUNTIME, "training")
             for p in (ROOT / package).rglob("__init__.py")}
    assert found <= listed, f"add to pyproject.toml's packages: {sorted(found - listed)}"
