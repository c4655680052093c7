"""Whole-process AscendC generation next to xdsl-opt parse + print, and next to cannbot-dsl.

Each job is one input file, run as fresh processes, interleaved so machine noise hits all alike:

- `hswc-opt --lower-to-ascend -t ascendc FILE` (IR to AscendC C++),
- `hswc-opt --lower-to-ascend FILE` (IR to the ascend level, printed),
- the same with the schedule choices of earlier runs forgotten (hswc.tools.choice_cache's file
  removed first): what the first compile of a body costs, the cost model choosing its schedule
  (the column "new choice"; the job's other hswc runs then find the choice in the cache),
- `xdsl-opt FILE` (parse + print of the same input through hswc's dialects: the floor of any
  xDSL-based tool),
- with `--with-peer`, cannbot-dsl 0.7.1 generating AscendC for the same computation (its
  translate stage, no CANN: CANNBOTDSL_PIPE_STAGE=translate, CANNBOTDSL_DUMP_ASCENDC=1), for the
  HardSwishGrad jobs. On first use it is pip-installed into its own venv under
  ~/.cache/hswc-bench/cannbot-dsl (or --peer-venv).

The inputs: HardSwishGrad on a dynamic 1-D tensor of each dtype, on static ones of 2^10 and
2^30 elements (compile time must not grow with the tensor), hsg.leaky_relu_grad with its
attribute, and a fused chain (examples/grad_times_scale.mlir: HardSwishGrad, a user mulf with a
third tensor, hsg.hardtanh). Printed per job: the best of N of wall time and of CPU time
(user + sys of the process) of each command and their ratios; then the goal lines.

hswc's tools compile their dataclasses' methods once per machine (hswc.tools.
dataclass_code_cache) and keep the default schedules the cost model chose
(hswc.tools.choice_cache); both live in HSWC_CACHE_DIR, here a folder of the run, filled by the
runs themselves. The cold lines are the first job's commands with that folder empty each time
(what a machine's first run costs). hswc's own modules are byte-compiled first, as an installed
package's are: an editable checkout under PYTHONDONTWRITEBYTECODE would otherwise compile every
module from source in every process, which xDSL's and cannbot-dsl's installed modules never do.

    python bench/bench_compile.py [--runs N] [--with-peer] [--peer-venv DIR]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import subprocess
import sys
import tempfile
import time
import venv
from dataclasses import dataclass, field
from pathlib import Path

from hswc.tools import choice_cache

ROOT = Path(__file__).resolve().parent.parent
NEW_CHOICE = "--lower, new choice"
PEER = "cannbot-dsl==0.7.1"
PEER_VENV = Path.home() / ".cache" / "hswc-bench" / "cannbot-dsl"
DTYPES = ("f16", "bf16", "f32")

HSG = """func.func @hard_swish_grad(%grad: {t}, %x: {t}) -> {t} {{
  %y = hsg.hard_swish_grad %grad, %x : {t}
  func.return %y : {t}
}}
"""

# HardSwishGrad in cannbot-dsl: 48 cores, each a contiguous run of 4096-element chunks, double
# buffered through UB; per 64-lane register the slope x/3 + 1/2 times grad, grad where x >= 3 and
# 0 where x <= -3 (f16/bf16 widened to f32, as the CANN kernel computes).
PEER_SCRIPT = '''import cannbotdsl as cb
from cannbotdsl import dtypes

TILE = 4096
LANES = 64


@cb.kernel
def hard_swish_grad_kernel(grad: cb.Tensor, x: cb.Tensor, y: cb.Tensor):
    total = grad.shape[0]
    chunks = (total + TILE - 1) // TILE
    per_core = (chunks + cb.get_block_num() - 1) // cb.get_block_num()
    first = cb.get_block_idx() * per_core
    last = first + per_core
    if last > chunks:
        last = chunks
    grad_in = cb.Channel(cb.MemLoc.UB, shape=(TILE,), dtype=grad.dtype, depth=2)
    x_in = cb.Channel(cb.MemLoc.UB, shape=(TILE,), dtype=x.dtype, depth=2)
    y_out = cb.Channel(cb.MemLoc.UB, shape=(TILE,), dtype=y.dtype, depth=2)
    for chunk in range(first, last):
        cb.mem_copy(grad_in.produce(), cb.tile_slice(grad, (TILE,), (chunk,)))
        cb.mem_copy(x_in.produce(), cb.tile_slice(x, (TILE,), (chunk,)))
        g_ub = grad_in.consume()
        x_ub = x_in.consume()
        y_ub = y_out.produce()
        count = total - chunk * TILE
        with cb.vf():
            for i in range(0, TILE // LANES):
                mask, _ = cb.reg.update_mask(count - i * LANES, elem_bits=32)
                g = {load_grad}
                xv = {load_x}
                slope = cb.reg.vadds(cb.reg.vmuls(xv, 0.333333343, mask=mask), 0.5, mask=mask)
                res = cb.reg.vmul(g, slope, mask=mask)
                res = cb.reg.vselect(res, cb.reg.vmuls(g, 0.0, mask=mask),
                                     cond_mask=cb.reg.vgts(xv, -3.0, mask=mask))
                res = cb.reg.vselect(res, g, cond_mask=cb.reg.vlts(xv, 3.0, mask=mask))
                {store}
        cb.mem_copy(cb.tile_slice(y, (TILE,), (chunk,)), y_out.consume())


@cb.host
def hard_swish_grad(grad: cb.Tensor, x: cb.Tensor, y: cb.Tensor):
    hard_swish_grad_kernel[48](grad, x, y)


spec = cb.TensorSpec(({shape},), dtypes.{dtype})
cb.compile(hard_swish_grad, spec, spec, spec)
'''
PEER_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32"}


@dataclass
class Job:
    name: str
    text: str
    peer: str | None = None  # the cannbot-dsl script of the same computation
    commands: dict[str, list[str]] = field(default_factory=dict)


def tensor(dtype: str, elements: int | None) -> str:
    return f"tensor<{'?' if elements is None else elements}x{dtype}>"


def peer_script(dtype: str, elements: int | None) -> str:
    narrow = dtype != "f32"
    parts = {
        "shape": 'cb.Dim("n")' if elements is None else str(elements),
        "dtype": PEER_DTYPES[dtype],
        "store": ("cb.reg.vstore_pack(y_ub, i * LANES, cb.reg.vcast(res, y.dtype, mask=mask), "
                  'mask, pack_mode="pack_half")' if narrow
                  else "cb.reg.vstore(y_ub, i * LANES, res, mask)"),
    }
    for name, tensor_name in (("load_grad", "g_ub"), ("load_x", "x_ub")):
        parts[name] = (f"cb.reg.vcast(cb.reg.vload_unpack({tensor_name}, i * LANES, "
                       'unpack_mode="unpack2"), dtypes.float32, mask=mask)' if narrow
                       else f"cb.reg.vload({tensor_name}, i * LANES)")
    script = PEER_SCRIPT
    for name, text in parts.items():
        script = script.replace("{" + name + "}", text)
    return script


def jobs() -> list[Job]:
    out = [Job(f"hard_swish_grad ?x{d}", HSG.format(t=tensor(d, None)), peer_script(d, None))
           for d in DTYPES]
    for log2 in (10, 30):
        out.append(Job(f"hard_swish_grad 2^{log2}xf16", HSG.format(t=tensor("f16", 1 << log2)),
                       peer_script("f16", 1 << log2)))
    family = (ROOT / "examples/leaky_relu_grad.mlir").read_text()
    chain = (ROOT / "examples/grad_times_scale.mlir").read_text()
    for d in DTYPES:
        out.append(Job(f"leaky_relu_grad ?x{d}", family.replace("bf16", d)))
    for d in ("f16", "f32"):  # bf16 has no Mul on Atlas A2: the chain would need extf first
        out.append(Job(f"fused chain ?x{d}", chain.replace("f16", d)))
    return out


def ensure_peer(where: Path) -> Path:
    python = where / "bin" / "python"
    probe = [str(python), "-c", "import cannbotdsl"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    print(f"installing {PEER} into {where} ...", file=sys.stderr)
    venv.create(where, with_pip=True, clear=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", PEER], check=True)
    return python


def cpu_and_wall(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def check_peer(python: Path, script: Path, env: dict[str, str]) -> None:
    """The peer's translate stage really wrote AscendC for the script."""
    dump = script.parent / ".dump"
    for old in dump.glob("*.asc"):
        old.unlink()
    subprocess.run([str(python), script.name], check=True, cwd=script.parent, env=env,
                   stdout=subprocess.DEVNULL)
    written = list(dump.glob("*.asc"))
    if not written or "__aicore__" not in written[0].read_text():
        raise SystemExit(f"cannbot-dsl wrote no AscendC for {script}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (best counts)")
    parser.add_argument("--with-peer", action="store_true",
                        help="also time cannbot-dsl 0.7.1 (installed on first use)")
    parser.add_argument("--peer-venv", type=Path, default=PEER_VENV)
    parser.add_argument("--only", default="", help="run only the jobs whose name contains this")
    args = parser.parse_args()
    peer_python = ensure_peer(args.peer_venv) if args.with_peer else None
    compileall.compile_dir(ROOT / "hswc", quiet=2)
    selected = [job for job in jobs() if args.only in job.name]
    with tempfile.TemporaryDirectory(prefix="hswc-bench-compile-") as tmp:
        env = dict(os.environ, CANNBOTDSL_PIPE_STAGE="translate", CANNBOTDSL_DUMP_ASCENDC="1",
                   HSWC_CACHE_DIR=str(Path(tmp) / "cache"))
        for index, job in enumerate(selected):
            folder = Path(tmp) / str(index)
            folder.mkdir()
            source = folder / "input.mlir"
            source.write_text(job.text)
            job.commands = {
                NEW_CHOICE: ["hswc-opt", "--lower-to-ascend", str(source)],
                "-t ascendc": ["hswc-opt", "--lower-to-ascend", "-t", "ascendc", str(source)],
                "--lower-to-ascend": ["hswc-opt", "--lower-to-ascend", str(source)],
                "xdsl-opt": ["xdsl-opt", str(source)],
            }
            if peer_python is not None and job.peer is not None:
                script = folder / "peer.py"
                script.write_text(job.peer)
                check_peer(peer_python, script, env)
                job.commands["cannbot-dsl"] = [str(peer_python), script.name]
        best: dict[tuple[str, str], tuple[float, float]] = {}
        cold: dict[str, tuple[float, float]] = {}
        for run in range(args.runs):
            for name in ("-t ascendc", "--lower-to-ascend"):
                empty = Path(tmp) / f"cold-{run}-{name.strip('-')}"
                cold[name] = least(cold.get(name), cpu_and_wall(
                    selected[0].commands[name], Path(tmp) / "0",
                    dict(env, HSWC_CACHE_DIR=str(empty))))
            for index, job in enumerate(selected):
                for name, cmd in job.commands.items():
                    if name == NEW_CHOICE:  # the schedule choices of earlier runs forgotten
                        (Path(tmp) / "cache" / choice_cache.FILE_NAME).unlink(missing_ok=True)
                    cpu_wall = cpu_and_wall(cmd, Path(tmp) / str(index), env)
                    best[job.name, name] = least(best.get((job.name, name)), cpu_wall)
    report(selected, best, args.runs)
    for name, (cpu, wall) in cold.items():
        print(f"cold (empty cache folder) {name} of {selected[0].name}: "
              f"{cpu:5.3f}/{wall:5.3f} s")


