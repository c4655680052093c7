"""hswc.checker.separate_build: one cached object per source, compiled again only when a file it
reads changed, and g++'s messages as one call would give them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hswc.checker import build_cache, separate_build

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")
FLAGS = ("-std=c++17", "-O0")


def _write(folder: Path, value: int) -> tuple[Path, Path]:
    """main.cpp returns part() + VALUE (value.h); part.cpp's part() returns 7."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "value.h").write_text(f"#define VALUE {value}\n")
    (folder / "main.cpp").write_text('#include "value.h"\nint part();\n'
                                     "int main() { return part() + VALUE; }\n")
    (folder / "part.cpp").write_text("int part() { return 7; }\n")
    return folder / "main.cpp", folder / "part.cpp"


def _objects(cache: Path) -> set[Path]:
    return {p for p in cache.rglob("*") if p.is_file()}


def _run(exe: Path) -> int:
    return subprocess.run([str(exe)], check=False).returncode


def test_a_source_is_compiled_once_and_again_when_its_header_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv(build_cache.CACHE_VARIABLE, str(cache))
    main, part = _write(tmp_path / "src", 3)
    flags = [*FLAGS, f"-I{tmp_path / 'src'}"]
    done = separate_build.build("g++", [(main, flags), (part, FLAGS)], tmp_path / "a" / "exe", 60)
    assert done.returncode == 0 and _run(tmp_path / "a" / "exe") == 10
    first = _objects(cache)
    assert len(first) == 2  # one object per source
    done = separate_build.build("g++", [(main, flags), (part, FLAGS)], tmp_path / "b" / "exe", 60)
    assert done.returncode == 0 and _run(tmp_path / "b" / "exe") == 10
    assert _objects(cache) == first  # both restored, none compiled
    _write(tmp_path / "src", 5)  # the header main.cpp includes changed; part.cpp did not
    done = separate_build.build("g++", [(main, flags), (part, FLAGS)], tmp_path / "c" / "exe", 60)
    assert done.returncode == 0 and _run(tmp_path / "c" / "exe") == 12
    assert len(_objects(cache) - first) == 1  # main.cpp's new object only
    other = [*FLAGS, "-DUNUSED=1"]  # so did part.cpp's flags: its object is another
    done = separate_build.build("g++", [(main, flags), (part, other)], tmp_path / "d" / "exe", 60)
    assert done.returncode == 0 and len(_objects(cache) - first) == 2


def test_without_the_cache_it_builds_the_same(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(build_cache.CACHE_VARIABLE, raising=False)
    main, part = _write(tmp_path / "src", 4)
    flags = [*FLAGS, f"-I{tmp_path / 'src'}"]
    done = separate_build.build("g++", [(main, flags), (part, FLAGS)], tmp_path / "exe", 60)
    assert done.returncode == 0 and _run(tmp_path / "exe") == 11


def test_each_failing_source_says_why_and_a_missing_definition_is_the_links_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(build_cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    main, part = _write(tmp_path / "src", 3)
    bad, worse = tmp_path / "src" / "bad.cpp", tmp_path / "src" / "worse.cpp"
    bad.write_text("int broken( { return 1; }\n")
    worse.write_text('#include "missing.h"\n')
    done = separate_build.build("g++", [(bad, FLAGS), (part, FLAGS), (worse, FLAGS)],
                                tmp_path / "exe", 60)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and not (tmp_path / "exe").exists()
    assert said.index("bad.cpp:1:") < said.index("worse.cpp:1:10: fatal error: missing.h")
    assert len(_objects(tmp_path / "cache")) == 1  # part.cpp's: failed builds are not kept
    done = separate_build.build("g++", [(main, FLAGS)], tmp_path / "exe", 60)  # no part.cpp
    assert done.returncode != 0 and "undefined reference to `part()'" in done.stdout + done.stderr
