"""The cost model against the chip: Huawei's measured profiles of asc-devkit's examples.

Each case is one published measurement (msprof's Task Duration and per-pipe busy times) of an
asc-devkit example, run here exactly as published through `hswc-check-kernel --profile` (the
C++ CPU model records the kernel's call stream, hswc.cost_model.recorded times it): the
example's output is checked against an Add reference, and its modelled times are printed beside
the measured ones with their ratio (modelled / measured).

    python bench/bench_calibration.py [ASC_DEVKIT_DIR] [--cases a2-add-6,950-add-5]
        [--keep-streams DIR] [--streams DIR]

ASC_DEVKIT_DIR is a checkout of asc-devkit (default: $ASC_DEVKIT_SOURCE_PATH); nothing is read
from the network. A case whose source file is missing is printed as skipped, with the path, and
counted; so is a published measurement this bench cannot run yet, with the reason.
--keep-streams DIR copies each case's recorded call stream to DIR/CASE.stream; --streams DIR
times a case from that file when it is there, without running the CPU model (the cost model
alone: re-timing a model change in seconds, where a run takes minutes).

Fit set: add_high_performance (Atlas A2, cases 0-6; Ascend 950, cases 0-5), the figures of
hswc.platform are set from it. Check set (never fitted): the RegBase gelu examples (950: gelu
cases 0-2, gelu_eltwise cases 0-3, f32, compared with hsg.gelu's tanh form and with the
eltwise function), whose register calls are timed by the documented dual issue
(CostFigures.register_cycles); data_copy's GM -> UB scenarios (A2 and 950) are listed and
skipped with the reason (DATA_COPY_NOT_RUN); bank_conflict_ub's eight UB layouts of one Add
(Atlas A2, f32, one core: a2-bank-1 to -8), whose published figure is its Add loop's time by
GetSystemCycle, compared with the modelled aiv_vec time (no task time: the totals' bound does
not apply), and its before/after pairs (BANK_PAIRS) printed as measured and modelled ratios.
The issue's goals: every total within [0.8, 1.25] of
the measured task time, every published pipe time within [0.67, 1.5], and each SoC's cases in
the measured order.

The model is deterministic; a full run builds and runs each example on 64M elements in the CPU
model (about 40 s a case on one core, several minutes for the scalar case 0).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from hswc.checker.check import build_plans, plan, run_plan
from hswc.checker.errors import CheckError
from hswc.checker.options import CheckOptions
from hswc.checker.report import CheckReport
from hswc.cost_model.recorded import SCALAR, RecordError, read_stream, time_run
from hswc.cost_model.schedule import ScheduleError
from hswc.cost_model.stream import MTE2, MTE3, VECTOR
from hswc.platform import get_platform

ADD = "examples/01_simd_cpp_api/05_best_practices/00_vector_compute/add_high_performance/add.asc"
DATA_COPY = "examples/01_simd_cpp_api/05_best_practices/04_memory_access/data_copy/data_copy.asc"
GELU = "examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_high_performance/gelu.asc"
BANK = ("examples/01_simd_cpp_api/05_best_practices/04_memory_access/bank_conflict_ub/"
        "bank_conflict_ub.asc")
A2_SYSTEM_COUNTER_HZ = 50e6
"""Documented: Atlas A2's GetSystemCycle counts at 50 MHz (asc-devkit docs/zh/api/SIMD-API/
基础API/工具接口/系统资源与变量/GetSystemCycle(ISASI).md: time = cycles / 50 us)."""
GELU_ELTWISE = ("examples/01_simd_cpp_api/05_best_practices/02_reg_compute/"
                "gelu_eltwise_high_performance/gelu_eltwise.asc")
DATA_COPY_NOT_RUN = (
    "its vector kernel kernel_data_copy_pad_gm2ub(src) only reads GM: no output for "
    "hswc-check-kernel to compare, and only a compared run is profiled; leaving out the same "
    "file's L1 (cube) kernel kernel_data_copy_gm2l1 (__cube__, DataCopy to TPosition::A1: the "
    "CPU model has the vector core only) and data_utils.h's acl/acl.h include (the .asc's "
    "host-code stripping does not reach an included header) would not change that")
"""Why data_copy's scenarios are not run (the first alone stops it)."""
TOTAL_BOUNDS = (0.8, 1.25)
PIPE_BOUNDS = (0.67, 1.5)
PIPE_NAMES = {MTE2: "aiv_mte2", VECTOR: "aiv_vec", MTE3: "aiv_mte3", SCALAR: "aiv_scalar"}

