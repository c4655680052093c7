"""The runs of a check and the builds they need.

Per dtype, the sizes (the reference's static shape, --sizes, the user's --input arrays, or the
boundary sizes of the tiling function, hswc.checker.sizes), each with its launch (tiling
values, block dim, tiling key) and the entry's template arguments: the tiling function's
`template_args`, else the dtype's --template-args, else `{T}` for a type parameter and 0 for a
value. Every distinct argument list is one instance of the dtype's build (HSWC_KERNEL_INSTANCES,
run by position); the dtype's DTYPE_* macros are its AscendC type unless -D overrides them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hswc.checker import expected, halves, inputs, kernel_source
from hswc.checker.build import BuildSpec
from hswc.checker.dtypes import CPP, GE_NAMES
from hswc.checker.errors import CheckError
from hswc.checker.options import CheckOptions, for_dtype
from hswc.checker.sizes import boundary_sizes
from hswc.checker.tiling_values import Launch, TilingSource
from hswc.platform import Platform, get_platform
from hswc.soc_api import CPP_DEFINES


def soc_flags(soc: str) -> tuple[str, ...]:
    """The g++ flags that build the CPU model for `soc`'s API table (hswc.soc_api: Ascend 950's
    column with -DASCENDC_CPU_DAV_3510; none for Atlas A2/A3)."""
    return tuple(f"-D{d}" for d in CPP_DEFINES[get_platform(soc).api])


@dataclass
class Case:
    """One run: a dtype, a size, its launch, and which instance of the dtype's build."""

    dtype: str
    size: int
    launch: Launch
    instance: int | None
    user_inputs: tuple[np.ndarray, ...] | None = None
    counts: tuple[int, ...] | None = None
    """group_index given (hswc.checker.counts); None: left out, every row."""


def default_template_args(entry: kernel_source.Entry) -> str:
    assert entry.template is not None
    return ", ".join("{T}" if p.is_type else "0" for p in entry.template)


