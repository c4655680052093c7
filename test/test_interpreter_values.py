"""The value model of cores in lock-step: index arithmetic, and control flow that diverges.

Functions run on a batch of 4 cores with per-core arguments (`Varying`); every expectation is
what each core computes on its own, worked out by hand or in plain Python per core.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.context import Context

from hswc.diagnostics import LocatingParser, OpError
from hswc.interpreter.batch import CoreBatch
from hswc.interpreter.execute import call_function
from hswc.interpreter.machine import Machine
from hswc.interpreter.values import Rows, Varying, gather, merge, partition, uniform_on
from hswc.pipeline import DIALECTS
from hswc.platform import get_platform

CORES = 4


def run(text: str, name: str, *args: Any, cores: int = CORES) -> tuple[Any, ...]:
    ctx = Context()
    for dialect, factory in DIALECTS.items():
        ctx.register_dialect(dialect, factory)
    module = LocatingParser(ctx, text, "values.mlir").parse_module()
    module.verify()
    machine = Machine(get_platform("ascend910b"))
    with machine.running(CoreBatch(np.arange(cores), cores, 1024)):
        return call_function(module, name, args, machine)


def per_core(value: Any) -> list[Any]:
    if isinstance(value, Varying):
        return value.values.tolist()
    return [value] * CORES


def varying(*values: int) -> Varying:
    return Varying(np.array(values, dtype=np.int64))


# region arithmetic

ARITH = """
func.func @arith(%a: index, %b: index) -> (index, index, index, index, index, index, i1, i1) {
  %q = arith.divsi %a, %b : index
  %r = arith.remsi %a, %b : index
  %c = arith.ceildivsi %a, %b : index
  %f = arith.floordivsi %a, %b : index
  %mx = arith.maxsi %a, %b : index
  %mn = arith.minsi %a, %b : index
  %lt = arith.cmpi slt, %a, %b : index
  %ult = arith.cmpi ult, %a, %b : index
  func.return %q, %r, %c, %f, %mx, %mn, %lt, %ult : index, index, index, index, index, index, i1, i1
}
"""


def test_signed_division_family_per_core() -> None:
    a, b = [7, -7, 7, -7], [2, 2, -2, -2]
    results = [per_core(v) for v in run(ARITH, "arith", varying(*a), varying(*b))]
    assert results[0] == [3, -3, -3, 3]  # divsi rounds toward zero
    assert results[1] == [1, -1, 1, -1]  # remsi takes the dividend's sign
    assert results[2] == [4, -3, -3, 4]  # ceildivsi
    assert results[3] == [3, -4, -4, 3]  # floordivsi
    assert results[4] == [7, 2, 7, -2] and results[5] == [2, -7, -2, -7]
    assert results[6] == [False, True, False, True]
    assert results[7] == [False, False, True, True]  # as unsigned, -7 is 2**64 - 7


def test_uniform_inputs_give_plain_ints() -> None:
    results = run(ARITH, "arith", -9, 4)
    assert results[:6] == (-2, -1, -2, -3, 4, -9)
    assert all(not isinstance(r, Varying) for r in results)


def test_division_by_zero_on_one_core_names_the_op() -> None:
    with pytest.raises(OpError, match=r"values\.mlir:3:3: error: 'arith\.divsi' divides by zero"):
        run(ARITH, "arith", varying(1, 2, 3, 4), varying(1, 1, 0, 1))


COLLAPSE = """
func.func @collapse(%len: index, %off: index) -> index {
  %c128 = arith.constant 128 : index
  %rest = arith.subi %len, %off : index
  %cur = arith.minsi %c128, %rest : index
  func.return %cur : index
}
"""


def test_a_per_core_value_equal_on_every_core_becomes_uniform() -> None:
    """What keeps the chunk loop's counts plain ints when only the last core is shorter."""
    (cur,) = run(COLLAPSE, "collapse", varying(500, 500, 500, 300), 256)
    assert isinstance(cur, Varying) and per_core(cur) == [128, 128, 128, 44]
    (full,) = run(COLLAPSE, "collapse", varying(500, 500, 500, 300), 0)
    assert full == 128 and not isinstance(full, Varying)


# endregion
# region control flow

FOR = """
func.func @triangle(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %next = arith.addi %acc, %i : index
    scf.yield %next : index
  }
  func.return %sum : index
}
"""


