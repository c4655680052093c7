"""The tensor sizes a kernel is run at: around every tail and core boundary of its tiling.

Without knowing what the tiling's fields mean, the boundaries are found from the tiling itself:

- the tile: every integer field of 8 or more that the tiling gives the same value for 2^20 and
  3 * 2^20 elements is taken as a per-pass element count T (ubFactor, tileDataNum, ...);
- the core boundary: the fewest elements N0 at which the launch uses as many cores as it does
  for 2^20 elements (bisection; the block dim grows with the size);
- then, for C = that core count: 1, 2, 15, 16, 17, 127, 128, 129, N0 - 1, N0, N0 + 1, and for
  each T: T - 1, T, T + 1, 2T + 1, C*T - 1, C*T, C*T + 1, 2*C*T + 7 (every core one full pass,
  one pass and a tail, several passes and a tail), plus the size of the input pool (every f16
  or bf16 bit pattern); sizes above `limit` are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hswc.checker.tiling_values import Launch

PROBES = (1 << 20, 3 << 20)
SMALL = (1, 2, 15, 16, 17, 127, 128, 129)
MIN_TILE = 8
DEFAULT_LIMIT = 1 << 22
"""The largest size run by default (4M elements: a few seconds in the CPU model)."""

LaunchOf = Callable[[int], Launch]


def tiles(launch_of: LaunchOf) -> list[int]:
    """The integer fields that stay the same between the two large probes (see above)."""
    a, b = (launch_of(n).fields for n in PROBES)
    found = {int(v) for k, v in a.items() if isinstance(v, int) and not isinstance(v, bool)
             and v >= MIN_TILE and b.get(k) == v and v < PROBES[0]}
    return sorted(found)


def core_boundary(launch_of: LaunchOf) -> tuple[int, int]:
    """(the launch's core count for large sizes, the fewest elements that reach it)."""
    cores = launch_of(PROBES[0]).block_dim
    lo, hi = 1, PROBES[0]
    if launch_of(lo).block_dim >= cores:
        return cores, lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if launch_of(mid).block_dim >= cores:
            hi = mid
        else:
            lo = mid
    return cores, hi


def boundary_sizes(launch_of: LaunchOf, pool_size: int, limit: int = DEFAULT_LIMIT) -> list[int]:
    """The sizes of the module docstring, ascending."""
    cores, first_full = core_boundary(launch_of)
    sizes: set[int] = {*SMALL, first_full - 1, first_full, first_full + 1, pool_size}
    for t in tiles(launch_of):
        sizes |= {t - 1, t, t + 1, 2 * t + 1, cores * t - 1, cores * t, cores * t + 1,
                  2 * cores * t + 7}
    return _bounded(sizes, limit)


def _bounded(sizes: Iterable[int], limit: int) -> list[int]:
    return sorted(n for n in set(sizes) if 1 <= n <= limit)
