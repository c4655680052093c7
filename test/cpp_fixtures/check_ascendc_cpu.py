#!/usr/bin/env python3
"""Checks the AscendC CPU model (hswc/checker/ascendc_cpu) against independent references.

Builds, with g++ -std=c++17 -Wall -Wextra -Werror, once plainly and once with
-fsanitize=address,undefined:
  * the harness with the hand-written fixture kernel (hard_swish_grad_fixture.cpp),
  * the API self-test (ascendc_cpu_selftest.cpp),
and then checks
  1. the self-test's semantic unit tests;
  2. every violation case: exit status 3 and one "ascendc_cpu: <API>: ..." line;
  3. Cast f32->f16 (7 modes) and f32->bf16 (5 modes) against a reference built
     from the two representable neighbours of each value (exact rationals), and
     RNE additionally against numpy / ml_dtypes;
  4. f16->f32 and bf16->f32 for all 65536 patterns against numpy / ml_dtypes;
  5. Mul/Add/Sub/Muls/Adds/Div/Max/Min/Maxs/Mins/Abs/Relu in f16 and f32 against
     numpy and IEEE 754-2019 maximum/minimum, and Div against exactly rounded
     rational quotients;
  6. Cast f32 -> int32 (5 modes, saturating) and int32 -> f32 (5 modes) against
     numpy rounding and the two float neighbours of each integer;
  7. the fixture kernel through the harness, bit for bit against docs/SPEC.md
     section 2 computed with numpy, for every tiling key, several shapes, UB
     sizes, core counts (tiling as in SPEC section 4) and UB garbage bytes;
  8. the generic harness: elementwise_fixture.cpp (3 inputs, 2 outputs, its own
     tiling struct; untemplated with TILING_KEY_IS, and templated through
     HSWC_KERNEL_INSTANCES) against cpu_model_references.py;
  9. harness errors (exit 2) and harness-detected kernel violations (exit 3);
 10. refused calls (Exp, ...) and bf16 arithmetic fail to compile with their message.
Prints "N passed, M failed" and exits non-zero on any failure.

Usage: python3 test/cpp_fixtures/check_ascendc_cpu.py [--build-dir DIR] [--quick] [--no-sanitize]
"""

import argparse
import math
import os
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
from cpu_model_references import (
    cast_to_int,
    elementwise_expected,
    exact_quotients,
    ieee_maximum,
    ieee_minimum,
    int32_to_f32,
)

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "hswc" / "checker" / "ascendc_cpu"
FIXTURES = ROOT / "test" / "cpp_fixtures"
CXX = os.environ.get("CXX", "g++")
BASE_FLAGS = ["-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", str(MODEL)]
SAN_FLAGS = [
    "-O1",
    "-g",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
]

DTYPES = {0: np.float16, 1: np.float32, 2: ml_dtypes.bfloat16}
UINT = {0: np.uint16, 1: np.uint32, 2: np.uint16}


class Results:
    def __init__(self, echo=True):
        self.passed = 0
        self.failed = 0
        self.failures = []
        self.echo = echo

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(what)
            if self.echo:
                print(f"FAIL: {what}", flush=True)
        return ok


SELFTEST_SOURCES = [
    "ascendc_cpu_selftest.cpp",
    "selftest_vector.cpp",
    "selftest_cast.cpp",
    "selftest_sync.cpp",
]
GENERIC = ["-DHSWC_GM_INPUTS=3", "-DHSWC_GM_OUTPUTS=2"]
GENERIC_BUILDS = {
    "untemplated": [
        *GENERIC,
        "-DHSWC_KERNEL_ENTRY=elementwise_fixture",
        "-DHSWC_KERNEL_UNTEMPLATED",
    ],
    "instances": [
        *GENERIC,
        "-DHSWC_KERNEL_ENTRY=elementwise_fixture_t",
        "-DHSWC_KERNEL_INSTANCES=HSWC_INSTANCE(10, float, 1) HSWC_INSTANCE(20, half, 2)",
    ],
}
"""The two builds of elementwise_fixture.cpp: key 10 runs the float kernel, 20 the half one."""


def harness_command(flags, kernel, output):
    return [
        CXX,
        *flags,
        f'-DHSWC_KERNEL_SOURCE="{kernel}"',
        str(MODEL / "harness.cpp"),
        "-o",
        str(output),
    ]


def build(out_dir, sanitize, with_hard_swish_grad=True):
    """The HardSwishGrad harness (or None), the self-test and the two generic harness builds,
    compiled in parallel."""
    suffix = "_san" if sanitize else ""
    flags = BASE_FLAGS + (SAN_FLAGS if sanitize else ["-O2"])
    harness = out_dir / f"run_kernel{suffix}" if with_hard_swish_grad else None
    selftest = out_dir / f"selftest{suffix}"
    generic = {name: out_dir / f"elementwise_{name}{suffix}" for name in GENERIC_BUILDS}
    cmds = [
        [CXX, *flags, *(str(FIXTURES / f) for f in SELFTEST_SOURCES), "-o", str(selftest)],
        *(
            harness_command(
                [*flags, *GENERIC_BUILDS[name]], FIXTURES / "elementwise_fixture.cpp", exe
            )
            for name, exe in generic.items()
        ),
    ]
    if harness is not None:
        cmds.append(harness_command(flags, FIXTURES / "hard_swish_grad_fixture.cpp", harness))
    for cmd, (code, output) in zip(cmds, run_all(cmds), strict=True):
        if code != 0:
            sys.exit(f"build failed: {' '.join(cmd)}\n{output}")
    return harness, selftest, generic


