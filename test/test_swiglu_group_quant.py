"""hsg.swiglu_group_quant (ops-nn's SwigluGroupQuant) at every level (the hsg level runs its
decomposition; the ascend level on Ascend 950) against an independent model written here from
its README, golden and kernel: SwiGLU in float64 (a / (1 + exp(-a)) * b, clamped first when
clamp_limit is not -1.0) rounded once to f32, plus 0.0; then the f32 steps the README lists
(each one IEEE f32 operation, so numpy's float32 computes them exactly): quant_mode 0, blocks of
128: the block's maximum of the finite |s| floored at 1e-4, the scale (times the f32 nearest 1 /
M), inv = M / amax, y = fp8(s * inv, or s where that is not finite), ml_dtypes' round to nearest
even (the Cast's CAST_RINT, non-saturating); round_scale: the scale 2^(exponent - 127 +
(mantissa != 0)) from its f32 bits (ops-nn's golden), inv its reciprocal; quant_mode 1 (MX),
blocks of 32, |s| unmasked, no NaN fallback, E8M0 scales in pairs. f32 scales must meet torch's
f32 tolerance, E8M0 ones equal bit for bit; y, decoded, must equal the model's but where s's one
f32 rounding puts s * inv on the other side of an fp8 rounding boundary (at most one fp8 step,
and rarely). Plus hand-checked values, the CPU model running both 950 kernels bit for bit as the
interpreter, FP4's types parsed and refused, and the verifier's refusals."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import AUTO_SYNC_OFF, Build, build, tiling_bytes
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from hswc import soc_api
from hswc.backend.source import kernel_source
from hswc.reference import compare_tolerance
from hswc.runner import CompileError, compile_text

FP8 = {"f8E4M3FN": (ml_dtypes.float8_e4m3fn, 448.0, 36),
       "f8E5M2": (ml_dtypes.float8_e5m2, 57344.0, 35)}
NUMPY = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}
BLOCK = 128


def _pow2_up(scale: np.ndarray) -> np.ndarray:
    """2^(exponent - 127 + (mantissa != 0)) from the f32 bits (ops-nn's golden _round_pow2)."""
    bits = scale.view(np.uint32)
    e = ((bits >> 23) & 0xFF).astype(np.int64) - 127 + ((bits & 0x7FFFFF) != 0)
    return ((e + 127) << 23).astype(np.uint32).view(np.float32)


def _model(x: np.ndarray, y_type: str, limit: float | None, mode: int = 0,
           rounded: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(y, y_scale) of the module docstring's model (quant_mode 1: blocks of 32, |s| unmasked,
    no NaN fallback, the scale a power of 2 as E8M0 codes in pairs)."""
    fp8, top, _ = FP8[y_type]
    block = BLOCK if mode == 0 else 32
    v = x.astype(np.float64)
    h = v.shape[-1] // 2
    a, b = v[..., :h], v[..., h:]
    if limit is not None:
        a, b = np.minimum(a, limit), np.clip(b, -limit, limit)
    with np.errstate(all="ignore"):
        s = (a / (1.0 + np.exp(-a)) * b).astype(np.float32) + np.float32(0.0)
        blocks = s.reshape(*s.shape[:-1], h // block, block)
        finite_abs = np.where(np.isfinite(blocks) | (mode == 1), np.abs(blocks), np.float32(0.0))
        amax = np.maximum(finite_abs.max(axis=-1), np.float32(1e-4))
        scale = amax * np.float32(1.0 / top)  # 1 / M rounded to f32, then one f32 product
        inv = np.float32(top) / amax
        if rounded:
            scale = _pow2_up(scale)
            inv = np.float32(1.0) / scale
        scaled = blocks * inv[..., None]
        if mode == 0:
            scaled = np.where(np.isfinite(scaled), scaled, blocks)
        y = scaled.astype(fp8)
    if mode == 1:
        scale = scale.astype(ml_dtypes.float8_e8m0fnu).reshape(*scale.shape[:-1], -1, 2)
    return y.reshape(s.shape), scale


def _x(shape: tuple[int, ...], dtype: str, specials: bool = True) -> np.ndarray:
    rng = np.random.default_rng(37)
    x = rng.normal(0.0, 3.0, shape)
    if specials:
        x[0, :3] = [np.inf, 30.0, -0.0]  # an infinite s (kept out of amax, y NaN), a clamp, -0
    x[1, : shape[1] // 2] = 0.0  # a row of zeros: amax floored at 1e-4
    return x.astype(NUMPY[dtype])


def _module(shape: tuple[int, ...], dtype: str, y_type: str, attributes: str,
            mode: int = 0) -> str:
    lead = "x".join(map(str, shape[:-1]))
    h = shape[-1] // 2
    x = f"tensor<{lead}x{shape[-1]}x{dtype}>"
    y = f"tensor<{lead}x{h}x{y_type}>"
    s = f"tensor<{lead}x{h // BLOCK}xf32>" if mode == 0 else \
        f"tensor<{lead}x{h // 64}x2xf8E8M0FNU>"
    return f"""func.func @f(%x: {x}) -> ({y}, {s}) {{
  %y, %s = hsg.swiglu_group_quant %x {attributes} : {x}
  return %y, %s : {y}, {s}
}}"""


def _check(x: np.ndarray, y_type: str, limit: float | None, level: str, mode: int = 0,
           rounded: bool = False) -> str:
    dtype = "f16" if x.dtype == np.float16 else "bf16"
    attrs = [f"dst_type = {FP8[y_type][2]} : i64", f"quant_mode = {mode} : i64"]
    if limit is not None:
        attrs.append(f"clamp_limit = {limit} : f32")
    if rounded:
        attrs.append("round_scale = true")
    kernel = compile_text(_module(x.shape, dtype, y_type, "{" + ", ".join(attrs) + "}", mode),
                          level=level, soc="ascend950", core_num=5)
    y, scale = (np.asarray(o) for o in kernel.run(x).outputs)
    want_y, want_scale = _model(x, y_type, limit, mode, rounded)
    if mode == 1:
        assert np.array_equal(scale.view(np.uint8), want_scale.view(np.uint8))
    else:
        verdict = compare_tolerance(scale, want_scale)
        assert verdict.outside == 0 and verdict.specials_differ == 0, verdict
    got, want = y.astype(np.float64), want_y.astype(np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    differ = ~np.isnan(got) & (got != want)
    step = np.abs(want - np.nextafter(want_y.astype(np.float32), np.float32(0)).astype(
        y.dtype).astype(np.float64))  # one fp8 step below (the subnormal step near 0)
    assert differ.sum() <= 2 and np.all(np.abs(got - want)[differ] <= 2 * step[differ]
                                        + 2.0 ** -9)
    return str(kernel.module)


@pytest.mark.parametrize(("dtype", "y_type", "limit", "level"), [
    ("bf16", "f8E4M3FN", None, "linalg"), ("f16", "f8E5M2", 7.0, "ascend")])
def test_equals_the_model(dtype: str, y_type: str, limit: float | None, level: str) -> None:
    module = _check(_x((6, 512), dtype), y_type, limit, level)
    if level == "ascend":  # the SwiGLU; a row kernel of the block maxima, scales and y
        assert module.count("hsg.launch") == 2
        assert "linalg.generic" not in module.split("func.func")[1]


def _wide(shape: tuple[int, ...]) -> np.ndarray:
    """bf16 rows from 1e-3 to 1e17 in size: scales from the 1e-4 floor's to about 2^100."""
    rng = np.random.default_rng(5)
    size = 10.0 ** rng.uniform(-3, 17, (shape[0], 1))
    return (rng.normal(0.0, 1.0, shape) * size).astype(ml_dtypes.bfloat16)


@pytest.mark.parametrize(("mode", "level"), [(0, "hsg"), (1, "ascend")])
def test_round_scale_and_mx(mode: int, level: str) -> None:
    """Scales rounded up to powers of 2 (round_scale; MX: E8M0 codes in pairs, blocks of 32)
    over rows of widely different sizes, bit for bit; on the 950 only the E8M0 conversion
    stays on the host."""
    module = _check(_wide((16, 512)), "f8E4M3FN", None, level, mode, rounded=True)
    if level == "ascend":
        host = module.split("func.func")[1]
        assert host.count("hsg.launch") == 2 and host.count("linalg.generic") == 1
        assert "tensor<16x8xf8E8M0FNU>)" in host.split("linalg.generic")[1].splitlines()[0]


def test_ceil_pow2_is_the_kernels_bit_arithmetic() -> None:
    """hswc.ops.group_quant.ceil_pow2's steps (Veltkamp's split) in numpy's f32 arithmetic
    equal 2^(exponent - 127 + (mantissa != 0)) on 10^6 f32 values over [2^-30, 2^121] and at
    every power of 2 there and its neighbours."""
    f = np.float32
    rng = np.random.default_rng(0)
    lo, hi = f(2.0 ** -30).view(np.uint32), f(2.0 ** 121).view(np.uint32)
    powers = (2.0 ** np.arange(-30, 122)).astype(f)
    v = np.concatenate([rng.integers(lo, hi, 10 ** 6, dtype=np.uint32).view(f), powers,
                        np.nextafter(powers, f(np.inf)), np.nextafter(powers, f(0))])
    v = v[(v >= f(2.0 ** -30)) & (v <= f(2.0 ** 121))]
    with np.errstate(all="raise"):
        w = v * f(2.0 ** -64)
        c = w * f(2.0 ** 23 + 1)
        p = (c - (c - w)) * f(2.0 ** 64)
        got = np.where(p < v, p * f(2.0), p)
    assert np.array_equal(got, _pow2_up(v))


@pytest.mark.sweep
@pytest.mark.parametrize("dtype", list(NUMPY))
@pytest.mark.parametrize("y_type", list(FP8))
@pytest.mark.parametrize("limit", [None, 7.0])
@pytest.mark.parametrize("level", ["hsg", "linalg", "ascend"])
@pytest.mark.parametrize(("mode", "rounded"), [(0, False), (0, True), (1, True)])
def test_every_level_dtype_type_and_mode(dtype: str, y_type: str, limit: float | None,
                                         level: str, mode: int, rounded: bool) -> None:
    _check(_x((6, 768), dtype, specials=mode == 0), y_type, limit, level, mode, rounded)


def test_hand_checked_values() -> None:
    """A row whose second half is 0: s = +0 everywhere (-0 * 1 too: the kernel adds 0.0), so
    amax is floored at 1e-4, the scale is 1e-4f * (1 / 448)f and y is +0 (code 0x00); a row
    a = 0 but one element: a = 2, b = 3 gives s = 2 / (1 + e^-2) * 3 = 5.2843...; its block's
    scale is s / 448 and that element's y is s * (448 / s) = 448 (0x7e)."""
    x = np.zeros((2, 256), np.float16)
    x[0, 128:] = 1.0
    x[0, 0] = -0.0
    x[1, 5], x[1, 133] = 2.0, 3.0
    kernel = compile_text(_module((2, 256), "f16", "f8E4M3FN", ""), level="ascend",
                          soc="ascend950", core_num=2)
    y, scale = (np.asarray(o) for o in kernel.run(x).outputs)
    assert not y.view(np.uint8)[0].any()
    inv_448 = np.array(0x3B124925, np.uint32).view(np.float32)  # the f32 nearest 1 / 448
    assert inv_448 == np.float32(1.0 / 448.0)
    assert scale[0, 0] == np.float32(1e-4) * inv_448
    s = np.float32(2.0 / (1.0 + np.exp(-2.0)) * 3.0)
    assert abs(scale[1, 0] / s * 448.0 - 1.0) < 1e-6
    assert y.view(np.uint8)[1, 5] == 0x7E and np.count_nonzero(y.view(np.uint8)[1]) == 1


def test_fp4_parses_and_is_refused_at_the_op() -> None:
    """FP4's y, f4E2M1FN beside f8E8M0FNU scales (both xDSL 0.75 builtin types), verifies; the
    decomposition refuses it with the reason."""
    y, scale = "tensor<2x128xf4E2M1FN>", "tensor<2x2x2xf8E8M0FNU>"
    text = f"""func.func @f(%x: tensor<2x256xbf16>) -> ({y}, {scale}) {{
  %y, %s = hsg.swiglu_group_quant %x {{quant_mode = 1 : i64, round_scale = true,
                                      dst_type = 40 : i64}} : tensor<2x256xbf16>
  return %y, %s : {y}, {scale}
}}"""
    with pytest.raises(CompileError, match="no conversion to FP4 yet"):
        compile_text(text, level="linalg", soc="ascend950")


@pytest.mark.parametrize(("attributes", "shape", "message"), [
    ("{dst_type = 41 : i64}", (2, 256), "FLOAT4_E1M2\\) has no MLIR type"),
    ("{quant_mode = 1 : i64}", (2, 256), "needs round_scale = true"),
    ("{block_size = 64 : i64}", (2, 256), "block_size must be 0 or 128"),
    ("{output_origin = true}", (2, 256), "output_origin must be false in quant_mode 0"),
    ("{clamp_limit = 0.0 : f32}", (2, 256), "clamp_limit must be > 0"),
    ("", (2, 128), "multiple of 256"),
    ("{quant_mode = 2 : i64}", (2, 256), "HiFloat8"),
])
def test_refused(attributes: str, shape: tuple[int, ...], message: str) -> None:
    x = f"tensor<{shape[0]}x{shape[1]}xf16>"
    results = "%y, %s, %o" if "output_origin" in attributes else "%y, %s"  # y_origin's too
    text = f"""func.func @f(%x: {x}) {{
  {results} = hsg.swiglu_group_quant %x {attributes} : {x}
  return
}}"""
    with pytest.raises(CompileError, match=message):
        compile_text(text, level="linalg", soc="ascend950")


def _cpu_run(made: Path, record: dict[str, object], inputs: list[np.ndarray],
             outputs: list[tuple[str, int]], tmp_path: Path) -> list[bytes]:
    """One launch of a built kernel on the CPU model with the tiling the interpreter recorded:
    each output's bytes."""
    tiling = tmp_path / "tiling.bin"
    tiling.write_bytes(tiling_bytes(record))
    command = [str(made), "--tiling-key", str(record["tilingKey"]), "--block-dim",
               str(record["usedCoreNum"]), "--ub-size", str(CPU_UB), "--tiling-file",
               str(tiling)]
    for i, array in enumerate(inputs):
        np.ascontiguousarray(array).tofile(tmp_path / f"in{i}.bin")
        command += ["--input", str(tmp_path / f"in{i}.bin")]
    for name, size in outputs:
        command += ["--output", str(tmp_path / name), "--output-bytes", str(size)]
    done = subprocess.run([*command, *AUTO_SYNC_OFF], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [(tmp_path / name).read_bytes() for name, _ in outputs]


CPU_UB = 65536


def _only(module: ModuleOp, entry: str) -> ModuleOp:
    """A copy of the lowered module with one kernel (and its tiling function): the others'
    functions left out."""
    copy = module.clone()
    dtype = entry.split("_kernel_", 1)[1]
    for op in list(copy.ops):
        name = op.sym_name.data if isinstance(op, func.FuncOp) else ""
        if ("_kernel_" in name and name != entry) or ("_tiling_" in name and not name.endswith(
                f"_tiling_{dtype}")):
            copy.body.block.erase_op(op)
    return copy


def test_the_cpu_model_runs_both_kernels(tmp_path: Path) -> None:
    """Ascend 950's two kernels (the SwiGLU writing s in f32; the row kernel of the block
    maxima, scales and f8E4M3FN y) printed as AscendC, built against the CPU model and run one
    after the other with the interpreter's tilings (a small UB: several chunks a core): y and
    y_scale bit for bit as the interpreter's."""
    x = _x((37, 512), "f16")
    kernel = compile_text(_module(x.shape, "f16", "f8E4M3FN", ""), soc="ascend950",
                          core_num=3, ub_size=CPU_UB)
    result = kernel.run(x)
    entries = re.findall(r"hsg\.launch @(\w+)", str(kernel.module))
    assert len(entries) == 2 and len(result.tilings) == 2
    flags = tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"])
    made = []
    for entry, record, inputs, outputs in ((entries[0], result.tilings[0], 2, 1),
                                           (entries[1], result.tilings[1], 1, 2)):
        assert record is not None
        source = tmp_path / f"{entry}.cpp"  # one kernel a file: both are operator f's
        source.write_text(kernel_source(_only(kernel.module, entry)))
        made.append(Build(source, tmp_path / entry, (
            *flags, "-DHSWC_KERNEL_ENTRY=f", f"-DHSWC_TILING_KEYS={record['tilingKey']}",
            f"-DHSWC_GM_INPUTS={inputs}", f"-DHSWC_GM_OUTPUTS={outputs}")))
    build(made)
    rows, h = x.shape[0], x.shape[1] // 2
    (s,) = _cpu_run(made[0].output, result.tilings[0], [x, x], [("s.bin", rows * h * 4)],
                    tmp_path)
    y_bytes, scale_bytes = _cpu_run(made[1].output, result.tilings[1],
                                    [np.frombuffer(s, np.float32)],
                                    [("y.bin", rows * h), ("scale.bin", rows * h // BLOCK * 4)],
                                    tmp_path)
    y, scale = (np.asarray(o) for o in result.outputs)
    assert np.frombuffer(y_bytes, np.uint8).tobytes() == y.view(np.uint8).tobytes()
    assert scale_bytes == scale.astype(np.float32).tobytes()
