"""Kernels at dtype boundaries (issue 35): a region's inputs and output each keep their own
element type in GM (an f32 accumulator in, f16 out; f16 in, f32 out). Each case is run at every
level and, sampled, on the C++ CPU model, against numpy computing the body's operations in their
own types; conversion generics fuse into the work beside them instead of becoming kernels."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.runner import LEVELS

BF16 = np.dtype(ml_dtypes.bfloat16)
NUMPY = {"f16": np.dtype(np.float16), "bf16": BF16, "f32": np.dtype(np.float32)}
MAP = "affine_map<(d0, d1) -> (d0, d1)>"


def boundary(name: str, inputs: tuple[str, ...], output: str, shape: tuple[int, int]) -> str:
    """@name: (a [+ b]) * 3 + 1 computed in f32, each input widened from its own type, the result
    rounded once to `output`."""
    t = [f"tensor<{shape[0]}x{shape[1]}x{dt}>" for dt in (*inputs, output)]
    args = ", ".join(f"%in{i}: {tt}" for i, tt in enumerate(t[:-1]))
    block = ", ".join(f"%e{i}: {dt}" for i, dt in enumerate(inputs))
    widen = "".join(f"    %w{i} = arith.extf %e{i} : {dt} to f32\n" if dt != "f32"
                    else f"    %w{i} = arith.negf %e{i} : f32\n    %v{i} = arith.negf %w{i} : f32\n"
                    for i, dt in enumerate(inputs))
    names = [f"%w{i}" if dt != "f32" else f"%v{i}" for i, dt in enumerate(inputs)]
    total = names[0] if len(names) == 1 else "%sum"
    add = f"    %sum = arith.addf {names[0]}, {names[1]} : f32\n" if len(names) == 2 else ""
    narrow = (f"    %r = arith.truncf %y : f32 to {output}\n" if output != "f32" else
              "    %r = arith.negf %y : f32\n    %r2 = arith.negf %r : f32\n")
    result = "%r" if output != "f32" else "%r2"
    maps = ", ".join([MAP] * len(t))
    ins = ", ".join(f"%in{i}" for i in range(len(inputs)))
    return f"""\