class Sizes:
    """The sizes a dtype's tiling takes. With a `granule` (8 for an op with a packed mask,
    hswc.checker.masks), a boundary size the op's tiling refuses is moved up to the next
    multiple of it, if the tiling takes that (ops-nn's ReluV2, ReluGradV2 and ReluV3 take x's
    last dim only in multiples of 8: whole bytes of their mask); `moved` records what moved,
    `refusal` the tiling's first message."""

    def __init__(self, source: TilingSource, dtype: str, platform: Platform,
                 granule: int = 1) -> None:
        self.source, self.dtype, self.platform, self.granule = source, dtype, platform, granule
        self.moved: dict[int, int] = {}
        self.refusal: str | None = None
        self._taken: dict[int, int] = {}

    def launch(self, n: int) -> Launch:
        return self.source.launch(n, self.dtype, self.platform.core_num, self.platform.ub_size)

    def taken(self, n: int) -> int:
        """n, or the size it moves to (a CheckError when the tiling takes neither)."""
        if n in self._taken:
            return self._taken[n]
        try:
            self.launch(n)
            found = n
        except CheckError as refused:
            up = -(-n // self.granule) * self.granule
            if up == n:
                raise
            try:
                self.launch(up)
            except CheckError:
                raise refused from None
            found = self.moved[n] = up
            if self.refusal is None:
                self.refusal = str(refused).splitlines()[0]
        self._taken[n] = found
        return found

    def note(self) -> str | None:
        if not self.moved:
            return None
        listed = ", ".join(f"{n} -> {m}" for n, m in sorted(self.moved.items()))
        return (f"{self.dtype}: the op's tiling refuses sizes that are not a multiple of "
                f"{self.granule} ({self.refusal}); those were run at the next multiple "
                f"({listed})")


def run_sizes(o: CheckOptions, ref: expected.Reference, dtype: str, source: TilingSource,
              platform: Platform, sizes: Sizes | None = None) -> list[int]:
    found = _run_sizes(o, ref, dtype, source, platform, sizes)
    if ref.halves is None:  # a per-channel op's x takes any size (hswc.checker.channels)
        return found
    odd = [n for n in o.sizes or () if n % 2]
    if odd:
        how = ("views its tensors as rows of an even length (hswc.checker.halves)"
               if ref.halves.rows_only else "splits x in two halves")
        raise CheckError(f"--sizes {odd[0]}: {ref.op} {how}; give an even size (x's elements)")
    return sorted({halves.even(n) for n in found})


def _run_sizes(o: CheckOptions, ref: expected.Reference, dtype: str, source: TilingSource,
               platform: Platform, sizes: Sizes | None = None) -> list[int]:
    shape = ref.shapes.get(dtype)
    if shape is not None:
        return [int(np.prod(shape))]
    if o.sizes:
        return sorted(set(o.sizes))
    if not source.sweeps:
        raise CheckError("with fixed --tiling values, give the tensor size with --sizes N (or "
                         "give --tiling-function to sweep sizes)")
    pool = inputs.pool(dtype, ref.thresholds).size
    if sizes is None or sizes.granule == 1:
        return boundary_sizes(
            lambda n: source.launch(n, dtype, platform.core_num, platform.ub_size), pool,
            o.max_size)
    found = boundary_sizes(lambda n: sizes.launch(sizes.taken(n)), pool, o.max_size)
    return sorted({m for m in map(sizes.taken, found) if m <= o.max_size})


def make_cases(o: CheckOptions, entry: kernel_source.Entry, ref: expected.Reference,
               dtypes: Sequence[str], source: TilingSource, platform: Platform,
               user: tuple[np.ndarray, ...] | None, granule: int = 1,
               notes: list[str] | None = None) -> tuple[list[Case], dict[str, list[str]]]:
    """The runs, and per dtype the template-argument lists its build instantiates. `granule`:
    see Sizes (a note in `notes` for each dtype whose sizes moved)."""
    if entry.template is None and o.template_args:
        raise CheckError(f"entry {entry.name} is not a template: --template-args does not apply")
    cases: list[Case] = []
    instances: dict[str, list[str]] = {}
    for dtype in dtypes:
        given = for_dtype(o.template_args, dtype)
        if len(given) > 1:
            raise CheckError(f"{len(given)} --template-args for {dtype}: give one (a tiling "
                             "function may choose per run with template_args)")
        taken = Sizes(source, dtype, platform, granule)
        sizes = [user[0].size] if user is not None else run_sizes(o, ref, dtype, source,
                                                                  platform, taken)
        said = taken.note()
        if said is not None and notes is not None:
            notes.append(said)
        for n in sizes:
            launch = source.launch(n, dtype, platform.core_num, platform.ub_size)
            instance = None
            if entry.template is not None:
                chosen = launch.template_args or (given[0] if given else
                                                  default_template_args(entry))
                listed = instances.setdefault(dtype, [])
                args = chosen.replace("{T}", CPP[dtype])
                if args not in listed:
                    listed.append(args)
                instance = listed.index(args)
            cases.append(Case(dtype, n, launch, instance, user))
    return cases, instances


def build_specs(o: CheckOptions, sources: kernel_source.KernelSources, ref: expected.Reference,
                cases: Sequence[Case], instances: dict[str, list[str]], struct: str | None,
                fields: Sequence[kernel_source.TilingField], include_dirs: Sequence[Path],
                workdir: Path, gm_inputs: int | None = None, gm_outputs: int | None = None
                ) -> tuple[dict[str, BuildSpec], dict[str, str]]:
    """Per dtype the build, and how it was built in words (its macros and instances); built
    for the SoC's column of the API table (soc_flags). `gm_inputs`, `gm_outputs`: the
    kernel's GM tensors (default: the reference's inputs and results)."""
    entry = sources.entry
    builds, shown = {}, {}
    for dtype in dict.fromkeys(c.dtype for c in cases):
        overrides = for_dtype(o.defines, dtype)
        named = {d.split("=", 1)[0] for d in overrides}
        defines = [*(f"{m}={(GE_NAMES if m.startswith('ORIG_') else CPP)[dtype]}"
                     for m in sources.dtype_macros if m not in named),
                   *overrides]
        defines = [d.replace("{T}", CPP[dtype]) for d in defines]
        listed = tuple(instances[dtype]) if entry.template is not None else None
        builds[dtype] = BuildSpec(
            dtype, workdir / f"run_kernel_{dtype}", entry.source,
            (sources.directory, *include_dirs), entry.name,
            len(ref.input_names) if gm_inputs is None else gm_inputs,
            ref.result_count if gm_outputs is None else gm_outputs, listed, tuple(defines),
            tuple(Path(p) for p in o.forced_includes), struct, tuple(f.name for f in fields),
            soc_flags(o.soc), entry.gm_only)
        words = [f"-D{d}" for d in defines]
        if listed is not None:
            words.append("template args " + " | ".join(f"<{a}>" for a in listed))
        shown[dtype] = "; ".join(words) or "no macros"
    return builds, shown