def least(old: tuple[float, float] | None, new: tuple[float, float]) -> tuple[float, float]:
    """The smaller CPU time and the smaller wall time."""
    return new if old is None else (min(old[0], new[0]), min(old[1], new[1]))


def report(selected: list[Job], best: dict[tuple[str, str], tuple[float, float]],
           runs: int) -> None:
    print(f"best of {runs}; seconds as CPU (user + sys) / wall; load before: "
          f"{LOAD_BEFORE}, after: {load()}")
    head = (f"{'job':26} {'-t ascendc':>12} {'--lower':>12} {'new choice':>12} "
            f"{'xdsl-opt':>12} {'cannbot':>12} {'lower/xdsl':>11} {'new/xdsl':>11} "
            f"{'ascendc/cannbot':>16}")
    print(head)
    worst_lower = [0.0, 0.0]
    worst_new = [0.0, 0.0]
    worst_peer = [0.0, 0.0]
    for job in selected:
        def cell(name: str, job: Job = job) -> str:
            if (job.name, name) not in best:
                return f"{'-':>12}"
            cpu, wall = best[job.name, name]
            return f"{cpu:5.3f}/{wall:5.3f}".rjust(12)

        def ratio(top: str, bottom: str, worst: list[float], job: Job = job) -> str:
            if (job.name, bottom) not in best:
                return "-"
            cpu = best[job.name, top][0] / best[job.name, bottom][0]
            wall = best[job.name, top][1] / best[job.name, bottom][1]
            worst[0], worst[1] = max(worst[0], cpu), max(worst[1], wall)
            return f"{cpu:.2f}/{wall:.2f}x"

        lower = ratio("--lower-to-ascend", "xdsl-opt", worst_lower)
        new = ratio(NEW_CHOICE, "xdsl-opt", worst_new)
        peer = ratio("-t ascendc", "cannbot-dsl", worst_peer)
        print(f"{job.name:26} {cell('-t ascendc')} {cell('--lower-to-ascend')} "
              f"{cell(NEW_CHOICE)} {cell('xdsl-opt')} {cell('cannbot-dsl')} {lower:>11} "
              f"{new:>11} {peer:>16}")
    goal("--lower-to-ascend <= 1.0x xdsl-opt parse + print", worst_lower)
    goal("--lower-to-ascend, schedules chosen anew, <= 1.0x xdsl-opt", worst_new)
    if worst_peer[0]:
        goal("-t ascendc <= 1.0x cannbot-dsl", worst_peer)


def goal(what: str, worst: list[float]) -> None:
    verdict = {True: "MET", False: "NOT MET"}
    print(f"goal {what}, worst job: CPU {worst[0]:.2f}x {verdict[worst[0] <= 1.0]}, "
          f"wall {worst[1]:.2f}x {verdict[worst[1] <= 1.0]}")


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


LOAD_BEFORE = load()

if __name__ == "__main__":
    main()
