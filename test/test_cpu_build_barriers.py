"""Every schedule hswc builds on Atlas A2/A3 carries the PipeBarrier<PIPE_V> its vector calls
need: the eight candidates of the default schedule's choice (hswc.passes.schedule_choice) and the
reference preset, on bodies of compares and selects (hardtanh_grad) and of Exp and Div
(sigmoid), printed as AscendC, built on the CPU model and run as if built with BiSheng's
--cce-auto-sync=off (`--auto-sync off`): no rule broken (two vector calls on one buffer, one
writing, with no barrier between them, within a chunk or from one chunk to the next), and the
bits those of the interpreter. A sample by default; `pytest -m sweep` runs every pair.

The arch35 preset (`no-pipe-barriers`, ops-nn's Ascend 950 structure) is left out: it relies on
the hardware's ordering of vector calls (Ascend 950) or the compiler's barriers
(test_cpu_build_arch35.py runs it so).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pytest
from cpu_build import Build, build, lower, run_recorded
from sampling import sampled, selected
from test_cpu_build_family import ATTRIBUTES, DTYPES, _same, grad_values, x_values
from xdsl.dialects.builtin import ModuleOp

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.ops import OPS
from hswc.passes.schedule_choice import CANDIDATES
from hswc.pipeline import LOWER_TO_ASCEND
from hswc.vectorizer.schedule import REFERENCE, Schedule

SCHEDULES: dict[str, Schedule] = {"reference": REFERENCE,
                                  **{c.describe().replace(" ", ","): c for c in CANDIDATES}}
BODIES = ("hardtanh_grad", "sigmoid")
PAIRS = [f"{body}:{name}" for body in BODIES for name in SCHEDULES]
SAMPLE = (f"hardtanh_grad:{CANDIDATES[0].describe().replace(' ', ',')}", "sigmoid:reference")
"""The fast preset on compares and selects, and the reference on Exp and Div."""
CORES, UB = 3, 32768
SIZES = (100, 5000, 40000)
"""One chunk; several chunks per core with a tail; many (a small UB: chunks of a few hundred)."""


def _pipeline(schedule: Schedule) -> str:
    options = "variant=reference" if schedule == REFERENCE else schedule.describe()
    passes = [f"{p}{{{options}}}" if p in ("hsg-tile-on-cores", "convert-hsg-to-ascend") else p
              for p in LOWER_TO_ASCEND]
    return ",".join(passes)


def _module(op: str) -> str:
    """One function per dtype computing the named op (with test_cpu_build_family's attributes)."""
    attrs = ATTRIBUTES.get(op, {})
    attr_text = ("{" + ", ".join(f"{k} = {v} : f32" for k, v in attrs.items()) + "} "
                 if attrs else "")
    names = OPS[op].op.INPUTS
    functions = []
    for dt in DTYPES:
        t = f"tensor<?x{dt}>"
        functions.append(f"func.func @{op}_{dt}({', '.join(f'%{n}: {t}' for n in names)}) -> "
                         f"{t} {{\n  %y = {OPS[op].op.name} {', '.join(f'%{n}' for n in names)} "
                         f"{attr_text}: {t}\n  func.return %y : {t}\n}}\n")
    return "".join(functions)


@cache
def _lowered(pair: str) -> ModuleOp:
    """The body's module lowered with the schedule."""
    body, name = pair.split(":")
    return lower(_module(body), _pipeline(SCHEDULES[name]))


@cache
def _kernel(pair: str, dtype: str) -> runner.Kernel:
    """The lowered module's `dtype` function, as a runner kernel on the test platform."""
    return runner.compile_module(_lowered(pair), function=f"{pair.split(':')[0]}_{dtype}",
                                 core_num=CORES, ub_size=UB)


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory,
                request: pytest.FixtureRequest) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("cpu_build_barriers")
    builds = {}
    for k, pair in enumerate(sorted(selected(request, "pair"))):  # type: ignore[type-var]
        body = pair.split(":")[0]
        source = directory / f"kernel{k}.cpp"
        source.write_text(kernel_source(_lowered(pair)))
        builds[pair] = Build(source, directory / f"kernel{k}",
                             (f"-DHSWC_KERNEL_ENTRY={body}",
                              f"-DHSWC_GM_INPUTS={len(OPS[body].op.INPUTS)}"))
    build(list(builds.values()))
    return {pair: b.output for pair, b in builds.items()}


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("pair", sampled(PAIRS, SAMPLE, ids=PAIRS))
def test_every_schedule_orders_its_vector_calls(executables: dict[str, Path], tmp_path: Path,
                                                pair: str, dtype: str) -> None:
    body = pair.split(":")[0]
    for size in SIZES:
        x = np.resize(x_values(dtype), size)
        inputs = [grad_values(x), x] if len(OPS[body].op.INPUTS) == 2 else [x]
        result = _kernel(pair, dtype).run(*inputs)
        (record,) = result.tilings
        assert record is not None
        on_cpu = run_recorded(executables[pair], record, inputs, UB, tmp_path / str(size))
        assert _same(on_cpu, result.outputs[0]), f"{pair} {dtype} n={size}: C++ != interpreter"
