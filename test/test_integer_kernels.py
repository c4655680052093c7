"""Integer element types as kernels (issue 37, items 4 and 5's static int8 quantization).

The torch-mlir exports of test/fixtures/torch_models/gated (tools/export_model_fixtures.py:
`torch.relu`, `torch.where(x > 0, x, 0)` and `torch.abs` (math.absi, whose oracle MLIR runs as
select(x < 0, 0 - x, x): tools/mlir_oracle.expand_absi) on int32,
`torch.clamp(x, -100, 100)` and `torch.clamp(x, -5, 7)` on int8,
`torch.round(x * 16 + 3).clamp(-128, 127).to(torch.int8)` on f32, f16 and bf16, the same with a
scale and an offset per channel broadcast) become one kernel each and equal MLIR's own execution
of the file (the fixture's oracle) at every level and on the C++ CPU model. Bodies written here
check the integer calls against numpy's or Python's integer arithmetic, computed independently in
the test: wrapping + - *, conversions that saturate or round as asc-devkit documents,
roundeven's ties, cmpi's ten predicates, shifts, unsigned max / min, bitwise ops, on both SoC
families, at the hsg and ascend levels and on the C++ CPU model. Bad input: an integer operation
the SoC has no call for, a shift amount out of range, a quantization scale of zero or NaN, each
one located message. trunci and the integer divisions: test_integer_division.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from cpu_build import Build, build, run_recorded

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.remarks import collecting
from hswc.runner import LEVELS
from hswc.tiling import TILING_KEYS

FIXTURES = Path(__file__).parent / "fixtures" / "torch_models"
INDEX = {e["name"]: e for e in json.loads((FIXTURES / "index.json").read_text())["fixtures"]}
GATED = ("gated/relu_i32", "gated/where_positive_i32", "gated/abs_i32", "gated/clamp_i8",
         "gated/clamp_small_i8",
         "gated/quantize_int8_f32",
         "gated/quantize_int8_f16", "gated/quantize_int8_bf16",
         "gated/quantize_per_channel_f32", "gated/quantize_per_channel_f16",
         "gated/quantize_per_channel_bf16")
VIEWS = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
MAP = "affine_map<(d0) -> (d0)>"


def _arrays(entry: dict[str, Any], prefix: str, described: list[dict[str, Any]]
            ) -> list[np.ndarray]:
    data = np.load(FIXTURES / entry["npz"])
    return [data[f"{prefix}{i}"].view(VIEWS[d["type"]]) if d["type"] in VIEWS
            else data[f"{prefix}{i}"] for i, d in enumerate(described)]


def _fixture(name: str) -> tuple[Path, list[np.ndarray], np.ndarray]:
    entry = INDEX[name]
    (want,) = _arrays(entry, "out", entry["outputs"])
    return FIXTURES / entry["mlir"], _arrays(entry, "in", entry["inputs"]), want


# region the torch-mlir exports


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", GATED)
def test_an_export_equals_mlirs_execution_at_every_level(name: str, level: str) -> None:
    path, inputs, want = _fixture(name)
    got = runner.compile_file(path, level=level, core_num=5, ub_size=16384).run(*inputs)
    (out,) = got.outputs
    assert out.dtype == want.dtype and np.array_equal(out, want)


@pytest.mark.parametrize("name", GATED)
def test_an_export_equals_mlirs_execution_on_ascend_950(name: str) -> None:
    """Ascend 950's table (api_tables.def's dav_3510 column) casts int8 to int32 directly and has
    no CAST_NONE from half to int8: other routes, the same results."""
    path, inputs, want = _fixture(name)
    (out,) = runner.compile_file(path, soc="ascend950").run(*inputs).outputs
    assert np.array_equal(out, want)


@pytest.mark.parametrize(("name", "kernel"), [
    ("gated/relu_i32", "main_op_kernel_i32"), ("gated/abs_i32", "main_op_kernel_i32"),
    ("gated/clamp_i8", "main_op_kernel_i8"),
    ("gated/quantize_int8_f32", "main_op_kernel_f32_to_i8"),
    ("gated/quantize_int8_bf16", "main_op_kernel_bf16_to_i8")])
def test_an_export_is_one_kernel_and_nothing_on_the_host(name: str, kernel: str) -> None:
    path, _, _ = _fixture(name)
    with collecting() as said:
        module = str(runner.compile_file(path).module)
    assert module.count("hsg.launch") == 1 and f"@{kernel}(" in module
    assert "linalg.generic" not in module
    assert not [d for d in said if d.severity == "warning"]


def test_int8_is_clamped_in_half_on_atlas_a2() -> None:
    """A2/A3 has no int8_t Max or Min: both run on half, which holds every int8 value, with
    one exact Cast in and one out."""
    path, _, _ = _fixture("gated/clamp_i8")
    calls = [line.split()[0] for line in str(runner.compile_file(path).module).splitlines()
             if line.strip().startswith("ascend.") and line.split()[0] in (
                 "ascend.cast", "ascend.maxs", "ascend.mins")]
    assert calls == ["ascend.cast", "ascend.maxs", "ascend.mins", "ascend.cast"]


CPU_SAMPLE = ("gated/clamp_i8", "gated/abs_i32", "gated/quantize_int8_f32",
              "gated/quantize_per_channel_f32")
"""Built and run on the CPU model by default (int8 through half; math.absi as Muls and Max;
the f32 -> int8 route; scale and offset broadcast per channel); the others are sweep tests (a
build takes about 9 s here)."""
_BUILT: dict[str, Path] = {}


def _executable(name: str, directory: Path) -> Path:
    """The fixture's kernel source (hswc-opt -t ascendc) built into the CPU model's harness."""
    if name not in _BUILT:
        path, inputs, _ = _fixture(name)
        stem = name.split("/")[1]
        source = directory / f"{stem}.cpp"
        source.write_text(kernel_source(runner.compile_file(path, core_num=5,
                                                            ub_size=16384).module))
        key = TILING_KEYS[INDEX[name]["outputs"][0]["type"]]
        made = Build(source, directory / stem, ("-DHSWC_KERNEL_ENTRY=main_op",
                                                 f"-DHSWC_GM_INPUTS={len(inputs)}",
                                                 f"-DHSWC_TILING_KEYS={key}"))
        build([made])
        _BUILT[name] = made.output
    return _BUILT[name]


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=() if n in CPU_SAMPLE else pytest.mark.sweep) for n in GATED])
def test_the_cpu_model_runs_the_emitted_kernel_as_mlir_does(
        name: str, tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> None:
    path, inputs, want = _fixture(name)
    executable = _executable(name, tmp_path_factory.mktemp("integer_cpu_build"))
    result = runner.compile_file(path, core_num=5, ub_size=16384).run(*inputs)
    (record,) = result.tilings
    assert record is not None
    on_cpu = run_recorded(executable, record, inputs, 16384, tmp_path, want.dtype)
    assert np.array_equal(on_cpu, want)


# endregion
# region bodies written here, against numpy


def generic(inputs: list[str], output: str, body: str, n: int = 1000) -> str:
    """@f: one elementwise generic over n elements, its body `body` (block arguments %a, %b,
    ... of `inputs`' types; it yields %r)."""
    args = ", ".join(f"%in{i}: tensor<{n}x{t}>" for i, t in enumerate(inputs))
    block = ", ".join(f"%{'abcd'[i]}: {t}" for i, t in enumerate(inputs))
    maps = ", ".join([MAP] * (len(inputs) + 1))
    ins = ", ".join(f"%in{i}" for i in range(len(inputs)))
    types = ", ".join(f"tensor<{n}x{t}>" for t in inputs)
    return f"""func.func @f({args}) -> tensor<{n}x{output}> {{
  %e = tensor.empty() : tensor<{n}x{output}>
  %y = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
      ins({ins} : {types}) outs(%e : tensor<{n}x{output}>) {{
  ^bb0({block}, %o: {output}):
{body}
    linalg.yield %r : {output}
  }} -> tensor<{n}x{output}>
  func.return %y : tensor<{n}x{output}>
}}
"""


def _run(text: str, *inputs: np.ndarray, level: str = "ascend") -> np.ndarray:
    return np.asarray(runner.compile_text(text, level=level, core_num=5, ub_size=16384)(*inputs))


def _wrap(values: np.ndarray, dtype: type) -> np.ndarray:
    """Python integers wrapped to dtype's width (two's complement), independently of numpy's
    own wrapping arithmetic."""
    info = np.iinfo(dtype)
    span = int(info.max) - int(info.min) + 1
    return np.array([(int(v) - int(info.min)) % span + int(info.min) for v in values], dtype)


@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_integer_add_sub_mul_wrap_and_max_min_compare(dtype: type) -> None:
    t = np.dtype(dtype).name.replace("int", "i")
    text = generic([t, t], t, f"""    %s = arith.addi %a, %b : {t}
    %k = arith.constant 3 : {t}
    %m = arith.muli %s, %k : {t}
    %d = arith.subi %m, %b : {t}
    %c = arith.constant -1000 : {t}
    %r = arith.maxsi %d, %c : {t}""")
    rng = np.random.default_rng(3)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, 1000, endpoint=True).astype(dtype)
    b = rng.integers(info.min, info.max, 1000, endpoint=True).astype(dtype)
    a[:4], b[:4] = [info.max, info.min, -1, 0], [1, -1, info.min, info.max]
    s = _wrap([int(x) + int(y) for x, y in zip(a, b, strict=True)], dtype)
    d = _wrap([3 * int(x) - int(y) for x, y in zip(s, b, strict=True)], dtype)
    want = np.maximum(d, dtype(-1000))
    for level in ("hsg", "ascend"):
        assert np.array_equal(_run(text, a, b, level=level), want), level


