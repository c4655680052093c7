"""Broadcast operands (hswc.broadcast): a generic's input indexed by an order-keeping projection
(a bias, a per-row scale, a size-1 dim, a rank-0 tensor argument) lowers, and hswc-run gives at
every level what numpy's broadcasting gives (an independent model: one IEEE operation per
element, correctly rounded in the dtype), bit for bit, NaN class equal; what is not such a
broadcast is refused with a message naming it."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from math_bodies import same_bits
from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser

from hswc.broadcast import Broadcast, operand_strides
from hswc.remarks import collecting
from hswc.runner import LEVELS, compile_text
from hswc.tools import hswc_emit

DTYPES = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16),
          "bf16": np.dtype(ml_dtypes.bfloat16)}
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -65504.0, 3.0], np.float32)


def parse_map(text: str) -> AffineMap:
    attr = Parser(Context(), f"affine_map<{text}>").parse_attribute()
    assert isinstance(attr, AffineMapAttr)
    return attr.data


def generic(name: str, out: tuple[int, ...], operand: tuple[int, ...], m: str, dtype: str,
            op: str = "mulf") -> str:
    """`x <op> b` with x of shape `out` and b of shape `operand` read through the map `m`."""
    dims = ", ".join(f"d{i}" for i in range(len(out)))
    ident = f"affine_map<({dims}) -> ({dims})>"
    t_out = f"tensor<{'x'.join(map(str, out))}x{dtype}>"
    t_b = f"tensor<{''.join(f'{n}x' for n in operand)}{dtype}>"
    parallel = ", ".join(['"parallel"'] * len(out))
    return f"""
