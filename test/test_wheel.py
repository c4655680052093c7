"""hswc as a wheel installs it: every file the tools read at run time is inside the package.

No module of hswc builds a path that leaves the package (from `__file__`, through parents or
`..`); the wheel built from the sources (python -m build) holds the package data (the API
table, the C++ CPU model and its harnesses), and the tools, imported from the unpacked wheel
alone in a folder outside the checkout, lower the README's example and check a hand-written
kernel against the wheel's CPU model. Each tool's --version gives hswc's version as
pyproject.toml declares it. (.ci/wheel_check does the same from a fresh venv, in CI.)
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from hswc.tools import hswc_check_kernel, hswc_emit, hswc_from_torch, hswc_opt, hswc_run

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "hswc"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())


# region: paths built from __file__


def _levels_up(node: ast.expr) -> int | None:
    """How many folders above its file a path expression rooted at `__file__` names: 0 for the
    file's own folder (`Path(__file__).parent`, `.with_name(...)`, os.path.dirname once); None
    when the expression does not start from `__file__`."""
    if isinstance(node, ast.Name) and node.id == "__file__":
        return -1  # the file itself: one below its folder
    if isinstance(node, ast.Call):
        return _call_levels_up(node)
    if isinstance(node, ast.Attribute):
        inner = _levels_up(node.value)
        return inner + 1 if inner is not None and node.attr == "parent" else inner
    if isinstance(node, ast.Subscript):
        inner = _levels_up(node.value)
        if (inner is not None and isinstance(node.value, ast.Attribute)
                and node.value.attr == "parents" and isinstance(node.slice, ast.Constant)
                and isinstance(node.slice.value, int)):
            return inner + 1 + node.slice.value
        return inner
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        inner = _levels_up(node.left)
        return None if inner is None else inner + _dotdots(node.right)
    return None


def _call_levels_up(node: ast.Call) -> int | None:
    """_levels_up of Path(p), os.path.dirname(p) and p.method(...)."""
    func = node.func
    if isinstance(func, ast.Name):
        return _levels_up(node.args[0]) if func.id == "Path" and node.args else None
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr == "dirname" and node.args:  # os.path.dirname(p)
        inner = _levels_up(node.args[0])
        return None if inner is None else inner + 1
    inner = _levels_up(func.value)
    if inner is None:
        return None
    if func.attr == "joinpath":
        return inner + sum(_dotdots(a) for a in node.args)
    return inner  # resolve(), with_name(...), ...


def _dotdots(node: ast.expr) -> int:
    """The `..` steps of a constant path part."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("\\", "/").split("/").count("..")
    return 0


def paths_above_the_package(source: str, depth: int) -> list[int]:
    """The lines of `source` (a module `depth` folders below hswc/) whose path built from
    `__file__` names a folder above hswc/."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.expr):
            up = _levels_up(node)
            if up is not None and up > depth:
                lines.append(node.lineno)
    return sorted(set(lines))


def test_the_scan_sees_paths_above_the_package() -> None:
    """The scan on the line hswc/checker/build.py had before the CPU model moved in, and on
    the spellings that stay inside."""
    old = 'MODEL = Path(__file__).resolve().parents[2] / "tools" / "ascendc_cpu"\n'
    assert paths_above_the_package(old, depth=1) == [1]
    assert paths_above_the_package(old, depth=2) == []
    assert paths_above_the_package("p = Path(__file__).parent.parent.parent\n", 1) == [1]
    assert paths_above_the_package("p = Path(__file__).parent / '..' / '..'\n", 1) == [1]
    assert paths_above_the_package("p = os.path.dirname(os.path.dirname(__file__))\n", 0) == [1]
    inside = ('a = Path(__file__).with_name("api_tables.def")\n'
              'b = Path(__file__).resolve().parents[1] / "ascendc_cpu"\n'
              'c = os.path.dirname(xdsl.__file__)\n')
    assert paths_above_the_package(inside, depth=1) == []


def test_no_module_builds_a_path_above_the_package() -> None:
    offending = []
    for module in sorted(PACKAGE.rglob("*.py")):
        depth = len(module.relative_to(PACKAGE).parts) - 1
        for line in paths_above_the_package(module.read_text(encoding="utf-8"), depth):
            offending.append(f"{module.relative_to(REPO)}:{line}")
    assert not offending, ("paths outside the installed package (a wheel has no checkout "
                           f"around it): {offending}")


# endregion
# region: --version


@pytest.mark.parametrize("tool, main", [
    ("hswc-opt", hswc_opt.main), ("hswc-run", hswc_run.main), ("hswc-emit", hswc_emit.main),
    ("hswc-check-kernel", hswc_check_kernel.run), ("hswc-from-torch", hswc_from_torch.main)])
def test_each_tool_says_hswcs_version(tool: str, main: object, capsys: pytest.CaptureFixture[str],
                                      ) -> None:
    xdsl = next(d.split("==")[1] for d in PYPROJECT["project"]["dependencies"]
                if d.startswith("xdsl=="))
    assert main(["--version"]) == 0  # type: ignore[operator]
    out = capsys.readouterr().out
    assert out == f"{tool} (hswc {PYPROJECT['project']['version']}, xDSL {xdsl})\n"


def test_the_tools_are_the_scripts_pyproject_installs() -> None:
    scripts = PYPROJECT["project"]["scripts"]
    assert scripts == {"hswc-opt": "hswc.tools.hswc_opt:main",
                       "hswc-run": "hswc.tools.hswc_run:main",
                       "hswc-emit": "hswc.tools.hswc_emit:main",
                       "hswc-check-kernel": "hswc.tools.hswc_check_kernel:main",
                       "hswc-from-torch": "hswc.tools.hswc_from_torch:main"}


# endregion
# region: the wheel, outside the checkout


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `python -m build` makes of a copy of the sources, unpacked (site-packages as
    pip would lay it out, without its dependencies, which the test's own venv provides)."""
    root = tmp_path_factory.mktemp("wheel")
    sources = root / "sources"
    sources.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, sources / name)
    shutil.copytree(PACKAGE, sources / "hswc",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir",
                           str(root / "dist"), str(sources)],
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, f"python -m build failed:\n{done.stdout[-3000:]}{done.stderr}"
    wheels = list((root / "dist").glob("hswc-*.whl"))
    assert len(wheels) == 1, wheels
    site = root / "site"
    with zipfile.ZipFile(wheels[0]) as wheel:
        wheel.extractall(site)
    return site