def test_conversions_between_int8_int32_and_floats() -> None:
    """extsi i8 -> i32 (through half on A2/A3), sitofp i32 -> f32 (one RNE rounding), fptosi
    f32 -> i32 (toward zero), all in one body."""
    text = generic(["i8", "i32", "f32"], "f32", """    %w = arith.extsi %a : i8 to i32
    %s = arith.addi %w, %b : i32
    %f = arith.sitofp %s : i32 to f32
    %t = arith.fptosi %c : f32 to i32
    %g = arith.sitofp %t : i32 to f32
    %r = arith.addf %f, %g : f32""")
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 127, 1000, endpoint=True).astype(np.int8)
    b = rng.integers(-(2**26), 2**26, 1000).astype(np.int32)
    c = (rng.standard_normal(1000) * 1000).astype(np.float32)
    b[:3], c[:3] = [2**25 + 3, 2**25 + 1, -(2**25) - 3], [-2.5, 2.99, -0.75]
    a[:3] = [0, 0, 0]
    # sitofp: 2^25 + 3 is a tie between 2^25 + 2 and 2^25 + 4: even -> + 4; 2^25 + 1 -> 2^25.
    exact = a.astype(np.int64) + b.astype(np.int64)
    rounded = np.array([float(np.float32(v)) for v in exact], np.float32)
    assert rounded[:3].tolist() == [2**25 + 4, 2**25, -(2**25) - 4]
    truncated = np.trunc(c.astype(np.float64)).astype(np.float32)
    want = rounded + truncated
    for level in ("hsg", "ascend"):
        assert np.array_equal(_run(text, a, b, c, level=level), want), level


