"""Random elementwise bodies (elementwise_bodies.py) lower at every stage and run bit-exactly.

For each drawn body and input, hswc.runner's result at every level (linalg: the body over whole
arrays; tiled and blocked: per core, per chunk; ascend: the AscendC calls on modelled cores),
under the reference schedule, the fast one and a random combination of the schedule flags, on
1, 3 and 48 cores with UB sizes that make every core run several chunks, equals the
independent evaluator (elementwise_evaluator.py) bit for bit: all NaNs are equal, -0 and +0
differ. The emitted C++ of a handful of bodies, built against the CPU model of AscendC
(hswc/checker/ascendc_cpu) and run on every core of the launch, agrees too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import SANITIZE, Build, build, run_recorded
from elementwise_bodies import (
    BINARY,
    FLOAT_TYPES,
    KINDS,
    NUMPY_TYPES,
    ONE_THIRD_F32,
    PREDICATES,
    UINT_TYPES,
    Body,
    Op,
    RandomChooser,
    cases,
    draw_body,
    input_arrays,
    special_values,
    to_mlir,
)
from elementwise_evaluator import arithmetic, cmpf, convert, evaluate, maximumf, minimumf
from exact_rounding import exact_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, ModuleOp
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import DiagnosticException

from hswc import runner
from hswc.backend.source import kernel_source
from hswc.cpp_identifiers import operator_stem
from hswc.diagnostics import LocatingParser
from hswc.dialects import ascend, hsg
from hswc.passes.schedule_options import UB_PLAN_ATTR, read_plan
from hswc.pipeline import DIALECTS, PASSES
from hswc.platform import UB_BLOCK_BYTES, get_platform
from hswc.reference import hard_swish_grad_cann
from hswc.tiling import UbPlan, gap_bytes
from hswc.vectorizer.schedule import FLAGS
from hswc.verification import verify_located

LOWERING = (("tiled", "hsg-tile-on-cores"), ("blocked", "hsg-block-into-ub"),
            ("ascend", "convert-hsg-to-ascend"))
"""The levels below linalg, each with the pass that reaches it."""
SCHEDULED = ("hsg-tile-on-cores", "convert-hsg-to-ascend")
"""The passes that take the schedule options."""
DEFAULT_UB = get_platform("ascend910b").ub_size


# region lowering and running


def context() -> Context:
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return ctx


def stages(text: str, options: str = "", kernel_name: str | None = None) -> dict[str, ModuleOp]:
    """The module after each pass of --lower-to-ascend below linalg, with the schedule options
    (`variant=fast`, `double-buffer=true in-place=true`, ...) given to the passes taking them,
    and the kernels named `kernel_name` (default: after their functions)."""
    ctx = context()
    module = LocatingParser(ctx, text, "<body>").parse_module()
    out = {"linalg": module.clone()}
    for level, name in LOWERING:
        given = [options] if name in SCHEDULED and options else []
        if kernel_name is not None and name == "hsg-tile-on-cores":
            given.append(f"kernel-name={kernel_name}")
        spec = f"{name}{{{' '.join(given)}}}" if given else name
        PassPipeline.parse_spec(PASSES, spec).apply(ctx, module)
        verify_located(module)
        out[level] = module.clone()
    return out


def ub_plan(module: ModuleOp, dtype: str) -> UbPlan:
    """The UB plan the module's one `dtype` kernel was tiled by (its `hsg.ub_plan`)."""
    plans = [read_plan(op, UB_PLAN_ATTR) for op in module.ops
             if isinstance(op, func.FuncOp) and hsg.is_kernel(op)
             and op.sym_name.data.endswith(f"_kernel_{dtype}")]
    found = [p for p in plans if p is not None]
    assert len(found) == 1, f"expected one {dtype} kernel with an hsg.ub_plan, found {found}"
    return found[0]