func.func @{name}(%x: {t_out}, %b: {t_b}) -> {t_out} {{
  %e = tensor.empty() : {t_out}
  %y = linalg.generic {{indexing_maps = [{ident}, affine_map<({dims}) -> ({m})>, {ident}],
      iterator_types = [{parallel}]}} ins(%x, %b : {t_out}, {t_b}) outs(%e : {t_out}) {{
  ^bb0(%a: {dtype}, %c: {dtype}, %o: {dtype}):
    %r = arith.{op} %a, %c : {dtype}
    linalg.yield %r : {dtype}
  }} -> {t_out}
  func.return %y : {t_out}
}}
"""


CASES = {
    # name: (output shape, operand shape, map results, the operand as numpy broadcasts it, op)
    "bias_f32": ((4, 100), (100,), "d1", lambda b: b, "addf", "f32"),
    "bias_f16": ((3, 70), (70,), "d1", lambda b: b, "addf", "f16"),
    "bias_bf16": ((5, 33), (33,), "d1", lambda b: b, "addf", "bf16"),
    "row_scale_size1_f32": ((6, 50), (6, 1), "d0, 0", lambda b: b, "mulf", "f32"),
    "row_scale_rank1_f16": ((6, 50), (6,), "d0", lambda b: b[:, None], "mulf", "f16"),
    "rank3_middle_bf16": ((3, 5, 17), (5,), "d1", lambda b: b[:, None], "subf", "bf16"),
    "rank3_outer_inner_f32": ((3, 5, 17), (3, 17), "d0, d2", lambda b: b[:, None, :], "addf",
                              "f32"),
    "rank0_argument_f16": ((4, 90), (), "", lambda b: b, "mulf", "f16"),
    # rows of whole 32-byte blocks: read in row runs (hswc.vectorizer.broadcast_copy)
    "bias_runs_f32": ((5, 64), (64,), "d1", lambda b: b, "addf", "f32"),
    "bias_runs_f16": ((7, 48), (48,), "d1", lambda b: b, "addf", "f16"),
    "bias_runs_bf16": ((9, 32), (32,), "d1", lambda b: b, "subf", "bf16"),
    "row_scale_runs_f32": ((6, 40), (6, 1), "d0, 0", lambda b: b, "mulf", "f32"),
    "row_scale_runs_f16": ((11, 16), (11,), "d0", lambda b: b[:, None], "mulf", "f16"),
    "rank3_merged_runs_f16": ((2, 3, 16), (3, 16), "d1, d2", lambda b: b, "addf", "f16"),
    "rank3_outer_inner_runs_f32": ((3, 5, 8), (3, 8), "d0, d2", lambda b: b[:, None, :],
                                   "addf", "f32"),
    "rank3_middle_runs_f16": ((3, 5, 16), (5,), "d1", lambda b: b[:, None], "subf", "f16"),
}
NUMPY = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply}


def _values(shape: tuple[int, ...], dtype: np.dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    flat = rng.uniform(-8, 8, int(np.prod(shape))).astype(np.float32)
    flat[rng.integers(0, flat.size, min(flat.size, 8))] = rng.choice(SPECIALS, min(flat.size, 8))
    return flat.astype(dtype).reshape(shape)


def _same(got: np.ndarray, want: np.ndarray) -> bool:
    return got.shape == want.shape and got.dtype == want.dtype and same_bits(want, got)


@pytest.mark.parametrize("case", list(CASES))
def test_every_level_equals_numpy_broadcasting(case: str) -> None:
    out, operand, m, spread, op, dtype = CASES[case]
    t = DTYPES[dtype]
    x, b = _values(out, t, 1), _values(operand, t, 2)
    with np.errstate(invalid="ignore", over="ignore"):
        if dtype == "bf16":  # one f32 operation rounded once to bf16: exact (hsg_widen_bf16)
            want = NUMPY[op](x.astype(np.float32), spread(b).astype(np.float32)).astype(t)
        else:
            want = NUMPY[op](x, spread(b))
    text = generic(case, out, operand, m, dtype, op)
    for level in LEVELS[1:]:
        got = compile_text(text, level=level, core_num=7, ub_size=196608)(x, b)
        assert _same(np.asarray(got), want), f"{case} at level {level}"


def test_a_rank0_argument_is_read_once_and_duplicated() -> None:
    """The kernel reads a one-element operand once (GetValue in Init), then fills each chunk's
    tensor with Duplicate: no per-element loop."""
    text = generic("scale", (4, 90), (), "", "f16")
    lowered = str(compile_text(text, level="ascend").module)
    assert lowered.count("ascend.global_get_value") == 1
    assert "ascend.set_value" not in lowered and "ascend.duplicate %b_local" in lowered


def test_strides_follow_the_map() -> None:
    """The operand's flat index at each output element, by hand: a bias on (2, 3) reads
    0 1 2 0 1 2; a per-row (2, 1) scale reads 0 0 0 1 1 1."""
    flat = np.arange(6)
    bias = Broadcast((2, 3), (operand_strides(parse_map("(d0, d1) -> (d1)"), (3,), (2, 3)),))
    row = Broadcast((2, 3), (operand_strides(parse_map("(d0, d1) -> (d0, 0)"), (2, 1),
                                             (2, 3)),))
    assert bias.index(0, flat).tolist() == [0, 1, 2, 0, 1, 2]
    assert row.index(0, flat).tolist() == [0, 0, 0, 1, 1, 1]
    assert bias.operand_size(0) == 3 and row.operand_size(0) == 2


@pytest.mark.parametrize(("out", "operand", "m", "message", "severity"), [
    ((4, 6), (6, 4), "d1, d0", "out of order (a transpose)", "warning"),
    ((4, 6), (12,), "d1 * 2", "a gather or a strided read", "remark"),
])
def test_what_is_not_a_broadcast_stays_on_the_host(out: tuple[int, ...],
                                                  operand: tuple[int, ...], m: str,
                                                  message: str, severity: str) -> None:
    """An elementwise generic reading an operand out of order is one hswc could lower and does
    not (a warning); one reading a strided window is not elementwise in MLIR's sense (a remark:
    the partition leaves it on the host, as it does a reduction)."""
    _stays(generic("bad", out, operand, m, "f32"), message, severity)


def test_a_broadcast_wrapping_at_a_run_time_size_stays_on_the_host() -> None:
    """A bias `(?)` over `(?, ?)`: its index wraps at the run-time row length, which a
    kernel's static description cannot hold (test/test_broadcast_dynamic.py has the dynamic
    broadcasts that lower)."""
    text = generic("dyn", (4, 6), (6,), "d1", "f32").replace("tensor<4x6xf32>", "tensor<?x?xf32>")
    text = text.replace("tensor<6xf32>", "tensor<?xf32>")
    text = text.replace("%e = tensor.empty() : tensor<?x?xf32>",
                        "%c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
                        "  %d = tensor.dim %x, %c0 : tensor<?x?xf32>\n"
                        "  %n = tensor.dim %x, %c1 : tensor<?x?xf32>\n"
                        "  %e = tensor.empty(%d, %n) : tensor<?x?xf32>")
    _stays(text, "input 2 reads output dim 1, of a run-time size, inside another dim")


def _stays(text: str, message: str, severity: str = "warning") -> None:
    """Lowered with the generic left on the host and one warning (or remark) saying why."""
    with collecting() as said:
        module = str(compile_text(text, level="tiled").module)
    assert "linalg.generic" in module and "hsg.launch" not in module
    assert len(said) == 1 and said[0].severity == severity, said
    assert message in said[0].text, said[0].text


def test_hswc_emit_packages_a_broadcast_kernel(tmp_path: Path) -> None:
    """A kernel with broadcast inputs is packaged with each input's own shape, which its host
    tiling checks (test/test_emit_broadcast.py checks the packages whole)."""
    source = tmp_path / "bias.mlir"
    source.write_text(generic("bias", (4, 64), (64,), "d1", "f16", "addf"))
    assert hswc_emit.main([str(source), "-o", str(tmp_path / "out"), "--name", "Bias"]) == 0
    tiling = (tmp_path / "out/op_host/bias_tiling.cpp").read_text()
    assert "gert::Shape({64})" in tiling and "the shape its kernel was compiled for" in tiling