@pytest.mark.parametrize(("conversion", "result", "true"), [
    ("extui", "i8", 1), ("extui", "ui8", 1), ("extsi", "i32", -1), ("extui", "i32", 1),
    ("uitofp", "f16", 1), ("sitofp", "f32", -1)])
@pytest.mark.parametrize("level", ["hsg", "ascend"])
def test_a_condition_converted_to_a_number_is_one_or_minus_one(
        conversion: str, result: str, true: int, level: str) -> None:
    """torch's bool -> int8/float (`(x > 0).to(torch.int8)`): extui/uitofp of an i1 is 1 where
    true, extsi/sitofp -1 (its one bit read as signed, as MLIR's arith defines); 0 where false.
    The kernel selects between the two constants (the condition is a compare mask)."""
    text = generic(["f32"], result, f"""    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a, %z : f32
    %r = arith.{conversion} %c : i1 to {result}""", n=300)
    x = np.linspace(-3, 3, 300, dtype=np.float32)
    numpy_type = {"i8": np.int8, "ui8": np.uint8, "i32": np.int32, "f16": np.float16,
                  "f32": np.float32}[result]
    want = np.where(x > 0, true, 0).astype(numpy_type)
    got = _run(text, x, level=level)
    assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_sign_extended_condition_into_an_unsigned_type_is_refused() -> None:
    text = generic(["f32"], "ui8", """    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a, %z : f32
    %r = arith.extsi %c : i1 to ui8""", n=64)
    (warning,) = _warnings(text)
    assert "sign-extends i1 to ui8, whose values are unsigned: use extui" in warning


