"""One reduction, Brcb or level-0 binary call, run by hswc's interpreter and by the C++ CPU model
on the same UB bytes (test_reduce_calls.py, test_reduce_calls_sweep.py).

A `Case` is what test/cpp_fixtures/reduce_calls_driver.cpp reads: the call, its dtype, three
VECCALC buffers placed back to back from UB byte 0 (as TPipe::InitBuffer places them), the
operands as (buffer, element offset), and the call's numbers. `interpret` runs it through the
interpreter's numpy semantics (hswc.interpreter.ascendc_reduce and ascendc_repeat) on a UB row of
those bytes; `Driver.run` through the CPU model built for one SoC family. Both give the buffers'
bytes afterwards, or the broken rule's message.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import ml_dtypes
import numpy as np

from hswc.checker.build import MODEL
from hswc.interpreter import ascendc_reduce, ascendc_repeat
from hswc.interpreter.ascendc_checks import ApiError
from hswc.interpreter.ascendc_repeat import Operand

REPO = Path(__file__).resolve().parents[1]
DRIVER = REPO / "test" / "cpp_fixtures" / "reduce_calls_driver.cpp"
DTYPES = {"half": np.dtype(np.float16), "float": np.dtype(np.float32),
          "bfloat16_t": np.dtype(ml_dtypes.bfloat16)}
FAMILY_FLAGS = {"dav_c220": (), "dav_3510": ("-DASCENDC_CPU_DAV_3510",)}
REDUCE = {"ReduceSum": "sum", "ReduceMax": "max", "ReduceMin": "min"}
WHOLE = {"WholeReduceSum": "sum", "WholeReduceMax": "max", "WholeReduceMin": "min"}
BINARY = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Max": "max", "Min": "min"}


@dataclass(frozen=True)
class Case:
    """One call: buffers of `sizes` bytes; dst, src (src0), work (src1) as (buffer, offset)."""

    call: str
    dtype: str
    sizes: tuple[int, int, int]
    operands: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
    numbers: tuple[int, ...] = ()
    data: bytes = field(default=b"", repr=False)
    """The buffers' bytes before the call (random by default: `with_data`)."""

    @property
    def np_dtype(self) -> np.dtype:
        return DTYPES[self.dtype]

    def spec(self) -> str:
        numbers = [*self.numbers, *[0] * (8 - len(self.numbers))]
        fields = [self.call, self.dtype, *self.sizes,
                  *(v for pair in self.operands for v in pair), *numbers]
        return " ".join(str(v) for v in fields) + "\n"

    def with_values(self, buffer: int, values: np.ndarray, offset: int = 0) -> Case:
        """The case with `values` (of its dtype) at element `offset` of a buffer."""
        data = bytearray(self.data or bytes(sum(self.sizes)))
        start = sum(self.sizes[:buffer]) + offset * self.np_dtype.itemsize
        raw = np.asarray(values, dtype=self.np_dtype).tobytes()
        data[start:start + len(raw)] = raw
        return Case(self.call, self.dtype, self.sizes, self.operands, self.numbers, bytes(data))

    def buffer(self, out: bytes, index: int) -> np.ndarray:
        """Buffer `index` of the bytes `out`, as the case's dtype."""
        start = sum(self.sizes[:index])
        return np.frombuffer(out[start:start + self.sizes[index]], dtype=self.np_dtype)


def random_data(case: Case, rng: np.random.Generator, specials: float = 0.02) -> Case:
    """The case with every buffer full of values of its dtype: normals of spread magnitudes,
    and a share `specials` of inf, -inf, NaN, -0, +0 and subnormals."""
    n = sum(case.sizes) // case.np_dtype.itemsize
    values = rng.standard_normal(n) * np.exp2(rng.integers(-6, 7, n))
    pick = rng.random(n) < specials
    tiny = float(np.finfo(np.float16).smallest_subnormal) if case.dtype == "half" else 1e-40
    values[pick] = rng.choice([np.inf, -np.inf, np.nan, -0.0, 0.0, tiny, -tiny], pick.sum())
    with np.errstate(over="ignore"):
        typed = values.astype(case.np_dtype)
    return Case(case.call, case.dtype, case.sizes, case.operands, case.numbers, typed.tobytes())


