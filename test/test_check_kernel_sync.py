"""hswc-check-kernel's two synchronisation rules on a kernel of our own writing
(examples/check_kernel/hardtanh_flags_fixture.cpp: Hardtanh on TBufs with its own flags), the
right kernel and each seeded mistake:

- an event id reused in flight: the y buffers' MTE3_V ids from FetchEventID (both 0, each set at
  the start) are reported at both SetFlag lines, on every SoC;
- x's next copy-in (MTE2) ordered after the vector calls that read x only through the scalar
  unit (a V_S wait, then GetValue) is no race, on either SoC family: the scalar issues the copy
  after its wait; with nothing ordering them it is one, named at the copy-in;
- a vector read-after-write with no PipeBarrier<PIPE_V> (Maxs, then Mins reading its result) is
  reported at both calls under --auto-sync off on Atlas A2/A3, and not under the default
  --auto-sync on (BiSheng inserts the barrier) nor on Ascend 950 (its hardware orders them).

The right kernel passes every size and both dtypes with --auto-sync off. The lines expected are
found in the fixture by their text, apart from the checker.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from hswc.checker.check import Plan, build_plans, plan, run_plan
from hswc.checker.options import CheckOptions
from hswc.checker.report import CheckReport
from hswc.checker.rules import Violation

FIXTURES = Path(__file__).resolve().parents[1] / "examples" / "check_kernel"
SOURCE = FIXTURES / "hardtanh_flags_fixture.cpp"
FLAGS = CheckOptions(kernel=str(SOURCE), op="hsg.hardtanh",
                     attrs={"min_val": "-0.7", "max_val": "2"},
                     tiling={None: ["minVal=-0.7,maxVal=2"]},
                     tiling_function=f"{FIXTURES / 'fixture_tiling.py'}:one_input",
                     core_num=4, ub_size=16384, jobs=2, dtypes=("f16", "f32"), auto_sync=False)
SOME = (129, 2561)
"""A short run, and one where every core takes a full pass and a tail (two y buffers in turn)."""


def _seeded(mistake: str, dtype: str, **changes: object) -> CheckOptions:
    return replace(FLAGS, defines={None: [mistake]}, dtypes=(dtype,), sizes=SOME,
                   **changes)  # type: ignore[arg-type]


CASES = {
    "right": FLAGS,
    "fetched_ids": _seeded("SEEDED_FETCHED_EVENT_IDS", "f32"),
    "no_barrier": _seeded("SEEDED_NO_VECTOR_BARRIER", "f16"),
    "no_barrier_auto_sync_on": _seeded("SEEDED_NO_VECTOR_BARRIER", "f16", auto_sync=True),
    "no_barrier_950": _seeded("SEEDED_NO_VECTOR_BARRIER", "f16", soc="ascend950"),
    "fetched_ids_950": _seeded("SEEDED_FETCHED_EVENT_IDS", "f16", soc="ascend950"),
    "scalar_order": _seeded("SCALAR_ORDERS_X_READ", "f32"),
    "scalar_order_950": _seeded("SCALAR_ORDERS_X_READ", "f32", soc="ascend950"),
    "unordered_x_read": _seeded("SEEDED_UNORDERED_X_READ", "f32"),
}


@pytest.fixture(scope="module")
def plans() -> dict[str, Plan]:
    if shutil.which("g++") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; hswc-check-kernel's tests must run there")
        pytest.skip("no C++ compiler (g++): hswc-check-kernel cannot build kernels here")
    made = {name: plan(options) for name, options in CASES.items()}
    try:
        build_plans(list(made.values()))
        yield made
    finally:
        for p in made.values():
            p.cleanup()


def _report(plans: dict[str, Plan], name: str) -> CheckReport:
    report = run_plan(plans[name])
    print(report.format())
    return report


def _line(text: str) -> str:
    """`hardtanh_flags_fixture.cpp:N`, N the line of the fixture that holds `text` (once)."""
    lines = SOURCE.read_text().splitlines()
    found = [k + 1 for k, line in enumerate(lines) if text in line]
    assert len(found) == 1, (text, found)
    return f"{SOURCE.name}:{found[0]}"


def _rules(report: CheckReport) -> list[Violation]:
    return [v for v, _ in report.rules_broken()]


def _values_exact(report: CheckReport) -> bool:
    """The CPU runs in program order, so a missing synchronisation leaves the values right."""
    return bool(report.outcomes) and all(
        o.comparisons and all(c.equal for c in o.comparisons) for o in report.outcomes)


def test_the_right_kernel_passes_with_auto_sync_off(plans: dict[str, Plan]) -> None:
    report = _report(plans, "right")
    assert report.passed, report.format()
    assert {o.dtype for o in report.outcomes} == {"f16", "f32"}


@pytest.mark.parametrize("name", ["fetched_ids", "fetched_ids_950"])
def test_fetched_event_ids_are_reused_in_flight(plans: dict[str, Plan], name: str) -> None:
    """FetchEventID takes nothing: both y buffers get MTE3_V id 0, set at the start one after
    the other. The first report names the second SetFlag and the first; the loop's SetFlag
    reuses the id the other buffer's flag holds (reported too, at its own line)."""
    report = _report(plans, name)
    rules = _rules(report)
    first, second = _line("SetFlag<HardEvent::MTE3_V>(yCopied_[0])"), \
        _line("SetFlag<HardEvent::MTE3_V>(yCopied_[1])")
    assert rules[0].api == "SetFlag" and rules[0].category == "event id reused or exhausted"
    assert rules[0].rule.startswith(
        f"SetFlag<HardEvent::MTE3_V>(0) at {second} while SetFlag<HardEvent::MTE3_V>(0) at "
        f"{first} is not yet waited for: event id 0 of HardEvent::MTE3_V reused in flight")
    in_loop = _line("SetFlag<HardEvent::MTE3_V>(yCopied_[i % 2])")
    assert any(r.rule.startswith(f"SetFlag<HardEvent::MTE3_V>(0) at {in_loop} while")
               for r in rules)
    assert {r.category for r in rules} == {"event id reused or exhausted"}
    assert _values_exact(report) and not report.passed


