"""hswc-check-kernel passes a kernel the workspace its tiling asks for: GetUserWorkspace (as
asc-devkit's CPU-debug build: the workspace itself) on a GM buffer of that many bytes, bounded
as the kernel's other GM tensors; without one it is a workspace of no bytes (never null).
The fixture copies x through the workspace into y (test/cpp_fixtures/workspace_fixture.cpp)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hswc.checker.check import check
from hswc.checker.errors import CheckError
from hswc.checker.options import CheckOptions

FIXTURE = Path(__file__).parent / "cpp_fixtures" / "workspace_fixture.cpp"
IDENTITY = """func.func @copy_f32(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
"""
TILING = """def tiling(total, core_num, ub_size, dtype):
    return {"totalNum": total, "block_dim": 1, "workspace": WORKSPACE(total)}


def WORKSPACE(total):
    return {WORKSPACE}
"""


def _options(tmp_path: Path, workspace: str) -> CheckOptions:
    (tmp_path / "copy.mlir").write_text(IDENTITY)
    (tmp_path / "ws_tiling.py").write_text(TILING.replace("{WORKSPACE}", workspace))
    return CheckOptions(kernel=str(FIXTURE), reference=str(tmp_path / "copy.mlir"),
                        tiling_function=f"{tmp_path / 'ws_tiling.py'}:tiling",
                        dtypes=("f32",), sizes=(1, 100, 4096), jobs=1,
                        template_args={None: ("float",)})


def test_the_workspace_the_tiling_asks_for_reaches_the_kernel(tmp_path: Path) -> None:
    report = check(_options(tmp_path, "4 * total"))
    assert report.passed, report.format()
    assert {o.size for o in report.outcomes} == {1, 100, 4096}


def test_a_workspace_too_small_is_a_gm_overrun(tmp_path: Path) -> None:
    report = check(_options(tmp_path, "4 * total - 4"))
    assert not report.passed
    assert "workspace" in report.format(), report.format()


def test_a_kernel_using_a_workspace_its_tiling_did_not_ask_for_overruns_it(tmp_path: Path) -> None:
    """A tiling asking for none still hands the kernel a workspace pointer (never null, as the
    runtime's system workspace), of no bytes: the first access is outside it."""
    report = check(_options(tmp_path, "0"))
    assert not report.passed
    text = report.format()
    assert "bytes at byte 0 of GM tensor 'workspace' runs past its end (0 bytes)" in text, text


def test_a_workspace_that_is_not_a_byte_count_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CheckError, match="workspace must be an integer"):
        check(_options(tmp_path, "'16M'"))
