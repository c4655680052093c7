#!/usr/bin/env python3
"""Checks the AscendC CPU model (tools/ascendc_cpu) against independent references.

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
  5. Mul/Add/Sub/Muls/Adds in f16 and f32 against numpy;
  6. the fixture kernel through the harness, bit for bit against docs/SPEC.md
     section 2 computed with numpy, for every tiling key, several shapes, UB
     sizes, core counts (tiling as in SPEC section 4) and UB garbage bytes;
  7. harness errors (exit 2) and harness-detected kernel violations (exit 3).
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

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "tools" / "ascendc_cpu"
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
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}", flush=True)
        return ok


def build(out_dir, sanitize):
    suffix = "_san" if sanitize else ""
    flags = BASE_FLAGS + (SAN_FLAGS if sanitize else ["-O2"])
    harness = out_dir / f"run_kernel{suffix}"
    selftest = out_dir / f"selftest{suffix}"
    kernel = FIXTURES / "hard_swish_grad_fixture.cpp"
    cmds = [
        [
            CXX,
            *flags,
            f'-DHSWC_KERNEL_SOURCE="{kernel}"',
            str(MODEL / "harness.cpp"),
            "-o",
            str(harness),
        ],
        [CXX, *flags, str(FIXTURES / "ascendc_cpu_selftest.cpp"), "-o", str(selftest)],
    ]
    for cmd in cmds:
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"build failed: {' '.join(cmd)}\n{r.stderr}")
    return harness, selftest


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


def check_casts(res, selftest, tmp, rng, count):
    inp = cast_inputs(rng, count)
    (tmp / "cast_in.bin").write_bytes(inp.tobytes())
    r = subprocess.run(
        [str(selftest), "--cast-table", str(tmp / "cast_in.bin"), str(tmp / "cast_out.bin")],
        capture_output=True,
        text=True,
    )
    if not res.check(r.returncode == 0, f"cast table run: {r.stderr}"):
        return
    out = np.fromfile(tmp / "cast_out.bin", dtype=np.uint16).reshape(-1, 12)
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
        got = np.fromfile(tmp / "ab.bin", dtype=dt).reshape(5, n)
        with np.errstate(all="ignore"):
            wants = [a * b, a + b, a - b, a * b[0], a + b[0]]
        key = 0 if name == "f16" else 1
        for op, g, w in zip(("Mul", "Add", "Sub", "Muls", "Adds"), got, wants, strict=False):
            idx = same_bits(key, g, w.astype(dt))
            res.check(len(idx) == 0, f"{op} {name}: {len(idx)} differ, first at {idx[:3]}")


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


def check_harness_errors(res, harness, tmp):
    g = np.zeros(100, dtype=np.float32)
    (tmp / "g100.bin").write_bytes(g.tobytes())
    (tmp / "g99.bin").write_bytes(g[:99].tobytes())
    (tmp / "odd.bin").write_bytes(b"\0" * 7)
    base = ["--tiling-key", "1", "--ub-size", "8192"]
    cases = [
        (
            "missing file",
            [*base, "--block-dim", "1", "--tiling", "100,100,128", "nope.bin", "g100.bin", "y.bin"],
            2,
            "run_kernel:",
        ),
        (
            "size mismatch",
            [*base, "--block-dim", "1", "--tiling", "100,100,128", "g100.bin", "g99.bin", "y.bin"],
            2,
            "run_kernel:",
        ),
        (
            "odd size",
            [
                "--tiling-key",
                "0",
                "--ub-size",
                "8192",
                "--block-dim",
                "1",
                "--tiling",
                "3,3,128",
                "odd.bin",
                "odd.bin",
                "y.bin",
            ],
            2,
            "run_kernel:",
        ),
        (
            "tiling mismatch",
            [*base, "--block-dim", "1", "--tiling", "99,99,128", "g100.bin", "g100.bin", "y.bin"],
            2,
            "run_kernel:",
        ),
        (
            "bad key",
            [
                "--tiling-key",
                "3",
                "--ub-size",
                "8192",
                "--block-dim",
                "1",
                "--tiling",
                "100,100,128",
                "g100.bin",
                "g100.bin",
                "y.bin",
            ],
            2,
            "run_kernel:",
        ),
        (
            "missing option",
            ["--tiling-key", "1", "g100.bin", "g100.bin", "y.bin"],
            2,
            "run_kernel:",
        ),
        # Too few cores for the tiling: the last 50 elements of y are never written.
        (
            "unwritten y",
            [*base, "--block-dim", "5", "--tiling", "100,10,128", "g100.bin", "g100.bin", "y.bin"],
            3,
            "ascendc_cpu: harness:",
        ),
        # ubFactor too big for an 8 KiB UB.
        (
            "ub overflow",
            [
                *base,
                "--block-dim",
                "1",
                "--tiling",
                "100,100,6400",
                "g100.bin",
                "g100.bin",
                "y.bin",
            ],
            3,
            "ascendc_cpu: TPipe::InitBuffer: UB overflow",
        ),
        # ubFactor not a multiple of 64: the vector ops run past the UB buffers.
        (
            "ubfactor unaligned",
            [*base, "--block-dim", "1", "--tiling", "100,100,100", "g100.bin", "g100.bin", "y.bin"],
            3,
            "ascendc_cpu: ",
        ),
    ]
    for what, args, code, prefix in cases:
        r = run_harness(harness, args, tmp)
        lines = r.stderr.strip().splitlines()
        res.check(
            r.returncode == code and lines and lines[0].startswith(prefix),
            f"harness {what}: exit {r.returncode}, stderr {r.stderr.strip()!r}",
        )


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
        for label, harness, selftest in builds:
            check_selftest(res, selftest, label)
            check_section7(res, harness, tmp)
            check_harness_errors(res, harness, tmp)
            check_fixture(res, harness, tmp, rng, args.quick or label != "plain", label)
        plain_selftest = builds[0][2]
        check_casts(res, plain_selftest, tmp, rng, 2000 if args.quick else 20000)
        check_widen(res, plain_selftest, tmp)
        check_arith(res, plain_selftest, tmp, rng, 4096 if args.quick else 65536)
    print(f"{res.passed} passed, {res.failed} failed")
    return 0 if res.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