ADD_REFERENCE = """\
func.func @add(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf16>
  %init = tensor.empty(%n) : tensor<?xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf16>, tensor<?xf16>) outs(%init : tensor<?xf16>) {
  ^bb0(%ai: f16, %bi: f16, %out: f16):
    %s = arith.addf %ai, %bi : f16
    linalg.yield %s : f16
  } -> tensor<?xf16>
  func.return %y : tensor<?xf16>
}
"""


GELU_ELTWISE_REFERENCE = """\
func.func @gelu_eltwise(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %g = hsg.gelu %x {approximate = "tanh"} : tensor<?xf32>
  %init = tensor.empty(%n) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%g : tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%gi: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %half = arith.constant -0.5 : f32
    %two = arith.constant 2.0 : f32
    %a = arith.addf %gi, %one : f32
    %s = arith.mulf %a, %a : f32
    %m = arith.mulf %s, %half : f32
    %e = arith.addf %m, %two : f32
    %r = math.exp %e : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
"""
"""gelu_eltwise_high_performance's function (its README): y = exp(-0.5 (GELU(x) + 1)^2 + 2),
GELU in its tanh form (the kernel computes x / (1 + exp(-1.595769 (x + 0.044715 x^3))))."""


def _accumulated(x_pattern: str, x_map: str) -> str:
    """bank_conflict_ub scenarios 6-8 (z in place on y): its Add run 1000 times, z = z + src0,
    each sum rounded in f32 as the example's gen_data.py computes its golden; src0 is x read as
    the scenario's strides read it (`x_pattern` defines %xp from %x, read through `x_map`
    over (repeat, block, element))."""
    return f"""\
func.func @acc(%x: tensor<4096xf32>, %y: tensor<4096xf32>) -> tensor<4096xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  {x_pattern}
  %y3 = tensor.expand_shape %y [[0, 1, 2]] output_shape [64, 8, 8]
      : tensor<4096xf32> into tensor<64x8x8xf32>
  %r = scf.for %k = %c0 to %c1000 step %c1 iter_args(%acc = %y3) -> (tensor<64x8x8xf32>) {{
    %init = tensor.empty() : tensor<64x8x8xf32>
    %s = linalg.generic {{indexing_maps = [affine_map<(r, j, e) -> {x_map}>,
                                          affine_map<(r, j, e) -> (r, j, e)>,
                                          affine_map<(r, j, e) -> (r, j, e)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}}
        ins(%xp, %acc : {_pattern_type(x_map)}, tensor<64x8x8xf32>)
        outs(%init : tensor<64x8x8xf32>) {{
    ^bb0(%xi: f32, %ai: f32, %out: f32):
      %t = arith.addf %xi, %ai : f32
      linalg.yield %t : f32
    }} -> tensor<64x8x8xf32>
    scf.yield %s : tensor<64x8x8xf32>
  }}
  %z = tensor.collapse_shape %r [[0, 1, 2]] : tensor<64x8x8xf32> into tensor<4096xf32>
  func.return %z : tensor<4096xf32>
}}
"""


def _pattern_type(x_map: str) -> str:
    return "tensor<64x8x8xf32>" if x_map == "(r, j, e)" else "tensor<64x8xf32>"


BANK_REFERENCES = {
    # scenario 6: src0 = x, contiguous
    "bank-6": _accumulated("%xp = tensor.expand_shape %x [[0, 1, 2]] output_shape [64, 8, 8] "
                           ": tensor<4096xf32> into tensor<64x8x8xf32>", "(r, j, e)"),
    # scenario 7: block stride 0, repeat stride 1: repeat r reads block r 8 times
    "bank-7": _accumulated("%xs = tensor.extract_slice %x[0] [512] [1] "
                           ": tensor<4096xf32> to tensor<512xf32>\n"
                           "  %xp = tensor.expand_shape %xs [[0, 1]] output_shape [64, 8] "
                           ": tensor<512xf32> into tensor<64x8xf32>", "(r, e)"),
    # scenario 8: block stride 0, repeat stride 8: repeat r reads block 8r 8 times
    "bank-8": _accumulated("%x2 = tensor.expand_shape %x [[0, 1]] output_shape [64, 64] "
                           ": tensor<4096xf32> into tensor<64x64xf32>\n"
                           "  %xp = tensor.extract_slice %x2[0, 0] [64, 8] [1, 1] "
                           ": tensor<64x64xf32> to tensor<64x8xf32>", "(r, e)"),
}
REFERENCES = {"add": ADD_REFERENCE, "add-f32": ADD_REFERENCE.replace("f16", "f32"),
              "gelu-eltwise": GELU_ELTWISE_REFERENCE, **BANK_REFERENCES}


