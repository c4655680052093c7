"""hswc-emit packages kernels that broadcast inputs to a shape known only at run time: torch-mlir's
`F.prelu` with a dynamic batch (its per-channel weight), a per-row scale `(?, 1)` and a bias over
`(?, 16)` (hswc.backend.run_time_shapes), for A2/A3 and for Ascend 950.

The package's host tiling, unchanged, runs on the checker's CPU model of the tiling context
(hswc.checker.host_tiling): at each run-time batch it tiles the output's element count (the
product of the run-time shape, counted here), and a tensor of another rank, another static dim
or a run-time dim that does not broadcast is refused with a status and a message naming the
tensor, its dim and both sizes. The kernel unit test (goldens from hswc-run) passes on the CPU
model of AscendC; InferShape, the aclnn checks and the docs say `?` for a run-time dim.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cpu_build import REPO, compiler
from test_broadcast_dynamic import prelu
from test_emit_broadcast import run_kernel_unit_tests

from hswc.checker import host_tiling
from hswc.checker.op_folder import folder
from hswc.platform import PLATFORMS
from hswc.remarks import collecting
from hswc.tools.hswc_emit import main

PRELU = REPO / "test" / "fixtures" / "torch_models" / "gated" / "prelu_dynamic_f16.mlir"
GE = {"f16": 1, "f32": 0}
"""ge::DataType codes the tiling harness takes."""

PACKAGES = {
    # name: (op type, stem, dtype, inputs, ((input shapes..., output), ...) run-time shapes)
    # PRelu's attribute cst is the 0.0 its body compares with (a scalar the body captures)
    "prelu": ("PRelu", "p_relu", "f16", ("arg0", "arg1"),
              (((1, 16, 8), (16,), (1, 16, 8)), ((3, 16, 8), (16,), (3, 16, 8)),
               ((1000, 16, 8), (16,), (1000, 16, 8)))),
    "scale": ("Scale", "scale", "f32", ("x", "w"),
              (((1, 16), (1, 1), (1, 16)), ((5, 16), (5, 1), (5, 16)),
               ((4097, 16), (4097, 1), (4097, 16)))),
    "bias": ("Bias", "bias", "f16", ("x", "w"),
             (((1, 16), (16,), (1, 16)), ((7, 16), (16,), (7, 16)),
              ((3000, 16), (16,), (3000, 16)))),
}
ARCH35 = "prelu950"
REFUSED = {
    # name: ((input shapes..., output), the message after "<OpType>: ")
    "prelu": [
        (((3, 16, 8), (15,), (3, 16, 8)),
         "dim 0 of arg1 must be 16 as its kernel was compiled, not 15"),
        (((3, 16, 9), (16,), (3, 16, 8)),
         "dim 2 of arg0 must be 8 as its kernel was compiled, not 9"),
        (((384,), (16,), (3, 16, 8)),
         "arg0 must have rank 3 (shape {?, 16, 8}), the rank its kernel was compiled for, not 1"),
        (((3, 16, 8), (1, 16, 1), (3, 16, 8)),
         "arg1 must have rank 1 (shape {16}), the rank its kernel was compiled for, not 3")],
    "scale": [
        (((5, 16), (4, 1), (5, 16)),
         "dim 0 of w must be dim 0 of x (5) to broadcast to the output, not 4"),
        (((5, 16), (5, 16), (5, 16)),
         "dim 1 of w must be 1 as its kernel was compiled, not 16"),
        (((5, 16), (5,), (5, 16)),
         "w must have rank 2 (shape {?, 1}), the rank its kernel was compiled for, not 1")],
    "bias": [
        (((7, 16), (17,), (7, 16)),
         "dim 0 of w must be 16 to broadcast to the output, not 17"),
        (((7, 16), (7,), (7, 16)),
         "dim 0 of w must be 16 to broadcast to the output, not 7")],
}


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("emit_broadcast_dynamic")
    sources = {"prelu": PRELU}
    for name, (x, w, m, dtype) in {"scale": ((None, 16), (None, 1), "d0, 0", "f32"),
                                   "bias": ((None, 16), (None,), "d1", "f16")}.items():
        sources[name] = root / f"{name}.mlir"
        sources[name].write_text(prelu(name, x, w, m, dtype))
    out = {}
    with collecting():
        for name, (op_type, *_) in PACKAGES.items():
            out[name] = root / name
            assert main([str(sources[name]), "--name", op_type, "-o", str(out[name])]) == 0
        out[ARCH35] = root / ARCH35
        assert main([str(PRELU), "--name", "PRelu", "-o", str(out[ARCH35]),
                     "--soc", "ascend950"]) == 0
    return out


def _tiler(package: Path, soc: str, op_type: str, inputs: tuple[str, ...],
           workdir: Path) -> host_tiling.HostTiling:
    attributes = [host_tiling.Attribute("cst", "float", "0.0")] if op_type == "PRelu" else []
    op = host_tiling.OpDefinition(op_type, [(n, (1,)) for n in inputs], [("y", (1,))],
                                  attributes)
    return host_tiling.build(folder(package, soc), op, {}, f"{op_type}TilingData", [], None,
                             None, compiler(), workdir)


def _tile(built: host_tiling.HostTiling, op_type: str, soc: str, dtype: str,
          shapes: tuple[tuple[int, ...], ...]) -> subprocess.CompletedProcess[str]:
    tensors = [f"{GE[dtype]}:{'x'.join(map(str, s))}" for s in shapes]
    platform = PLATFORMS[soc]
    command = [str(built.executable), "--op", op_type, "--soc", soc,
               "--core-num", str(platform.core_num), "--ub-size", str(platform.ub_size)]
    for tensor in tensors[:-1]:
        command += ["--input", tensor]
    command += ["--output", tensors[-1]]
    for value in built.attributes:
        command += ["--attr", value]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def _total_num(stdout: str) -> int:
    """totalNum, the tiling struct's first field (int64, little-endian), as the harness prints
    the struct's bytes in hex."""
    line = next(x for x in stdout.splitlines() if x.startswith("tiling "))
    return int.from_bytes(bytes.fromhex(line.split()[2][:16]), "little")