def test_a_missing_vector_barrier_is_reported_at_both_calls(plans: dict[str, Plan]) -> None:
    """--auto-sync off on Atlas A2/A3: Mins reads the bytes Maxs wrote with no barrier between
    them; one report per pair of calls (its in-place write of them too is that pair)."""
    report = _report(plans, "no_barrier")
    (rule,) = _rules(report)
    assert rule.api == "Mins" and rule.category == "vector calls unordered (auto-sync off)"
    assert re.match(rf"read of src \(UB byte \d+\) at {_line('Mins(y, y, hi_, cur)')} after "
                    rf"Maxs at {_line('Maxs(y, x, lo_, cur)')} wrote it, with no "
                    r"PipeBarrier<PIPE_V> between the two vector calls \(a read-after-write on "
                    r"the V pipe", rule.rule), rule.rule
    assert _values_exact(report) and not report.passed


@pytest.mark.parametrize("name", ["no_barrier_auto_sync_on", "no_barrier_950"])
def test_a_missing_vector_barrier_is_no_rule_where_something_orders_the_calls(
        plans: dict[str, Plan], name: str) -> None:
    """BiSheng's default --cce-auto-sync=on inserts the barrier; Ascend 950 orders vector calls
    in hardware (the option is taken and checks nothing more there)."""
    report = _report(plans, name)
    assert report.passed, report.format()


@pytest.mark.parametrize("name", ["scalar_order", "scalar_order_950"])
def test_a_scalar_wait_orders_the_vector_reads_before_the_next_copy_in(
        plans: dict[str, Plan], name: str) -> None:
    """V -> S -> MTE2: SetFlag / WaitFlag<V_S> and a GetValue of y, no V_MTE2 flag. At f32 2561
    every core copies two chunks of x into one buffer, so the second copy-in writes the bytes
    the first chunk's Maxs read; the scalar issued it after its wait for V."""
    report = _report(plans, name)
    assert report.passed, report.format()
    assert {o.size for o in report.outcomes} == set(SOME)


