"""linalg.generic modules whose body is one math op (test/test_math_ops.py, bench), and the
bit comparison the math and exponential-op tests share."""

from __future__ import annotations

import numpy as np

MATH_NAMES = ("exp", "log", "log1p", "expm1", "tanh", "erf", "sqrt", "rsqrt", "absf")


def math_module(op: str, dtypes: tuple[str, ...] = ("f16", "bf16", "f32"),
                widen: bool = False) -> str:
    """One function @math_<op>_<dt> per dtype applying math.<op> to each element (with `widen`,
    in f32 between an extf and a truncf)."""
    functions = []
    for dt in dtypes:
        t = f"tensor<?x{dt}>"
        if widen and dt != "f32":
            body = (f"    %w = arith.extf %xi : {dt} to f32\n    %m = math.{op} %w : f32\n"
                    f"    %r = arith.truncf %m : f32 to {dt}\n")
        else:
            body = f"    %r = math.{op} %xi : {dt}\n"
        functions.append(
            f"func.func @math_{op}_{dt}(%x: {t}) -> {t} {{\n"
            "  %c0 = arith.constant 0 : index\n"
            f"  %n = tensor.dim %x, %c0 : {t}\n"
            f"  %init = tensor.empty(%n) : {t}\n"
            "  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> "
            "(i)>], iterator_types = [\"parallel\"]}\n"
            f"      ins(%x : {t}) outs(%init : {t}) {{\n"
            f"  ^bb0(%xi: {dt}, %out: {dt}):\n{body}"
            f"    linalg.yield %r : {dt}\n"
            f"  }} -> {t}\n"
            f"  func.return %y : {t}\n}}\n")
    return "".join(functions)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """The same bits everywhere a is not NaN, and NaN in the same places (any NaN pattern)."""
    nan = np.isnan(a.astype(np.float32))

    def bits(v: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(v).view(np.uint32 if v.dtype.itemsize == 4 else np.uint16)

    return bool(np.array_equal(nan, np.isnan(b.astype(np.float32)))
                and np.array_equal(bits(a)[~nan], bits(b)[~nan]))
