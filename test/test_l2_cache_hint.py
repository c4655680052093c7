"""The `l2-bypass` schedule flag: streamed inputs set to GlobalTensor::SetL2CacheHint
(CACHE_MODE_DISABLE), as asc-devkit's add_high_performance does.

The lowering hints the inputs it reads once (not the output); the printer writes the AscendC
call; the interpreter runs the kernel to the same bits; the cost model lets the output's writes
stay in L2 (the bandwidths of hswc.platform.COST_FIGURES, by hand below); the dialect refuses a
mode it does not know.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.dialects import ascend
from hswc.pipeline import DIALECTS
from hswc.platform import COST_FIGURES, get_platform
from hswc.profiling import lower, profile
from hswc.vectorizer.schedule import FAST

HARD_SWISH = """
func.func @hard_swish(%x: tensor<?xf16>) -> tensor<?xf16> {
  %r = hsg.hard_swish %x : tensor<?xf16>
  func.return %r : tensor<?xf16>
}
"""
BYPASS = replace(FAST, l2_bypass=True)
A2_NO_CONFLICTS = replace(get_platform("ascend910b"), cost=replace(
    COST_FIGURES, bank_conflict_factor=1.0, conflict_read_factor=1.0))
"""Atlas A2 without UB bank conflicts (FAST's in-place calls conflict; test_bank_offsets.py
times those), so the bandwidths alone bind."""


def parse(text: str) -> ModuleOp:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return Parser(ctx, text).parse_module()


def hints(module: ModuleOp) -> list[tuple[str, str]]:
    return [(op.tensor.name_hint or "", op.mode.data) for op in module.walk()
            if isinstance(op, ascend.SetL2CacheHintOp)]


def test_the_streamed_input_is_hinted_and_printed() -> None:
    """x (read once) bypasses L2; y, the output, does not; without the flag nothing is hinted."""
    bypassed = lower(parse(HARD_SWISH), BYPASS)
    assert hints(bypassed) == [("x_gm", "disable")]
    assert hints(lower(parse(HARD_SWISH), FAST)) == []
    source = kernel_source(bypassed)
    assert "xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);" in source
    assert "yGm.SetL2CacheHint" not in source


def test_the_hint_changes_no_value() -> None:
    """The hinted kernel run by the interpreter gives the hsg-level module's bits (HardSwish is
    one of the exact family)."""
    x = np.random.default_rng(5).standard_normal(3000).astype(np.float16) * 4
    hinted = runner.compile_module(lower(parse(HARD_SWISH), BYPASS))
    assert hints(hinted.module) == [("x_gm", "disable")]
    expected = runner.compile_module(parse(HARD_SWISH), level="linalg")(x)
    assert np.array_equal(hinted(x).view(np.uint16), expected.view(np.uint16))


def test_writes_stay_in_l2_when_the_input_bypasses_it() -> None:
    """2^24 halves in and out on Atlas A2: without the hint every byte crosses the HBM (1.6 TB/s:
    at least 41.9 us); with it the reads alone do (21.0 us) and reads and writes together cross
    L2 (2.4 TB/s: 28.0 us), which binds; the pipeline's fill and set-ups add a little."""
    n = 1 << 24
    moved = 2 * n * 2
    hbm = moved / COST_FIGURES.hbm_bytes_per_s
    l2 = moved / COST_FIGURES.l2_bytes_per_s
    plain = profile(lower(parse(HARD_SWISH), FAST), n, platform=A2_NO_CONFLICTS, variant=FAST)
    hinted = profile(lower(parse(HARD_SWISH), BYPASS), n, platform=A2_NO_CONFLICTS,
                     variant=BYPASS)
    assert hbm * 0.97 <= plain.total_time <= hbm * 1.05
    assert l2 <= hinted.total_time <= l2 * 1.06


def test_an_unknown_mode_is_refused() -> None:
    text = """
    func.func @k(%x: memref<?xf16>, %n: index) attributes {hsg.kernel} {
      %c0 = arith.constant 0 : index
      %g = ascend.set_global_buffer %x[%c0], %n : memref<?xf16> -> !ascend.global_tensor<f16>
      ascend.set_l2_cache_hint %g, "sometimes" : !ascend.global_tensor<f16>
      func.return
    }
    """
    with pytest.raises(VerifyException, match="unknown cache mode 'sometimes'"):
        parse(text).verify()