@pytest.mark.parametrize("dtype", ["f16", "bf16", "f32"])
def test_roundeven_rounds_ties_to_even_in_every_float_type(dtype: str) -> None:
    text = generic([dtype], dtype, f"    %r = math.roundeven %a : {dtype}", n=120)
    values = [0.5, 1.5, 2.5, -0.5, -2.5, -0.25, 3.75, 1000.5, 0.0, -0.0, 7.0, -130.5]
    x = np.array(values * 10, VIEWS[dtype])
    want = np.array([round(v) for v in values] * 10, np.float64)  # Python rounds ties to even
    got = _run(text, x)
    assert np.array_equal(got.astype(np.float64), want)
    assert np.signbit(got[[3, 5, 9]]).all()  # -0.5, -0.25 and -0.0 round to -0.0


PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
SOCS = ("ascend910b", "ascend950")


def _predicate_sum(t: str, constant: int | None) -> str:
    """Each cmpi predicate of %a and %b (or of the constant and %a) selects 2^i or 0 (i32); the
    body yields their sum, so each bit of the result is one predicate's answer."""
    lines = ["    %zero = arith.constant 0 : i32"]
    if constant is not None:
        lines.append(f"    %k = arith.constant {constant} : {t}")
    terms = []
    for i, p in enumerate(PREDICATES):
        operands = "%k, %a" if constant is not None else "%a, %b"
        lines += [f"    %c{i} = arith.cmpi {p}, {operands} : {t}",
                  f"    %w{i} = arith.constant {1 << i} : i32",
                  f"    %s{i} = arith.select %c{i}, %w{i}, %zero : i32"]
        terms.append(f"%s{i}")
    total = terms[0]
    for i, term in enumerate(terms[1:]):
        lines.append(f"    %t{i} = arith.addi {total}, {term} : i32")
        total = f"%t{i}"
    lines.append(f"    %r = arith.addi {total}, %zero : i32")
    return "\n".join(lines)