def _operand(case: Case, i: int, name: str, blk: int = 1, rep: int = 8) -> Operand:
    buf, off = case.operands[i]
    size = case.np_dtype.itemsize
    return Operand(name, sum(case.sizes[:buf]) + off * size, case.sizes[buf] - off * size,
                   case.np_dtype, blk, rep)


def interpret(case: Case, family: str) -> bytes:
    """The buffers after the interpreter ran the call; ApiError for a broken rule."""
    ub = np.frombuffer(case.data, dtype=np.uint8).copy().reshape(1, -1)
    n = case.numbers
    if case.call in REDUCE:
        views = [ub[:, o.addr:o.addr + o.nbytes].view(case.np_dtype) for o in
                 (_operand(case, i, name) for i, name in enumerate(("dst", "src", "work")))]
        ascendc_reduce.reduce_count(REDUCE[case.call], family, *views, n[0])
    elif case.call in WHOLE:
        ascendc_repeat.whole_reduce(WHOLE[case.call], family, ub,
                                    _operand(case, 0, "dst", 0, n[2]),
                                    _operand(case, 1, "src", n[3], n[4]), n[0], n[1])
    elif case.call == "Brcb":
        ascendc_repeat.brcb(family, ub, _operand(case, 0, "dst", n[1], n[2]),
                            _operand(case, 1, "src"), n[0])
    else:
        ascendc_repeat.binary_repeat(
            case.call, BINARY[case.call], family, ub, _operand(case, 0, "dst", n[2], n[5]),
            _operand(case, 1, "src0", n[3], n[6]), _operand(case, 2, "src1", n[4], n[7]), n[0],
            n[1])
    return ub.tobytes()


@dataclass(frozen=True)
class Outcome:
    """The CPU model's run: the buffers' bytes, or its exit status and message."""

    data: bytes | None
    status: int
    message: str


@dataclass(frozen=True)
class Driver:
    """reduce_calls_driver built for one SoC family."""

    family: str
    executable: Path

    @staticmethod
    def build_all(directory: Path, cxx: str) -> dict[str, Driver]:
        """The driver of every family, compiled at once (warning-free, as kernels must be)."""
        running = {}
        for family, flags in FAMILY_FLAGS.items():
            exe = directory / f"reduce_calls_{family}"
            command = [cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-O1", *flags, "-I",
                       str(MODEL), "-I",
                       str(REPO / "test" / "cpp_fixtures"), str(DRIVER), "-o", str(exe)]
            running[family] = (exe, subprocess.Popen(command, stdout=subprocess.PIPE,
                                                     stderr=subprocess.STDOUT, text=True))
        drivers = {}
        for family, (exe, process) in running.items():
            output, _ = process.communicate()
            if process.returncode != 0:
                raise RuntimeError(f"reduce_calls_driver for {family} does not compile:\n{output}")
            drivers[family] = Driver(family, exe)
        return drivers

    def run(self, case: Case, workdir: Path, record_rules: bool = False) -> Outcome:
        """The call on the CPU model; with `record_rules`, a rule the model can go on after is
        reported on stderr and the call completes (hswc-check-kernel --record-rules)."""
        workdir.mkdir(parents=True, exist_ok=True)
        spec, data, out = (workdir / name for name in ("spec.txt", "in.bin", "out.bin"))
        spec.write_text(case.spec())
        data.write_bytes(case.data)
        flags = ["--record-rules"] if record_rules else []
        done = subprocess.run([str(self.executable), str(spec), str(data), str(out), *flags],
                              capture_output=True, text=True, timeout=60, check=False)
        if done.returncode == 0:
            return Outcome(out.read_bytes(), 0, done.stderr)
        return Outcome(None, done.returncode, done.stderr.strip())


def same(case: Case, a: bytes, b: bytes) -> bool:
    """Bit for bit, NaNs included: which NaN an arithmetic call gives is decided, not left to
    the host's + (src0's when both operands are NaN: hswc/interpreter/ascendc_api.py, and the
    CPU model's ArithNan)."""
    return a == b


def both(case: Case, driver: Driver, workdir: Path) -> tuple[bytes | ApiError, Outcome]:
    """(the interpreter's bytes or its ApiError, the CPU model's outcome)."""
    try:
        mine: bytes | ApiError = interpret(case, driver.family)
    except ApiError as error:
        mine = error
    return mine, driver.run(case, workdir)