def run_all(cmds):
    """(exit status, stdout + stderr) of each command, run in parallel."""
    running = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for cmd in cmds
    ]
    return [(p.wait(), p.communicate()[0]) for p in running]


# ----------------------------------------------------------------- references


def spec_expected(key, grad, x):
    """docs/SPEC.md section 2, every step in float32 with RNE."""
    with np.errstate(all="ignore"):
        xf = x.astype(np.float32)
        gf = grad.astype(np.float32)
        s = xf * np.float32(0.333333343)
        s = s + np.float32(0.5)
        s = np.where(xf > np.float32(-3.0), s, np.float32(0.0)).astype(np.float32)
        s = np.where(xf < np.float32(3.0), s, np.float32(1.0)).astype(np.float32)
        yf = gf * s
        return yf.astype(DTYPES[key])


def same_bits(key, got, want):
    """Bit equality, except that any NaN matches any NaN (payloads unspecified)."""
    gb = got.view(UINT[key])
    wb = want.view(UINT[key])
    gn = np.isnan(got.astype(np.float32))
    wn = np.isnan(want.astype(np.float32))
    bad = ~((gb == wb) | (gn & wn))
    return np.flatnonzero(bad)


FORMATS = {"f16": (10, 5, np.float16, np.uint16), "bf16": (7, 8, ml_dtypes.bfloat16, np.uint16)}


def bits_to_fraction(fmt, b):
    _mant, _expbits, dt, ut = FORMATS[fmt]
    v = float(np.array([b], dtype=ut).view(dt)[0])
    if math.isinf(v):
        return None
    return Fraction(v)


def next_up(fmt, b):
    """Next representable value above bit pattern b (finite or -inf)."""
    mant, expbits, _, _ = FORMATS[fmt]
    sign = 1 << (mant + expbits)
    if b & ~sign == 0:  # +-0
        return 1
    return b + 1 if not b & sign else b - 1


def next_down(fmt, b):
    mant, expbits, _, _ = FORMATS[fmt]
    sign = 1 << (mant + expbits)
    if b & ~sign == 0:
        return sign | 1
    return b - 1 if not b & sign else b + 1


def reference_cast(fmt, f32bits, mode):  # noqa: C901 (one branch per round mode)
    """Rounds f32 value to fmt by choosing between its two neighbours."""
    mant, expbits, dt, ut = FORMATS[fmt]
    sign = 1 << (mant + expbits)
    inf = ((1 << expbits) - 1) << mant
    v = struct.unpack("<f", struct.pack("<I", f32bits))[0]
    neg = bool(f32bits >> 31)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return (sign if neg else 0) | inf
    if v == 0:
        return sign if neg else 0
    with np.errstate(all="ignore"):
        rne = int(np.array([v], dtype=np.float32).astype(dt).view(ut)[0])
    fv = Fraction(v)
    rv = bits_to_fraction(fmt, rne)
    if rv is not None and rv == fv:
        return rne  # exact in every mode
    if rv is None or rv > fv:  # rne is the upper neighbour (or overflowed to +-inf)
        hi = rne
        lo = next_down(fmt, rne) if rv is not None else (sign | (inf - 1) if neg else inf - 1)
        if rv is None and neg:
            lo, hi = rne, sign | (inf - 1)  # -inf below, -max above
    else:
        lo, hi = rne, next_up(fmt, rne)
    emax = (1 << (expbits - 1)) - 1
    beyond = Fraction(2) ** (emax + 1)  # distance stand-in for an infinite neighbour

    def val(b):
        f = bits_to_fraction(fmt, b)
        if f is None:
            return -beyond if b & sign else beyond
        return f

    lv, hv = val(lo), val(hi)
    lo_inf = bits_to_fraction(fmt, lo) is None
    hi_inf = bits_to_fraction(fmt, hi) is None
    assert (lo_inf or lv < fv) and (hi_inf or fv < hv), (fmt, hex(f32bits), hex(lo), hex(hi))
    if mode == "FLOOR":
        return lo
    if mode == "CEIL":
        return hi
    if mode == "TRUNC":
        return lo if not neg else hi
    if mode in ("RINT", "NONE"):
        return rne
    if mode == "ROUND":
        dl, dh = fv - lv, hv - fv
        if dl != dh:
            return lo if dl < dh else hi
        return hi if not neg else lo  # tie: away from zero
    if mode == "ODD":
        return lo if lo & 1 else hi
    raise ValueError(mode)