def test_the_wheel_holds_every_file_the_package_tracks(unpacked_wheel: Path) -> None:
    """Every file git tracks under hswc/ (modules and data alike) is in the wheel."""
    tracked = subprocess.run(["git", "ls-files", "hswc"], cwd=REPO, capture_output=True,
                             text=True, check=False)
    if tracked.returncode != 0:
        pytest.skip(f"not a git checkout: {tracked.stderr.strip()}")
    missing = [f for f in tracked.stdout.split() if not (unpacked_wheel / f).is_file()]
    assert not missing, f"the wheel lacks {missing}"


def _tool(site: Path, folder: Path, entry: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -c 'module.function(args)'` (entry `module:function`) with only the unpacked
    wheel's hswc importable, run in `folder`; it first checks that hswc comes from the wheel."""
    module, function = entry.split(":")
    program = (f"import sys, hswc; assert hswc.__file__.startswith({str(site)!r}), hswc.__file__; "
               f"from {module} import {function} as m; sys.exit(m(sys.argv[1:]))")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HSWC_BUILD_CACHE")}
    env.update(PYTHONPATH=str(site), HSWC_CACHE_DIR="")
    return subprocess.run([sys.executable, "-c", program, *args], cwd=folder, env=env,
                          capture_output=True, text=True, check=False, timeout=600)


def test_the_wheel_lowers_outside_the_checkout(unpacked_wheel: Path, tmp_path: Path) -> None:
    """hswc-opt -t ascendc reads the API table from the wheel."""
    shutil.copy2(REPO / "examples" / "hard_swish_grad.mlir", tmp_path)
    done = _tool(unpacked_wheel, tmp_path, "hswc.tools.hswc_opt:main", "--lower-to-ascend",
                 "-t", "ascendc", "hard_swish_grad.mlir")
    assert done.returncode == 0, done.stderr
    assert re.search(r"AscendC::\w+\(", done.stdout), done.stdout[:2000]


def test_the_wheel_checks_a_kernel_outside_the_checkout(unpacked_wheel: Path,
                                                        tmp_path: Path) -> None:
    """hswc-check-kernel builds against the wheel's CPU model."""
    if shutil.which("g++") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no g++ on PATH, and CI must run hswc-check-kernel")
        pytest.skip("no g++ on PATH: hswc-check-kernel cannot build a kernel")
    fixtures = REPO / "examples" / "check_kernel"
    for name in ("leaky_relu_fixture.cpp", "elementwise_kernel.h", "fixture_tiling.py"):
        shutil.copy2(fixtures / name, tmp_path)
    done = _tool(unpacked_wheel, tmp_path, "hswc.tools.hswc_check_kernel:run",
                 "leaky_relu_fixture.cpp", "--op", "hsg.leaky_relu",
                 "--attr", "negative_slope=0.2", "--tiling", "negativeSlope=0.2",
                 "--tiling-function", "fixture_tiling.py:one_input", "--core-num", "4",
                 "--ub-size", "16384", "--dtypes", "f16", "--sizes", "300")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS: all 1 runs are bit-exact and the kernel broke no rule" in done.stdout


# endregion