func.func @{name}({args}) -> {t[-1]} {{
  %e = tensor.empty() : {t[-1]}
  %res = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}}
      ins({ins} : {", ".join(t[:-1])}) outs(%e : {t[-1]}) {{
  ^bb0({block}, %o: {output}):
{widen}{add}    %c3 = arith.constant 3.0 : f32
    %c1 = arith.constant 1.0 : f32
    %m = arith.mulf {total}, %c3 : f32
    %y = arith.addf %m, %c1 : f32
{narrow}    linalg.yield {result} : {output}
  }} -> {t[-1]}
  func.return %res : {t[-1]}
}}
"""


def expected(arrays: list[np.ndarray], output: str) -> np.ndarray:
    wide = [a.astype(np.float32) for a in arrays]
    total = wide[0] if len(wide) == 1 else wide[0] + wide[1]
    with np.errstate(over="ignore", invalid="ignore"):
        return (total * np.float32(3) + np.float32(1)).astype(NUMPY[output])


CASES = {
    "f32_to_f16": (("f32",), "f16"),
    "f32_to_bf16": (("f32",), "bf16"),
    "f16_to_f32": (("f16",), "f32"),
    "bf16_to_f32": (("bf16",), "f32"),
    "f32_f16_to_f16": (("f32", "f16"), "f16"),
    "bf16_f32_to_bf16": (("bf16", "f32"), "bf16"),
}
SHAPE = (3, 700)


def _inputs(dtypes: tuple[str, ...], seed: int) -> list[np.ndarray]:
    r = np.random.default_rng(seed)
    arrays = []
    for dt in dtypes:
        a = (r.standard_normal(SHAPE) * 300).astype(np.float32)
        a.flat[:6] = [0.0, -0.0, np.inf, -np.inf, np.nan, 70000.0]  # 70000 overflows f16
        with np.errstate(over="ignore"):
            arrays.append(a.astype(NUMPY[dt]))
    return arrays


def _bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint32 if a.dtype.itemsize == 4 else np.uint16)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", CASES)
def test_a_boundary_kernel_is_bit_exact_at_every_level(case: str, level: str) -> None:
    dtypes, output = CASES[case]
    arrays = _inputs(dtypes, 1)
    kernel = runner.compile_text(boundary(case, dtypes, output, SHAPE), level=level,
                                 core_num=5, ub_size=8192)
    got = np.asarray(kernel(*arrays))
    assert got.dtype == NUMPY[output]
    assert np.array_equal(_bits(got), _bits(expected(arrays, output)))


def test_its_kernel_reads_and_writes_each_operand_in_its_own_type() -> None:
    text = boundary("f32_f16_to_f16", ("f32", "f16"), "f16", SHAPE)
    module = str(runner.compile_text(text).module)
    assert "@f32_f16_to_f16_kernel_f32_f16_to_f16(%in0: memref<?xf32>, %in1: memref<?xf16>, " \
           "%res: memref<?xf16>" in module
    source = kernel_source(runner.compile_text(text).module)
    assert "(__gm__ float*)in0" in source and "(__gm__ half*)in1" in source
    assert "(__gm__ half*)res" in source
    assert "int64_t floatCopyBytes = currentNum * 4;" in source
    assert "int64_t halfCopyBytes = currentNum * 2;" in source


CPU_CASES = ("f32_to_f16", "bf16_f32_to_bf16", "f16_to_f32")


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("boundary_cpu_build")
    builds = {}
    for case in CPU_CASES:
        dtypes, output = CASES[case]
        source = directory / f"{case}.cpp"
        source.write_text(kernel_source(runner.compile_text(
            boundary(case, dtypes, output, SHAPE)).module))
        builds[case] = Build(source, directory / case, (f"-DHSWC_KERNEL_ENTRY={case}",
                                                        f"-DHSWC_GM_INPUTS={len(dtypes)}"))
    build(list(builds.values()))
    return {case: b.output for case, b in builds.items()}


@pytest.mark.parametrize("case", CPU_CASES)
def test_the_cpu_model_runs_it_bit_for_bit(case: str, executables: dict[str, Path],
                                           tmp_path: Path) -> None:
    dtypes, output = CASES[case]
    arrays = _inputs(dtypes, 2)
    kernel = runner.compile_text(boundary(case, dtypes, output, SHAPE), core_num=5,
                                 ub_size=8192)
    result = kernel.run(*arrays)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(executables[case], record, arrays, 8192, tmp_path, NUMPY[output])
    assert np.array_equal(_bits(on_cpu), _bits(np.asarray(result.outputs[0])))
    assert np.array_equal(_bits(on_cpu), _bits(expected(arrays, output)))


CONVERSIONS = f"""\
func.func @f(%acc: tensor<4x96xf32>) -> tensor<4x96xf16> {{
  %e16 = tensor.empty() : tensor<4x96xf16>
  %t = linalg.generic {{indexing_maps = [{MAP}, {MAP}], iterator_types = ["parallel", "parallel"]}}
      ins(%acc : tensor<4x96xf32>) outs(%e16 : tensor<4x96xf16>) {{
  ^bb0(%a: f32, %o: f16):
    %n = arith.truncf %a : f32 to f16
    linalg.yield %n : f16
  }} -> tensor<4x96xf16>
  %r = linalg.generic {{indexing_maps = [{MAP}, {MAP}], iterator_types = ["parallel", "parallel"]}}
      ins(%t : tensor<4x96xf16>) outs(%e16 : tensor<4x96xf16>) {{
  ^bb0(%a: f16, %o: f16):
    %w = arith.extf %a : f16 to f32
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %w, %z : f32
    %n = arith.truncf %m : f32 to f16
    linalg.yield %n : f16
  }} -> tensor<4x96xf16>
  func.return %r : tensor<4x96xf16>
}}
"""


def test_a_conversion_generic_joins_its_consumer() -> None:
    """torch-mlir's f32 accumulator -> truncf -> relu in f16: one kernel reading f32."""
    kernel = runner.compile_text(CONVERSIONS)
    module = str(kernel.module)
    assert module.count("hsg.launch") == 1 and "linalg.generic" not in module
    assert "tensor<4x96xf32> -> tensor<4x96xf16>" in module
    acc = np.random.default_rng(3).standard_normal((4, 96)).astype(np.float32) * 1e5
    with np.errstate(over="ignore"):
        want = np.maximum(acc.astype(np.float16).astype(np.float32), 0).astype(np.float16)
    assert np.array_equal(_bits(np.asarray(kernel(acc))), _bits(want))