def cast_inputs(rng, count):
    vals = [rng.integers(0, 2**32, size=count, dtype=np.uint64).astype(np.uint32)]
    # f16 range: uniform exponents incl. subnormals and overflow, plus exact ties
    f = (rng.uniform(1, 2, size=count) * 2.0 ** rng.integers(-28, 18, size=count)).astype(
        np.float32
    )
    f *= rng.choice([-1, 1], size=count).astype(np.float32)
    vals.append(f.view(np.uint32))
    hb = rng.integers(0, 0x7BFF, size=count // 2).astype(np.uint16)
    lo = hb.view(np.float16).astype(np.float64)
    hi = (hb + 1).view(np.float16).astype(np.float64)
    for t in (0.5, 0.25, 0.75):
        vals.append((lo + (hi - lo) * t).astype(np.float32).view(np.uint32))
    b32 = rng.integers(0, 2**32, size=count, dtype=np.uint64).astype(np.uint32)
    vals.append((b32 & 0xFFFF0000) | 0x8000)  # bf16 ties
    vals.append((b32 & 0xFFFF0000) | 0x8001)
    vals.append((b32 & 0xFFFF0000) | 0x7FFF)
    special = [
        0,
        0x80000000,
        0x7F800000,
        0xFF800000,
        0x7FC00000,
        0xFFC00001,
        0x7F7FFFFF,
        0xFF7FFFFF,
        0x00000001,
        0x80000001,
        0x477FE000,
        0x477FEFFF,
        0x477FF000,
        0x477FF001,
        0x33000000,
        0x33000001,
        0xB3000000,
        0x32FFFFFF,
        0x387FC000,
        0x38800000,
        0x7F7F8000,
        0x7F7FFFFF,
    ]
    vals.append(np.array(special, dtype=np.uint32))
    return np.concatenate(vals)


def run_table(res, selftest, tmp, option, values, dtype, columns):
    """`selftest OPTION IN OUT` on `values`: OUT as rows of `columns` words, or None."""
    (tmp / "table_in.bin").write_bytes(values.tobytes())
    r = subprocess.run(
        [str(selftest), option, str(tmp / "table_in.bin"), str(tmp / "table_out.bin")],
        capture_output=True,
        text=True,
    )
    if not res.check(r.returncode == 0, f"{option} run: {r.stderr}"):
        return None
    return np.fromfile(tmp / "table_out.bin", dtype=dtype).reshape(-1, columns)


def check_casts(res, selftest, tmp, rng, count):
    inp = cast_inputs(rng, count)
    out = run_table(res, selftest, tmp, "--cast-table", inp, np.uint16, 12)
    if out is None:
        return
    cols = [("f16", m) for m in ("NONE", "RINT", "FLOOR", "CEIL", "ROUND", "TRUNC", "ODD")] + [
        ("bf16", m) for m in ("RINT", "FLOOR", "CEIL", "ROUND", "TRUNC")
    ]
    bad = {c: 0 for c in cols}
    first = {}
    for i, b in enumerate(inp.tolist()):
        for j, (fmt, mode) in enumerate(cols):
            want = reference_cast(fmt, b, mode)
            got = int(out[i, j])
            mant, expbits, _, _ = FORMATS[fmt]
            if want == "nan":
                expmask = ((1 << expbits) - 1) << mant
                ok = (
                    (got & expmask) == expmask
                    and (got & ((1 << mant) - 1)) != 0
                    and (got >> (mant + expbits)) == (b >> 31)
                    and (got >> (mant - 1)) & 1 == 1
                )
            else:
                ok = got == want
            if not ok:
                bad[(fmt, mode)] += 1
                first.setdefault(
                    (fmt, mode), (hex(b), hex(got), want if want == "nan" else hex(want))
                )
    for c in cols:
        res.check(
            bad[c] == 0,
            f"Cast f32->{c[0]} {c[1]}: {bad[c]} of {len(inp)} wrong, first {first.get(c)}",
        )
    # RNE against numpy / ml_dtypes directly (independent of reference_cast)
    f = inp.view(np.float32)
    with np.errstate(all="ignore"):
        for fmt, col, dt in (
            ("f16", 1, np.float16),
            ("f16", 0, np.float16),
            ("bf16", 7, ml_dtypes.bfloat16),
        ):
            want = f.astype(dt)
            got = out[:, col].copy().view(dt)
            idx = same_bits(0 if fmt == "f16" else 2, got, want)
            res.check(len(idx) == 0, f"Cast f32->{fmt} column {col} vs numpy: {len(idx)} differ")


def check_widen(res, selftest, tmp):
    r = subprocess.run(
        [str(selftest), "--widen-table", str(tmp / "widen.bin")], capture_output=True, text=True
    )
    if not res.check(r.returncode == 0, f"widen table run: {r.stderr}"):
        return
    got = np.fromfile(tmp / "widen.bin", dtype=np.uint32).reshape(2, 65536)
    pats = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    want16 = pats.view(np.float16).astype(np.float32).view(np.uint32)
    wantbf = pats.view(ml_dtypes.bfloat16).astype(np.float32).view(np.uint32)
    res.check(np.array_equal(got[0], want16), "f16->f32 exhaustive")
    res.check(np.array_equal(got[1], wantbf), "bf16->f32 exhaustive")


def arith_operands(rng, dt, n):
    with np.errstate(all="ignore"):
        a = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, size=n)).astype(dt)
        b = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, size=n)).astype(dt)
    fin = np.finfo(dt)
    special = np.array(
        [
            0.0,
            -0.0,
            np.inf,
            -np.inf,
            np.nan,
            float(fin.max),
            -float(fin.max),
            float(fin.smallest_subnormal),
            float(fin.tiny),
            1.0,
            -1.0,
            3.0,
        ],
        dtype=dt,
    )
    a[: len(special)] = special
    b[: len(special)] = special[::-1]
    b[0] = dt(0.333333343)
    return a, b


