"""hswc-emit's output folder: refused when it holds files (unless --force), never a user's file
lost, nothing written for a module that cannot run on a target SoC, and all or nothing."""

from __future__ import annotations

import errno
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import operator_module

from hswc.backend import package_output
from hswc.runner import KernelError, compile_text
from hswc.tools.hswc_emit import main


def emit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "in.mlir"
    path.write_text(operator_module(("f16", "f32")))
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def leftovers(parent: Path) -> list[str]:
    return [p.name for p in parent.iterdir() if ".hswc-" in p.name]


def test_empty_output_is_refused(source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    for empty in ("", "  "):
        code, err = emit(capsys, str(source), "-o", empty)
        assert code == 1
        assert err == "hswc-emit: error: -o is empty: name the folder to write the package " \
                      "into\n"
    assert list(work.iterdir()) == []


def test_a_folder_with_files_is_refused_without_force(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    before = snapshot(out)
    code, err = emit(capsys, str(source), "-o", str(out))
    assert code == 1
    assert err == (f"hswc-emit: error: '{out}' already holds files (notes.txt); give --force to "
                   "replace the package there (files hswc-emit did not write are kept), or "
                   "name a new folder\n")
    assert snapshot(out) == before and leftovers(tmp_path) == []
    # An earlier package is files too: writing twice needs --force.
    fresh = tmp_path / "fresh"
    assert emit(capsys, str(source), "-o", str(fresh))[0] == 0
    code, err = emit(capsys, str(source), "-o", str(fresh))
    assert code == 1 and "already holds files (.hswc-package, CMakeLists.txt, README.md, ...)" \
        in err


def test_an_empty_folder_takes_the_package(source: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    assert emit(capsys, str(source), "-o", str(out))[0] == 0
    assert (out / "op_kernel/hard_swish_grad.cpp").is_file()
    # The folder gets the permissions a new folder gets, not mkdtemp's private 0700.
    sibling = tmp_path / "sibling"
    sibling.mkdir()
    assert out.stat().st_mode & 0o777 == sibling.stat().st_mode & 0o777
    new = tmp_path / "a" / "b" / "c"
    assert emit(capsys, str(source), "-o", str(new))[0] == 0
    assert (new / "README.md").is_file() and leftovers(new.parent) == []


def test_force_replaces_the_package_and_keeps_the_users_files(
        source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert emit(capsys, str(source), "-o", str(out))[0] == 0
    written = snapshot(out)
    # The user edits a package file and adds files of their own; an earlier hswc-emit wrote a
    # file this one does not write (listed in the manifest), and a hostile manifest line
    # names a file outside the folder.
    (out / "README.md").write_text("edited")
    (out / "notes.txt").write_text("mine")
    (out / "op_host/my_extra.cpp").write_text("// mine")
    (out / "old/stale").mkdir(parents=True)
    (out / "old/stale/gone.cpp").write_text("// written by an older hswc-emit")
    (tmp_path / "outside.txt").write_text("not the package's")
    with (out / ".hswc-package").open("a") as manifest:
        manifest.write("old/stale/gone.cpp\n../outside.txt\n/etc/hostname\nnotes.txt/../x\n")
    # --force refuses: README.md changed since it was written, and gone.cpp has no hash.
    before = snapshot(out)
    code, err = emit(capsys, str(source), "-o", str(out), "--force")
    assert code == 1 and err == (
        "hswc-emit: error: --force would overwrite or remove 2 file(s) that changed since "
        f"hswc-emit wrote them, or that it did not write: '{out}/README.md', "
        f"'{out}/old/stale/gone.cpp'; nothing was written. Move them away, or give "
        "--force-overwrite-edits to replace them anyway\n")
    assert snapshot(out) == before and leftovers(tmp_path) == []
    code, err = emit(capsys, str(source), "-o", str(out), "--force-overwrite-edits")
    assert code == 0 and err == (
        f"hswc-emit: --force replaced '{out}/README.md' (it had changed since hswc-emit wrote "
        "it)\n"
        f"hswc-emit: --force removed '{out}/old/stale/gone.cpp' (it had changed since "
        "hswc-emit wrote it)\n")
    after = snapshot(out)
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "op_host/my_extra.cpp").read_text() == "// mine"
    assert (tmp_path / "outside.txt").read_text() == "not the package's"
    assert not (out / "old").exists()  # the stale file and the folders it leaves empty
    assert {k: v for k, v in after.items() if k not in ("notes.txt", "op_host/my_extra.cpp")} \
        == written
    assert leftovers(tmp_path) == []


def test_force_refuses_a_folder_where_a_file_goes(source: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    (out / "README.md").mkdir(parents=True)
    (out / "README.md" / "keep").write_text("mine")
    (out / "docs").write_text("a file where the package needs a folder")
    before = snapshot(out)
    code, err = emit(capsys, str(source), "-o", str(out), "--force")
    assert code == 1
    assert err == f"hswc-emit: error: '{out}/README.md' is a folder; the package writes a " \
                  "file there\n"
    assert snapshot(out) == before and leftovers(tmp_path) == []
    (out / "README.md" / "keep").unlink()
    (out / "README.md").rmdir()
    code, err = emit(capsys, str(source), "-o", str(out), "--force")
    assert code == 1 and err == f"hswc-emit: error: '{out}/docs' is not a folder; the " \
                                "package needs one there\n"
    assert not (out / "CMakeLists.txt").exists()
    target = tmp_path / "file"
    target.write_text("x")
    code, err = emit(capsys, str(source), "-o", str(target), "--force")
    assert code == 1 and err == f"hswc-emit: error: '{target}' exists and is not a folder\n"


def test_a_failed_write_leaves_nothing(source: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    real = package_output._write_all

    def disk_full(staging: Path, files: dict[str, str]) -> None:
        real(staging, dict(list(files.items())[:3]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(staging / "README.md"))

    monkeypatch.setattr(package_output, "_write_all", disk_full)
    new = tmp_path / "a" / "b"
    code, err = emit(capsys, str(source), "-o", str(new))
    assert code == 1 and "No space left on device" in err and "Traceback" not in err
    assert not (tmp_path / "a").exists() and leftovers(tmp_path) == []
    monkeypatch.setattr(package_output, "_write_all", real)
    out = tmp_path / "out"
    assert emit(capsys, str(source), "-o", str(out))[0] == 0
    before = snapshot(out)
    monkeypatch.setattr(package_output, "_write_all", disk_full)
    assert emit(capsys, str(source), "-o", str(out), "--force")[0] == 1
    assert snapshot(out) == before and leftovers(tmp_path) == []


def lowered(tmp_path: Path, old: str, new: str) -> Path:
    """The f16 module lowered by hswc-opt, with one constant of its host tiling replaced."""
    high = tmp_path / "high.mlir"
    high.write_text(operator_module(("f16",)))
    text = subprocess.run(["hswc-opt", "--lower-to-ascend", str(high)], check=True,
                          capture_output=True, text=True).stdout
    edited, count = re.subn(rf"arith\.constant {old} : index", f"arith.constant {new} : index",
                            text, count=1)
    assert count == 1
    path = tmp_path / "edited.mlir"
    path.write_text(edited)
    return path


def test_a_kernel_whose_ub_plan_overflows_is_not_packaged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tiling budgets 16 bytes per element where the kernel's buffers take 34 (f16): on 196608
    bytes of UB, ubFactor 12224 makes the InitBuffers claim far more than the UB holds."""
    edited = lowered(tmp_path, "48", "16")
    out = tmp_path / "out"
    code, err = emit(capsys, str(edited), "-o", str(out))
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert re.fullmatch(
        rf"{re.escape(str(edited))}:\d+:\d+: error: 'ascend.init_buffer' UB overflow on "
        r"ascend910b \(48 cores, 196608 B of UB\) with ubFactor 12224: the InitBuffers up to "
        r"this one claim \d+ bytes; the package would fail at run time\n", err), err
    assert not out.exists() and leftovers(tmp_path) == []
    # hswc-run refuses the same module for the same reason.
    kernel = compile_text(edited.read_text(), soc="ascend910b")
    data = np.zeros(40, np.float16)
    with pytest.raises(KernelError, match="UB overflow"):
        kernel(data, data)


def test_a_tiling_that_refuses_every_launch_is_not_packaged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited = lowered(tmp_path, "1024", "196608")  # the mask reserve takes the whole UB
    code, err = emit(capsys, str(edited), "-o", str(tmp_path / "out"))
    assert code == 1
    assert re.fullmatch(r".*: error: 'func.func' refuses every launch on ascend910b \(48 cores, "
                        r"196608 B of UB\): available UB size is invalid\n", err), err
    assert not (tmp_path / "out").exists()