def test_a_copy_in_unordered_after_the_vector_reads_is_a_race(plans: dict[str, Plan]) -> None:
    """The same kernel with no V_S wait: the second chunk's copy-in races with Maxs's read."""
    report = _report(plans, "unordered_x_read")
    ((rule, runs),) = report.rules_broken()
    assert rule.api == "DataCopyPad" and rule.category == "unsynchronised pipes"
    assert re.match(r"write of dst \(UB byte \d+\) races with an earlier read by V \(vector\): "
                    r"V->MTE2 needs ", rule.rule), rule.rule
    assert [o.size for o in runs] == [2561]  # at 129 every core copies one chunk
    assert _values_exact(report) and not report.passed


def test_the_command_line_takes_auto_sync_on_or_off(capsys: pytest.CaptureFixture[str]) -> None:
    from hswc.tools.hswc_check_kernel import run

    base = [str(SOURCE), "--op", "hsg.hardtanh", "--attr", "min_val=-0.7", "--attr", "max_val=2",
            "--tiling", "minVal=-0.7,maxVal=2", "--tiling-function",
            f"{FIXTURES / 'fixture_tiling.py'}:one_input", "--core-num", "4", "--ub-size",
            "16384", "-D", "SEEDED_NO_VECTOR_BARRIER", "--dtypes", "f16", "--sizes", "129"]
    assert run([*base, "--auto-sync", "off"]) == 1
    out = capsys.readouterr().out
    assert "vector calls unordered (auto-sync off): Mins: read of src" in out
    assert run([*base, "--auto-sync", "maybe"]) == 1
    assert "argument --auto-sync: invalid choice: 'maybe'" in capsys.readouterr().err


def test_the_sweep_table_and_the_bench_markdown_list_the_rules_broken() -> None:
    """The sweep prints each synchronisation rule once per kernel and SoC with its dtypes; the
    bench's markdown reads it back: the verdict as the default build gives it (the vector-order
    kind left out), a column counting unordered pairs, a section with both calls' lines."""
    import importlib.util

    from hswc.checker.rules import Violation
    from hswc.checker.sweep import Row, table

    unordered = Violation("Adds", "read of src (UB byte 64) at op_kernel/k.h:12 after Muls at "
                          "op_kernel/k.h:11 wrote it, with no PipeBarrier<PIPE_V> between the two "
                          "vector calls (a read-after-write on the V pipe: ...)", 0).brief
    reused = Violation("SetFlag", "SetFlag<HardEvent::MTE3_V>(0) at op_kernel/k.h:30 while "
                       "SetFlag<HardEvent::MTE3_V>(0) at op_kernel/k.h:29 is not yet waited for: "
                       "event id 0 of HardEvent::MTE3_V reused in flight (...)", 0).brief
    rule_kinds = ("rule broken (event id reused or exhausted, vector calls unordered "
                  "(auto-sync off))")
    rows = [Row("hard_sigmoid", "ascend910b", "f16", f"bit-exact (3 runs); {rule_kinds}",
                (unordered, reused)),
            Row("hard_sigmoid", "ascend910b", "f32", "bit-exact (3 runs); rule broken (vector "
                "calls unordered (auto-sync off))", (unordered,)),
            Row("hard_sigmoid", "ascend950", "f16", "bit-exact (3 runs)")]
    printed = table(rows)
    assert printed.splitlines()[-4:] == [
        f"hard_sigmoid on ascend910b [f16, f32]: {unordered}",
        f"hard_sigmoid on ascend910b [f16]: {reused}", "",
        "3 rows: bit-exact 1, rule broken 2"]
    assert unordered == ("Adds at op_kernel/k.h:12 reads src that Muls at op_kernel/k.h:11 wrote, "
                         "no PipeBarrier<PIPE_V> between (read-after-write)")
    spec = importlib.util.spec_from_file_location(
        "check_kernel_ops_nn", FIXTURES.parents[1] / "bench" / "check_kernel_ops_nn.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    text = bench.markdown(bench._rows_from_table(printed), bench._sync_from_table(printed),
                          Path("ops-nn"), "c0", "c1")
    assert ("| hard_sigmoid | hsg.hard_sigmoid | ascend910b | f16 | bit-exact (3 runs); rule "
            "broken (event id reused or exhausted) | 1 unordered pair |") in text
    assert ("| hard_sigmoid | hsg.hard_sigmoid | ascend910b | f32 | bit-exact (3 runs) | "
            "1 unordered pair |") in text
    assert "| ascend950 | f16 | bit-exact (3 runs) | - (ordered in hardware) |" in text
    assert text.endswith(f"- **hard_sigmoid** on ascend910b:\n  - [f16, f32] {unordered}\n"
                         f"  - [f16] {reused}\n")
    rows_back, rules_back = bench._from_markdown(text)  # what --folders keeps of a table
    assert rules_back == bench._sync_from_table(printed)
    assert [r[:3] for r in rows_back] == [r[:3] for r in bench._rows_from_table(printed)]
    assert bench.markdown(rows_back, rules_back, Path("ops-nn"), "c0", "c1") == text