ARITH_OPS = (
    "Mul",
    "Add",
    "Sub",
    "Muls",
    "Adds",
    "Div",
    "Max",
    "Min",
    "Maxs",
    "Mins",
    "Abs",
    "Relu",
)


def arith_expected(a, b):
    """The rows of `selftest --arith`, from numpy (IEEE RNE) and IEEE 754-2019 max/min."""
    s = np.full_like(a, b[0])
    with np.errstate(all="ignore"):
        return [
            a * b,
            a + b,
            a - b,
            a * b[0],
            a + b[0],
            a / b,
            ieee_maximum(a, b),
            ieee_minimum(a, b),
            ieee_maximum(a, s),
            ieee_minimum(a, s),
            np.abs(a),
            ieee_maximum(a, np.zeros_like(a)),
        ]


def check_arith(res, selftest, tmp, rng, n):
    for name, dt in (("f16", np.float16), ("f32", np.float32)):
        a, b = arith_operands(rng, dt, n)
        (tmp / "a.bin").write_bytes(a.tobytes())
        (tmp / "b.bin").write_bytes(b.tobytes())
        r = subprocess.run(
            [
                str(selftest),
                "--arith",
                name,
                str(tmp / "a.bin"),
                str(tmp / "b.bin"),
                str(tmp / "ab.bin"),
            ],
            capture_output=True,
            text=True,
        )
        if not res.check(r.returncode == 0, f"arith {name} run: {r.stderr}"):
            continue
        got = np.fromfile(tmp / "ab.bin", dtype=dt).reshape(len(ARITH_OPS), n)
        key = 0 if name == "f16" else 1
        for op, g, w in zip(ARITH_OPS, got, arith_expected(a, b), strict=True):
            idx = same_bits(key, g, w.astype(dt))
            res.check(len(idx) == 0, f"{op} {name}: {len(idx)} differ, first at {idx[:3]}")
        # Div against exactly rounded rational quotients (finite operands, b != 0).
        k = min(n, 3000)
        exact = exact_quotients(a[:k], b[:k])
        known = ~np.isnan(exact)
        idx = same_bits(key, got[ARITH_OPS.index("Div")][:k][known], exact[known])
        res.check(
            len(idx) == 0 and known.sum() > k // 2,
            f"Div {name} vs exact rationals: {len(idx)} of {known.sum()} differ",
        )


def int_cast_inputs(rng, count):
    """f32 values for Cast to int32: integers, ties, fractions, huge values, +-inf (no NaN)."""
    ints = rng.integers(-(2**31), 2**31, size=count).astype(np.float64)
    halves = rng.integers(-(2**22), 2**22, size=count) + 0.5
    frac = rng.uniform(-1000, 1000, size=count)
    huge = rng.choice([-1, 1], size=count) * 2.0 ** rng.uniform(24, 40, size=count)
    special = [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        2.5,
        -2.5,
        0.5,
        -0.5,
        1.5,
        2147483520.0,
        2147483648.0,
        -2147483648.0,
        -2147483904.0,
        16777217.0,
        3e9,
        -3e9,
    ]
    v = np.concatenate([ints, halves, frac, huge, special]).astype(np.float32)
    return v[~np.isnan(v)]


def check_int_casts(res, selftest, tmp, rng, count):
    inp = int_cast_inputs(rng, count)
    out = run_table(res, selftest, tmp, "--int-cast-table", inp, np.uint32, 10)
    if out is None:
        return
    as_int = inp.view(np.int32)
    for m, mode in enumerate(("RINT", "FLOOR", "CEIL", "ROUND", "TRUNC")):
        got = out[:, m].view(np.int32)
        want = cast_to_int(inp, mode, np.int32)
        bad = np.flatnonzero(got != want)
        res.check(
            len(bad) == 0,
            f"Cast f32->int32 {mode}: {len(bad)} differ, e.g. "
            f"{inp[bad[:3]]} -> {got[bad[:3]]} want {want[bad[:3]]}",
        )
        got_f = out[:, 5 + m].view(np.float32)
        want_f = int32_to_f32(as_int, mode)
        bad = np.flatnonzero(got_f.view(np.uint32) != want_f.view(np.uint32))
        res.check(
            len(bad) == 0, f"Cast int32->f32 {mode}: {len(bad)} differ, e.g. {as_int[bad[:3]]}"
        )
    want_rne = as_int.astype(np.float32)  # numpy converts with RNE: independent of int32_to_f32
    res.check(np.array_equal(out[:, 5], want_rne.view(np.uint32)), "Cast int32->f32 RINT vs numpy")


# ----------------------------------------------------------------- fixture runs


