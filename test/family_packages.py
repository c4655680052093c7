"""Modules of every named op for the package tests, their hswc-run kernels, and a launcher of a
package's kernel on the CPU model with its full tiling struct (int64 fields, then floats).

The attribute values are not the ops' defaults, so a test sees them go from the module into
the package (example, unit tests) and through the tiling struct into the kernel.
"""

from __future__ import annotations

import re
import struct
import subprocess
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

import numpy as np
from cpu_build import BITS, DTYPES

from hswc import runner
from hswc.dialects.hsg import PIECEWISE_OPS
from hswc.tiling import TILING_FIELDS

ATTRIBUTES: Mapping[str, Mapping[str, float]] = {
    "hardtanh": {"min_val": -0.5, "max_val": 2.0},
    "hardtanh_grad": {"min_val": -0.75, "max_val": 1.5},
    "leaky_relu": {"negative_slope": 0.2},
    "leaky_relu_grad": {"negative_slope": 0.2},
    "threshold": {"threshold": 0.5, "value": -2.0},
    "threshold_grad": {"threshold": 0.5},
    "hard_shrink": {"lambd": 0.7},
    "hard_shrink_grad": {"lambd": 0.7},
    "softshrink": {"lambd": 0.7},
    "softshrink_grad": {"lambd": 0.7},
}
"""Each op's attribute values in the test modules (ops without attributes have none)."""

INPUTS: Mapping[str, tuple[str, ...]] = {op.name.removeprefix("hsg."): op.INPUTS
                                         for op in PIECEWISE_OPS}
STEMS = tuple(INPUTS)
"""Every bit-exact named op (the piecewise-linear family), by stem; the exponential ones
are packaged in test_exponential_ops.py."""


def family_module(stem: str, dtypes: Sequence[str] = tuple(DTYPES)) -> str:
    """One function @<stem>_<dt> per dtype, each one hsg.<stem> on a dynamic 1-D tensor."""
    attrs = ATTRIBUTES.get(stem, {})
    given = (" {" + ", ".join(f"{k} = {v!r} : f32" for k, v in attrs.items()) + "}"
             if attrs else "")
    functions = []
    for dt in dtypes:
        t = f"tensor<?x{dt}>"
        args = ", ".join(f"%{n}: {t}" for n in INPUTS[stem])
        operands = ", ".join(f"%{n}" for n in INPUTS[stem])
        functions.append(f"func.func @{stem}_{dt}({args}) -> {t} {{\n"
                         f"  %y = hsg.{stem} {operands}{given} : {t}\n"
                         f"  func.return %y : {t}\n}}\n")
    return "".join(functions)


@cache
def hswc_run(stem: str, dtype: str) -> runner.Kernel:
    """hswc-run's compiled kernel of the op in one dtype (on ascend910b)."""
    return runner.compile_text(family_module(stem, (dtype,)), function=f"{stem}_{dtype}")


def tiling_bytes(record: Mapping[str, int | float]) -> bytes:
    """The tiling struct as the kernel reads it: the int64 fields, then the float fields, in
    the order of the record (the kernel's), padded to the struct's 8-byte alignment."""
    scalars = [v for k, v in record.items() if isinstance(v, float)]
    data = struct.pack(f"<{len(TILING_FIELDS)}q{len(scalars)}f",
                       *(int(record[k]) for k in TILING_FIELDS), *scalars)
    return data + bytes(-len(data) % 8)


def run_on_cpu(executable: Path, inputs: Sequence[np.ndarray], record: Mapping[str, int | float],
               ub_size: int, workdir: Path) -> np.ndarray:
    """y of the harness-built kernel launched with the tiling `record` of hswc-run's launch
    (its key, cores and struct); AssertionError on a rule violation."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "tiling.bin").write_bytes(tiling_bytes(record))
    command = [str(executable), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(ub_size),
               "--tiling-file", str(workdir / "tiling.bin")]
    for i, array in enumerate(inputs):
        np.ascontiguousarray(array).tofile(workdir / f"in{i}.bin")
        command += ["--input", str(workdir / f"in{i}.bin")]
    command += ["--output", str(workdir / "y.bin"), "--auto-sync", "off"]  # hswc's own barriers
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and not done.stderr, f"{' '.join(command)}:\n{done.stderr}"
    return np.fromfile(workdir / "y.bin", dtype=inputs[0].dtype)


def same_bits(actual: np.ndarray, expected: np.ndarray) -> bool:
    """Bit for bit, any NaN matching any NaN (payloads are not part of the contract)."""
    view = np.uint16 if actual.dtype.itemsize == 2 else np.uint32
    nan = np.isnan(actual.astype(np.float32))
    return bool(np.array_equal(nan, np.isnan(expected.astype(np.float32)))
                and np.array_equal(actual[~nan].view(view), expected[~nan].view(view)))


def sample(stem: str, dtype: str, size: int, seed: int) -> list[np.ndarray]:
    """Inputs of the op: uniform values around its thresholds, with every special value
    (signed zeros, infinities, NaN in grad, the attribute values themselves) in them."""
    rng = np.random.default_rng(seed)
    t = DTYPES[dtype]
    edges = [0.0, -0.0, 3.0, -3.0, np.inf, -np.inf, *ATTRIBUTES.get(stem, {}).values()]
    edges += [-v for v in ATTRIBUTES.get(stem, {}).values()]
    arrays = []
    for name in INPUTS[stem]:
        values = rng.uniform(-5, 5, size).astype(np.float32)
        values[: len(edges)] = edges
        if name == "grad":  # other pairs of specials, and a NaN grad
            values[: len(edges)] = np.roll(values[: len(edges)], 3)
            values[len(edges)] = np.nan
        arrays.append(values.astype(t))
    return arrays


def unit_test_array(body: str, name: str, dtype: str) -> np.ndarray:
    """The array `name` of a kernel unit test's body (its elements as hex bits)."""
    values = re.search(rf"const std::vector<uint\d+_t> {name} = \{{(.*?)\}};", body, re.S)
    assert values, name
    raw = [int(b, 16) for b in re.findall(r"0x([0-9a-f]+) /\*", values[1])]
    return np.array(raw, dtype=BITS[dtype]).view(DTYPES[dtype])


def example_floats(text: str, name: str) -> np.ndarray:
    """The float vector `name` of an aclnn example (its host inputs, EXPECTED)."""
    found = re.search(rf"const std::vector<\w+> {name} = \{{(.*?)\}};", text)
    assert found, name
    return np.array([float(v.rstrip("f")) for v in found[1].split(", ")], np.float32)