def _expected_predicates(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The predicates on Python integers: signed as they are, unsigned modulo 2^N."""
    bits = a.dtype.itemsize * 8
    tests = (lambda x, y: x == y, lambda x, y: x != y, lambda x, y: x < y,
             lambda x, y: x <= y, lambda x, y: x > y, lambda x, y: x >= y)
    out = []
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        ux, uy = x % (1 << bits), y % (1 << bits)
        answers = [f(x, y) for f in tests] + [f(ux, uy) for f in tests[2:]]
        out.append(sum(1 << i for i, yes in enumerate(answers) if yes))
    return np.array(out, np.int32)


@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("constant", [None, -3])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32])
def test_cmpi_every_predicate_against_python_integers(dtype: type, constant: int | None,
                                                      soc: str) -> None:
    """i32 on A2/A3 compares for equality only (Compare.md): its orders go through Max; i8 is
    compared in half and i16 in float where the SoC has no such Compare; the unsigned
    predicates on the operands biased by the sign bit. The constant stands on the left."""
    t = np.dtype(dtype).name.replace("int", "i")
    text = generic([t, t] if constant is None else [t], "i32", _predicate_sum(t, constant),
                   n=512)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    a = rng.integers(info.min, info.max, 512, endpoint=True).astype(dtype)
    b = rng.integers(info.min, info.max, 512, endpoint=True).astype(dtype)
    edges = [info.min, info.max, 0, -1, -3, 1, info.min, -3]
    a[:8], b[:8] = edges, [info.max, info.min, 0, 0, -3, 1, info.min, 5]
    b[8:16] = a[8:16]  # equal pairs
    inputs = (a, b) if constant is None else (a,)
    left = np.full_like(a, constant) if constant is not None else a
    right = a if constant is not None else b
    want = _expected_predicates(left, right)
    for level in ("hsg", "ascend"):
        got = np.asarray(runner.compile_text(text, level=level, soc=soc, core_num=5)(*inputs))
        assert np.array_equal(got, want), (level, np.flatnonzero(got != want)[:5])


@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_absi_as_torch_mlir_writes_torch_abs(dtype: type, soc: str) -> None:
    """math.absi (torch-mlir's torch.abs of an integer tensor): Max(x, x * -1); the smallest
    value is its own absolute value (it wraps), as math.absi defines it."""
    t = np.dtype(dtype).name.replace("int", "i")
    text = generic([t], t, f"    %r = math.absi %a : {t}", n=512)
    info = np.iinfo(dtype)
    x = np.random.default_rng(11).integers(info.min, info.max, 512, endpoint=True).astype(dtype)
    x[:4] = [info.min, info.max, -1, 0]
    want = np.array([v if v == info.min else abs(v) for v in x.tolist()], dtype)
    for level in ("hsg", "ascend"):
        got = np.asarray(runner.compile_text(text, level=level, soc=soc, core_num=5)(x))
        assert np.array_equal(got, want), level


def test_i32_orders_on_atlas_a2_go_through_max() -> None:
    """Compare on int32_t takes CMPMODE::EQ only on A2/A3: sgt is Max, Compare EQ, Not."""
    text = generic(["i32", "i32"], "i32", """    %c = arith.cmpi sgt, %a, %b : i32
    %r = arith.select %c, %a, %b : i32""")
    calls = [line.split()[0] for line in str(runner.compile_text(text).module).splitlines()
             if line.strip().startswith(("ascend.max", "ascend.compare", "ascend.not",
                                         "ascend.select"))]
    assert calls == ["ascend.max", "ascend.compare", "ascend.not", "ascend.select"]


def _bits(value: int, width: int) -> int:
    """The low `width` bits of a Python integer, read as two's complement."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _unsigned(value: int, width: int) -> int:
    return value % (1 << width)


SHIFT_BODY = """    %k3 = arith.constant 3 : {t}
    %k5 = arith.constant 5 : {t}
    %k7 = arith.constant 7 : {t}
    %l = arith.shli %a, %k3 : {t}
    %s = arith.shrsi %b, %k5 : {t}
    %u = arith.shrui %a, %k7 : {t}
    %m = arith.maxui %l, %s : {t}
    %n = arith.minui %m, %u : {t}
    %r = arith.addi %n, %s : {t}"""


def _shifts_expected(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    w = a.dtype.itemsize * 8
    out = []
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        left = _bits(x << 3, w)
        signed = y >> 5  # Python's >> of a negative integer is arithmetic
        logical = _bits(_unsigned(x, w) >> 7, w)
        larger = max(left, signed, key=lambda v: _unsigned(v, w))
        smaller = min(larger, logical, key=lambda v: _unsigned(v, w))
        out.append(_bits(smaller + signed, w))
    return np.array(out, a.dtype)


@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_shifts_and_unsigned_max_min_against_python_integers(dtype: type, soc: str) -> None:
    """shli on the unsigned lanes (AscendC shifts a signed type left keeping its sign bit:
    ShiftLeft.md), shrsi on the signed ones, shrui on the unsigned ones; maxui / minui as the
    signed ones of the values biased by the sign bit."""
    t = np.dtype(dtype).name.replace("int", "i")
    text = generic([t, t], t, SHIFT_BODY.format(t=t), n=512)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(8)
    a = rng.integers(info.min, info.max, 512, endpoint=True).astype(dtype)
    b = rng.integers(info.min, info.max, 512, endpoint=True).astype(dtype)
    a[:6], b[:6] = [info.min, info.max, -1, 0, 1, info.min + 1], [-1, info.min, info.max, 0, 1, 7]
    want = _shifts_expected(a, b)
    for level in ("hsg", "ascend"):
        got = np.asarray(runner.compile_text(text, level=level, soc=soc, core_num=5)(a, b))
        assert np.array_equal(got, want), (level, np.flatnonzero(got != want)[:5])


@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_andi_ori_xori_on_integers(soc: str, dtype: type) -> None:
    """And / Or / Not on the SoC's lanes: 16-bit ones everywhere, 32-bit ones on Ascend 950
    (And.md, Or.md, Not.md); an int32 on Atlas A2/A3 as two int16_t lanes."""
    t = np.dtype(dtype).name.replace("int", "i")
    text = generic([t, t], t, f"""    %k = arith.constant -21846 : {t}
    %x = arith.xori %a, %b : {t}
    %v = arith.ori %x, %k : {t}
    %r = arith.andi %v, %a : {t}""", n=512)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(9)
    a = rng.integers(info.min, info.max, 512, endpoint=True).astype(dtype)
    b = rng.integers(info.min, info.max, 512, endpoint=True).astype(dtype)
    w = a.dtype.itemsize * 8
    want = np.array([_bits(((x ^ y) | -21846) & x, w) for x, y in zip(a.tolist(), b.tolist(),
                                                                       strict=True)], dtype)
    for level in ("hsg", "ascend"):
        got = np.asarray(runner.compile_text(text, level=level, soc=soc, core_num=5)(a, b))
        assert np.array_equal(got, want), level


def _cpu_cases() -> dict[str, tuple[str, str, list[np.ndarray], np.ndarray]]:
    """name -> (body text, SoC, inputs, expected) for the CPU model's runs."""
    rng = np.random.default_rng(10)
    a32, b32 = (rng.integers(-(2**31), 2**31 - 1, 512, endpoint=True).astype(np.int32)
                for _ in range(2))
    b32[:16] = a32[:16]
    a16, b16 = (rng.integers(-(2**15), 2**15 - 1, 512, endpoint=True).astype(np.int16)
                for _ in range(2))
    a8, b8 = (rng.integers(-128, 127, 512, endpoint=True).astype(np.int8) for _ in range(2))
    compares = generic(["i32", "i32"], "i32", _predicate_sum("i32", None), n=512)
    shifts = generic(["i32", "i32"], "i32", SHIFT_BODY.format(t="i32"), n=512)
    compares16 = generic(["i16", "i16"], "i32", _predicate_sum("i16", None), n=512)
    return {
        "compares_i32_a2": (compares, "ascend910b", [a32, b32], _expected_predicates(a32, b32)),
        "compares_i32_950": (compares, "ascend950", [a32, b32], _expected_predicates(a32, b32)),
        "compares_i16_a2": (compares16, "ascend910b", [a16, b16],
                            _expected_predicates(a16, b16)),
        "shifts_i32_a2": (shifts, "ascend910b", [a32, b32], _shifts_expected(a32, b32)),
        "shifts_i32_950": (shifts, "ascend950", [a32, b32], _shifts_expected(a32, b32)),
        "xori_i32_a2": (generic(["i32", "i32"], "i32", "    %r = arith.xori %a, %b : i32", n=512),
                        "ascend910b", [a32, b32], a32 ^ b32),
        "wrap_i8_950": (generic(["i8", "i8"], "i8", """    %s = arith.addi %a, %b : i8
    %r = arith.muli %s, %a : i8""", n=512), "ascend950", [a8, b8],
                        _wrap([(int(x) + int(y)) * int(x) for x, y in zip(a8, b8, strict=True)],
                              np.int8)),
        "select_i8_a2": (generic(["i8", "i8"], "i8", """    %z = arith.constant 0 : i8
    %m = arith.cmpi slt, %a, %z : i8
    %r = arith.select %m, %b, %a : i8""", n=512), "ascend910b", [a8, b8], np.where(a8 < 0, b8, a8)),
    }


CPU_BODIES = ("compares_i32_a2", "shifts_i32_950", "xori_i32_a2", "select_i8_a2")
"""Built by default; the other bodies are sweep tests."""


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=() if n in CPU_BODIES else pytest.mark.sweep) for n in _cpu_cases()])
def test_the_cpu_model_runs_compare_select_and_shift_kernels(name: str, tmp_path: Path) -> None:
    """The kernels' C++ (ReinterpretCast views, Compare on int32_t, Select on float lanes,
    ShiftLeft on uint32_t lanes, And / Or / Not of int32 on int16_t lanes, an int8 Select in
    half) built for the SoC's family computes what Python integers do."""
    from hswc import soc_api

    text, soc, inputs, want = _cpu_cases()[name]
    compiled = runner.compile_text(text, soc=soc, core_num=5, ub_size=65536)
    family = "dav_3510" if soc == "ascend950" else "dav_c220"
    source = tmp_path / f"{name}.cpp"
    source.write_text(kernel_source(compiled.module))
    made = Build(source, tmp_path / name, (
        *(f"-D{d}" for d in soc_api.CPP_DEFINES[family]), "-DHSWC_KERNEL_ENTRY=f",
        f"-DHSWC_GM_INPUTS={len(inputs)}",
        f"-DHSWC_TILING_KEYS={TILING_KEYS[want.dtype.name.replace('nt', '')]}"))
    build([made])
    (record,) = compiled.run(*inputs).tilings
    assert record is not None
    on_cpu = run_recorded(made.output, record, inputs, 65536, tmp_path / "run", want.dtype)
    assert np.array_equal(on_cpu, want), np.flatnonzero(on_cpu != want)[:5]