def tiling(total, core_num, ub_size):
    """docs/SPEC.md section 4."""
    if total == 0:
        return 1, (0, 0, 0)
    block_factor = -(-total // core_num)
    used = -(-total // block_factor)
    ub_factor = (ub_size - 1024) // 48 // 64 * 64
    assert ub_factor > 0
    return used, (total, block_factor, ub_factor)


def make_inputs(rng, key, n):
    dt = DTYPES[key]
    x = rng.uniform(-5.0, 5.0, size=n)
    grad = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, size=n)
    f16max = 65504.0 if key == 0 else 1e30
    xs = [
        -3.0,
        3.0,
        np.nan,
        np.inf,
        -np.inf,
        -0.0,
        0.0,
        2.9999,
        -2.9999,
        3.0001,
        -3.0001,
        2.5,
        -1.5,
        1e-30,
        -1e-30,
        0.5,
    ]
    gs = [
        -1.0,
        np.inf,
        7.0,
        np.nan,
        2.0,
        -np.inf,
        5.0,
        1.0,
        -1.0,
        3.0,
        0.0,
        f16max,
        -0.0,
        1.0,
        -2.0,
        np.nan,
    ]
    k = min(n, len(xs))
    pos = rng.permutation(n)[:k]
    x[pos] = xs[:k]
    grad[pos] = gs[:k]
    with np.errstate(all="ignore"):
        return grad.astype(dt), x.astype(dt)


def run_harness(harness, args, tmp):
    return subprocess.run([str(harness), *args], capture_output=True, text=True, cwd=tmp)


def check_fixture(res, harness, tmp, rng, quick, label):
    shapes = [1, 63, 64, 65, 4031, 4032, 4033, 100003]
    ub_sizes = [8192, 196608] if quick else [4096, 8192, 196608]
    core_nums = [1, 48] if quick else [1, 7, 48]
    for key in (0, 1, 2):
        for n in shapes:
            grad, x = make_inputs(rng, key, n)
            (tmp / "grad.bin").write_bytes(grad.tobytes())
            (tmp / "x.bin").write_bytes(x.tobytes())
            want = spec_expected(key, grad, x)
            for ub in ub_sizes:
                for cores in core_nums:
                    fills = ["0xA5", "0x00", "0xFF"] if (n == 4033 and cores == 7) else ["0xA5"]
                    for fill in fills:
                        block_dim, t = tiling(n, cores, ub)
                        args = [
                            "--tiling-key",
                            str(key),
                            "--block-dim",
                            str(block_dim),
                            "--ub-size",
                            str(ub),
                            "--tiling",
                            ",".join(map(str, t)),
                            "--ub-fill",
                            fill,
                            "grad.bin",
                            "x.bin",
                            "y.bin",
                        ]
                        r = run_harness(harness, args, tmp)
                        what = f"{label} key={key} n={n} ub={ub} cores={cores} fill={fill}"
                        if not res.check(
                            r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr.strip()}"
                        ):
                            continue
                        got = np.frombuffer((tmp / "y.bin").read_bytes(), dtype=DTYPES[key])
                        idx = same_bits(key, got, want)
                        res.check(
                            len(idx) == 0,
                            f"{what}: {len(idx)} elements differ, first at {idx[:5]}: "
                            f"got {got[idx[:3]]} want {want[idx[:3]]}",
                        )


def check_section7(res, harness, tmp):
    x = np.array([-4, -3, -2, -1, 0, 1, 2, 3, 4], dtype=np.float32)
    g = np.array([1, 2, 3, -4, 5, -6, 7, 8, -9], dtype=np.float32)
    (tmp / "grad.bin").write_bytes(g.tobytes())
    (tmp / "x.bin").write_bytes(x.tobytes())
    r = run_harness(
        harness,
        [
            "--tiling-key",
            "1",
            "--block-dim",
            "1",
            "--ub-size",
            "196608",
            "--tiling",
            "9,9,4032",
            "grad.bin",
            "x.bin",
            "y.bin",
        ],
        tmp,
    )
    got = (
        np.frombuffer((tmp / "y.bin").read_bytes(), dtype=np.float32) if r.returncode == 0 else None
    )
    want = np.array([0, 0, -0.50000006, -0.6666666, 2.5, -5, 8.166667, 8, -9], dtype=np.float32)
    res.check(got is not None and np.array_equal(got, want), f"SPEC section 7 example: {got}")


def expect_exit(res, what, r, code, prefix):
    lines = r.stderr.strip().splitlines()
    return res.check(
        r.returncode == code and lines and lines[0].startswith(prefix),
        f"harness {what}: exit {r.returncode}, stderr {r.stderr.strip()!r}",
    )


