"""The cost model of a function's launches (hswc.profiling.launches): an unfused chain is one
launch per op, in order, its time and GM traffic their sums; fused it is one launch that moves
each of the chain's tensors once."""

# ruff: noqa: E501 (MLIR lines)
from __future__ import annotations

import json

import numpy as np
import pytest

from hswc.profiling import profile
from hswc.profiling.launches import launched_kernels, profile_launches
from hswc.runner import compile_text

N = 1 << 20
CHAIN = """
func.func @grad_times_scale(%g: tensor<?xf16>, %x: tensor<?xf16>, %s: tensor<?xf16>) -> tensor<?xf16> {
  %0 = hsg.hard_swish_grad %g, %x : tensor<?xf16>
  %1 = hsg.leaky_relu %0 {negative_slope = 0.5 : f32} : tensor<?xf16>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %g, %c0 : tensor<?xf16>
  %e = tensor.empty(%d) : tensor<?xf16>
  %2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%1, %s : tensor<?xf16>, tensor<?xf16>) outs(%e : tensor<?xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %m = arith.mulf %a, %b : f16
    linalg.yield %m : f16
  } -> tensor<?xf16>
  func.return %2 : tensor<?xf16>
}
"""


def test_unfused_chain_is_one_launch_per_op_in_order() -> None:
    unfused = compile_text(CHAIN, fuse=False).module
    names = [k.sym_name.data for k in launched_kernels(unfused)]
    assert names == ["hard_swish_grad_kernel_f16", "leaky_relu_kernel_f16",
                     "grad_times_scale_kernel_f16"]
    launches = profile_launches(unfused, N)
    assert [r.operator for r in launches.reports] == ["HardSwishGrad", "LeakyRelu",
                                                      "GradTimesScale"]
    # Each op reads its inputs and writes its result, 2 bytes per f16 element: (2+1) + (1+1) +
    # (2+1) tensors of N elements.
    assert launches.gm_bytes == 8 * 2 * N
    assert launches.total_time == pytest.approx(sum(r.total_time for r in launches.reports))
    with pytest.raises(ValueError, match="needs exactly one"):  # profile() models one launch
        profile(unfused, N)


def test_fused_chain_moves_each_tensor_once_and_takes_less_time() -> None:
    unfused = profile_launches(compile_text(CHAIN, fuse=False).module, N)
    fused = profile_launches(compile_text(CHAIN).module, N)
    assert [r.operator for r in fused.reports] == ["GradTimesScale"]
    assert fused.gm_bytes == 4 * 2 * N  # g, x, s in; y out
    assert fused.total_time < unfused.total_time
    # The fused launch is what profile() models for the module's one kernel.
    single = profile(compile_text(CHAIN).module, N)
    assert fused.total_time == pytest.approx(single.total_time)
    assert fused.summary().startswith("1 launch, one after the other:")


def test_a_run_profiles_the_launches_it_made_on_their_own_elements() -> None:
    kernel = compile_text(CHAIN, fuse=False, level="ascend")
    inputs = [np.full(3000, v, dtype=np.float16) for v in (1.0, 2.0, 0.5)]
    result = kernel.run(*inputs)
    assert result.kernels == ["hard_swish_grad_kernel_f16", "leaky_relu_kernel_f16",
                              "grad_times_scale_kernel_f16"]
    launches = kernel.profile_launches(N, result)  # the run's 3000 elements, not N
    assert [r.total_num for r in launches.reports] == [3000] * 3
    events = json.loads(launches.trace_json())["traceEvents"]
    spans = [e for e in events if e.get("ph") == "X"]
    first_end = launches.reports[0].total_time * 1e6
    assert {e["args"]["launch"] for e in spans} == {1, 2, 3}
    assert min(e["ts"] for e in spans if e["args"]["launch"] == 2) >= first_end * (1 - 1e-9)
    names = [e for e in events if e.get("name") == "process_name"]
    assert len(names) == len({e["pid"] for e in names})  # each core's track named once


def test_unknown_kernels_and_empty_modules_are_refused() -> None:
    module = compile_text(CHAIN).module
    with pytest.raises(ValueError, match="no kernel @nope"):
        profile_launches(module, N, runs=[("nope", 8)])
    with pytest.raises(ValueError, match="launches no kernel of f32"):
        profile_launches(module, N, dtype="f32")
