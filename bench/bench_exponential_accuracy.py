"""Accuracy of the exponential activations, measured: every op x dtype against the exact
function and against PyTorch eager CPU.

Inputs: every f16 and bf16 bit pattern; for f32, `--f32-samples` values (default 2^20) spread
over every regime: uniform in log-magnitude from 2^-140 to 2^127 of both signs, dense
uniform samples over [-30, 30] (the regime changes: 0, softplus's threshold 20, the tanh and erf
saturation points), and the overflow / underflow edges of exp (|x| in [80, 110]). Grads are
uniform in [-4, 4]; sigmoid_grad and tanh_grad take the forward result as y.

For each op and dtype it prints: the largest error in ulps against the exact function (the
op's PyTorch formula evaluated in double and rounded once, hswc.reference's model), over all
results and over results whose exact value is a normal number; the same against PyTorch (if
it is installed: `pip install torch`); and whether assert_close's default tolerances hold
against PyTorch (f32 rtol 1.3e-6 atol 1e-5, f16 rtol 1e-3, bf16 rtol 1.6e-2, atol 1e-5;
inf and NaN at the same places), with the largest error's share of that tolerance against the
exact function and against PyTorch (|got - want| / (atol + rtol |want|): within it below 1).
hswc runs at `--level` (default ascend: the AscendC calls on
modelled cores; every level gives the same bits, test/test_exponential_ops.py).

    python bench/bench_exponential_accuracy.py [--ops sigmoid,gelu] [--f32-samples N]

An op may carry string attributes, each after a colon (`gelu_grad:approximate=tanh`): its
kernel, reference model and PyTorch call take them.
"""

from __future__ import annotations

import argparse
import importlib.util

import ml_dtypes
import numpy as np

from hswc import runner
from hswc.ops import OPS
from hswc.reference import OP_REFERENCES, TORCH_TOLERANCES, compare_tolerance

DTYPES = {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
          "f32": np.dtype(np.float32)}
SMALLEST_NORMAL = {"f16": 2.0 ** -14, "bf16": 2.0 ** -126, "f32": 2.0 ** -126}


def f32_inputs(count: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    quarter = count // 4
    magnitudes = np.exp2(rng.uniform(-140, 127, 2 * quarter))
    signs = rng.choice([-1.0, 1.0], 2 * quarter)
    dense = rng.uniform(-30, 30, quarter)
    edges = rng.uniform(80, 110, count - 3 * quarter) * rng.choice([-1.0, 1.0],
                                                                    count - 3 * quarter)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 20.0, -20.0, 1.0, -1.0]
    return np.concatenate([specials, magnitudes * signs, dense, edges]).astype(np.float32)


def inputs_for(op: str, dtype: str, f32_count: int) -> list[np.ndarray]:
    x = (np.arange(1 << 16, dtype=np.uint16).view(DTYPES[dtype]) if dtype != "f32"
         else f32_inputs(f32_count))
    if len(OPS[op].op.INPUTS) == 1:
        return [x]
    grad = np.random.default_rng(1).uniform(-4, 4, x.size).astype(np.float32).astype(x.dtype)
    if OPS[op].op.INPUTS[1] == "result":
        x = OP_REFERENCES[(op.removesuffix("_grad"), "torch")](x)
    return [grad, x]


def op_and_attributes(spec: str) -> tuple[str, dict[str, str]]:
    """`gelu_grad:approximate=tanh` -> ("gelu_grad", {"approximate": "tanh"})."""
    op, *items = spec.split(":")
    return op, dict(item.split("=", 1) for item in items)


def hswc_result(op: str, dtype: str, inputs: list[np.ndarray], level: str,
                ub_size: int | None = None, attrs: dict[str, str] | None = None) -> np.ndarray:
    t = f"tensor<?x{dtype}>"
    names = OPS[op].op.INPUTS
    given = ", ".join(f'{k} = "{v}"' for k, v in (attrs or {}).items())
    text = (f"func.func @{op}({', '.join(f'%{n}: {t}' for n in names)}) -> {t} {{\n"
            f"  %r = hsg.{op} {', '.join(f'%{n}' for n in names)}"
            f"{f' {{{given}}}' if given else ''} : {t}\n"
            f"  func.return %r : {t}\n}}\n")
    return runner.compile_text(text, level=level, core_num=48, ub_size=ub_size)(*inputs)


