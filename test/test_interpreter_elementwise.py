"""The new vector calls run in hand-written ascend kernels on the modelled core (hswc-run's
interpreter): operands bound in order, queues and positions, ReinterpretCast to 16-bit lanes,
and the run-time rules, each result against an expectation computed here without hswc
(exact rationals for the arithmetic, the IEEE 754-2019 rules written out for max / min).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from exact_rounding import exact_round

from hswc.runner import KernelError, compile_text

N = 128
"""Elements per tensor: whole 256-byte repeats for Compare in f16 and f32."""

KERNEL = """
func.func @host(%a: tensor<{n}x{t}>, %b: tensor<{n}x{t}>) -> tensor<{n}x{t}> {{
  %c1 = arith.constant 1 : index
  %y = hsg.launch @k blocks %c1 (%a, %b) tiling()
       : tensor<{n}x{t}>, tensor<{n}x{t}> -> tensor<{n}x{t}>
  func.return %y : tensor<{n}x{t}>
}}
func.func @k(%a: memref<?x{t}>, %b: memref<?x{t}>, %y: memref<?x{t}>) attributes {{hsg.kernel}} {{
  %c0 = arith.constant 0 : index
  %n = arith.constant {n} : index
  %bytes = arith.constant {bytes} : index
  %a_gm = ascend.set_global_buffer %a[%c0], %n : memref<?x{t}> -> !ascend.global_tensor<{t}>
  %b_gm = ascend.set_global_buffer %b[%c0], %n : memref<?x{t}> -> !ascend.global_tensor<{t}>
  %y_gm = ascend.set_global_buffer %y[%c0], %n : memref<?x{t}> -> !ascend.global_tensor<{t}>
  %pipe = ascend.tpipe
  %qa = ascend.tque : !ascend.tque<vecin, 1>
  %qb = ascend.tque : !ascend.tque<vecin, 1>
  %qy = ascend.tque : !ascend.tque<vecout, 1>
  %masks = ascend.tbuf : !ascend.tbuf<veccalc>
  %other = ascend.tbuf : !ascend.tbuf<veccalc>
  ascend.init_buffer %pipe, %qa, num 1, %bytes : !ascend.tque<vecin, 1>
  ascend.init_buffer %pipe, %qb, num 1, %bytes : !ascend.tque<vecin, 1>
  ascend.init_buffer %pipe, %qy, num 1, %bytes : !ascend.tque<vecout, 1>
  ascend.init_buffer %pipe, %masks, %bytes : !ascend.tbuf<veccalc>
  ascend.init_buffer %pipe, %other, %bytes : !ascend.tbuf<veccalc>
  %la = ascend.alloc_tensor %qa : !ascend.tque<vecin, 1> -> {vin}
  ascend.data_copy %la, %a_gm, %n : {vin}, !ascend.global_tensor<{t}>
  ascend.enque %qa, %la : !ascend.tque<vecin, 1>, {vin}
  %lb = ascend.alloc_tensor %qb : !ascend.tque<vecin, 1> -> {vin}
  ascend.data_copy %lb, %b_gm, %n : {vin}, !ascend.global_tensor<{t}>
  ascend.enque %qb, %lb : !ascend.tque<vecin, 1>, {vin}
  %da = ascend.deque %qa : !ascend.tque<vecin, 1> -> {vin}
  %db = ascend.deque %qb : !ascend.tque<vecin, 1> -> {vin}
  %o = ascend.alloc_tensor %qy : !ascend.tque<vecout, 1> -> {vout}
{body}
  ascend.enque %qy, %o : !ascend.tque<vecout, 1>, {vout}
  ascend.free_tensor %qa, %da : !ascend.tque<vecin, 1>, {vin}
  ascend.free_tensor %qb, %db : !ascend.tque<vecin, 1>, {vin}
  %do = ascend.deque %qy : !ascend.tque<vecout, 1> -> {vout}
  ascend.data_copy %y_gm, %do, %n : !ascend.global_tensor<{t}>, {vout}
  ascend.free_tensor %qy, %do : !ascend.tque<vecout, 1>, {vout}
  func.return
}}
"""


def run(t: str, body: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """y of the one-core kernel whose Compute is `body` (a, b DeQue'd as %da, %db; y is %o)."""
    itemsize = np.dtype(a.dtype).itemsize
    types = {"vin": f"!ascend.local_tensor<{t}, vecin>",
             "vout": f"!ascend.local_tensor<{t}, vecout>",
             "m8": "!ascend.local_tensor<ui8, veccalc>",
             "m16": "!ascend.local_tensor<ui16, veccalc>",
             "words": N * itemsize // 2}
    text = KERNEL.format(n=N, t=t, bytes=N * itemsize, body=body.format(t=t, **types), **types)
    return compile_text(text, name=f"{t}.mlir")(a, b)


def inputs(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """a: zeros of both signs, subnormals, NaN, infinities, values near +-1; b: no zeros."""
    rng = np.random.default_rng(5)
    tiny = float(np.finfo(dtype).smallest_subnormal)
    special = [0.0, -0.0, tiny, -3 * tiny, np.nan, np.inf, -np.inf, 1.0, -1.0, 0.999, 65504.0]
    a = np.concatenate([special, rng.standard_normal(N - len(special)) * 4]).astype(dtype)
    b = (rng.standard_normal(N) * 3).astype(dtype)
    b[:4] = [-0.5, 0.5, 3.0, 0.25]
    b[b == 0] = 1
    return a, b


def same_bits(got: np.ndarray, want: list[float], dtype: type) -> None:
    """Equal bit patterns, except that any NaN matches any NaN."""
    expected = np.array(want, dtype)
    nan = np.isnan(expected)
    assert (np.isnan(got) == nan).all()
    width = np.uint16 if np.dtype(dtype).itemsize == 2 else np.uint32
    differ = np.nonzero(got[~nan].view(width) != expected[~nan].view(width))[0]
    assert differ.size == 0, [(got[~nan][i], expected[~nan][i]) for i in differ[:5]]


def rounded(kind: str, dtype: type) -> Callable[[float, float], float]:
    """x <kind> y correctly rounded to dtype: exact rationals for finite operands (IEEE's sign
    rules for an exact zero), float64 IEEE arithmetic (exact there) for infinities and NaN."""

    def f(x: float, y: float) -> float:
        op, y = ("add", -y) if kind == "sub" else (kind, y)
        if not (math.isfinite(x) and math.isfinite(y)):
            with np.errstate(all="ignore"):
                wide = {"add": np.add, "mul": np.multiply, "div": np.divide}[op]
                return float(wide(np.float64(x), np.float64(y)))
        a, b = Fraction(x), Fraction(y)
        q = {"add": a + b, "mul": a * b, "div": a / b}[op]
        negative = (math.copysign(1, x) < 0, math.copysign(1, y) < 0)
        if q == 0 and op == "add":  # x = -y: +0, except -0 + -0
            return -0.0 if all(negative) else 0.0
        if q == 0:  # a zero factor or dividend: the sign is the product of the signs
            return -0.0 if negative[0] != negative[1] else 0.0
        return exact_round(q, np.dtype(dtype))

    return f


def maximum(x: float, y: float) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y == 0:
        return 0.0 if not (math.copysign(1, x) < 0 and math.copysign(1, y) < 0) else -0.0
    return x if x > y else y


def minimum(x: float, y: float) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y == 0:
        return -0.0 if (math.copysign(1, x) < 0 or math.copysign(1, y) < 0) else 0.0
    return x if x < y else y


TENSOR_OPS: list[tuple[str, Callable[[type], Callable[[float, float], float]]]] = [
    ("add", lambda dt: rounded("add", dt)),
    ("sub", lambda dt: rounded("sub", dt)),
    ("mul", lambda dt: rounded("mul", dt)),
    ("div", lambda dt: rounded("div", dt)),
    ("max", lambda dt: maximum),
    ("min", lambda dt: minimum),
]


@pytest.mark.parametrize("t", ["f16", "f32"])
@pytest.mark.parametrize(("name", "rule"), TENSOR_OPS, ids=[n for n, _ in TENSOR_OPS])
def test_tensor_tensor_ops_in_a_kernel(
        t: str, name: str, rule: Callable[[type], Callable[[float, float], float]]) -> None:
    """dst is the VECOUT tensor, src0 and src1 the two VECIN ones, in that order."""
    dtype = np.float16 if t == "f16" else np.float32
    a, b = inputs(dtype)
    body = f"  ascend.{name} %o, %da, %db, %n : {{vout}}, {{vin}}, {{vin}}"
    y = run(t, body, a, b)
    f = rule(dtype)
    same_bits(y, [f(float(x), float(z)) for x, z in zip(a, b, strict=True)], dtype)


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_maxs_and_mins_in_a_kernel(t: str) -> None:
    """Maxs(a, 0.5) into y, Mins(a, -0.25) into a scratch TBuf, whose first quarter (whole
    32-byte blocks) a DataCopy UB -> UB then copies over y's."""
    dtype = np.float16 if t == "f16" else np.float32
    a, b = inputs(dtype)
    q = N // 4
    body = f"""
  %scratch = ascend.tbuf_get %other : !ascend.tbuf<veccalc> -> !ascend.local_tensor<{{t}}, veccalc>
  %quarter = arith.constant {q} : index
  ascend.maxs %o, %da, 0.5 : {{t}}, %n : {{vout}}, {{vin}}
  ascend.mins %scratch, %da, -2.5e-01 : {{t}}, %n : !ascend.local_tensor<{{t}}, veccalc>, {{vin}}
  ascend.data_copy %o, %scratch, %quarter : {{vout}}, !ascend.local_tensor<{{t}}, veccalc>
"""
    y = run(t, body, a, b)
    x = [float(v) for v in a]
    same_bits(y, [minimum(v, -0.25) for v in x[:q]] + [maximum(v, 0.5) for v in x[q:]], dtype)


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_abs_relu_and_ub_copies_in_a_kernel(t: str) -> None:
    """Abs into a scratch TBuf (VECCALC) and Relu into the other input's buffer (VECIN), each
    then copied UB -> UB into the VECOUT tensor."""
    dtype = np.float16 if t == "f16" else np.float32
    a, b = inputs(dtype)
    abs_body = """
  %scratch = ascend.tbuf_get %other : !ascend.tbuf<veccalc> -> !ascend.local_tensor<{t}, veccalc>
  ascend.abs %scratch, %da, %n : !ascend.local_tensor<{t}, veccalc>, {vin}
  ascend.data_copy %o, %scratch, %n : {vout}, !ascend.local_tensor<{t}, veccalc>
"""
    relu_body = """
  ascend.relu %db, %da, %n : {vin}, {vin}
  ascend.data_copy %o, %db, %n : {vout}, {vin}
"""
    x = [float(v) for v in a]
    same_bits(run(t, abs_body, a, b), [abs(v) for v in x], dtype)
    same_bits(run(t, relu_body, a, b), [maximum(v, 0.0) for v in x], dtype)


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_bitwise_ops_on_reinterpreted_lanes(t: str) -> None:
    """And, Or, Not on the 16-bit lanes of the float tensors (ReinterpretCast to ui16 and i16):
    N * sizeof(T) / 2 lanes each."""
    dtype = np.float16 if t == "f16" else np.float32
    a, b = inputs(dtype)
    views = """
  %wa = ascend.reinterpret_cast %da : {vin} -> !ascend.local_tensor<ui16, vecin>
  %wb = ascend.reinterpret_cast %db : {vin} -> !ascend.local_tensor<ui16, vecin>
  %wo = ascend.reinterpret_cast %o : {vout} -> !ascend.local_tensor<ui16, vecout>
  %words = arith.constant {words} : index
"""
    u16, v = "!ascend.local_tensor<ui16, vecin>", "!ascend.local_tensor<ui16, vecout>"
    and_ = f"  ascend.and %wo, %wa, %wb, %words : {v}, {u16}, {u16}"
    or_ = f"  ascend.or %wo, %wa, %wb, %words : {v}, {u16}, {u16}"
    not_ = ("  %sa = ascend.reinterpret_cast %da : {vin} -> !ascend.local_tensor<i16, vecin>\n"
            "  %so = ascend.reinterpret_cast %o : {vout} -> !ascend.local_tensor<i16, vecout>\n"
            "  ascend.not %so, %sa, %words : !ascend.local_tensor<i16, vecout>, "
            "!ascend.local_tensor<i16, vecin>")
    wa, wb = a.view(np.uint16), b.view(np.uint16)
    for body, want in ((and_, wa & wb), (or_, wa | wb), (not_, ~wa)):
        y = run(t, views + body, a, b)
        assert y.view(np.uint16).tolist() == want.tolist()


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_compare_masks_combined_by_and_then_select(t: str) -> None:
    """-1 < a < 1 as two CompareScalar masks (ui8) And-ed as ui16, back to ui8 for Select:
    y = a inside the band, b outside it (NaN compares false: b)."""
    dtype = np.float16 if t == "f16" else np.float32
    a, b = inputs(dtype)
    body = """
  %m = ascend.tbuf_get %masks : !ascend.tbuf<veccalc> -> {m8}
  %m2 = ascend.tbuf_get %other : !ascend.tbuf<veccalc> -> {m8}
  ascend.compare_scalar %m, %da, -1.0 : {t}, gt, %n : {m8}, {vin}
  ascend.compare_scalar %m2, %da, 1.0 : {t}, lt, %n : {m8}, {vin}
  %w = ascend.reinterpret_cast %m : {m8} -> {m16}
  %w2 = ascend.reinterpret_cast %m2 : {m8} -> {m16}
  %mask_words = arith.constant 8 : index
  ascend.and %w, %w, %w2, %mask_words : {m16}, {m16}, {m16}
  %band = ascend.reinterpret_cast %w : {m16} -> {m8}
  ascend.select %o, %band, %da, %db, vsel_tensor_tensor_mode, %n : {vout}, {m8}, {vin}, {vin}
"""
    y = run(t, body, a, b)
    inside = [-1 < float(x) < 1 for x in a]
    same_bits(y, [float(x) if i else float(z) for x, z, i in zip(a, b, inside, strict=True)],
              dtype)


def test_run_time_rules_name_the_op() -> None:
    """A UB -> UB copy of 3 floats (12 bytes) and an And on a freed tensor are refused."""
    a, b = inputs(np.float32)
    short = """
  %three = arith.constant 3 : index
  ascend.data_copy %o, %da, %three : {vout}, {vin}
"""
    with pytest.raises(KernelError, match=r"'ascend\.data_copy'.*DataCopy\(UB->UB\): count 3 x 4 "
                                          r"bytes = 12 bytes is not a multiple of 32"):
        run("f32", short, a, b)
    freed = """
  %wa = ascend.reinterpret_cast %da : {vin} -> !ascend.local_tensor<ui16, vecin>
  ascend.free_tensor %qa, %da : !ascend.tque<vecin, 1>, {vin}
  %c8 = arith.constant 8 : index
  ascend.not %wa, %wa, %c8 : !ascend.local_tensor<ui16, vecin>, !ascend.local_tensor<ui16, vecin>
"""
    with pytest.raises(KernelError, match=r"'ascend\.not'.*use of a freed tensor"):
        run("f32", freed, a, b)
