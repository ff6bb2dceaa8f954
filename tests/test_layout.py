"""The project's shape: imports point one way, the runtime never loads the lab, a wheel finds its models."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ("scorer", "vision", "api")


HEAVY = ("torch", "ultralytics", "onnx", "cairosvg", "tqdm", "training", "benchmarks")
"""What the runtime never loads: the lab's libraries and packages (onnxruntime is the runtime's,
onnx is not)."""


def test_importing_every_runtime_module_loads_nothing_of_the_lab():
    modules = sorted(_runtime_modules())
    check = (f"import importlib, sys; [importlib.import_module(m) for m in {modules!r}]; "
             f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_runtime_import_graph_has_no_cycle():
    graph = _import_graph()
    cycles = [sorted(c) for c in _strongly_connected(graph) if len(c) > 1]
    assert cycles == []


def test_the_runtime_imports_point_one_way():
    """api -> vision -> scorer, api -> scorer: the scorer imports neither, vision never the api."""
    wrong = [(m, t) for m, targets in _import_graph().items() for t in targets
             if (m.startswith("scorer") and not t.startswith("scorer"))
             or (m.startswith("vision") and t.startswith("api"))]
    assert wrong == []


def _runtime_modules() -> dict[str, Path]:
    """Every module of the runtime packages by dotted name (a package by its own name)."""
    found = {}
    for package in RUNTIME:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """The dotted names a module's import statements name, in functions too (``TYPE_CHECKING``
    blocks aside): ``from a import b`` names both ``a`` and ``a.b``, which may be a module."""
    names: set[str] = set()
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    base = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            package = base[: len(base) - node.level + 1] if node.level else []
            parent = ".".join([*package, node.module or ""]).strip(".")
            names.add(parent)
            names.update(f"{parent}.{a.name}" for a in node.names)
    return names


def _import_graph() -> dict[str, set[str]]:
    modules = _runtime_modules()
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        targets = _imported(tree, name, path.name == "__init__.py")
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components: a component of two or more modules is an import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_no_runtime_import_statement_names_the_lab_or_its_libraries():
    """In functions too, where importing every module does not reach (a lazy import)."""
    named = {(name, target) for name, path in _runtime_modules().items()
             for target in _imported(ast.parse(path.read_text()), name, path.name == "__init__.py")
             if target.split(".")[0] in HEAVY}
    assert named == set()


@pytest.mark.slow
def test_a_wheel_install_finds_its_models_and_counts_a_photo():
    out = subprocess.run(["bash", str(ROOT / "scripts" / "check_wheel.sh")], capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "counted 5S 8D 9C 9H 9S" in out.stdout


def test_the_experiment_log_has_its_index():
    assert (ROOT / "docs" / "experiments" / "README.md").is_file()


def test_every_package_is_listed_for_the_wheel():
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for package in (*RUNTIME, "training")
             for p in (ROOT / package).rglob("__init__.py")}
    assert found <= listed, f"add to pyproject.toml's packages: {sorted(found - listed)}"