@pytest.mark.parametrize("name", [*PACKAGES, ARCH35])
def test_host_tiling_tiles_each_run_time_shape_and_refuses_what_does_not_broadcast(
        packages: dict[str, Path], name: str, tmp_path: Path) -> None:
    key = "prelu" if name == ARCH35 else name
    op_type, _, dtype, inputs, shapes = PACKAGES[key]
    soc = "ascend950" if name == ARCH35 else "ascend910b"
    built = _tiler(packages[name], soc, op_type, inputs, tmp_path)
    for given in shapes:
        done = _tile(built, op_type, soc, dtype, given)
        assert done.returncode == 0 and "status ok" in done.stdout, (given, done.stderr)
        count = 1
        for n in given[-1]:
            count *= n
        assert _total_num(done.stdout) == count, given
    for given, message in REFUSED[key]:
        done = _tile(built, op_type, soc, dtype, given)
        assert done.returncode != 0 and "status failed" in done.stdout, given
        assert f"{op_type}: {message}" in done.stderr, done.stderr


def test_kernel_unit_tests_pass_on_the_cpu_model(packages: dict[str, Path],
                                                 tmp_path: Path) -> None:
    """tests/ut/op_kernel of every package (at the example's batch of 2), built against the CPU
    model with the test-only stand-ins of googletest and tikicpulib."""
    sources = {name: packages[name] / f"tests/ut/op_kernel/test_{PACKAGES[name][1]}.cpp"
               for name in PACKAGES}
    sources[ARCH35] = packages[ARCH35] / "tests/ut/op_kernel/test_p_relu_apt.cpp"
    run_kernel_unit_tests(sources, ARCH35, tmp_path)


def test_shape_inference_aclnn_checks_and_docs_take_the_run_time_dims(
        packages: dict[str, Path]) -> None:
    package = packages["scale"]
    infer = (package / "op_host/scale_infershape.cpp").read_text()
    assert "    *yShape = gert::Shape({(*xShape).GetDim(0), 16});" in infer
    api = (package / "op_host/op_api/aclnn_scale.cpp").read_text()
    assert "OP_CHECK(x->GetViewShape().GetDimNum() == 2," in api
    assert "OP_CHECK(HasShape(w, {x->GetViewShape().GetDim(0), 1})," in api
    assert "OP_CHECK(HasShape(out, {x->GetViewShape().GetDim(0), 16})," in api
    l0op = (package / "op_host/op_api/scale.cpp").read_text()
    assert "executor->AllocTensor(op::Shape({x->GetViewShape().GetDim(0), 16})," in l0op
    doc = (package / "docs/aclnnScale.md").read_text()
    assert "`x` {?, 16}, `w` {?, 1}, `out` {?, 16}" in doc
    ut = (package / "tests/ut/op_host/test_scale_tiling.cpp").read_text()
    for case in ("run_time_dim_1)", "run_time_dim_1000)", "x_has_another_shape)",
                 "w_has_another_shape)"):
        assert case in ut, case
    prelu_ut = (packages["prelu"] / "tests/ut/op_host/test_p_relu_tiling.cpp").read_text()
    assert "Tensor({{1000, 16, 8}, {1000, 16, 8}}, ge::DT_FLOAT16)" in prelu_ut
