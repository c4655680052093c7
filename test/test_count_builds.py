"""tools/count_builds.py: its table of compiler calls per test file, and its g++ logging a real
call (a syntax check of a small source) with the test that made it."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "count_builds.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("count_builds", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_counts_each_files_calls_and_repeated_builds(
        capsys: pytest.CaptureFixture[str]) -> None:
    calls = [{"kind": "build", "seconds": 3.0, "code": 0, "key": "a", "test": "test/t_a.py::x"},
             {"kind": "build", "seconds": 2.0, "code": 0, "key": "a", "test": "test/t_b.py::y"},
             {"kind": "other", "seconds": 0.5, "code": 0, "key": None, "test": "test/t_b.py::y"},
             {"kind": "syntax", "seconds": 1.0, "code": 0, "key": "b", "test": "test/t_a.py::z"}]
    _tool().report(calls)
    rows = {line.split()[-1]: line.split()[:5] for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows["test/t_a.py"] == ["1", "1", "0", "0", "4.0"]
    assert rows["test/t_b.py"] == ["1", "0", "1", "1", "2.5"]  # the same key as t_a's build
    assert rows["all"] == ["2", "1", "1", "1", "6.5"]


def test_the_shim_runs_the_compiler_and_logs_the_call(tmp_path: Path) -> None:
    real = shutil.which("g++")
    if real is None:
        pytest.skip("no g++")
    log, shim = tmp_path / "calls.jsonl", tmp_path / "g++"
    shim.write_text(_tool().SHIM.format(python=sys.executable, real=real, log=str(log)))
    source = tmp_path / "a.cpp"
    source.write_text("int f() { return 1; }\n")
    done = subprocess.run([sys.executable, str(shim), "-fsyntax-only", str(source)],
                          env={"PYTEST_CURRENT_TEST": "test/t.py::f (call)"}, check=False)
    assert done.returncode == 0
    (call,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert (call["kind"], call["code"], call["test"]) == ("syntax", 0, "test/t.py::f")
    assert call["key"] is not None
