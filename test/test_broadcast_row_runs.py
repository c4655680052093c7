"""Broadcast inputs read in row runs (hswc.vectorizer.broadcast_copy): which inputs are, the
tiling that makes every run start on a 32-byte UB block, and bit-exact results at every level
when chunks and core slices start mid-row (a small UB: several chunks per core, a phase in each).
The C++ of these kernels on the CPU model: test/test_cpu_build_broadcast.py; the IR and C++
spelled out: test/lit/passes/lower-to-ascend-broadcast-runs.mlir."""

from __future__ import annotations

import numpy as np
import pytest
from test_broadcast_operands import DTYPES, NUMPY, _same, _values, generic, parse_map

from hswc.broadcast import Broadcast, operand_strides
from hswc.runner import LEVELS, compile_text
from hswc.tiling import UbPlan, compute_tiling, core_slice
from hswc.vectorizer.broadcast_copy import RowRuns, block_align, row_runs


def _broadcast(out: tuple[int, ...], operand: tuple[int, ...], m: str) -> Broadcast:
    dims = ", ".join(f"d{i}" for i in range(len(out)))
    return Broadcast(out, (operand_strides(parse_map(f"({dims}) -> ({m})"), operand, out),))


@pytest.mark.parametrize(("out", "operand", "m", "dtype", "want"), [
    ((4, 64), (64,), "d1", "f32", RowRuns(64, 1, resident=True)),
    ((4, 48), (48,), "d1", "f16", RowRuns(48, 1, resident=True)),
    ((2, 1024), (1024,), "d1", "f32", RowRuns(1024, 1)),  # 4096 bytes: read from GM per run
    ((6, 48), (6, 1), "d0, 0", "f16", RowRuns(48, 0, resident=True)),
    ((6, 8), (6,), "d0", "f32", RowRuns(8, 0, resident=True)),
    ((2048, 16), (2048,), "d0", "f16", RowRuns(16, 0)),  # 4096 bytes: GetValue from GM
    ((2, 3, 16), (3, 16), "d1, d2", "f16", RowRuns(48, 1, resident=True)),  # dims merge
    ((3, 5, 16), (5,), "d1", "f16", RowRuns(16, 0, resident=True)),
    ((3, 5, 8), (3, 8), "d0, d2", "f32", RowRuns(8, 1, resident=True)),
    ((4, 100), (100,), "d1", "f32", "400 bytes"),
    ((3, 5, 17), (3, 17), "d0, d2", "f32", "68 bytes"),  # constant rows: masked runs
    ((5, 33), (33,), "d1", "bf16", "66 bytes"),
])
def test_which_inputs_are_read_in_runs(out: tuple[int, ...], operand: tuple[int, ...], m: str,
                                       dtype: str, want: RowRuns | str) -> None:
    got = row_runs(_broadcast(out, operand, m), 0, dtype)
    if isinstance(want, RowRuns):
        assert got == want
        assert block_align(_broadcast(out, operand, m), [dtype]) == 32 // DTYPES[dtype].itemsize
    else:
        assert isinstance(got, str) and got.startswith("element loop") and want in got
        assert block_align(_broadcast(out, operand, m), [dtype]) == 1


def test_the_tiling_aligns_block_factor_only_when_asked() -> None:
    """blockFactor = CeilDiv(totalNum, coreNum) as CANN computes it (block_align 1), rounded up
    to a 32-byte block for a kernel with row runs; every core's slice then starts on one."""
    plan = UbPlan(bytes_per_element=12, ub_reserve=0, align_elements=128)
    cann = compute_tiling(1600, 7, 196608, "f16", plan)
    assert cann.block_factor == 229 and cann.used_core_num == 7
    runs = compute_tiling(1600, 7, 196608, "f16", UbPlan(12, 0, 128, block_align=16))
    assert runs.block_factor == 240 and runs.used_core_num == 7
    assert runs.ub_factor == cann.ub_factor
    assert all(core_slice(runs, b).offset % 16 == 0 for b in range(runs.used_core_num))


MULTI_CHUNK = {
    # name: (output shape, operand shape, map, numpy's view of the operand, op, dtype)
    "bias_f16": ((80, 80), (80,), "d1", lambda b: b, "addf", "f16"),
    "bias_f32": ((60, 40), (40,), "d1", lambda b: b, "subf", "f32"),
    "row_scale_f32": ((120, 16), (120, 1), "d0, 0", lambda b: b, "mulf", "f32"),
    "row_scale_bf16": ((40, 96), (40,), "d0", lambda b: b[:, None], "mulf", "bf16"),
    "merged_f16": ((24, 5, 48), (5, 48), "d1, d2", lambda b: b, "addf", "f16"),
    "long_rows_f32": ((3, 1000), (1000,), "d1", lambda b: b, "addf", "f32"),  # row > ubFactor
    "size1_dim_f16": ((100, 1, 64), (64,), "d2", lambda b: b, "mulf", "f16"),
    "row_scale_gm_f32": ((1100, 8), (1100, 1), "d0, 0", lambda b: b, "mulf", "f32"),  # 4400 B
    # 784-byte rows: masked runs (test_broadcast_masked_runs)
    "channel_196_f32": ((1, 20, 14, 14), (20,), "d1", lambda b: b[None, :, None, None], "mulf",
                        "f32"),
}


