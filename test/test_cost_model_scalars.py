"""The cost model on a kernel with run-time scalars: a vector call costs the same whether its
scalar is an attribute or a value, and the scalar code (f32 arguments, arith on them) takes no
pipe time."""

from __future__ import annotations

from scalar_kernel import per_core_scalar_module, slope_clip_module

from hswc import runner
from hswc.cost_model.stream import VECTOR

CONSTANT_SCALARS = {
    "%x_in, %slope_half : f16,": "%x_in, 2.500000e-01 : f16,",
    "%neg_lambd_half : f16, ge": "-1.099610e+00 : f16, ge",
    "%lambd_half : f16, vsel": "1.099610e+00 : f16, vsel",
    "%bound, %lambd_half : f16": "%bound, 1.099610e+00 : f16",
}
"""Each use of a run-time scalar in slope_clip, and the same call with the scalar's value."""


def constant_module() -> str:
    text = slope_clip_module()
    for value, attribute in CONSTANT_SCALARS.items():
        assert text.count(value) == 1, value
        text = text.replace(value, attribute)
    return text


def test_a_scalar_value_costs_what_an_attribute_costs() -> None:
    values = runner.compile_text(slope_clip_module(), core_num=4).profile(5000)
    constants = runner.compile_text(constant_module(), core_num=4).profile(5000)
    assert values.total_time > 0 and values.total_time == constants.total_time
    for with_values, with_constants in zip(values.schedules, constants.schedules, strict=True):
        assert with_values.program.signature() == with_constants.program.signature()


def test_the_scalar_code_takes_no_pipe_time() -> None:
    (first, *_) = runner.compile_text(slope_clip_module(), core_num=4).profile(5000).schedules
    vector = [w.label for w in first.program.work() if w.pipe == VECTOR]
    chunk = ["muls", "compare_scalar", "compare", "pipe_barrier", "select", "pipe_barrier",
             "select"]
    assert vector == ["duplicate", *chunk, *chunk]  # Init's Duplicate, then two chunks


def test_a_select_between_float_scalars_takes_no_pipe_time() -> None:
    plain = runner.compile_text(slope_clip_module(), core_num=4).profile(5000)
    selected = runner.compile_text(per_core_scalar_module(), core_num=4).profile(5000)
    assert selected.total_time == plain.total_time
