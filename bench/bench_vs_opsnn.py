"""hswc's default kernels beside ops-nn's own, timed by one cost model (issue 38 item 3).

For every ops-nn activation folder the sweep runs (hswc.checker.sweep: the folders that map to
an hsg op or a generic), on each SoC its definition configures and each dtype it has, at each
size: ops-nn's kernel run on the C++ CPU model exactly as `hswc-check-kernel --sweep` runs it,
with `--profile` (its recorded call stream timed by hswc.cost_model.recorded, the calibrated
model: bench/bench_calibration.py), beside the kernel `hswc-opt --lower-to-ascend` writes for
the same op, attributes and semantics on that SoC (the schedule hswc.passes.schedule_choice
picks), timed by the same model. Both times stand for the profiler's Task Duration: the
launch overhead (CostFigures.launch_cycles) is added to hswc's, as recorded.py adds it to a
recorded run's.

    python bench/bench_vs_opsnn.py OPS_NN_DIR [--log2-sizes 20,24] [--socs ascend910b,ascend950]
        [--dtypes f16,bf16,f32] [--folders activation/gelu,...] [--jobs 2]

It prints one row per folder, SoC, dtype and size: op, ops-nn us, hswc us, their ratio
(hswc / ops-nn) and, where hswc is above 1.0x, why: the pipe that binds hswc's kernel, each
side's busy time on it, and what ops-nn's stream does differently (fewer or cheaper vector
calls, larger copies, more cores). A kernel the model cannot time (an unmodelled call, a check
that cannot run) is printed with the reason, never dropped. opbase is found as the sweep finds
it ($OPBASE_SOURCE_PATH, ...). Long: each row builds and runs ops-nn's kernel on the CPU model
(about 10 s at 2^20, 25 s at 2^24 on one core); outside CI.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("activation", "experimental/activation")
LOG2_SIZES = (20, 24)
VECTOR_PIPE = "V"
"""hswc.cost_model.stream.VECTOR."""
DEFAULT_SOCS = ("ascend910b", "ascend950")
"""ascend910_93 (Atlas A3) is left out by default: its cost figures are A2's per core
(hswc.platform), so its rows would repeat A2's."""


@dataclass(frozen=True)
class Row:
    folder: str
    op: str
    soc: str
    dtype: str
    size: int
    opsnn_us: float | None
    hswc_us: float | None
    note: str = ""
    """Why a side has no time, or, where hswc is above 1.0x, why."""
    check: str = ""
    """The check's outcome of ops-nn's run (pass / fail: its values against hswc's)."""

    @property
    def ratio(self) -> float | None:
        if self.opsnn_us is None or self.hswc_us is None or self.opsnn_us <= 0:
            return None
        return self.hswc_us / self.opsnn_us


# region hswc's side


