"""hswc.checker.build_cache: a build is copied from the cache only when nothing it reads changed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hswc.checker import build_cache

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")


def _sources(folder: Path, value: int) -> list[str]:
    (folder / "value.h").write_text(f"#define VALUE {value}\n")
    (folder / "main.cpp").write_text('#include "value.h"\nint main() { return VALUE; }\n')
    return ["g++", "-std=c++17", f"-I{folder}", str(folder / "main.cpp"), "-o",
            str(folder / "out" / "main")]


def _built(command: list[str]) -> int:
    key = build_cache.build_key(command)
    output = Path(command[-1])
    if not build_cache.restore(key, output):
        output.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(command, check=True)
        build_cache.store(key, output)
    return subprocess.run([str(output)], check=False).returncode


def test_off_without_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(build_cache.CACHE_VARIABLE, raising=False)
    assert build_cache.build_key(_sources(tmp_path, 3)) is None


def test_a_changed_header_builds_anew_and_an_unchanged_one_is_restored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(build_cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    command = _sources(tmp_path, 3)
    key = build_cache.build_key(command)
    assert key is not None and _built(command) == 3
    assert build_cache.build_key(command) == key  # nothing changed: the same key, a hit
    Path(command[-1]).unlink()
    assert build_cache.restore(key, Path(command[-1])) and _built(command) == 3
    _sources(tmp_path, 5)  # the header the source includes changed
    assert build_cache.build_key(command) != key and _built(command) == 5
    other = [*command[:-2], "-DUNUSED=1", *command[-2:]]  # so did the flags
    assert build_cache.build_key(other) not in (key, build_cache.build_key(command))
    moved = [*command[:-1], str(tmp_path / "elsewhere")]  # the output path is not in the key
    assert build_cache.build_key(moved) == build_cache.build_key(command)
