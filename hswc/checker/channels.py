"""Tensors of a per-channel op in one check: x of [N, C, L], a weight of C elements (PReLU's),
and the result of x's shape.

A run of size n (x's element count) views x as [N, C, L]: C the first of CHANNELS dividing n,
L the largest power of two dividing n / C up to MAX_INNER, N what is left (2^16: [64, 16, 64];
a prime n: [n, 1, 1], a weight of one element, which ops-nn's PReLU also takes: "weight size
must be 1 or match channel size"). The weight is laid out as the op's tiling reads it:
"channel" a 1-d tensor of C (experimental/activation/prelu's tiling: "weight must be 1-D", C
its x's dim 1), "channel_nd" x's rank with C at dim 1 and 1 elsewhere ([1, C, 1]: what
aclnnPrelu reshapes the weight to before activation/p_relu's broadcast tiling, which
broadcasts NumPy's way). The reference computes on tensors of one shape: the weight spread
over x's by NumPy's broadcasting of [1, C, 1] (an independent model of the broadcast).

Kinds of tensor: "channel_x" (x and the result: [N, C, L]), "channel", "channel_nd" (above).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

CHANNELS = (16, 3, 2, 1)
"""The channel counts tried, in order (16 as in the dynamic broadcast tests; 3 not a power of
two, so a weight row is not aligned)."""
MAX_INNER = 64
KINDS = ("channel_x", "channel", "channel_nd")


def dims(n: int) -> tuple[int, int, int]:
    """(N, C, L) of x of `n` elements."""
    c = next(c for c in CHANNELS if n % c == 0)
    inner = 1
    while (n // c) % (inner * 2) == 0 and inner * 2 <= MAX_INNER:
        inner *= 2
    return n // (c * inner), c, inner


def shape(kind: str, n: int) -> tuple[int, ...]:
    """The shape of a tensor of `kind` in a run of size n."""
    batch, c, inner = dims(n)
    return {"channel_x": (batch, c, inner), "channel": (c,), "channel_nd": (1, c, 1)}[kind]


@dataclass(frozen=True)
class Channels:
    """How a per-channel op's tensors are sized: each input's kind by name (KINDS); the result
    has x's shape."""

    inputs: Mapping[str, str]
    result: str = "channel_x"

    def size(self, name: str, n: int) -> int:
        return int(np.prod(shape(self.inputs[name], n)))

    def result_size(self, n: int) -> int:
        return n

    def sized(self, names: Sequence[str], drawn: Sequence[np.ndarray], n: int
              ) -> list[np.ndarray]:
        """The drawn inputs (each of n elements) cut to their sizes."""
        return [values[:self.size(name, n)].copy()
                for name, values in zip(names, drawn, strict=True)]

    def spread(self, names: Sequence[str], values: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Each input at x's shape: a weight broadcast over [N, C, L] by NumPy's rules."""
        n = next(v.size for name, v in zip(names, values, strict=True)
                 if self.inputs[name] == "channel_x")
        full = shape("channel_x", n)
        return [np.broadcast_to(v.reshape(full if self.inputs[name] == "channel_x"
                                          else shape("channel_nd", n)), full).reshape(-1)
                for name, v in zip(names, values, strict=True)]

    def shown_names(self, names: Sequence[str]) -> list[str]:
        return list(names)

    def aligned(self, names: Sequence[str], values: Sequence[np.ndarray], n: int
                ) -> list[np.ndarray]:
        """The inputs as a report shows them beside the result's element i: the weight's
        element of i's channel."""
        del n
        return self.spread(names, values)