def check_harness_errors(res, harness, tmp):
    """The HardSwishGrad fixture's harness: the --tiling shorthand and positional files."""
    g = np.zeros(100, dtype=np.float32)
    (tmp / "g100.bin").write_bytes(g.tobytes())
    (tmp / "g99.bin").write_bytes(g[:99].tobytes())
    (tmp / "odd.bin").write_bytes(b"\0" * 7)
    one = ["--tiling-key", "1", "--ub-size", "8192", "--block-dim", "1"]
    files = ["g100.bin", "g100.bin", "y.bin"]
    cases = [
        (
            "missing file",
            [*one, "--tiling", "100,100,128", "nope.bin", "g100.bin", "y.bin"],
            2,
            "run_kernel:",
        ),
        (
            "bad key",
            ["--tiling-key", "3", *one[2:], "--tiling", "100,100,128", *files],
            2,
            "run_kernel:",
        ),
        ("missing option", ["--tiling-key", "1", *files], 2, "run_kernel:"),
        ("bad tiling shorthand", [*one, "--tiling", "100,100", *files], 2, "run_kernel:"),
        ("two files", [*one, "--tiling", "100,100,128", "g100.bin", "y.bin"], 2, "run_kernel:"),
        # x is shorter than grad: the kernel's copy-in reads past its end.
        (
            "size mismatch",
            [*one, "--tiling", "100,100,128", "g100.bin", "g99.bin", "y.bin"],
            3,
            "ascendc_cpu: DataCopyPad:",
        ),
        # 3 halves in 7-byte files: the last byte of y is never written.
        (
            "odd size",
            ["--tiling-key", "0", *one[2:], "--tiling", "3,3,128", "odd.bin", "odd.bin", "y.bin"],
            3,
            "ascendc_cpu: harness:",
        ),
        (
            "tiling shorter than the data",
            [*one, "--tiling", "99,99,128", *files],
            3,
            "ascendc_cpu: harness:",
        ),
        # Too few cores for the tiling: the last 50 elements of y are never written.
        (
            "unwritten y",
            [*one[:4], "--block-dim", "5", "--tiling", "100,10,128", *files],
            3,
            "ascendc_cpu: harness:",
        ),
        # ubFactor too big for an 8 KiB UB.
        (
            "ub overflow",
            [*one, "--tiling", "100,100,6400", *files],
            3,
            "ascendc_cpu: TPipe::InitBuffer: UB overflow",
        ),
        # ubFactor not a multiple of 64: the vector ops run past the UB buffers.
        ("ubfactor unaligned", [*one, "--tiling", "100,100,100", *files], 3, "ascendc_cpu: "),
    ]
    for what, args, code, prefix in cases:
        expect_exit(res, what, run_harness(harness, args, tmp), code, prefix)


def elementwise_tiling(total, block_factor, ub_factor, lo, hi, scale):
    """The ElementwiseFixtureTiling struct of elementwise_fixture.cpp as bytes."""
    t = np.array(
        [(total, block_factor, ub_factor, lo, hi, scale)],
        dtype=[
            ("totalNum", "<u4"),
            ("blockFactor", "<u4"),
            ("ubFactor", "<u4"),
            ("lo", "<f4"),
            ("hi", "<f4"),
            ("scale", "<f4"),
        ],
    )
    return t.tobytes()


def elementwise_inputs(rng, dt, n):
    """a, b with NaN, +-inf, +-0, subnormals; c finite or infinite (a NaN in c has no int32)."""

    def values(allow_nan):
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, size=n)
        special = [0.0, -0.0, np.inf, -np.inf, 1e-45 if dt == np.float32 else 6e-8, -2.5, 2.5]
        special += [np.nan] if allow_nan else []
        k = min(n, len(special))
        v[rng.permutation(n)[:k]] = special[:k]
        with np.errstate(all="ignore"):
            return v.astype(dt)

    return values(True), values(True), values(False)