# endregion
# region bad input


def _warnings(text: str, soc: str = "ascend910b") -> list[str]:
    with collecting() as said:
        runner.compile_text(text, soc=soc)
    return [str(d) for d in said if d.severity == "warning"]


def test_an_integer_op_the_soc_lacks_is_named_at_the_op() -> None:
    text = generic(["i64", "i64"], "i64", "    %r = arith.addi %a, %b : i64")
    (message,) = _warnings(text)
    assert "'arith.addi'" in message and "computes on i64, but Add on Atlas A2/A3 takes " \
        "half, float, int16_t, int32_t" in message


@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("level", LEVELS)
def test_int8_add_sub_mul_wrap_through_int16(level: str, soc: str) -> None:
    """No SoC's Add / Sub / Mul takes int8_t in the API table: a chain of them runs on int16
    (extended once), its low 8 bits taken once at the end. (a + b) * 3 - b - 100 against Python
    integers wrapped to int8."""
    text = generic(["i8", "i8"], "i8", """    %s = arith.addi %a, %b : i8
    %k = arith.constant 3 : i8
    %m = arith.muli %s, %k : i8
    %d = arith.subi %m, %b : i8
    %h = arith.constant 100 : i8
    %r = arith.subi %d, %h : i8""", n=512)
    rng = np.random.default_rng(13)
    a, b = (rng.integers(-128, 127, 512, endpoint=True).astype(np.int8) for _ in "ab")
    a[:3], b[:3] = [127, -128, -1], [1, -1, -128]
    want = _wrap([(int(x) + int(y)) * 3 - int(y) - 100 for x, y in zip(a, b, strict=True)],
                 np.int8)
    compiled = runner.compile_text(text, level=level, soc=soc, core_num=5, ub_size=16384)
    assert np.array_equal(np.asarray(compiled(a, b)), want)
    if level == "ascend":
        shifts = str(compiled.module).count("ascend.shift_right")
        assert shifts == 1, "the low 8 bits are taken once, at the end of the chain"