def hswc_module(op: str, attributes: dict[str, float | str | bool | None], dtype: str,
                generic: str | None) -> object:
    """The module hswc lowers: the generic's function for `dtype`, or one hsg op on a dynamic
    1-D tensor with every attribute the check compared with."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import DYNAMIC_INDEX, Float32Type, FloatAttr, ModuleOp, TensorType
    from xdsl.ir import Block, Region

    from hswc.checker.expected import ELEMENT_TYPES, named_op
    from hswc.checker.opsnn_generics import module_text
    from hswc.pipeline import parse_text

    if generic is not None:
        return parse_text(module_text(generic, (dtype,)), "<bench>")
    named = named_op(op)
    t = TensorType(ELEMENT_TYPES[dtype], [DYNAMIC_INDEX])
    block = Block(arg_types=[t] * len(named.INPUTS))
    floats = {s.name for s in named.ATTRIBUTES}
    given: dict[str, object] = {}
    for k, v in attributes.items():
        if v is None:
            continue
        given[k] = FloatAttr(float(v), Float32Type()) if k in floats else v
    result = named(*block.args, **given)  # type: ignore[arg-type]
    block.add_ops([result, func.ReturnOp(result.result)])
    stem = op.removeprefix("hsg.")
    fn = func.FuncOp(f"{stem}_{dtype}", ([t] * len(named.INPUTS), [t]), Region(block))
    return ModuleOp([fn])


def hswc_report(module: object, soc: str, semantics: str | None, size: int) -> object:
    """The cost model's report of the kernel --lower-to-ascend writes for the module on `soc`
    (of a run-time choice, the one its host tiling's tilingKey picks at `size`)."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import IntegerAttr, ModuleOp

    from hswc.dialects import hsg
    from hswc.platform import get_platform
    from hswc.profiling.profile import profile_kernel
    from hswc.runner import compile_module

    assert isinstance(module, ModuleOp)
    compiled = compile_module(module, soc=soc, semantics=semantics)
    kernels = [op for op in compiled.module.body.block.ops
               if isinstance(op, func.FuncOp) and hsg.is_kernel(op)]
    if len(kernels) > 1:
        key = compiled.tiling([size]).get("tilingKey")
        kernels = [k for k in kernels if isinstance(a := k.attributes.get(hsg.TILING_KEY_ATTR),
                                                    IntegerAttr) and a.value.data == key]
    if len(kernels) != 1:
        raise ValueError(f"{len(kernels)} kernels for one launch")
    platform = get_platform(soc)
    return profile_kernel(compiled.module, kernels[0], size, platform, platform.cost)


# endregion
# region why


def _per_core(schedules: list, pipe: str) -> tuple[int, int, float]:  # type: ignore[type-arg]
    """(work items on `pipe`, bytes they move, mean bytes a copy) of the busiest core class."""
    best = max(schedules, key=lambda s: s.finish)
    work = [w for w in best.program.work() if w.pipe == pipe]
    moved = sum(w.bytes for w in work)
    return len(work), moved, moved / len(work) if work else 0.0


def _vector_calls(schedules: list) -> tuple[int, int]:  # type: ignore[type-arg]
    """(basic-API vector calls, register calls) of the busiest core class of a recorded run: a
    recorded `R` item (hswc.cost_model.recorded) stands for its count of register calls."""
    best = max(schedules, key=lambda s: s.finish)
    work = [w for w in best.program.work() if w.pipe == VECTOR_PIPE]
    registers = sum(w.repeats for w in work if w.label.startswith("MicroAPI::"))
    return sum(1 for w in work if not w.label.startswith("MicroAPI::")), registers


def why(hswc: object, opsnn: object) -> str:
    """Why hswc's kernel is slower: its binding pipe, both sides' busy time on it, and what
    ops-nn's stream does differently."""
    from hswc.cost_model.recorded import RecordedTimes
    from hswc.cost_model.report import Report
    from hswc.cost_model.stream import MTE2, VECTOR

    assert isinstance(hswc, Report) and isinstance(opsnn, RecordedTimes)
    binding = hswc.binding
    mine = hswc.busy(hswc.critical)
    theirs = opsnn.busy
    shown = binding if binding in mine else MTE2
    parts = [f"hswc {binding}-bound; busy {shown} {mine[shown] * 1e6:.1f} us (ops-nn "
             f"{theirs.get(shown, 0.0) * 1e6:.1f})"]
    cores_h = sum(len(s.cores) for s in hswc.schedules)
    cores_o = sum(len(s.cores) for s in opsnn.schedules)
    if cores_o > cores_h:
        parts.append(f"ops-nn uses {cores_o} cores, hswc {cores_h}")
    v_h, _, _ = _per_core(hswc.schedules, VECTOR)
    calls_o, registers_o = _vector_calls(opsnn.schedules)
    if theirs.get(VECTOR, 0.0) < 0.9 * mine[VECTOR]:
        how = (f"{calls_o} basic-API vector calls and {registers_o} register calls (MicroAPI, "
               "in a VF function) on its busiest core" if registers_o
               else f"{calls_o} vector calls on its busiest core")
        parts.append(f"ops-nn's V work is shorter: {theirs[VECTOR] * 1e6:.1f} against "
                     f"{mine[VECTOR] * 1e6:.1f} us ({how}, hswc {v_h} vector calls)")
    n_h, _, mean_h = _per_core(hswc.schedules, MTE2)
    n_o, _, mean_o = _per_core(opsnn.schedules, MTE2)
    if mean_o > 1.2 * mean_h:
        parts.append(f"ops-nn copies in larger pieces: {mean_o / 1024:.1f} KB a copy against "
                     f"{mean_h / 1024:.1f} KB ({n_o} against {n_h} copies a core)")
    if theirs.get(MTE2, 0.0) < 0.9 * mine[MTE2] and mean_o <= 1.2 * mean_h:
        parts.append(f"ops-nn's MTE2 busy is shorter ({theirs[MTE2] * 1e6:.1f} against "
                     f"{mine[MTE2] * 1e6:.1f} us)")
    if len(parts) == 1:
        parts.append("no single pipe differs by 10%: the overlap of its pipes (hswc "
                     f"{'serialised' if hswc.serialised else 'overlapped'})")
    return "; ".join(parts)


# endregion
# region one folder on one SoC


def _first_line(message: str) -> str:
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    return lines[0] if lines else "?"


def run_folder(ops_nn: str, name: str, soc: str, dtypes: tuple[str, ...] | None,
               log2_sizes: tuple[int, ...], timeout: float) -> list[Row]:
    """The rows of one folder on one SoC (run in a worker process)."""
    from hswc.checker.check import build_plans, plan, run_plan
    from hswc.checker.errors import CheckError
    from hswc.checker.options import CheckOptions
    from hswc.checker.sweep import folder_options, folder_semantics, mapping
    from hswc.platform import get_platform
    from hswc.runner import CompileError

    folder = Path(ops_nn) / name
    mapped = mapping(folder)
    assert mapped is not None
    op, attrs, _ = mapped
    generic = op.removeprefix("generic ") if op.startswith("generic ") else None
    shown = op + "".join(f" {k}={v}" for k, v in attrs.items())
    figures = get_platform(soc).cost
    launch = figures.seconds(figures.launch_cycles)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="hswc-vs-") as scratch:
        largest = 1 << max(log2_sizes)
        base = CheckOptions(kernel="", profile=True, timeout=timeout, max_size=largest)
        try:
            probe = plan(folder_options(folder, replace(base, sizes=[1 << 10]), soc, op, attrs,
                                        Path(scratch)))
            probe.cleanup()
        except CheckError as error:
            return [Row(name, shown, soc, "-", 0, None, None,
                        f"not checkable: {_first_line(str(error))}")]
        if probe.reference.halves is not None:  # hswc.checker.halves
            return [Row(name, shown, soc, "-", 0, None, None,
                        "not timed: a gated op (x of [rows, 2H]); hswc's kernel of it is built "
                        "for static shapes, which this bench does not write yet")]
        have = tuple(dict.fromkeys(c.dtype for c in probe.cases))
        attributes = dict(probe.reference.attributes)
        semantics = None if generic else folder_semantics(folder, base, op, soc)
        for dtype in (d for d in have if dtypes is None or d in dtypes):
            for log2 in log2_sizes:
                size = 1 << log2
                rows.append(_row(folder, name, shown, soc, dtype, size, base, op, attrs,
                                 Path(scratch), attributes, semantics, generic, launch,
                                 (plan, build_plans, run_plan, CheckError, CompileError)))
    return rows