@dataclass(frozen=True)
class Case:
    """One published measurement (microseconds; None: not published)."""

    name: str
    soc: str
    source: str
    """The example's path in asc-devkit."""
    role: str
    """'fit' or 'check'."""
    total: float | None
    """The task time (None: not published; bank_conflict_ub times its Add loop alone)."""
    pipes: dict[str, float | None]
    entry: str = "add_custom"
    template_args: str = ""
    defines: tuple[str, ...] = ()
    block_dim: int = 1
    size: int = 8192 * 8192
    not_run: str | None = None
    """Why this bench cannot run the case yet (it is reported, not dropped)."""
    reference: str = "add"
    """What the output is compared with: a key of REFERENCES."""
    dtype: str = "f16"
    tolerance: str | None = None
    """--tolerance (None: the reference's own: bits for a module)."""


def _add(soc: str, scenario: int, cores: int, copy_len: int, total: float,
         vec: float | None, scalar: float | None = None, mte2: float | None = None,
         mte3: float | None = None) -> Case:
    """add_high_performance's case `scenario` (README tables: Atlas A2 with every pipe, Ascend
    950 with the task time and aiv_vec_time)."""
    return Case(f"{'a2' if soc == 'ascend910b' else '950'}-add-{scenario}", soc, ADD, "fit",
                total, {MTE2: mte2, VECTOR: vec, MTE3: mte3, SCALAR: scalar},
                template_args=f"8192, 8192, {cores}, 1, {copy_len}",
                defines=(f"SCENARIO={scenario}",), block_dim=cores)


def _gelu(source: str, tag: str, entry: str, reference: str, scenario: int, total: float,
          vec: float, scalar: float, mte2: float, mte3: float) -> Case:
    """A RegBase gelu example's case `scenario` on Ascend 950 (its README's msprof tables: 8192 x
    8192 f32 on 64 cores, 256 x 4096 each, tiles of 8192): check set, never fitted. Compared
    within PyTorch's tolerance, as hsg.gelu is: the example's GELU, x / (1 + exp(-1.595769 (x +
    0.044715 x^3))), rounds differently from the tanh form (a few ulps)."""
    return Case(f"950-{tag}-{scenario}", "ascend950", source, "check", total,
                {MTE2: mte2, VECTOR: vec, MTE3: mte3, SCALAR: scalar}, entry=entry,
                template_args="8192, 8192, 256, 4096, 8192",
                defines=(f"SCENARIO_NUM={scenario}",), block_dim=64, reference=reference,
                dtype="f32", tolerance="torch")


def _bank(scenario: int, system_cycles: int) -> Case:
    """bank_conflict_ub's scenario `scenario` on Atlas A2 (its README.md:78-87): one core, 4096
    f32, an Add of 64 repeats run 1000 times between two PipeBarrier<PIPE_ALL>, timed by
    GetSystemCycle (`system_cycles`, 50 MHz): what it measures is the loop's V time, so it is
    compared with the modelled aiv_vec time (its copies lie outside the timed stretch; no task
    time is published). Check set: the model's bank term (`bank_conflict_factor`) is fitted on
    add_high_performance cases 5-6, never on these."""
    reference = f"bank-{scenario}" if scenario >= 6 else "add-f32"
    return Case(f"a2-bank-{scenario}", "ascend910b", BANK, "check", None,
                {VECTOR: system_cycles / A2_SYSTEM_COUNTER_HZ * 1e6},
                defines=(f"SCENARIO_NUM={scenario}",), size=4096, reference=reference,
                dtype="f32")


BANK_PAIRS = ((2, 1, "read-read, one bank"), (3, 1, "read-read, one bank group"),
              (5, 4, "read-write"), (7, 8, "read-read every other repeat"),
              (4, 1, "write delayed a repeat (no conflict)"),
              (6, 1, "in place (no conflict)"))