def test_the_ops_nn_table_names_files_from_the_swept_tree(tmp_path: Path) -> None:
    """bench/check_kernel_ops_nn.py: a verdict naming a file under the ops-nn checkout (or the
    --folders scratch links, or hswc's own CPU model) names it from the tree's root, not by the
    machine's absolute path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "check_kernel_ops_nn", FIXTURES.parents[1] / "bench" / "check_kernel_ops_nn.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    ops_nn, scratch = tmp_path / "opsnn-git", tmp_path / "links"
    verdict = (f"not checkable: the tiling of X ({ops_nn}/activation/x/op_host/x_tiling.cpp) "
               f"does not build: {scratch}/activation/x/op_host/x.h:18:10: fatal error; "
               f"{bench.ROOT}/hswc/checker/ascendc_cpu/a.h:3: error")
    rows, rules = bench._relative_rows([("activation/x", "ascend950", "-", verdict)],
                                  [("activation/x", "ascend950", "f16",
                                    f"Adds at {ops_nn}/activation/x/op_kernel/k.h:12")],
                                  (scratch, ops_nn))
    assert rows[0][3] == ("not checkable: the tiling of X (activation/x/op_host/x_tiling.cpp) "
                          "does not build: activation/x/op_host/x.h:18:10: fatal error; "
                          "hswc/checker/ascendc_cpu/a.h:3: error")
    assert rules[0][3] == "Adds at activation/x/op_kernel/k.h:12"


def test_a_folders_sweep_on_one_soc_keeps_the_folders_other_socs(tmp_path: Path) -> None:
    """bench/check_kernel_ops_nn.py --folders F --soc S: F's rows and rules on S are replaced,
    those on the other SoCs (and every other folder's) kept as the table has them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "check_kernel_ops_nn", FIXTURES.parents[1] / "bench" / "check_kernel_ops_nn.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    old = [("activation/swish_grad", "ascend910b", "f16", "bit-exact (4 runs)"),
           ("activation/swish_grad", "ascend950", "-", "not checkable: MulDstAdd"),
           ("activation/swish", "ascend950", "f16", "bit-exact (3 runs)")]
    rule = ("activation/swish_grad", "ascend910b", "f16", "Adds at k.h:2 reads src that Muls at "
            "k.h:1 wrote, no PipeBarrier<PIPE_V> between (read-after-write)")
    out = tmp_path / "table.md"
    out.write_text(bench.markdown(old, [rule], Path("/ops-nn"), "c0", "c1"))
    new = [("activation/swish_grad", "ascend950", "f32", "within PyTorch's tolerance (4 runs)")]
    rows, rules = bench._merged(out, ["activation/swish_grad"], new, [], "ascend950")
    assert [(r[0], r[1], r[3]) for r in rows] == [
        ("activation/swish", "ascend950", "bit-exact (3 runs)"),
        ("activation/swish_grad", "ascend910b", "bit-exact (4 runs)"),
        ("activation/swish_grad", "ascend950", "within PyTorch's tolerance (4 runs)")]
    assert rules == [rule]
    rows, rules = bench._merged(out, ["activation/swish_grad"], new, [])  # every SoC swept
    assert [(r[1], r[3]) for r in rows if r[0] == "activation/swish_grad"] == [
        ("ascend950", "within PyTorch's tolerance (4 runs)")]
    assert rules == []
