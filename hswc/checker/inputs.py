"""The inputs a kernel is run on: every f16/bf16 bit pattern, f32 around the thresholds.

Per dtype there is a pool of values and a list of interesting ones:

- interesting: the special values (+-0, +-inf, quiet and signalling NaNs of both signs, the
  smallest and largest subnormals and normals, +-1, +-0.5, +-2) and, for every threshold of
  the reference (its float constants and attribute values, hswc.checker.expected) and its
  negation, the value rounded to the dtype and the eight representable values on each side;
- the pool: f16 and bf16 hold all 65,536 bit patterns; f32 holds the interesting values, 64
  uniform samples within +-1 and within +-1/8 of each threshold, normal samples at scales
  1e-3 to 1e4, and random bit patterns.

The run of the pool's size feeds the first input the pool in order (so for f16 and bf16 index
i is bit pattern i) and every other input a permutation of it. A run of any other size feeds
each input the interesting values shuffled, then a shuffled draw of the pool, so that short
runs and every tail see the thresholds and the specials too. Everything is seeded: a report's
indices name the same inputs on every run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hswc.checker.dtypes import BITS, NUMPY

NEIGHBOURS = 8
"""Representable values on each side of a threshold among the interesting values."""

_SPECIAL_BITS = {
    2: {"f16": (0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01, 0xFC01, 0x0001, 0x8001,
                0x03FF, 0x83FF, 0x0400, 0x8400, 0x7BFF, 0xFBFF),
        "bf16": (0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0, 0x7F81, 0xFF81, 0x0001, 0x8001,
                 0x007F, 0x807F, 0x0080, 0x8080, 0x7F7F, 0xFF7F)},
    4: {"f32": (0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                0x7F800001, 0xFF800001, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,
                0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF)},
}
_SMALL_VALUES = (1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 1e-3, -1e-3)


def _from_bits(dtype: str, patterns: Sequence[int] | np.ndarray) -> np.ndarray:
    return np.asarray(patterns, dtype=np.int64).astype(BITS[dtype]).view(NUMPY[dtype])


def interesting(dtype: str, thresholds: Sequence[float]) -> np.ndarray:
    """The special values, then each threshold's neighbourhood (see the module docstring)."""
    itemsize = NUMPY[dtype].itemsize
    patterns = list(_SPECIAL_BITS[itemsize][dtype])
    centres = sorted({v for t in thresholds for v in (t, -t)} | set(_SMALL_VALUES))
    mask = (1 << (8 * itemsize)) - 1
    for t in centres:
        with np.errstate(over="ignore"):
            centre = int(np.asarray(t, np.float32).astype(NUMPY[dtype]).reshape(1)
                         .view(BITS[dtype])[0])
        patterns += [(centre + k) & mask for k in range(-NEIGHBOURS, NEIGHBOURS + 1)]
    return _from_bits(dtype, list(dict.fromkeys(patterns)))


def pool(dtype: str, thresholds: Sequence[float], seed: int = 0) -> np.ndarray:
    """The dtype's pool of values (see the module docstring)."""
    if NUMPY[dtype].itemsize == 2:
        return _from_bits(dtype, np.arange(1 << 16))
    rng = np.random.default_rng(seed)
    parts = [interesting(dtype, thresholds).astype(np.float32)]
    for centre in sorted({v for t in thresholds for v in (t, -t)}):
        parts.append(rng.uniform(centre - 1.0, centre + 1.0, 64).astype(np.float32))
        with np.errstate(over="ignore"):  # near the largest f32 some become +-inf
            parts.append((centre + abs(centre) / 8 * rng.uniform(-1.0, 1.0, 64))
                         .astype(np.float32))
    for scale in (1e-3, 1.0, 10.0, 1e4):
        parts.append((scale * rng.standard_normal(256)).astype(np.float32))
    parts.append(rng.integers(0, 1 << 32, 1024, dtype=np.uint64).astype(np.uint32)
                 .view(np.float32))
    with np.errstate(over="ignore", invalid="ignore"):
        return np.concatenate([p.astype(np.float32) for p in parts])


def draw(dtype: str, thresholds: Sequence[float], count: int, size: int,
         seed: int = 0) -> list[np.ndarray]:
    """`count` flat inputs of `size` elements (see the module docstring)."""
    values = pool(dtype, thresholds, seed)
    rng = np.random.default_rng([seed, size, count])
    if size == values.size:
        return [values.copy() if k == 0 else values[rng.permutation(values.size)]
                for k in range(count)]
    special = interesting(dtype, thresholds)
    arrays = []
    for _ in range(count):
        order = np.concatenate([special[rng.permutation(special.size)],
                                values[rng.integers(0, values.size, size)]])
        arrays.append(order[:size].copy())
    return arrays