def torch_result(op: str, inputs: list[np.ndarray],
                 attrs: dict[str, str] | None = None) -> np.ndarray | None:
    if importlib.util.find_spec("torch") is None:
        return None
    import torch
    import torch.nn.functional as F

    def tensor(a: np.ndarray) -> torch.Tensor:
        if a.dtype == DTYPES["bf16"]:
            return torch.from_numpy(a.view(np.uint16).astype(np.int16)).view(torch.bfloat16)
        return torch.from_numpy(np.ascontiguousarray(a))

    aten = torch.ops.aten
    calls = {
        "sigmoid": torch.sigmoid, "tanh": torch.tanh, "silu": F.silu,
        "gelu": lambda x: F.gelu(x, **(attrs or {})),
        "elu": F.elu, "selu": torch.selu, "celu": torch.celu, "softplus": F.softplus,
        "mish": F.mish, "softsign": F.softsign, "log_sigmoid": F.logsigmoid,
        "sigmoid_grad": aten.sigmoid_backward, "tanh_grad": aten.tanh_backward,
        "silu_grad": aten.silu_backward,
        "gelu_grad": lambda g, x: aten.gelu_backward(g, x, **(attrs or {})),
        "elu_grad": lambda g, x: aten.elu_backward(g, 1.0, 1.0, 1.0, False, x),
        "softplus_grad": lambda g, x: aten.softplus_backward(g, x, 1.0, 20.0),
        "mish_grad": aten.mish_backward,
        "log_sigmoid_grad": lambda g, x: aten.log_sigmoid_backward(
            g, x, aten.log_sigmoid_forward(x)[1]),
    }
    with torch.no_grad():
        out = calls[op](*(tensor(a) for a in inputs))
    if out.dtype == torch.bfloat16:
        return out.view(torch.int16).numpy().astype(np.uint16).view(DTYPES["bf16"])
    return out.numpy()


def normal_max_ulp(got: np.ndarray, exact: np.ndarray, dtype: str) -> float:
    """Max ulp where the exact value is normal (outside the subnormal / flushed range)."""
    keep = np.abs(exact.astype(np.float64)) >= SMALLEST_NORMAL[dtype]
    if not keep.any():
        return 0.0
    return compare_tolerance(got[keep], exact[keep]).max_ulp


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", default=",".join(n for n, d in OPS.items() if not d.exact))
    parser.add_argument("--f32-samples", type=int, default=1 << 20)
    parser.add_argument("--level", default="ascend", choices=runner.LEVELS[1:])
    parser.add_argument("--ub-size", type=int, default=65536,
                        help="UB bytes per core (default 65536: on 192 KB a kernel of few "
                             "buffers asks DataCopyPad for more than its 65535-byte blockLen)")
    args = parser.parse_args()
    print("| op | dtype | max ulp vs exact (normal results) | max ulp vs PyTorch | "
          "within torch tolerance | error / tolerance vs exact, vs PyTorch | "
          "worst input vs exact |")
    print("|---|---|---|---|---|---|---|")
    for spec in args.ops.split(","):
        op, attrs = op_and_attributes(spec)
        for dtype in DTYPES:
            inputs = inputs_for(op, dtype, args.f32_samples)
            got = hswc_result(op, dtype, inputs, args.level, args.ub_size, attrs)
            exact = OP_REFERENCES[(op, "torch")](*inputs, **attrs)
            vs_exact = compare_tolerance(got, exact)
            torch_out = torch_result(op, inputs, attrs)
            used = f"{vs_exact.tolerance_used:.3g}"
            if torch_out is None:
                vs_torch, ok = "(no torch)", "(no torch)"
            else:
                against = compare_tolerance(got, torch_out)
                vs_torch = f"{against.max_ulp:.3g}"
                used += f", {against.tolerance_used:.3g}"
                ok = "yes" if against.equal else (f"NO: {against.outside} outside, "
                                                  f"{against.specials_differ} inf/NaN")
            worst = ", ".join(f"{float(a[vs_exact.worst_index]):.9g}" for a in inputs) \
                if vs_exact.worst_index is not None else ""
            print(f"| {spec} | {dtype} | {vs_exact.max_ulp:.3g} "
                  f"({normal_max_ulp(got, exact, dtype):.3g}) | {vs_torch} | {ok} | {used} | "
                  f"{worst} |",
                  flush=True)
    listed = ", ".join(f"{d}: rtol {r}, atol {a}" for d, (r, a) in TORCH_TOLERANCES.items())
    print(f"\ntolerances: {listed}")


if __name__ == "__main__":
    main()