def test_hswc_emit_refuses_to_package_an_i64_kernel(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Packages hold int8, uint8, int16 and int32 tensors (test_emit_integer) and i1 as bool
    (test_emit_multi_output); an int64 kernel is one message and no files."""
    from hswc.tools.hswc_emit import main

    source = tmp_path / "widen.mlir"
    source.write_text(generic(["i32"], "i64", "    %r = arith.extsi %a : i32 to i64"))
    assert main([str(source), "--name", "Widen", "-o", str(tmp_path / "q")]) == 1
    assert "reads or writes i64 tensors: packages hold f16, f32, bf16, i8, ui8, i16, i32, i1, " \
        "ui1, f8E4M3FN, f8E5M2 tensors" in capsys.readouterr().err
    assert not (tmp_path / "q").exists()


@pytest.mark.parametrize("scale", ["0.0", "0x7FC00000"])
def test_a_quantization_scale_of_zero_or_nan_is_refused(scale: str) -> None:
    text = generic(["f32"], "i8", f"""    %k = arith.constant {scale} : f32
    %m = arith.mulf %a, %k : f32
    %r = arith.fptosi %m : f32 to i8""")
    (message,) = _warnings(text)
    assert "'arith.mulf'" in message and "a quantization scale of zero or NaN" in message


@pytest.mark.parametrize("amount", ["32", "-1"])
def test_a_constant_shift_amount_out_of_range_is_refused(amount: str) -> None:
    text = generic(["i32"], "i32", f"""    %k = arith.constant {amount} : i32
    %r = arith.shli %a, %k : i32""")
    (message,) = _warnings(text)
    assert "'arith.shli'" in message and f"shifts a i32 value by {amount} bits: MLIR " \
        "defines shifts by 0 to 31 bits only (any other amount is poison)" in message


def test_a_shift_by_a_tensor_is_refused() -> None:
    text = generic(["i32", "i32"], "i32", "    %r = arith.shrsi %a, %b : i32")
    (message,) = _warnings(text)
    assert "'arith.shrsi'" in message and "shifts by an amount that is not a constant" in message


@pytest.mark.parametrize("soc", SOCS)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("t", ["i8", "ui8"])
def test_a_select_of_8_bit_integers_runs_in_half(t: str, level: str, soc: str) -> None:
    """No SoC's Select takes int8_t or uint8_t (Select.md): both values go to half exactly,
    Select picks, one Cast back. torch.where(x > 3, y, z) against numpy's where (the mask from
    an int8 x: arith compares signless integers only)."""
    dtype = np.int8 if t == "i8" else np.uint8
    text = generic(["i8", t, t], t, f"""    %k = arith.constant 3 : i8
    %m = arith.cmpi sgt, %a, %k : i8
    %r = arith.select %m, %b, %c : {t}""", n=512)
    info = np.iinfo(dtype)
    rng = np.random.default_rng(12)
    x = rng.integers(-128, 127, 512, endpoint=True).astype(np.int8)
    y, z = (rng.integers(info.min, info.max, 512, endpoint=True).astype(dtype) for _ in "yz")
    x[:4], y[:4], z[:4] = [4, 4, 3, 3], [info.min, info.max, 0, 0], [0, 0, info.min, info.max]
    got = np.asarray(runner.compile_text(text, level=level, soc=soc, core_num=5,
                                         ub_size=16384)(x, y, z))
    assert got.dtype == dtype and np.array_equal(got, np.where(x > 3, y, z))


def test_an_int32_xori_on_atlas_a2_runs_on_int16_lanes() -> None:
    """A2/A3's And / Or / Not take int16_t only: the int32 tensors are ReinterpretCast to
    int16_t and every call covers twice the count."""
    text = generic(["i32", "i32"], "i32", "    %r = arith.xori %a, %b : i32")
    module = str(runner.compile_text(text, core_num=5).module)
    calls = [line.split("=")[-1].split()[0] for line in module.splitlines()
             if "%half_lanes_num :" in line]
    assert calls == ["ascend.and", "ascend.not", "ascend.or", "ascend.and"]
    assert "!ascend.local_tensor<i32, vecin> -> !ascend.local_tensor<i16, vecin>" in module


@pytest.mark.parametrize("soc", SOCS)
def test_andi_of_int8_is_refused_naming_the_soc_the_call_and_the_type(soc: str) -> None:
    """No And on 8-bit lanes on either SoC, and no lanes narrower to split them into."""
    (message,) = _warnings(generic(["i8", "i8"], "i8", "    %r = arith.andi %a, %b : i8"),
                           soc=soc)
    family = "Atlas A2/A3" if soc == "ascend910b" else "Ascend 950"
    assert "'arith.andi'" in message and f"computes on i8, but And on {family} takes " \
        "int16_t, uint16_t" in message and "extend the operands with arith.extsi to i16" \
        in message


def test_an_unsigned_compare_of_i8_is_refused_on_atlas_a2() -> None:
    """The sign-bit bias needs Adds on the type; A2/A3 has no int8_t Adds."""
    text = generic(["i8", "i8"], "i32", """    %c = arith.cmpi ult, %a, %b : i8
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %r = arith.select %c, %one, %zero : i32""")
    (message,) = _warnings(text)
    assert "'arith.cmpi'" in message and "compares i8 as unsigned, which needs Adds on i8" \
        in message


# endregion