@pytest.mark.parametrize("case", list(MULTI_CHUNK))
def test_runs_are_bit_exact_across_chunks_and_cores(case: str) -> None:
    """On a 4096-byte UB (ubFactor 128 to 640, as the chosen schedule's buffers take it) over
    7 cores, chunks start mid-row; every level gives numpy's broadcasting bit for bit. The
    shapes are large enough that each core's slice takes several chunks (checked below)."""
    out, operand, m, spread, op, dtype = MULTI_CHUNK[case]
    t = DTYPES[dtype]
    x, b = _values(out, t, 5), _values(operand, t, 6)
    with np.errstate(invalid="ignore", over="ignore"):
        if dtype == "bf16":
            want = NUMPY[op](x.astype(np.float32), spread(b).astype(np.float32)).astype(t)
        else:
            want = NUMPY[op](x, spread(b))
    text = generic(case, out, operand, m, dtype, op)
    lowered = str(compile_text(text, level="ascend", core_num=7, ub_size=4096).module)
    assert "row runs of" in lowered and "ascend.set_value" not in lowered
    for level in LEVELS[1:]:
        kernel = compile_text(text, level=level, core_num=7, ub_size=4096)
        result = kernel.run(x, b)
        assert _same(np.asarray(result.outputs[0]), want), f"{case} at level {level}"
    (tiling,) = result.tilings
    assert tiling is not None and tiling["ubFactor"] < tiling["blockFactor"]  # several chunks


def test_without_the_aligned_tiling_the_interpreter_refuses_the_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The alignment is what makes the runs legal: with CANN's blockFactor (229 f16 elements per
    core) a core's first run after a row boundary starts off a 32-byte block, and the interpreter
    refuses that DataCopyPad as the hardware would."""
    import hswc.vectorizer.broadcast_copy as broadcast_copy
    from hswc import choice_store
    from hswc.passes import schedule_choice
    from hswc.runner import KernelError

    monkeypatch.setattr(broadcast_copy, "block_align", lambda broadcast, dtypes: 1)
    # a choice made with the alignment off is kept from the process's and the tools' stores
    monkeypatch.setattr(choice_store, "store", None)
    monkeypatch.setattr(schedule_choice, "_chosen", {})
    out, operand = (20, 80), (80,)
    x, b = _values(out, DTYPES["f16"], 5), _values(operand, DTYPES["f16"], 6)
    kernel = compile_text(generic("bias", out, operand, "d1", "f16", "addf"), level="ascend",
                          core_num=7, ub_size=196608)
    with pytest.raises(KernelError, match="not 32-byte aligned"):
        kernel.run(x, b)


@pytest.mark.parametrize(("out", "operand", "m", "counts"), [
    ((8, 64), (64,), "d1", {"copy-in b": 1, "data_copy": 8}),
    ((8, 1024), (1024,), "d1", {"copy-in b": 8}),
    ((8, 64), (8, 1), "d0, 0", {"get_value b": 0, "get_value ub": 8, "duplicate": 8}),
    ((1024, 8), (1024, 1), "d0, 0", {"get_value b": 1024, "duplicate": 1024}),
    # rows of 196 and 50 f32 (not whole blocks): a masked Duplicate of the run's lanes in the
    # first 64, then (for 196) a Duplicate of the rest
    ((8, 196), (8, 1), "d0, 0", {"get_value ub": 8, "duplicate_lanes": 8, "duplicate": 8}),
    ((8, 50), (8, 1), "d0, 0", {"get_value ub": 8, "duplicate_lanes": 8, "duplicate": 0}),
])
def test_the_cost_model_times_each_run(out: tuple[int, int], operand: tuple[int, ...], m: str,
                                       counts: dict[str, int]) -> None:
    """A launch of f32 rows on one core, one chunk: one item per row run (a small bias: one
    copy-in in Init, then a UB -> UB DataCopy on V per run; a bias of 4096 bytes: a DataCopyPad
    from GM per run; a per-row value: a GetValue, from its copy in UB or of 4096 bytes from GM,
    on MTE2's stream and a Duplicate on V per run; a row off 32-byte blocks: a masked
    Duplicate, and a second for a run past its first 64 lanes), no element-by-element copy."""
    text = generic("k", out, operand, m, "f32", "addf")
    report = compile_text(text, core_num=1).profile(out[0] * out[1])
    (schedule,) = report.schedules
    labels = [w.label for w in schedule.program.work()]
    assert {label: labels.count(label) for label in counts} == counts
    assert not any("scalar copy-in" in w for w in labels)


def test_a_bias_and_a_row_scale_in_one_kernel() -> None:
    """`x * s + b`: both inputs copied into UB once, one read in GetValue + Duplicate runs, one
    in UB -> UB copies, over several chunks."""
    t = DTYPES["f16"]
    x, s, b = _values((40, 64), t, 7), _values((40, 1), t, 8), _values((64,), t, 9)
    text = """
func.func @affine(%x: tensor<40x64xf16>, %s: tensor<40x1xf16>, %b: tensor<64xf16>)
    -> tensor<40x64xf16> {
  %e = tensor.empty() : tensor<40x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d1)>,
      affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %b : tensor<40x64xf16>, tensor<40x1xf16>, tensor<64xf16>)
      outs(%e : tensor<40x64xf16>) {
  ^bb0(%a: f16, %c: f16, %d: f16, %o: f16):
    %m = arith.mulf %a, %c : f16
    %r = arith.addf %m, %d : f16
    linalg.yield %r : f16
  } -> tensor<40x64xf16>
  func.return %y : tensor<40x64xf16>
}
"""
    lowered = str(compile_text(text, level="ascend", core_num=7, ub_size=4096).module)
    assert "one DataCopy UB -> UB from the input's copy in UB per run" in lowered
    assert "one GetValue from the input's copy in UB + Duplicate per run" in lowered
    with np.errstate(invalid="ignore", over="ignore"):
        want = x * s + b
    for level in LEVELS[1:]:
        got = compile_text(text, level=level, core_num=7, ub_size=4096)(x, s, b)
        assert _same(np.asarray(got), want), f"at level {level}"