def small_ub(plan: UbPlan, chunks: int) -> int:
    """A UB size (a multiple of 32 bytes) whose ubFactor is `chunks` times the alignment (a
    `bank-offsets` kernel's gaps taking what they take at that ubFactor, hswc.tiling.gap_bytes)."""
    factor = plan.align_elements * chunks
    need = plan.ub_reserve + gap_bytes(plan, factor) + plan.bytes_per_element * factor
    return -(-need // UB_BLOCK_BYTES) * UB_BLOCK_BYTES


def platforms(plan: UbPlan) -> list[tuple[int, int]]:
    """(cores, UB bytes): one core with the smallest UB (many chunks, a short tail), three
    cores with two alignments per chunk, and 48 cores with the A2's UB."""
    return [(1, small_ub(plan, 1)), (3, small_ub(plan, 2)), (48, DEFAULT_UB)]


# endregion
# region comparing


def bits(array: np.ndarray, dtype: str) -> np.ndarray:
    """The bit patterns (at least one dimension)."""
    return np.ascontiguousarray(array).view(UINT_TYPES[dtype])


def differences(actual: np.ndarray, expected: np.ndarray, dtype: str) -> np.ndarray:
    """Per element (flattened): whether the bit patterns differ, all NaNs being equal."""
    a, e = np.ascontiguousarray(actual).ravel(), np.ascontiguousarray(expected).ravel()
    with np.errstate(invalid="ignore"):  # (signalling NaN patterns)
        return (bits(a, dtype) != bits(e, dtype)) & ~(np.isnan(a) & np.isnan(e))


def pattern(array: np.ndarray, at: int, dtype: str) -> str:
    """Element `at` (flat) as its bit pattern and value: `0x7C00 (inf)`."""
    element = np.ascontiguousarray(array).ravel()[at:at + 1]
    digits = 2 * element.itemsize
    return f"0x{int(bits(element, dtype)[0]):0{digits}X} ({element[0]})"


def assert_bit_exact(actual: np.ndarray, expected: np.ndarray, dtype: str,
                     inputs: Sequence[np.ndarray], where: str, detail: str = "") -> None:
    """actual == expected bit for bit, or a message with the first differing element's inputs
    (all an elementwise result depends on), both results' bits, and `detail`."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape and actual.dtype == expected.dtype, (
        f"{where}: got {actual.dtype}{actual.shape}, expected {expected.dtype}{expected.shape}")
    differ = differences(actual, expected, dtype)
    if not differ.any():
        return
    at = int(np.argmax(differ))
    given = ", ".join(pattern(x, at, dtype) for x in inputs)
    raise AssertionError(
        f"{where}: {int(differ.sum())} of {differ.size} elements differ; the first, at flat "
        f"index {at}: inputs {given} give {pattern(actual, at, dtype)}, expected "
        f"{pattern(expected, at, dtype)}\n{detail}")


# endregion
# region schedules


@dataclass(frozen=True)
class Schedule:
    name: str
    options: str
    """The pass options, as hsg-tile-on-cores and convert-hsg-to-ascend take them."""
    soc: str = "ascend910b"
    """The SoC the lowered kernels run on (its API table is the interpreter's)."""


REFERENCE = Schedule("reference", "variant=reference")
FAST = Schedule("fast", "variant=fast")
ASCEND950 = Schedule("ascend950", "api=dav_3510", "ascend950")
"""Ascend 950's API table: a bf16 body's exact steps in bf16 (hswc.vectorizer.narrow)."""


@st.composite
def flag_combinations(draw: st.DrawFn) -> Schedule:
    """Each schedule flag on or off (widened-bf16 aside: it only matters on Ascend 950's table,
    which check_every_level adds for bf16 bodies)."""
    on = {flag: draw(st.booleans()) for flag in FLAGS if flag != "widened_bf16"}
    options = " ".join(f"{f.replace('_', '-')}={'true' if v else 'false'}" for f, v in on.items())
    return Schedule("random", options)


# endregion


def check_every_level(body: Body, inputs: Sequence[np.ndarray],
                      schedules: Sequence[Schedule]) -> None:
    """The body at every level and under every schedule, on every platform, equals the
    evaluator; a bf16 body also with Ascend 950's API table (its exact steps in bf16)."""
    if body.dtype == "bf16":
        schedules = (*schedules, ASCEND950)
    expected = evaluate(body, inputs)
    text = to_mlir(body)
    linalg = runner.compile_text(text, level="linalg")
    assert_bit_exact(linalg(*inputs), expected, body.dtype, inputs, "linalg", text)
    for schedule in schedules:
        modules = stages(text, schedule.options)
        plan = ub_plan(modules["tiled"], body.dtype)
        for level, _ in LOWERING:
            kernel = runner.compile_module(modules[level], level=level, soc=schedule.soc)
            for cores, ub in platforms(plan):
                got = np.asarray(kernel.with_platform(core_num=cores, ub_size=ub)(*inputs))
                where = f"{level} level, {schedule.name} schedule {schedule.options!r}, " \
                        f"{cores} cores, UB {ub} bytes"
                assert_bit_exact(got, expected, body.dtype, inputs, where, to_mlir(body))


PROPERTY = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""Reproducible (derandomized, no example database)."""


@pytest.mark.parametrize("examples", [pytest.param(12, id="sample"),
                                      pytest.param(40, id="more", marks=pytest.mark.sweep)])
def test_every_level_and_schedule_matches_the_evaluator(examples: int) -> None:
    """On 12 bodies by default (each is lowered through every level and schedule), 40 in the
    sweep."""

    @settings(PROPERTY, max_examples=examples)
    @given(case=cases(), schedule=flag_combinations())
    def check(case: tuple[Body, list[np.ndarray]], schedule: Schedule) -> None:
        body, inputs = case
        check_every_level(body, inputs, (REFERENCE, FAST, schedule))

    check()


# region every op on every pair of special values

TABLE_CONSTANTS = (0.0, -0.0, float("nan"))
"""The scalars of the Maxs / Mins rows (where zeros' signs and NaN decide) and, but NaN (which
folds a compare), of the CompareScalar rows."""


def _row(dtype: str, steps: Sequence[tuple[str, tuple[object, ...]]]) -> Body:
    """A body in dtype (f16 or f32) on inputs a, b whose ops are `steps`: (kind, operands),
    an operand being 'a', 'b', a float constant or the position of an earlier step; a cmpf's
    kind is `cmpf.<predicate>`. The last step is the result."""
    t = dtype
    ops = [Op("input", dtype, index=0), Op("input", dtype, index=1)]
    named = {"a": 0, "b": 1}
    steps_at: list[int] = []
    for kind, operands in steps:
        where = []
        for operand in operands:
            if isinstance(operand, str):
                where.append(named[operand])
            elif isinstance(operand, int):
                where.append(steps_at[operand])
            else:
                bits = int(np.array(operand, np.float64).astype(np.float32).astype(
                    NUMPY_TYPES[t]).view(UINT_TYPES[t]))
                ops.append(Op("const", t, bits=bits))
                where.append(len(ops) - 1)
        if kind.startswith("cmpf."):
            ops.append(Op("cmpf", "i1", tuple(where), predicate=kind.removeprefix("cmpf.")))
        else:
            ops.append(Op(kind, t, tuple(where)))
        steps_at.append(len(ops) - 1)
    n = len(special_values(dtype)) ** 2
    return Body(dtype, (n,), (True,), tuple(ops), len(ops) - 1)


def table_rows() -> dict[str, list[tuple[str, tuple[object, ...]]]]:
    """Each binary op and each predicate on (a, b); negf a; maximumf / minimumf and each
    predicate with a constant second operand; a compare's result as select(cmp, 1, 0)."""
    rows = {kind: [(kind, ("a", "b"))] for kind in BINARY}
    rows["negf"] = [("negf", ("a",))]
    for kind in ("maximumf", "minimumf"):
        rows.update({f"{kind} {k}": [(kind, ("a", k))] for k in TABLE_CONSTANTS})
    for predicate in PREDICATES:
        for other in ("b", *(k for k in TABLE_CONSTANTS if k == k)):
            rows[f"cmpf {predicate} {other}"] = [(f"cmpf.{predicate}", ("a", other)),
                                                  ("select", (0, 1.0, 0.0))]
    return rows


@pytest.mark.parametrize("dtype", ["f16", "f32"])
def test_each_op_on_every_pair_of_special_values(dtype: str) -> None:
    """Every op, as a tensor-tensor call and with a constant operand, over the cross product
    of the special values (NaN, +-inf, +-0, subnormals, extremes), on 3 modelled cores with a
    small UB: at the tiled level (the body's arith semantics) and the ascend level under the
    reference schedule, and for the compares (CompareScalar, Select with a scalar) under the
    fast one; equal to the evaluator. (bf16 computes in f32: the f32 rows.)"""
    specials = special_values(dtype)
    inputs = [np.repeat(specials, len(specials)), np.tile(specials, len(specials))]
    rows = {name: _row(dtype, steps) for name, steps in table_rows().items()}
    compares = {name: body for name, body in rows.items() if name.startswith("cmpf")}
    for schedule, bodies in ((REFERENCE, rows), (FAST, compares)):
        names = list(bodies)
        text = "".join(to_mlir(bodies[name], f"row{i}") for i, name in enumerate(names))
        modules = stages(text, schedule.options)
        plans = [read_plan(op, UB_PLAN_ATTR) for op in modules["ascend"].ops
                 if isinstance(op, func.FuncOp) and hsg.is_kernel(op)]
        ub = max(small_ub(plan, 2) for plan in plans if plan is not None)
        for level in ("tiled", "ascend") if schedule is REFERENCE else ("ascend",):
            first = runner.compile_module(modules[level], level=level, function="row0",
                                          core_num=3, ub_size=ub)
            for i, name in enumerate(names):
                kernel = runner.Kernel(first.module, first.source, f"row{i}", first.platform,
                                       level)
                where = f"{name}: {level} level, {schedule.name} schedule, 3 cores, UB {ub}"
                assert_bit_exact(kernel(*inputs), evaluate(bodies[name], inputs), dtype,
                                 inputs, where, to_mlir(bodies[name]))


# endregion
# region the CPU build of the emitted kernels

KEYED_DTYPES = ("f16", "f32", "bf16")
"""The dtypes of one operator's kernels, in tiling-key order."""


@dataclass(frozen=True)
class CpuCase:
    """One translation unit: a random body per dtype, all with `inputs` inputs, lowered with
    `schedule` into the kernels of one operator."""

    inputs: int
    schedule: Schedule
    seed: int
    sanitize: bool = False
    """Also build it with ASan and UBSan."""

    @property
    def stem(self) -> str:
        """The operator: the kernel entry's name."""
        return f"body{self.inputs}_{self.schedule.name}"

    def bodies(self) -> dict[str, Body]:
        return {dt: draw_body(RandomChooser(self.seed + i), dt, self.inputs, finite=True)
                for i, dt in enumerate(KEYED_DTYPES)}

    def text(self) -> str:
        return "".join(to_mlir(body, f"body_{dt}") for dt, body in self.bodies().items())

    def flags(self) -> tuple[str, ...]:
        """The harness's: which entry to call, with how many GM inputs."""
        return (f"-DHSWC_KERNEL_ENTRY={self.stem}", f"-DHSWC_GM_INPUTS={self.inputs}")


CPU_CASES = (
    CpuCase(1, FAST, 100, sanitize=True),
    CpuCase(2, REFERENCE, 200, sanitize=True),
    CpuCase(3, Schedule("random", "double-buffer=true in-place=true x-first=true l2-bypass=true"),
            300),
    CpuCase(4, Schedule("random", "scalar-compare=true early-free=true"), 400),
)
"""A handful of bodies (three per case): 1 to 4 inputs, the reference, fast and mixed
schedules (fast and the third with their streamed inputs bypassing L2, as the default
choice may make them)."""


@dataclass(frozen=True)
class CpuBuild:
    module: ModuleOp
    """The ascend-level module the kernels were printed from."""
    executable: Path
    sanitized: Path | None


@pytest.fixture(scope="module")
def cpu_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[CpuCase, CpuBuild]:
    """Every case printed as AscendC (what `-t ascendc` prints) and built in one g++ run, with
    -Wall -Wextra -Werror, the sanitized ones a second time with ASan and UBSan."""
    directory = tmp_path_factory.mktemp("elementwise_cpu")
    jobs: list[Build] = []
    built: dict[CpuCase, CpuBuild] = {}
    for i, case in enumerate(CPU_CASES):
        module = stages(case.text(), case.schedule.options, case.stem)["ascend"]
        source = directory / f"kernel_{i}.cpp"
        source.write_text(kernel_source(module))
        executable = directory / f"run_{i}"
        jobs.append(Build(source, executable, case.flags()))
        sanitized = None
        if case.sanitize:
            sanitized = directory / f"run_{i}_sanitized"
            jobs.append(Build(source, sanitized, (*case.flags(), *SANITIZE)))
        built[case] = CpuBuild(module, executable, sanitized)
    build(jobs)
    return built


@pytest.mark.parametrize("dtype", KEYED_DTYPES)
@pytest.mark.parametrize("case", CPU_CASES, ids=lambda c: f"{c.inputs}in-{c.schedule.name}")
def test_cpu_build_of_random_bodies_matches_the_evaluator(
    cpu_builds: dict[CpuCase, CpuBuild], tmp_path: Path, case: CpuCase, dtype: str,
) -> None:
    """The emitted kernel on the CPU model equals the evaluator and hswc-run bit for bit, on
    every platform (the sanitized build on one)."""
    built = cpu_builds[case]
    hinted = [op for op in built.module.walk() if isinstance(op, ascend.SetL2CacheHintOp)]
    options = case.schedule.options  # the fast preset hints its streamed inputs
    assert bool(hinted) == ("l2-bypass=true" in options or "variant=fast" in options)
    body = case.bodies()[dtype]
    inputs = input_arrays(body, case.seed)
    expected = evaluate(body, inputs)
    plan = ub_plan(built.module, dtype)
    runs = [(built.executable, platform) for platform in platforms(plan)]
    if built.sanitized is not None:
        runs.append((built.sanitized, platforms(plan)[1]))
    for n, (executable, (cores, ub)) in enumerate(runs):
        kernel = runner.compile_module(built.module, level="ascend", function=f"body_{dtype}",
                                       core_num=cores, ub_size=ub)
        tiling = kernel.tiling(body.shape, dtype)
        got = run_recorded(executable, tiling, inputs, ub, tmp_path / str(n))
        where = f"CPU build {executable.name}, {cores} cores, UB {ub} bytes, {tiling}"
        assert_bit_exact(got, expected, dtype, inputs, where, to_mlir(body))
        assert_bit_exact(got, kernel(*inputs), dtype, inputs, f"{where}: vs hswc-run",
                         to_mlir(body))


# endregion


NON_FINITE = Body("f32", (300,), (True,), (
    Op("input", "f32", index=0), Op("input", "f32", index=1),
    Op("const", "f32", bits=0x7F800000), Op("const", "f32", bits=0xFF800000),
    Op("const", "f32", bits=0x7FC00000),
    Op("addf", "f32", (0, 2)),              # Adds +inf
    Op("maximumf", "f32", (5, 3)),          # Maxs -inf
    Op("cmpf", "i1", (1, 2), predicate="olt"),  # Compare with +inf (CompareScalar when fast)
    Op("select", "f32", (7, 6, 4)),         # Select with NaN (a scalar when fast)
), 8)
"""+-inf and NaN constants, as the scalars of Adds, Maxs, CompareScalar and Select and as
Duplicate-filled buffers (the printer spells them through the compiler's builtins)."""


def test_non_finite_constants_print_build_and_run(tmp_path: Path) -> None:
    """A body with inf and NaN constants prints (reference and fast schedules), builds and
    runs on the CPU model as the evaluator says."""
    inputs = input_arrays(NON_FINITE, 5)
    expected = evaluate(NON_FINITE, inputs)
    jobs, modules = [], []
    for schedule in (REFERENCE, FAST):
        module = stages(to_mlir(NON_FINITE, "body_f32"), schedule.options,
                        f"non_finite_{schedule.name}")["ascend"]
        source = kernel_source(module)
        path = tmp_path / f"{schedule.name}.cpp"
        path.write_text(source)
        jobs.append(Build(path, tmp_path / schedule.name, (
            f"-DHSWC_KERNEL_ENTRY=non_finite_{schedule.name}", "-DHSWC_GM_INPUTS=2",
            "-DHSWC_TILING_KEYS=1")))
        modules.append(module)
    build(jobs)
    for job, module in zip(jobs, modules, strict=True):
        kernel = runner.compile_module(module, level="ascend", core_num=3,
                                       ub_size=small_ub(ub_plan(module, "f32"), 1))
        got = run_recorded(job.output, kernel.tiling(NON_FINITE.shape, "f32"), inputs,
                           kernel.platform.ub_size, tmp_path / f"{job.output.name}_run")
        assert_bit_exact(got, expected, "f32", inputs, f"CPU build {job.output.name}")


# region the test's own tools, checked by hand


def f16(*values: float) -> np.ndarray:
    return np.array(values, np.float16)


def f32(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


def test_evaluator_orders_zeros_and_propagates_nan() -> None:
    """maximumf / minimumf: -0 < +0, NaN wins; cmpf: ordered predicates false on NaN, une
    true; +0 == -0."""
    a, b = f32(-0.0, 0.0, np.nan, 1.0, -0.0), f32(0.0, -0.0, 1.0, np.nan, -0.0)
    assert bits(maximumf(a, b), "f32").tolist() == [0, 0, 0x7FC00000, 0x7FC00000, 0x80000000]
    assert bits(minimumf(a, b), "f32").tolist() == [0x80000000, 0x80000000, 0x7FC00000,
                                                    0x7FC00000, 0x80000000]
    x, y = f16(np.nan, 1.0, 0.0, 2.0), f16(1.0, np.nan, -0.0, 1.0)
    table = {p: cmpf(p, x, y).tolist() for p in PREDICATES}
    assert table == {
        "oeq": [False, False, True, False], "ogt": [False, False, False, True],
        "oge": [False, False, True, True], "olt": [False, False, False, False],
        "ole": [False, False, True, False], "one": [False, False, False, True],
        "ord": [False, False, True, True], "une": [True, True, False, True]}


def test_evaluator_rounds_f16_arithmetic_once() -> None:
    """f16 +, -, *, / (computed in f64, then rounded) equal the exact rational result rounded
    once to f16, on random finite patterns (subnormal and overflowing results included)."""
    rng = np.random.default_rng(1)
    a, b = (rng.integers(0, 2**16, 4000, dtype=np.uint32).astype(np.uint16).view(np.float16)
            for _ in range(2))
    keep = np.isfinite(a) & np.isfinite(b) & (b != 0)
    a, b = a[keep], b[keep]
    exact = {"addf": lambda p, q: p + q, "subf": lambda p, q: p - q,
             "mulf": lambda p, q: p * q, "divf": lambda p, q: p / q}
    for kind, rational in exact.items():
        got = arithmetic(kind, "f16", a, b)
        for x, y, z in zip(a, b, got, strict=True):
            want = exact_round(rational(Fraction(float(x)), Fraction(float(y))), np.float16)
            if want == 0 and z == 0:
                continue  # the sign of an exact zero is IEEE's rule, not the rounding's
            assert float(z) == want, f"{kind}({x}, {y}) = {z}, exactly rounded {want}"
    assert bits(arithmetic("divf", "f16", f16(1.0), f16(3.0)), "f16").tolist() == [0x3555]


def test_evaluator_truncf_rounds_to_nearest_even() -> None:
    """f32 -> bf16: 1 + 2^-8 is a tie (to 1, even), one f32 ulp more rounds up; f32 -> f16:
    65519 rounds to 65504, 65520 (a tie with 2^16) to inf."""
    ties = f32(1 + 2**-8, 1 + 2**-8 + 2**-23, 65519.0, 65520.0)
    assert bits(convert(Op("truncf", "bf16"), ties[:2]), "bf16").tolist() == [0x3F80, 0x3F81]
    assert bits(convert(Op("truncf", "f16"), ties[2:]), "f16").tolist() == [0x7BFF, 0x7C00]


def test_evaluator_runs_hard_swish_grad_like_the_reference_model() -> None:
    """The CANN HardSwishGrad body (SPEC.md section 2), written as a Body, evaluates to
    hswc.reference's independent model on random and special bf16 values."""
    rng = np.random.default_rng(2)
    grad, x = (rng.integers(0, 2**16, 5000, dtype=np.uint32).astype(np.uint16)
               .view(ml_dtypes.bfloat16) for _ in range(2))
    x[:8] = np.array([-3, 3, np.nan, np.inf, -np.inf, 0, -0.0, 2.5], ml_dtypes.bfloat16)
    cann = Body("bf16", (5000,), (False,), (
        Op("input", "bf16", index=0), Op("input", "bf16", index=1),
        Op("extf", "f32", (1,)), Op("extf", "f32", (0,)),
        Op("const", "f32", bits=0xC0400000), Op("cmpf", "i1", (2, 4), predicate="ogt"),
        Op("const", "f32", bits=0x40400000), Op("cmpf", "i1", (2, 6), predicate="olt"),
        Op("const", "f32", bits=0x3EAAAAAB), Op("mulf", "f32", (2, 8)),
        Op("const", "f32", bits=0x3F000000), Op("addf", "f32", (9, 10)),
        Op("const", "f32", bits=0), Op("select", "f32", (5, 11, 12)),
        Op("const", "f32", bits=0x3F800000), Op("select", "f32", (7, 13, 14)),
        Op("mulf", "f32", (3, 15)), Op("truncf", "bf16", (16,))), 17)
    assert_bit_exact(evaluate(cann, [grad, x]), hard_swish_grad_cann(grad, x), "bf16",
                     [grad, x], "evaluator vs hswc.reference")


def test_assert_bit_exact_equates_nans_and_tells_zeros_apart() -> None:
    quiet, payload = f16(np.nan), np.array([0x7E01], np.uint16).view(np.float16)
    assert_bit_exact(quiet, payload, "f16", [quiet], "NaNs")
    with pytest.raises(AssertionError, match=r"inputs 0x0000 \(0.0\) give 0x0000 \(0.0\), "
                                             r"expected 0x8000 \(-0.0\)"):
        assert_bit_exact(f16(0.0), f16(-0.0), "f16", [f16(0.0)], "zeros")


def test_bodies_cover_every_op_type_and_shape() -> None:
    """Over 300 seeds the strategy draws every op kind, every predicate, all dtypes, 1 to 4
    inputs, rank 0, empty and dynamic shapes, f16 bodies computing in f16 and in f32, and
    constants near each interesting value."""
    drawn = [draw_body(RandomChooser(seed)) for seed in range(300)]
    kinds = set().union(*(b.kinds() for b in drawn))
    assert KINDS - {"roundtrip", "yield_input", "yield_const"} | {"extf", "truncf"} <= kinds
    assert {b.dtype for b in drawn} == set(FLOAT_TYPES)
    assert {b.inputs for b in drawn} == {1, 2, 3, 4}
    assert any(b.shape == () for b in drawn) and any(0 in b.shape for b in drawn)
    assert any(any(b.dynamic) for b in drawn) and any(len(b.shape) > 3 for b in drawn)
    f16_compute = {op.type for b in drawn if b.dtype == "f16" for i in b.live()
                   for op in [b.ops[i]] if op.kind in ("addf", "mulf", "select")}
    assert f16_compute == {"f16", "f32"}
    assert any(b.result < b.inputs for b in drawn)  # a body yielding an input
    values = {op.value() for b in drawn for op in b.constants()}
    assert {0.0, 1.0, -3.0, 6.0, 0.5, ONE_THIRD_F32, float("inf"), float("-inf")} <= values
    assert any(v != v for v in values) and any(0 < abs(v) < 1e-38 for v in values)


def test_bf16_bodies_compute_in_f32_only() -> None:
    """No bf16 arithmetic, compare or select (the vector unit has none)."""
    for seed in range(200):
        body = draw_body(RandomChooser(seed), dtype="bf16")
        for op in body.ops:
            if op.kind not in ("input", "const", "extf", "truncf"):
                operand_types = {body.ops[i].type for i in op.operands}
                assert "bf16" not in operand_types | {op.type}, to_mlir(body)


def test_printed_constants_parse_to_their_bits() -> None:
    """Hex and decimal constants of every type read back (through xDSL's parser) as the value
    the evaluator uses."""
    drawn = [draw_body(RandomChooser(seed)) for seed in range(100)]
    for body in drawn:
        module = LocatingParser(context(), to_mlir(body), "<body>").parse_module()
        parsed = [op.value for op in module.walk() if isinstance(op, arith.ConstantOp)
                  and isinstance(op.value, FloatAttr)]
        expected = body.constants()
        assert len(parsed) == len(expected)
        for attr, op in zip(parsed, expected, strict=True):
            value = np.array(attr.value.data, np.float64).astype(NUMPY_TYPES[op.type])
            assert bits(value, op.type) == op.bits or np.isnan(value), (attr, op)


def test_finite_bodies_keep_folded_constants_finite() -> None:
    """With finite=True no constant is inf or NaN, and no op has only constant operands."""
    for seed in range(300):
        body = draw_body(RandomChooser(seed), finite=True)
        assert all(np.isfinite(op.value()) for op in body.constants()), to_mlir(body)
        folded: set[int] = set()
        for i, op in enumerate(body.ops):
            if op.kind == "const" or (op.operands and folded.issuperset(op.operands)):
                folded.add(i)
                assert op.kind == "const" or op.type == "i1", to_mlir(body)


# endregion


NAME_CASES = {
    "keyword-operator": ("float", ("a", "b")),
    "helper-operator": ("Max", ("a", "b")),
    "method-operator": ("Init", ("a", "b")),
    "stage-operator": ("compute2", ("a", "b")),
    "input-named-y": ("k", ("y", "b")),
    "input-named-tilingData": ("k", ("tilingData", "b")),
    "input-named-op": ("k", ("op", "tiling")),
    "input-named-keyword": ("k", ("int", "b")),
}
"""(function, body argument names) that could clash in C++: an operator named after a C++
keyword, after a helper the kernel defines (Max, Min, CeilDiv) or after a method of its class
(Init, Process, Compute2: its class is `camel(stem)`); a GM input named like the output, a
keyword, or a parameter or local of the entry (tilingData, op, tiling). An operator named
after a keyword gets `_op` after it (hswc.cpp_identifiers.operator_stem: `@float` and torch-mlir's
`@main` compile); the other operators are refused (the package is named after them); the inputs
are renamed."""
ADD = Body("f32", (8,), (False,), (Op("input", "f32", index=0), Op("input", "f32", index=1),
                                   Op("addf", "f32", (0, 1))), 2)


@pytest.fixture(scope="module")
def named_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Per name case: 'compiled', the printer's refusal, or the compiler's errors (all cases
    compiled, syntax only, in one g++ run)."""
    directory = tmp_path_factory.mktemp("names")
    outcome: dict[str, str] = {}
    jobs = []
    for case, (function, elements) in NAME_CASES.items():
        try:
            source = kernel_source(stages(to_mlir(ADD, function, elements))["ascend"])
        except DiagnosticException as error:
            outcome[case] = f"refused: {error}"
            continue
        path = directory / f"{case}.cpp"
        path.write_text(source)
        jobs.append(Build(path, directory / case,
                          (f"-DHSWC_KERNEL_ENTRY={operator_stem(function)}",
                           "-DHSWC_GM_INPUTS=2")))
        outcome[case] = "compiled"
    try:
        build([], syntax_only=jobs)
    except pytest.fail.Exception as failed:
        for job in jobs:
            if f"{job.source} " in str(failed):
                outcome[job.output.name] = str(failed).split(f"{job.source} ", 1)[1][:2000]
    return outcome


@pytest.mark.parametrize("case", NAME_CASES)
def test_any_names_print_as_compilable_cpp_or_are_refused(named_builds: dict[str, str],
                                                          case: str) -> None:
    """A valid MLIR name gives C++ that compiles, or one located error saying why not."""
    outcome = named_builds[case]
    if case.endswith("-operator") and case != "keyword-operator":
        function = NAME_CASES[case][0]
        said = re.escape(f"error: 'func.func' is a kernel of the operator '{function}', which "
                         "C++ cannot name: ")
        assert re.fullmatch(rf"refused: <body>:\d+:\d+: {said}.+; rename the function",
                            outcome), outcome
    else:
        assert outcome == "compiled"
