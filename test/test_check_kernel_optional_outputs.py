"""What the checker leaves out of an op folder's launch as its definition allows: optional
outputs past the reference's results (SwigluGroupQuantGrad's grad_weight: the kernel gets a null
address, the tiling no output desc), and the op_host subfolder a folder's CMakeLists.txt pairs
with each SoC (experimental relu_v2's Atlas A2/A3 tiling in op_host/ascend910b/)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hswc.checker.errors import CheckError
from hswc.checker.expected import Reference, with_absent_outputs
from hswc.checker.host_tiling import OpDefinition, parse_description
from hswc.checker.op_dir import OpDir
from hswc.checker.op_folder import Folder, folder, tiling_dirs


def _opdir(op: OpDefinition) -> OpDir:
    here = Path(".")
    return OpDir(Folder(here, "ascend950", (), (), ()), op, here, "g++", here)


def test_the_definition_marks_its_optional_outputs() -> None:
    """The tiling harness's description (`output NAME DTYPES optional`) as parsed."""
    ops, _ = parse_description("op Sgqg\ninput grad_y 1\ninput weight 0 optional\n"
                               "output grad_x 1\noutput grad_weight 0 optional\n")
    assert ops[0].optional_inputs == {1} and ops[0].optional_outputs == {1}


@pytest.mark.parametrize(("outputs", "optional", "results", "absent"), [
    (["grad_x", "grad_weight"], {1}, 1, {1}),  # SwigluGroupQuantGrad without weight
    (["grad_x", "grad_weight"], {1}, 2, set()),  # the reference gives both
    (["y", "mask"], set(), 1, set()),  # a required output is never left out
    (["y", "a", "b"], {2}, 1, set()),  # nor when one of those past the results is required
    (["y", "a", "b"], {1, 2}, 1, {1, 2}),
])
def test_absent_outputs_are_the_optional_ones_past_the_results(
        outputs: list[str], optional: set[int], results: int, absent: set[int]) -> None:
    op = OpDefinition("Op", [("x", (0,))], [(n, (0,)) for n in outputs],
                      optional_outputs=optional)
    assert _opdir(op).absent_outputs(results) == frozenset(absent)


def test_an_absent_output_is_an_empty_result_the_run_passes_as_null() -> None:
    """The reference gains an empty result at each left-out position (0 bytes: the harness
    maps none and passes a null address), its own results in their places."""
    def compute(_dtype: str, args: object) -> list[np.ndarray]:
        x = np.asarray(args[0])  # type: ignore[index]
        return [x * 2, x + 1]

    ref = Reference("two", ("x",), 2, compute, {"f32": None})
    assert with_absent_outputs(ref, frozenset()) is ref
    widened = with_absent_outputs(ref, frozenset({1, 3}))
    assert widened.result_count == 4 and widened.absent_outputs == {1, 3}
    got = widened.outputs("f32", [np.array([1.0, 2.0], np.float32)])
    assert [g.size for g in got] == [2, 0, 2, 0]
    assert got[0].tolist() == [2.0, 4.0] and got[2].tolist() == [2.0, 3.0]


def _relu_v2_like(tmp_path: Path, cmake: str) -> Path:
    root = tmp_path / "relu_v2"
    for d in ("op_host/ascend910b", "op_host/arch35", "op_kernel"):
        (root / d).mkdir(parents=True)
    (root / "op_host" / "relu_v2_def.cpp").write_text("\n")
    (root / "op_host" / "ascend910b" / "relu_v2_tiling.cpp").write_text("\n")
    (root / "op_host" / "arch35" / "relu_v2_tiling_arch35.cpp").write_text("\n")
    (root / "CMakeLists.txt").write_text(cmake)
    return root


RELU_V2_CMAKE = ('set(SUPPORT_COMPUTE_UNIT "ascend950" "mc62cm12a" "ascend910b" "ascend910_93")\n'
                 'set(SUPPORT_TILING_DIR "arch35" "arch35" "ascend910b" "ascend910b")\n'
                 "add_modules_sources(DIR ${CMAKE_CURRENT_SOURCE_DIR} OPTYPE relu_v2 "
                 "COMPUTE_UNIT ${SUPPORT_COMPUTE_UNIT} TILING_DIR ${SUPPORT_TILING_DIR})\n")


def test_the_tiling_dir_is_the_one_cmake_pairs_with_the_soc(tmp_path: Path) -> None:
    """ops-nn's experimental relu_v2 (CMakeLists.txt: ascend910b and ascend910_93 built from
    op_host/ascend910b/): its A2/A3 tiling is found there; a SoC the lists do not name, or a
    folder without them, takes the default subfolders (arch35 on the 950, else arch22)."""
    root = _relu_v2_like(tmp_path, RELU_V2_CMAKE)
    assert tiling_dirs(root, "ascend910_93") == ("ascend910b",)
    assert tiling_dirs(root, "ascend950") == ("arch35",)
    assert folder(root, "ascend910b").tiling_files == (
        root / "op_host" / "ascend910b" / "relu_v2_tiling.cpp",)
    plain = _relu_v2_like(tmp_path / "plain", "add_modules_sources(OPTYPE relu_v2)\n")
    assert tiling_dirs(plain, "ascend910b") == ("arch22",)
    with pytest.raises(CheckError, match=r"no tiling source .* op_host/arch22/ for ascend910b"):
        folder(plain, "ascend910b")
