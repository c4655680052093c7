"""hswc.checker.std_unit: the standard headers precompiled once per flag set, used (not silently
refused) by a harness build, and built anew when a header they read changes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hswc.checker import build_cache, model_object, std_unit
from hswc.checker.model_object import HARNESS, MODEL

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
FIXTURE = Path(__file__).resolve().parent / "cpp_fixtures" / "hard_swish_grad_fixture.cpp"


def test_a_linked_harness_build_loads_the_precompiled_headers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """g++ -H marks a precompiled header it uses with '!'; -Winvalid-pch -Werror makes one it
    finds but cannot use (another flag set's) an error. (That the kernel then runs as one unit
    does: test_model_object.)"""
    monkeypatch.setenv(build_cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    single = ["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{MODEL}",
              f'-DHSWC_KERNEL_SOURCE="{FIXTURE}"',
              str(HARNESS), "-o", str(tmp_path / "linked")]
    linked = model_object.prebuilt(single)
    assert linked[1] == "-include" and linked[2].endswith("std_headers.h")
    assert Path(f"{linked[2]}.gch").is_file()
    done = subprocess.run([linked[0], "-Winvalid-pch", "-H", *linked[1:]], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"! {linked[2]}.gch" in done.stderr.splitlines()


def test_the_key_follows_the_flags_the_headers_contents_and_the_compiler(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    header = tmp_path / "vector"
    header.write_text("// one\n")
    monkeypatch.setattr(std_unit, "_listing", lambda cxx, flags: (str(header),))
    key = std_unit.unit_key("g++", ["-std=c++17"], "base")
    assert key is not None and key == std_unit.unit_key("g++", ["-std=c++17"], "base")
    header.write_text("// two\n")  # a standard header it reads changed
    changed = std_unit.unit_key("g++", ["-std=c++17"], "base")
    assert changed not in (None, key)
    assert std_unit.unit_key("g++", ["-std=c++17"], "other") not in (key, changed)  # flags
    fake = tmp_path / "clang++"
    fake.write_text("#!/bin/sh\necho 'clang version 17.0.0'\n")
    fake.chmod(0o755)
    assert std_unit.unit_key(str(fake), ["-std=c++17"], "base") is None  # GCC only