def _row(folder: Path, name: str, shown: str, soc: str, dtype: str, size: int, base: object,
         op: str, attrs: dict[str, str], scratch: Path, attributes: dict, semantics: str | None,
         generic: str | None, launch: float, api: tuple) -> Row:  # type: ignore[type-arg]
    from hswc.checker.sweep import folder_options
    from hswc.cost_model.stream import CostModelError

    plan, build_plans, run_plan, check_error, compile_error = api
    options = folder_options(folder, replace(base, dtypes=[dtype], sizes=[size]),  # type: ignore[type-var]
                             soc, op, attrs, scratch)
    opsnn = None
    note = ""
    check = ""
    try:
        p = plan(options)
        try:
            build_plans([p])
            report = run_plan(p)
        finally:
            p.cleanup()
        check = "pass" if report.passed else "fail"
        opsnn = report.modelled
        if opsnn is not None and not opsnn.schedules:
            opsnn = None
            note = "ops-nn not timed: its profiled run recorded no core's calls"
        elif opsnn is None:
            note = "ops-nn " + (report.profile or "not timed").removeprefix("modelled: ")
    except check_error as error:
        note = f"ops-nn not run: {_first_line(str(error))}"
    hswc = None
    try:
        hswc = hswc_report(hswc_module(op, attributes, dtype, generic), soc, semantics, size)
    except (compile_error, CostModelError, ValueError) as error:
        note = (note + "; " if note else "") + f"hswc not timed: {str(error).splitlines()[0]}"
    opsnn_us = None if opsnn is None else opsnn.total * 1e6
    hswc_us = None if hswc is None else (hswc.total_time + launch) * 1e6  # type: ignore[attr-defined]
    row = Row(name, shown, soc, dtype, size, opsnn_us, hswc_us, note, check)
    if row.ratio is not None and row.ratio > 1.0:
        row = replace(row, note=why(hswc, opsnn))
    return row


# endregion
# region output


def _size(n: int) -> str:
    return f"2^{n.bit_length() - 1}" if n and n & (n - 1) == 0 else str(n)