"""bank_conflict_ub's before/after pairs (scenario with a conflict, the one without, what
differs), README.md:78-87 and its analyses."""

CASES = (
    _add("ascend910b", 0, 1, 4096, 1239689.1, 0.015, 1233742.494, 5916.341, 2485.465),
    _add("ascend910b", 1, 1, 4096, 6909.6, 761.65, 231.166, 6208.762, 2613.205),
    _add("ascend910b", 2, 48, 4096, 306.58, 15.885, 8.219, 215.485, 54.33),
    _add("ascend910b", 3, 48, 16384, 268.5, 12.845, 2.833, 184.369, 57.354),
    _add("ascend910b", 4, 48, 16384, 264.02, 12.846, 2.796, 250.528, 84.988),
    _add("ascend910b", 5, 48, 16384, 187.68, 12.846, 4.479, 175.997, 160.291),
    _add("ascend910b", 6, 48, 16256, 184.52, 6.954, 3.424, 171.611, 121.442),
    _add("ascend950", 0, 1, 4096, 1228475.435, None),
    _add("ascend950", 1, 1, 4096, 8924.021, 943.362),
    _add("ascend950", 2, 64, 4096, 310.489, 15.465),
    _add("ascend950", 3, 64, 21760, 251.684, 11.121),
    _add("ascend950", 4, 64, 21760, 247.665, 10.976),
    _add("ascend950", 5, 64, 21760, 182.04, 10.997),
    *(Case(f"{tag}-data-copy-{s}", soc, DATA_COPY, "check", total, {MTE2: mte2},
           entry="kernel_data_copy_pad_gm2ub", not_run=DATA_COPY_NOT_RUN)
      for tag, soc, s, total, mte2 in (
          ("a2", "ascend910b", 1, 564.84, 548.161), ("a2", "ascend910b", 2, 233.54, 220.772),
          ("a2", "ascend910b", 3, 215.82, 202.657), ("a2", "ascend910b", 4, 275.3, 259.047),
          ("950", "ascend950", 1, 884.06, 881.13), ("950", "ascend950", 2, 208.64, 205.99),
          ("950", "ascend950", 3, 188.52, 185.66), ("950", "ascend950", 4, 192.07, 189.16))),
    *(_gelu(GELU, "gelu", "gelu_custom", "gelu", scenario, total, vec, scalar, mte2, mte3)
      for scenario, total, vec, scalar, mte2, mte3 in (
          (0, 351.525, 147.895, 9.513, 320.283, 303.647),
          (1, 348.868, 66.277, 3.03, 320.543, 314.547),
          (2, 344.436, 63.655, 4.757, 315.468, 306.069))),
    *(_gelu(GELU_ELTWISE, "gelu-eltwise", "gelu_eltwise_custom", "gelu-eltwise", scenario,
            total, vec, scalar, mte2, mte3)
      for scenario, total, vec, scalar, mte2, mte3 in (
          (0, 334.437, 244.299, 3.108, 275.719, 252.305),
          (1, 324.862, 125.203, 3.187, 292.819, 280.044),
          (2, 324.039, 97.184, 3.21, 292.68, 279.178),
          (3, 324.748, 94.339, 4.932, 288.144, 279.082))),
    *(_bank(scenario, cycles) for scenario, cycles in (
        (1, 2390), (2, 4167), (3, 4167), (4, 2389), (5, 3751), (6, 2390), (7, 3584), (8, 2389))),
)


@dataclass
class Row:
    case: Case
    status: str
    """'ok', 'skipped: ...' or 'failed: ...'."""
    total: float = 0.0
    pipes: dict[str, float] | None = None
    note: str = ""
    """What to know about a timed case (a rule the CPU model found broken)."""


def retime_case(case: Case, stream: Path) -> Row:
    """A case timed from its call stream recorded before (`--streams`): the model only, no
    CPU-model run and no comparison (the stream is the one a compared run recorded)."""
    figures = get_platform(case.soc).cost
    try:
        run = read_stream(stream.read_text(), figures)
        if run.unmodelled:
            return Row(case, f"failed: no rule for {', '.join(run.unmodelled)}")
        times = time_run(run, figures)
    except (RecordError, ScheduleError) as error:
        return Row(case, f"failed: {stream}: {error}")
    us = {k: v * 1e6 for k, v in times.busy.items()}
    return Row(case, "ok", times.total * 1e6, us, f"re-timed from {stream}")


