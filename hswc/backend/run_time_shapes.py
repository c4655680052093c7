"""The shapes of a broadcast operator over a shape known only at run time, as its package checks
them (hswc.broadcast with DYNAMIC_DIM: PReLU's weight over a dynamic batch, a bias over a
dynamic row count, a per-row scale `(?, 1)`).

Each tensor has the rank its kernel was compiled for and its static dims; a dim of a run-time
size must be the run-time size of the output's dim it reads. The output's run-time dims are
those of the source: the first input read at the output's index, as the interpreter and the
host function resolve them (hswc.interpreter.launch, hsg-tile-on-cores' run-time dim checks).
Which output dim an input's dim reads follows from its strides: a broadcast input's dims of a
size other than a static 1 read, in order, the output dims its strides are not 0 at
(hswc.broadcast: such a dim has a stride > 0 unless it reads a size-1 output dim, which a
package refuses).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hswc.broadcast import DYNAMIC_DIM, Broadcast

EXAMPLE_SIZE = 2
"""The size the example, the unit tests and the golden run give an output dim of a run-time
size (the tiling unit test adds RUN_TIME_SIZES)."""
RUN_TIME_SIZES = (1, 1000)
"""More sizes of the first run-time dim the tiling unit test tiles (one core; several)."""


@dataclass(frozen=True)
class Read:
    """An input dim's size at run time: `size` (static), or the output's dim `output_dim`."""

    size: int | None
    output_dim: int | None


@dataclass(frozen=True)
class RunTimeShapes:
    """Each input's dims (Read), then the output's shape (DYNAMIC_DIM at run-time dims), and
    the input whose dims are the output's run-time ones."""

    inputs: tuple[tuple[Read, ...], ...]
    output: tuple[int, ...]
    source: int
    bounds: tuple[int, ...] = ()
    """Per output dim (or empty: none), the largest size the kernel takes (a shared kernel's
    bound: hswc.broadcast.Broadcast.bounds); the host tiling refuses a larger one."""

    def run_time_sizes(self) -> tuple[int, ...]:
        """The sizes of the first run-time dim the tiling unit test tiles: RUN_TIME_SIZES, those
        above the bound replaced by the bound itself."""
        dynamic = [k for k, n in enumerate(self.output) if n == DYNAMIC_DIM]
        most = self.bounds[dynamic[0]] if dynamic and self.bounds else None
        return tuple(dict.fromkeys(n if most is None else min(n, most) for n in RUN_TIME_SIZES))

    @property
    def compiled(self) -> tuple[tuple[int, ...], ...]:
        """Each input's shape as its kernel was compiled for it, then the output's
        (DYNAMIC_DIM at a run-time dim)."""
        return (*(tuple(DYNAMIC_DIM if r.size is None else r.size for r in dims)
                  for dims in self.inputs), self.output)

    def resolve(self, output: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Every input's shape, then the output's, at the output shape `output`."""
        assert len(output) == len(self.output) and all(
            n in (DYNAMIC_DIM, m) for n, m in zip(self.output, output, strict=True)), output
        return (*(tuple(output[r.output_dim] if r.size is None and r.output_dim is not None
                        else r.size for r in dims)  # type: ignore[misc]
                  for dims in self.inputs), tuple(output))

    def example_output(self, first: int = EXAMPLE_SIZE) -> tuple[int, ...]:
        """The output shape with `first` for its first run-time dim, EXAMPLE_SIZE for the
        others."""
        dynamic = [k for k, n in enumerate(self.output) if n == DYNAMIC_DIM]
        return tuple(first if dynamic and k == dynamic[0] else EXAMPLE_SIZE
                     if n == DYNAMIC_DIM else n for k, n in enumerate(self.output))


def run_time_shapes(broadcast: Broadcast, inputs: Sequence[Sequence[int]]) -> RunTimeShapes:
    """The run-time shapes of a kernel of the dynamic description `broadcast` whose inputs
    have the shapes `inputs` (DYNAMIC_DIM at a run-time dim); ValueError, saying why, for
    inputs the package cannot check (a dim of a run-time size read along a size-1 output
    dim)."""
    assert not broadcast.is_static
    source = next(i for i, s in enumerate(broadcast.strides) if s is None)
    reads: list[tuple[Read, ...]] = []
    for i, (shape, strides) in enumerate(zip(inputs, broadcast.strides, strict=True)):
        if strides is None:  # read at the output's index: dim k is the output's dim k
            reads.append(tuple(Read(None if n == DYNAMIC_DIM else n, k)
                               for k, n in enumerate(shape)))
            continue
        read_dims = [d for d, s in enumerate(strides) if s]
        own = [k for k, n in enumerate(shape) if n != 1]
        if len(own) != len(read_dims):
            raise ValueError(f"input {i + 1}'s dims of sizes {list(shape)} do not pair with "
                             f"the output dims it reads ({read_dims}): a dim of a run-time "
                             "size read along an output dim of size 1")
        by_dim = dict(zip(own, read_dims, strict=True))
        reads.append(tuple(Read(None if n == DYNAMIC_DIM else n, by_dim.get(k))
                           for k, n in enumerate(shape)))
    return RunTimeShapes(tuple(reads), broadcast.shape, source, broadcast.bounds)


def row_run_time_shapes(inputs: Sequence[Sequence[int]], output: Sequence[int],
                        columns: Sequence[int] = ()) -> RunTimeShapes:
    """The run-time shapes of a row kernel (hswc.rows) of a run-time row count or length whose
    inputs and output have these shapes (DYNAMIC_DIM at a run-time dim): the rows' dims lead
    every operand that has them, so an input's run-time dim k is the output's dim k, but a
    column input's (`columns`: their indices; LayerNorm's weight, one value per position in a
    row) dims are the output's trailing ones; the source is the first input holding each of
    the output's run-time dims at its own index. ValueError, saying why, where the shapes do
    not pair so (a run-time dim past the output's rank, or no input holding the output's
    run-time dims)."""
    reads: list[tuple[Read, ...]] = []
    for i, shape in enumerate(inputs):
        dims = []
        skip = len(output) - len(shape) if i in columns else 0
        for k, n in enumerate(shape):
            if n != DYNAMIC_DIM:
                dims.append(Read(n, None))
            elif 0 <= k + skip < len(output) and output[k + skip] == DYNAMIC_DIM:
                dims.append(Read(None, k + skip))
            else:
                raise ValueError(f"input {i + 1}'s dim {k} has a run-time size where the "
                                 f"output's shape {list(output)} has none")
        reads.append(tuple(dims))
    dynamic = [k for k, n in enumerate(output) if n == DYNAMIC_DIM]
    source = next((i for i, shape in enumerate(inputs)
                   if all(k < len(shape) and shape[k] == DYNAMIC_DIM for k in dynamic)), None)
    if source is None:
        raise ValueError(f"no input holds the output's run-time dims {dynamic} at the same "
                         "index")
    return RunTimeShapes(tuple(reads), tuple(output), source)