@pytest.mark.parametrize("trips", [[0, 1, 3, 5], [4, 4, 4, 2], [3, 3, 3, 3], [0, 0, 0, 0]])
def test_loop_with_per_core_trip_counts(trips: list[int]) -> None:
    (total,) = run(FOR, "triangle", varying(*trips))
    assert per_core(total) == [n * (n - 1) // 2 for n in trips]


IF = """
func.func @branch(%b: index) -> index {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %r = arith.remsi %b, %c2 : index
  %even = arith.cmpi eq, %r, %c0 : index
  %v = scf.if %even -> (index) {
    %t = arith.muli %b, %b : index
    scf.yield %t : index
  } else {
    %c100 = arith.constant 100 : index
    %e = arith.addi %b, %c100 : index
    scf.yield %e : index
  }
  func.return %v : index
}
"""


def test_if_with_a_per_core_condition_runs_both_branches() -> None:
    (value,) = run(IF, "branch", varying(0, 1, 2, 3))
    assert per_core(value) == [0, 101, 4, 103]


NESTED = """
func.func @nested(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %small = arith.cmpi slt, %i, %c3 : index
    %add = scf.if %small -> (index) {
      scf.yield %c1 : index
    } else {
      %ten = arith.constant 10 : index
      scf.yield %ten : index
    }
    %next = arith.addi %acc, %add : index
    scf.yield %next : index
  }
  func.return %s : index
}
"""


def test_branches_inside_a_diverging_loop() -> None:
    (value,) = run(NESTED, "nested", varying(2, 3, 4, 6))
    assert per_core(value) == [2, 3, 13, 33]


ASSERT = """
func.func @check(%ok: i1) {
  cf.assert %ok, "core is unhappy"
  func.return
}
"""


def test_assert_fails_if_any_core_fails() -> None:
    run(ASSERT, "check", Varying(np.ones(CORES, dtype=bool)))
    with pytest.raises(OpError, match=r"'cf\.assert' assertion failed: core is unhappy"):
        run(ASSERT, "check", Varying(np.array([True, True, False, True])))


# endregion
# region the value helpers


def test_partition_groups_rows_by_their_values() -> None:
    rows = Rows(np.array([True, True, True, False, True]))
    count = Varying(np.array([8, 8, 3, 99, 8]))
    parts = partition(rows, ["tensor", count])
    assert [(p.index.tolist(), v) for p, v in parts] == [([0, 1, 4], ("tensor", 8)),
                                                         ([2], ("tensor", 3))]
    only = partition(Rows(np.array([True, True, False, False, False])), [count])
    assert len(only) == 1 and only[0][1] == (8,)


def test_uniform_on_ignores_inactive_rows() -> None:
    value = Varying(np.array([5, 5, 7]))
    assert uniform_on(Rows(np.array([True, True, False])), value) == (True, 5)
    assert uniform_on(Rows(np.array([True, True, True])), value) == (False, None)


def test_merge_and_gather() -> None:
    mask = np.array([True, False, True])
    assert merge(mask, 4, 4) == 4
    assert merge(mask, 1, 2).values.tolist() == [1, 2, 1]
    assert merge(mask, "a", "b").values.tolist() == ["a", "b", "a"]
    first, second = Rows(mask), Rows(~mask)
    assert gather([(first, 3), (second, 3)], 3) == 3
    assert gather([(first, 3), (second, 9)], 3).values.tolist() == [3, 9, 3]


def test_rows_take_views_contiguous_rows() -> None:
    data = np.arange(6)
    middle = Rows(np.array([False, True, True, True, False, False]))
    assert middle.slice == slice(1, 4) and np.shares_memory(middle.take(data), data)
    scattered = Rows(np.array([True, False, True, False, False, True]))
    assert scattered.slice is None and scattered.take(data).tolist() == [0, 2, 5]


# endregion


@pytest.mark.parametrize(
    ("positions", "count"),
    [([0, 10, 20, 30], 10), ([3, 13, 23], 4), ([5], 7), ([0, 10, 20], 12), ([20, 10, 0], 5),
     ([-4, 6, 16], 8), ([0, 30, 60], 0), ([1, 3, 9], 2), ([40, 50, 60], 10)],
    ids=["abutting", "gaps", "one", "overlapping", "descending", "negative start", "empty",
         "uneven", "to the end"],
)
def test_mark_written_marks_each_window_and_nothing_else(positions: list[int], count: int
                                                         ) -> None:
    """Window [p, p + count) of every start p (clipped to GM) is marked, whichever the starts
    (the strided store for disjoint evenly spaced ones, the per-window loop otherwise)."""
    machine = Machine(get_platform("ascend910b"))
    gm = np.zeros(70, np.float16)
    written = np.zeros(gm.size, bool)
    with machine.writing(gm, written):
        machine.mark_written(gm, np.array(positions), count)
    want = np.zeros(gm.size, bool)
    for p in positions:
        want[max(p, 0): max(p + count, 0)] = True
    assert written.tolist() == want.tolist()