def run_case(case: Case, root: Path, reference: Path, keep: Path | None = None) -> Row:
    """One case run and timed; `reference` is a scratch folder for the reference modules;
    `keep`: a folder the recorded call stream is copied into (`CASE.stream`)."""
    path = root / case.source
    if not path.is_file():
        return Row(case, f"skipped: {path} is missing")
    if case.not_run is not None:
        return Row(case, f"skipped: {case.not_run}")
    if case.reference == "gelu":  # the tanh form, as the example's README writes it
        compared = {"op": "hsg.gelu", "attrs": {"approximate": "tanh"}}
    else:
        text = reference / f"{case.reference}.mlir"
        text.write_text(REFERENCES[case.reference])
        compared = {"reference": str(text)}
    options = CheckOptions(
        kernel=str(path), entry=case.entry, **compared,  # type: ignore[arg-type]
        template_args={None: [case.template_args]} if case.template_args else {},
        defines={None: list(case.defines)},
        soc=case.soc, block_dim=case.block_dim, dtypes=[case.dtype], sizes=[case.size],
        max_size=case.size, profile=True, timeout=3600, tolerance=case.tolerance,
        keep_stream=None if keep is None else str(keep / f"{case.name}.stream"))
    try:
        p = plan(options)
        try:
            build_plans([p])
            report = run_plan(p)
        finally:
            p.cleanup()
    except CheckError as error:
        return Row(case, f"failed: {str(error).splitlines()[0]}")
    note = ""
    if not report.passed:
        if not _values_pass_rules_broken(report):
            return Row(case, f"failed: {report.verdict()}")
        rules = "; ".join(f"{v.category}: {v.api}: {v.rule}" for v, _ in report.rules_broken())
        note = f"values within bounds, timed although the CPU model found: {rules}"
    if report.modelled is None:
        return Row(case, f"failed: {report.profile}")
    us = {k: v * 1e6 for k, v in report.modelled.busy.items()}
    return Row(case, "ok", report.modelled.total * 1e6, us, note)


def _values_pass_rules_broken(report: CheckReport) -> bool:
    """Every run's values compared within bounds, but some run broke a rule of the CPU model
    (an access race, say): the recorded stream is the kernel's as published, so it is timed and
    the rule printed with the row (a case published as measured ran on the chip)."""
    outcomes = report.outcomes
    return (bool(outcomes) and not report.build_failures
            and all(o.failure is None and o.comparisons is not None for o in outcomes)
            and all(all(ok for ok, _ in o.measured) if o.tolerance is not None
                    else all(c.equal for c in o.comparisons or ()) for o in outcomes)
            and any(o.violations for o in outcomes))


def _ratio(model: float, measured: float | None) -> str:
    return "-" if not measured else f"{model / measured:.2f}"


def _within(value: float, bounds: tuple[float, float]) -> bool:
    return bounds[0] <= value <= bounds[1]


def table(rows: list[Row]) -> str:
    head = (f"{'case':<18} {'set':<5} {'total us: measured':>19} {'model':>10} {'ratio':>6}  "
            + "  ".join(f"{n + ' meas/model/ratio':>30}" for n in PIPE_NAMES.values()))
    out = [head]
    for r in rows:
        c = r.case
        if r.status != "ok" or r.pipes is None:
            out.append(f"{c.name:<18} {c.role:<5} {r.status}")
            continue
        cells = []
        for pipe in PIPE_NAMES:
            measured = c.pipes.get(pipe)
            shown = "-" if measured is None else f"{measured:.3f}"
            cells.append(f"{shown:>10}/{r.pipes[pipe]:>10.3f}/{_ratio(r.pipes[pipe], measured):>6}")
        measured_total = "-" if c.total is None else f"{c.total:.2f}"
        out.append(f"{c.name:<18} {c.role:<5} {measured_total:>19} {r.total:>10.2f} "
                   f"{_ratio(r.total, c.total):>6}  " + "  ".join(f"{x:>30}" for x in cells))
        if r.note:
            out.append(f"{'':<18} note: {r.note}")
    return "\n".join(out)