def run_elementwise(exe, key, a, b, c, cores, ub_factor, tmp, ub_size=196608):
    n = a.size
    block_factor = max(1, -(-n // cores))
    used = max(1, -(-n // block_factor))
    lo, hi, scale = -4.0, 4.0, 1000.0
    (tmp / "ew_tiling.bin").write_bytes(
        elementwise_tiling(n, block_factor, ub_factor, lo, hi, scale)
    )
    for name, v in (("a", a), ("b", b), ("c", c)):
        (tmp / f"ew_{name}.bin").write_bytes(v.tobytes())
    args = [
        "--tiling-key",
        str(key),
        "--block-dim",
        str(used),
        "--ub-size",
        str(ub_size),
        "--tiling-file",
        "ew_tiling.bin",
        "--input",
        "ew_a.bin",
        "--input",
        "ew_b.bin",
        "--input",
        "ew_c.bin",
        "--output",
        "ew_clamped.bin",
        "--output",
        "ew_scaled.bin",
        "--output-bytes",
        str(a.nbytes),
        "--output-bytes",
        str(4 * n),
    ]
    r = run_harness(exe, args, tmp)
    if r.returncode != 0:
        return r, None, None
    clamped = np.fromfile(tmp / "ew_clamped.bin", dtype=a.dtype)
    scaled = np.fromfile(tmp / "ew_scaled.bin", dtype=np.int32)
    return r, clamped, scaled


def check_generic(res, generic, tmp, rng, quick, label):
    """Both builds of elementwise_fixture.cpp against cpu_model_references.elementwise_expected."""
    shapes = [1, 63, 64, 1000, 4097] if quick else [1, 63, 64, 65, 1000, 4097, 20000]
    for build_name, exe in generic.items():
        for key, dt in ((10, np.float32), (20, np.float16)):
            for n in shapes:
                a, b, c = elementwise_inputs(rng, dt, n)
                want = elementwise_expected(a, b, c, -4.0, 4.0, 1000.0)
                for cores, ub_factor in ((1, 64), (3, 1024), (8, 128)):
                    what = (
                        f"{label} {build_name} key={key} n={n} cores={cores} ubFactor={ub_factor}"
                    )
                    r, clamped, scaled = run_elementwise(exe, key, a, b, c, cores, ub_factor, tmp)
                    if not res.check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}"):
                        continue
                    idx = same_bits(0 if dt == np.float16 else 1, clamped, want[0])
                    res.check(
                        len(idx) == 0,
                        f"{what}: clamped: {len(idx)} differ, first {idx[:3]}: "
                        f"got {clamped[idx[:3]]} want {want[0][idx[:3]]}",
                    )
                    bad = np.flatnonzero(scaled != want[1])
                    res.check(
                        len(bad) == 0,
                        f"{what}: scaled: {len(bad)} differ, first {bad[:3]}: "
                        f"got {scaled[bad[:3]]} want {want[1][bad[:3]]}",
                    )


def check_generic_errors(res, generic, tmp):
    """The generic harness CLI: counts of files, the tiling forms, keys, output sizes."""
    f = np.zeros(64, dtype=np.float32)
    (tmp / "f64.bin").write_bytes(f.tobytes())
    (tmp / "ew_tiling.bin").write_bytes(elementwise_tiling(64, 64, 64, -1.0, 1.0, 1.0))
    (tmp / "short_tiling.bin").write_bytes(b"\0" * 8)
    base = ["--block-dim", "1", "--ub-size", "196608"]
    ins = ["--input", "f64.bin"] * 3
    outs = ["--output", "o0.bin", "--output", "o1.bin"]
    tiling = ["--tiling-file", "ew_tiling.bin"]
    cases = [
        (
            "untemplated",
            "two inputs",
            ["--tiling-key", "10", *base, *tiling, *ins[:4], *outs],
            2,
            "run_kernel:",
        ),
        (
            "untemplated",
            "one output-bytes",
            ["--tiling-key", "10", *base, *tiling, *ins, *outs, "--output-bytes", "4"],
            2,
            "run_kernel:",
        ),
        (
            "untemplated",
            "files twice",
            ["--tiling-key", "10", *base, *tiling, *ins, *outs, "f64.bin"],
            2,
            "run_kernel:",
        ),
        (
            "untemplated",
            "two tilings",
            ["--tiling-key", "10", *base, *tiling, "--tiling", "1,2,3", *ins, *outs],
            2,
            "run_kernel:",
        ),
        (
            "untemplated",
            "no tiling file",
            ["--tiling-key", "10", *base, "--tiling-file", "no.bin", *ins, *outs],
            2,
            "run_kernel:",
        ),
        (
            "untemplated",
            "negative key",
            ["--tiling-key", "-1", *base, *tiling, *ins, *outs],
            2,
            "run_kernel:",
        ),
        (
            "instances",
            "key not instantiated",
            ["--tiling-key", "11", *base, *tiling, *ins, *outs],
            2,
            "run_kernel: tiling key 11 is not instantiated in this build (keys: 10, 20)",
        ),
        # No TILING_KEY_IS branch matches: nothing is written.
        (
            "untemplated",
            "key no branch takes",
            ["--tiling-key", "11", *base, *tiling, *ins, *outs],
            3,
            "ascendc_cpu: harness: 256 of 256 bytes of output 0 (o0.bin) were never written",
        ),
        (
            "untemplated",
            "tiling file too short",
            ["--tiling-key", "10", *base, "--tiling-file", "short_tiling.bin", *ins, *outs],
            3,
            "ascendc_cpu: GET_TILING_DATA_WITH_STRUCT:",
        ),
        (
            "instances",
            "output too small",
            [
                "--tiling-key",
                "10",
                *base,
                *tiling,
                *ins,
                *outs,
                "--output-bytes",
                "256",
                "--output-bytes",
                "200",
            ],
            3,
            "ascendc_cpu: DataCopyPad: write of 256 bytes at byte 0 of GM tensor 'output 1",
        ),
        (
            "instances",
            "output larger than written",
            [
                "--tiling-key",
                "10",
                *base,
                *tiling,
                *ins,
                *outs,
                "--output-bytes",
                "260",
                "--output-bytes",
                "256",
            ],
            3,
            "ascendc_cpu: harness: 4 of 260 bytes of output 0 (o0.bin)",
        ),
    ]
    for build_name, what, args, code, prefix in cases:
        expect_exit(
            res, f"{build_name} {what}", run_harness(generic[build_name], args, tmp), code, prefix
        )
    # The outputs are written also when the harness reports unwritten bytes.
    r = run_harness(
        generic["untemplated"], ["--tiling-key", "11", *base, *tiling, *ins, *outs], tmp
    )
    res.check(
        r.returncode == 3 and (tmp / "o1.bin").read_bytes() == b"\xa5" * 256,
        "unwritten outputs are written (filled with the --ub-fill byte)",
    )


UNSPECIFIED = "is not modelled: its hardware result is not exactly specified"
REFUSED = {
    "Sin(t, t, 8)": f"ascendc_cpu: Sin {UNSPECIFIED}",
    "Log2<float>(t, t, 8)": f"ascendc_cpu: Log2 {UNSPECIFIED}",
    "Log10(t, t, 8)": f"ascendc_cpu: Log10 {UNSPECIFIED}",
    "Erfc<float, false>(t, t, 8, 1, UnaryRepeatParams())": f"ascendc_cpu: Erfc {UNSPECIFIED}",
    "Erf(h, h, 8)": "the library's Erf and Tanh take half and float",
    "Exp(h, h, 8)": "Exp supports (half, float) on Atlas A2/A3",
    "Sigmoid(h, h, 8)": "ascendc_cpu: Sigmoid takes half and float",
    "Axpy(t, t, 2.0f, 8)": f"ascendc_cpu: Axpy {UNSPECIFIED}",
    "FusedMulAdd(t, t, t, 8)": f"ascendc_cpu: FusedMulAdd {UNSPECIFIED}",
    "BlockReduceSum(h, h, 1, 64, 1, 1, 8)": "BlockReduceSum supports (half, float) on Atlas A2/A3",
    "Add(h, h, h, 8)": "Add supports (half, float, int16_t, int32_t) on Atlas A2/A3",
    "Muls(h, h, bfloat16_t(2.0f), 8)": "Muls supports (half, float, int16_t, int32_t)",
    "Cast(t.ReinterpretCast<half>(), t.ReinterpretCast<int32_t>(), RoundMode::CAST_NONE, 8)": (
        "ascendc_cpu: Cast int32_t -> half is not modelled"
    ),
    "Not(t, t, 8)": "Not supports (int16_t, uint16_t)",
    # The level-0 compare/select: the API table's mask form, the register forms.
    "Compares(h.ReinterpretCast<uint8_t>(), h, bfloat16_t(0.0f), CMPMODE::GT, uint64_t{64}, 1, "
    "UnaryRepeatParams{})": "CompareScalar supports (half, float, int32_t) on Atlas A2/A3",
    "Compare(t, t, CMPMODE::LT, uint64_t{64}, BinaryRepeatParams{})": (
        "ascendc_cpu: Compare is not modelled: the form without dst writes the CMPMASK register"
    ),
    "Select<float, SELMODE::VSEL_CMPMASK_SPR>(t, t, t, 1, BinaryRepeatParams{})": (
        "ascendc_cpu: Select is not modelled: the form without a mask"
    ),
    "Select(t, t.ReinterpretCast<uint8_t>(), t, 1, BinaryRepeatParams{})": (
        "ascendc_cpu: Select is not modelled: the form without a mask"
    ),
    "SetCmpMask(t)": "ascendc_cpu: SetCmpMask is not modelled: the model has no CMPMASK register",
}
"""Calls that must not compile, and a piece of their error message."""


def check_refusals(res, tmp):
    """Every REFUSED call is a compile error with its message (one file holding them all, each
    in its own function: g++ reports each failed static_assert); the file compiles without
    them."""

    def source(calls):
        body = "".join(
            f"void F{i}(const LocalTensor<float>& t, const LocalTensor<bfloat16_t>& h)"
            f" {{ (void)t; (void)h; {call}; }}\n"
            for i, call in enumerate(calls)
        )
        return f'#include "kernel_operator.h"\nusing namespace AscendC;\n{body}'

    refused, control = tmp / "refused.cpp", tmp / "refused_control.cpp"
    refused.write_text(source(REFUSED))
    control.write_text(source(["Abs(t, t, 8)"]))
    (code, output), (control_code, control_output) = run_all(
        [[CXX, *BASE_FLAGS, "-fsyntax-only", str(f)] for f in (refused, control)]
    )
    for call, message in REFUSED.items():
        res.check(
            code != 0 and message in output, f"refused {call}: want {message!r} in the errors"
        )
    res.check(control_code == 0, f"the refusal test file compiles with Abs: {control_output}")


def check_selftest(res, selftest, label):
    r = subprocess.run([str(selftest)], capture_output=True, text=True)
    res.check(
        r.returncode == 0 and ", 0 failed" in r.stdout, f"{label} selftest: {r.stdout}{r.stderr}"
    )
    listing = subprocess.run(
        [str(selftest), "--list-violations"], capture_output=True, text=True
    ).stdout
    cases = [line.split("\t") for line in listing.strip().splitlines()]
    res.check(len(cases) >= 20, f"{label}: violation cases listed: {len(cases)}")
    for name, api in cases:
        r = subprocess.run([str(selftest), "--violate", name], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        ok = r.returncode == 3 and len(lines) == 1 and lines[0].startswith(f"ascendc_cpu: {api}: ")
        res.check(ok, f"{label} violation {name}: exit {r.returncode}, stderr {r.stderr.strip()!r}")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--build-dir", type=Path)
    ap.add_argument(
        "--quick", action="store_true", help="fewer fixture configurations and cast values"
    )
    ap.add_argument("--no-sanitize", action="store_true", help="skip the ASan/UBSan build")
    args = ap.parse_args()
    res = Results()
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        out = args.build_dir or tmp
        out.mkdir(parents=True, exist_ok=True)
        builds = [("plain", *build(out, False))]
        if not args.no_sanitize:
            builds.append(("asan+ubsan", *build(out, True)))
        rng = np.random.default_rng(20250701)
        for label, harness, selftest, generic in builds:
            quick = args.quick or label != "plain"
            check_selftest(res, selftest, label)
            check_section7(res, harness, tmp)
            check_harness_errors(res, harness, tmp)
            check_generic_errors(res, generic, tmp)
            check_fixture(res, harness, tmp, rng, quick, label)
            check_generic(res, generic, tmp, rng, quick, label)
        plain_selftest = builds[0][2]
        check_casts(res, plain_selftest, tmp, rng, 2000 if args.quick else 20000)
        check_widen(res, plain_selftest, tmp)
        check_arith(res, plain_selftest, tmp, rng, 4096 if args.quick else 65536)
        check_int_casts(res, plain_selftest, tmp, rng, 2000 if args.quick else 20000)
        check_refusals(res, tmp)
    print(f"{res.passed} passed, {res.failed} failed")
    return 0 if res.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
