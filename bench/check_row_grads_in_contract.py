"""hswc-check-kernel on a softmax gradient kernel with inputs inside the op's contract.

    OPBASE_SOURCE_PATH=... python bench/check_row_grads_in_contract.py [--log] [--pool-grads] \
        OPS_NN/activation/softmax_grad --op hsg.softmax_grad --soc ascend950 --dtypes f32

The checker draws every input from its pool (every f16/bf16 bit pattern, f32 specials and
random bit patterns: hswc.checker.inputs), so a softmax gradient's `output` is any value, also
one softmax never gives (inf, 1e30, a row not summing to 1), and its grads span 1e-45 to 3e38 in
one row. This runs the same check (every argument after the flags is hswc-check-kernel's) with
`output` a real softmax of N(0, 3) rows (`--log`: its log, for log_softmax_grad), the rows
shaped as the checker shapes them (hswc.checker.halves), and grad_output N(0, 1) (`--pool-grads`:
the checker's own draw). It separates what a kernel does on its contract from what f32 does to
impossible inputs; bench/check_kernel_ops_nn.md's findings quote its results.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from hswc.checker import halves, inputs
from hswc.checker.dtypes import NUMPY

_POOL_DRAW = inputs.draw


def _in_contract(dtype: str, size: int, log: bool, seed: int) -> list[np.ndarray]:
    """[grad_output, output] flat, of `size` elements: N(0, 1) and a (log-)softmax per row."""
    rows, h = halves.rows_and_half(size)
    rng = np.random.default_rng([seed, size])
    x = rng.standard_normal((rows, 2 * h)) * 3
    e = np.exp(x - x.max(-1, keepdims=True))
    y = e / e.sum(-1, keepdims=True)
    out = []
    for a in (rng.standard_normal((rows, 2 * h)), np.log(y) if log else y):
        flat = a.reshape(-1).astype(np.float32).astype(NUMPY[dtype])
        out.append(np.concatenate([flat, np.zeros(max(0, size - flat.size), flat.dtype)])[:size])
    return out


def main(argv: Sequence[str]) -> int:
    log = "--log" in argv
    pool_grads = "--pool-grads" in argv
    rest = [a for a in argv if a not in ("--log", "--pool-grads")]

    def draw(dtype: str, thresholds: Sequence[float], count: int, size: int,
             seed: int = 0) -> list[np.ndarray]:
        grad, output = _in_contract(dtype, size, log, seed)
        if pool_grads:
            grad = _POOL_DRAW(dtype, thresholds, count, size, seed)[0]
        return [grad, output][:count]

    inputs.draw = draw
    from hswc.tools.hswc_check_kernel import run

    return run(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