def summary(rows: list[Row]) -> list[str]:
    ran = [r for r in rows if r.status == "ok" and r.pipes is not None]
    skipped = [r for r in rows if r.status.startswith("skipped")]
    failed = [r for r in rows if r.status.startswith("failed")]
    lines = [f"{len(ran)} cases run, {len(skipped)} skipped, {len(failed)} failed "
             f"(of {len(rows)})"]
    published = [r for r in ran if r.case.total]
    totals = [r for r in published if _within(r.total / (r.case.total or 1), TOTAL_BOUNDS)]
    lines.append(f"published totals within {list(TOTAL_BOUNDS)}: {len(totals)} of "
                 f"{len(published)}")
    pipes = [(r, p) for r in ran for p, m in r.case.pipes.items() if m]
    inside = [(r, p) for r, p in pipes
              if r.pipes is not None and _within(r.pipes[p] / (r.case.pipes[p] or 1), PIPE_BOUNDS)]
    lines.append(f"published pipe times within {list(PIPE_BOUNDS)}: {len(inside)} of "
                 f"{len(pipes)}")
    for role in ("fit", "check"):
        names = [r.case.name for r in ran if r.case.role == role]
        lines.append(f"{role} set run: {', '.join(names) or 'none'}")
    for soc, source in dict.fromkeys((r.case.soc, r.case.source) for r in published):
        mine = sorted((r for r in published if (r.case.soc, r.case.source) == (soc, source)),
                      key=lambda r: -(r.case.total or 0))
        if len(mine) < 2:
            continue
        measured = [r.case.name for r in mine]
        strictly = all(a.total > b.total for a, b in pairwise(mine))
        modelled = [f"{r.case.name} {r.total:.1f}" for r in mine]
        same = "same" if strictly else f"not kept: modelled {', '.join(modelled)}"
        lines.append(f"{soc} {Path(source).stem} cases, slowest first: measured "
                     f"{', '.join(measured)}; order {same}")
    lines.extend(bank_pairs(ran))
    return lines


def bank_pairs(ran: list[Row]) -> list[str]:
    """bank_conflict_ub's before/after ratios (BANK_PAIRS) of V time, measured and modelled,
    for the pairs whose two scenarios both ran."""
    v = {r.case.name: (r.case.pipes[VECTOR], r.pipes[VECTOR]) for r in ran
         if r.case.source == BANK and r.pipes is not None}
    lines = []
    for slow, fast, what in BANK_PAIRS:
        a, b = v.get(f"a2-bank-{slow}"), v.get(f"a2-bank-{fast}")
        if a is None or b is None or not a[0] or not b[0] or not b[1]:
            continue
        lines.append(f"bank_conflict_ub scenario {slow} / {fast} ({what}): measured "
                     f"{a[0] / b[0]:.2f}x, modelled {a[1] / b[1]:.2f}x")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=os.environ.get("ASC_DEVKIT_SOURCE_PATH"),
                        help="an asc-devkit checkout (default $ASC_DEVKIT_SOURCE_PATH)")
    parser.add_argument("--cases", help="only these cases (comma-separated names)")
    parser.add_argument("--keep-streams", metavar="DIR", type=Path,
                        help="copy each run case's recorded call stream to DIR/CASE.stream")
    parser.add_argument("--streams", metavar="DIR", type=Path,
                        help="time a case from DIR/CASE.stream when it is there (the cost "
                             "model only: no CPU-model run, no comparison); the others run")
    args = parser.parse_args()
    if not args.root and args.streams is None:
        parser.error("give the asc-devkit checkout (or set ASC_DEVKIT_SOURCE_PATH)")
    for folder in (args.keep_streams, args.streams):
        if folder is not None and not folder.is_dir():
            parser.error(f"{folder}: no such folder")
    chosen = [c for c in CASES if not args.cases or c.name in args.cases.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for case in chosen:
            kept = None if args.streams is None else args.streams / f"{case.name}.stream"
            if kept is not None and kept.is_file():
                rows.append(retime_case(case, kept))
            elif not args.root:
                rows.append(Row(case, f"skipped: no {kept} and no asc-devkit checkout"))
            else:
                rows.append(run_case(case, Path(args.root), Path(scratch), args.keep_streams))
            print("\n".join(table(rows[-1:]).splitlines()[1:]), file=sys.stderr, flush=True)
    print(table(rows))
    print()
    print("\n".join(summary(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