def table(rows: list[Row]) -> str:
    """The rows as a markdown table."""
    lines = ["| ops-nn folder | hsg op | SoC | dtype | n | check | ops-nn us | hswc us | hswc / "
             "ops-nn | why (where above 1.0x) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        o = "-" if r.opsnn_us is None else f"{r.opsnn_us:.2f}"
        h = "-" if r.hswc_us is None else f"{r.hswc_us:.2f}"
        x = "-" if r.ratio is None else f"{r.ratio:.3f}"
        lines.append(f"| {r.folder} | {r.op} | {r.soc} | {r.dtype} | {_size(r.size)} | "
                     f"{r.check or '-'} | {o} | {h} | {x} | {r.note.replace('|', '/')} |")
    return "\n".join(lines)


def summary(rows: list[Row]) -> list[str]:
    timed = [r for r in rows if r.ratio is not None]
    above = [r for r in timed if r.ratio is not None and r.ratio > 1.0]
    lines = [f"{len(rows)} rows: {len(timed)} timed on both sides, {len(rows) - len(timed)} "
             f"not (reason in the row); hswc at or below 1.0x on {len(timed) - len(above)}, "
             f"above on {len(above)}"]
    for log2 in sorted({r.size for r in timed}):
        mine = sorted(r.ratio for r in timed if r.size == log2 and r.ratio is not None)
        if mine:
            lines.append(f"  n = {_size(log2)}: {len(mine)} rows, hswc / ops-nn median "
                         f"{mine[len(mine) // 2]:.2f}, range {mine[0]:.2f} .. {mine[-1]:.2f}")
    binding = Counter(r.note.split(";")[0] for r in above)
    for what, count in binding.most_common():
        lines.append(f"  above 1.0x, {what}: {count}")
    return lines


# endregion


def folders(ops_nn: Path, chosen: list[str] | None) -> list[str]:
    """The folders the sweep checks (mapped to an hsg op or a generic), below each part."""
    from hswc.checker.sweep import mapping, op_folders

    names = []
    for part in PARTS:
        if (ops_nn / part).is_dir():
            names += [str(f.relative_to(ops_nn)) for f in op_folders(ops_nn / part)
                      if mapping(f) is not None]
    if chosen:
        unknown = [c for c in chosen if c not in names]
        if unknown:
            raise SystemExit(f"bench_vs_opsnn: not a folder the sweep times: {', '.join(unknown)}")
        names = [n for n in names if n in chosen]
    return names


def main(argv: list[str] | None = None) -> int:
    from hswc.checker.options import CheckOptions
    from hswc.checker.sweep import configured_socs
    from hswc.platform import PLATFORMS

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ops_nn", type=Path)
    p.add_argument("--log2-sizes", default=",".join(map(str, LOG2_SIZES)))
    p.add_argument("--socs", default=",".join(DEFAULT_SOCS),
                   help="the SoCs to time, of those each folder configures")
    p.add_argument("--dtypes", help="only these dtypes (default: every one a folder has)")
    p.add_argument("--folders", help="only these folders (comma-separated, as activation/gelu)")
    p.add_argument("--jobs", type=int, default=1, help="folders timed at once (processes)")
    p.add_argument("--timeout", type=float, default=1800.0, help="seconds a run may take")
    args = p.parse_args(argv)
    if not args.ops_nn.is_dir():
        p.error(f"{args.ops_nn}: not a directory (an ops-nn checkout)")
    sizes = tuple(int(v) for v in args.log2_sizes.split(","))
    socs = [s for s in args.socs.split(",") if s]
    bad = [s for s in socs if s not in PLATFORMS]
    if bad:
        p.error(f"--socs: unknown {', '.join(bad)} (known: {', '.join(PLATFORMS)})")
    dtypes = tuple(args.dtypes.split(",")) if args.dtypes else None
    names = folders(args.ops_nn, args.folders.split(",") if args.folders else None)
    tasks = [(name, soc) for name in names
             for soc in configured_socs(args.ops_nn / name, CheckOptions(kernel=""),
                                        tuple(PLATFORMS)) if soc in socs]
    rows: list[Row] = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_folder, str(args.ops_nn), name, soc, dtypes, sizes,
                               args.timeout) for name, soc in tasks]
        for k, (future, (name, soc)) in enumerate(zip(futures, tasks, strict=True)):
            try:
                done = future.result()
            except Exception as error:  # a row says why; the other tasks go on
                done = [Row(name, "?", soc, "-", 0, None, None,
                            f"failed: {type(error).__name__}: {_first_line(str(error))}")]
            rows += done
            print(f"[{k + 1}/{len(tasks)}] {name} on {soc}:\n"
                  + table(done).split("\n", 2)[2], file=sys.stderr, flush=True)
    print(table(rows))
    print()
    print("\n".join(summary(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
