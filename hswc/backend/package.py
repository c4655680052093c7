"""The ops-nn operator package of a lowered module, as ops-nn lays it out:

    CMakeLists.txt, README.md, docs/aclnn<Api>.md
    op_kernel/   <entry>.cpp (entry), <entry>.h (kernel classes), <entry>_tiling_data.h,
                 <entry>_tiling_key.h
    op_host/     CMakeLists.txt, <entry>_tiling.cpp (TilingFunc) around
                 <entry>_tiling_compute.h (the IR's host tiling as plain C++), <entry>_def.cpp,
                 <entry>_infershape.cpp
    op_host/op_api/  aclnn_<api>.h/.cpp, <entry>.h/.cpp (l0op)
    examples/    test_aclnn_<entry>.cpp
    tests/       CMakeLists.txt files; ut/op_host/test_<entry>_tiling.cpp,
                 ut/op_kernel/test_<entry>.cpp

and, for Ascend 950 (`socs` naming ascend950, the same operator lowered for it given as
`arch35`), ops-nn's arch35 files (hswc.backend.package_arch35: op_kernel/<entry>_apt.cpp,
op_kernel/arch35/, op_host/arch35/, their tests), alone or beside the A2/A3 files, whose
tiling then moves to op_host/arch22/.

A package holds one operator: a named op (its names, docs and data from hswc.ops) or a user's
generic named by the request (hswc.backend.description). A module with several operators is
refused unless the request names the host function whose operator to package.
Everything dtype-dependent (kernels, tiling keys, the dtype lists of the op definition and of
aclnn, the unit tests) comes from that operator's kernels in the module. Before any text is
made, each kernel's UB plan is checked against every SoC the op definition registers, and a
named op's reference model is checked against its lowered kernels on the unit test's data,
so that no package's golden values disagree with the kernel it ships.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from hswc.backend import package_arch35
from hswc.backend.description import (
    Description,
    PackageRefused,
    PackageRequest,
    describe_generic,
    describe_named,
    launches,
)
from hswc.backend.ir_tiling import check_ub_plan
from hswc.backend.kernels import Kernel, by_operator, collect_kernels, with_shared_inputs
from hswc.backend.operator import GE_DTYPES, KERNEL_TENSOR_DTYPES
from hswc.backend.package_build import build_files
from hswc.backend.package_docs import Arch35Docs, doc_files
from hswc.backend.package_example import example_arrays, example_files
from hswc.backend.package_host import (
    def_cpp,
    infershape_cpp,
    one_per_dtype,
    op_host_files,
    socs_for,
)
from hswc.backend.package_kernel import op_kernel_files
from hswc.backend.package_op_api import op_api_files
from hswc.backend.package_output import Written, write_files
from hswc.backend.package_run import run_kernel
from hswc.backend.package_tests import (
    ARCH35_UT_PLATFORM,
    UT_PLATFORM,
    arch35_test_files,
    picked,
    test_files,
)
from hswc.diagnostics import LISTED_SYMBOLS, OpError, symbol_list
from hswc.dialects.hsg import KERNEL_INTEGER_TYPES
from hswc.passes.row_split import PARTIAL_ATTR
from hswc.platform import PLATFORMS, Platform
from hswc.reference import compare_bitwise, compare_tolerance

ARCH35_API = "dav_3510"
"""The API-table family whose SoCs get ops-nn's arch35 layout (Ascend 950)."""
A2_SOCS = tuple(s for s, p in PLATFORMS.items() if p.api != ARCH35_API)
"""The SoCs of the A2/A3 layout, the default of a package."""
ARCH35_TILING_DIR = "arch35"
A2_TILING_DIR = "arch22"
"""op_host/'s folder of the A2/A3 tiling beside an arch35 one (ops-nn's name for it)."""


def _launchers(module: ModuleOp, kernels: list[Kernel]) -> list[str]:
    """The host functions that launch any of `kernels`."""
    names = {k.func.sym_name.data for k in kernels}
    found: list[str] = []
    for launch in launches(module):
        fn = launch.parent_op()
        while fn is not None and fn.name != "func.func":
            fn = fn.parent_op()
        symbol = fn.properties.get("sym_name") if fn is not None else None
        if launch.kernel.root_reference.data in names and symbol is not None:
            name = getattr(symbol, "data", "")
            if name not in found:
                found.append(name)
    return found


def _named(stem: str, request: PackageRequest) -> bool:
    from hswc.ops import OPS

    return stem in OPS and (request.named is None or stem in request.named)


def _shown(module: ModuleOp, stem: str, kernels: list[Kernel], request: PackageRequest) -> str:
    """An operator as messages name it: its op type, or its kernel, and who launches it."""
    from hswc.ops import OPS

    what = (f"{OPS[stem].docs.op_type} (hsg.{stem})" if _named(stem, request)
            else f"a generic operator (@{kernels[0].func.sym_name.data})")
    by = _launchers(module, kernels)
    return what + (f", launched by {symbol_list(by)}" if by else "")


def operator_kernels(module: ModuleOp, request: PackageRequest) -> list[Kernel]:
    """The kernels of the one operator to package (the one `request.function` launches)."""
    try:
        groups = by_operator(collect_kernels(module))
    except OpError as error:
        if error.op is not module:
            raise
        raise PackageRefused("the module holds no operator to package: no named op (hsg.*), "
                             "no linalg.generic and no lowered kernel (hsg.kernel)") from None
    if request.function is not None:
        hosts = sorted({h for _, ks in groups for h in _launchers(module, ks)})
        groups = [(op, ks) for op, ks in groups
                  if request.function in _launchers(module, ks)]
        if not groups:
            raise PackageRefused(
                f"no host function @{request.function} launches a kernel (functions that do: "
                f"{symbol_list(hosts)})")
    partials = [k for _, ks in groups for k in ks if PARTIAL_ATTR in k.func.attributes]
    if partials:
        raise PackageRefused(
            f"@{partials[0].func.sym_name.data} is the first of the two kernels of a reduction "
            "over leading dims split for the cores (its partials in a workspace the second "
            "reads), which a package of one kernel cannot hold: give hswc-emit the module "
            "before lowering (it packages the reduction as one kernel), or lower it with "
            "hswc-opt -p 'hsg-tile-on-cores{split=false}' --lower-to-ascend")
    if len(groups) > 1:
        listed = "; ".join(_shown(module, op.stem, ks, request)
                           for op, ks in groups[:LISTED_SYMBOLS])
        if len(groups) > LISTED_SYMBOLS:
            listed += f"; and {len(groups) - LISTED_SYMBOLS} more"
        hint = ("pick its host function with --function" if request.function is None
                else f"@{request.function} launches more than one: package a function that "
                "launches one")
        raise PackageRefused(f"the module holds {len(groups)} operators ({listed}); a package "
                             f"holds one: {hint}")
    kernels = [with_shared_inputs(module, k) for k in groups[0][1]]
    unpackaged = sorted({t for k in kernels for t in k.dtype.replace("_to_", "_").split("_")
                         if t in KERNEL_INTEGER_TYPES and t not in KERNEL_TENSOR_DTYPES})
    if unpackaged:
        raise PackageRefused(
            f"@{kernels[0].func.sym_name.data} reads or writes {', '.join(unpackaged)} tensors: "
            f"packages hold {', '.join(KERNEL_TENSOR_DTYPES)} tensors (ops-nn's "
            f"{', '.join(GE_DTYPES[t].removeprefix('ge::') for t in KERNEL_TENSOR_DTYPES)}); "
            "hswc-opt -t ascendc prints the kernel, hswc-run runs it")
    return kernels


def describe(module: ModuleOp, kernels: list[Kernel], request: PackageRequest) -> Description:
    """The description of the operator of `kernels`, as a named op or as the request's generic."""
    from hswc.ops import OPS
    from hswc.ops.definition import camel

    stem = kernels[0].operator.stem
    if _named(stem, request):
        if request.name is not None or request.aclnn is not None:
            docs = OPS[stem].docs
            raise PackageRefused(
                f"the operator is hsg.{stem}, packaged with ops-nn's names ({docs.op_type}, "
                f"{OPS[stem].aclnn}); --name and --aclnn name a generic operator")
        return describe_named(module, kernels, request)
    if request.name is None:
        raise PackageRefused(
            f"the operator is a generic one (kernel @{kernels[0].func.sym_name.data}), not a "
            f"named op: give its package an op type with --name (e.g. --name "
            f"{camel(stem)})")
    return describe_generic(module, kernels, request)


def check_reference(module: ModuleOp, kernels: list[Kernel], d: Description,
                    platform: Platform = UT_PLATFORM) -> None:
    """OpError unless each kernel computes, on the unit test's data, what the golden model
    says: a kernel lowered with other semantics than the package's would ship wrong goldens.
    The kernels run on `platform` (of a run-time choice, those its tiling picks there)."""
    for kernel in picked(kernels, d, platform):
        inputs, expected = example_arrays(kernel, d, d.kernel_test_inputs)
        values = d.attribute_values(kernel)
        scalars = {a.field: values[a.name] for a in d.attributes}
        outputs = run_kernel(module, kernel, inputs, scalars, platform, d.gm_shapes(),
                             d.output_per_row, d.row_group)
        if not d.exact:
            models = d.model(kernel, inputs) if d.model is not None else None
            for got, model in zip(outputs, models or (), strict=False):
                within = compare_tolerance(got, np.asarray(model))
                if not within.equal:
                    raise OpError(kernel.func, "computes the unit test's data outside "
                                  f"PyTorch's tolerance of the op's model: {within.summary()}")
            continue
        for name, got, wanted in zip(kernel.operator.outputs, outputs, expected, strict=True):
            comparison = compare_bitwise(got, np.asarray(wanted))
            if comparison.equal:
                continue
            which = f" of {name}" if len(outputs) > 1 else ""
            raise OpError(kernel.func, f"computes {comparison.mismatches} of the "
                          f"{comparison.size} unit-test elements{which} otherwise than the "
                          f"package's reference model (first at index "
                          f"{comparison.first_index}): it was lowered with other semantics "
                          "(give them with --semantics), or it is not this op (package it as a "
                          "generic with --name)")


def check_boundary_kernels(kernels: list[Kernel]) -> None:
    """PackageRefused for a package with a kernel at a dtype boundary (hswc.kernel_dtypes)
    beside kernels of other dtypes: its op definition, checks and tests declare each tensor's
    one dtype, so such a kernel is a package of its own."""
    firsts = one_per_dtype(kernels)
    mixed = [k for k in firsts if k.mixed]
    if mixed and len(firsts) > 1:
        raise PackageRefused(
            f"@{mixed[0].func.sym_name.data} reads and writes tensors of different dtypes "
            f"({mixed[0].dtype}), and the operator has kernels of other dtypes too "
            f"({', '.join(k.dtype for k in firsts if k is not mixed[0])}): a kernel at a dtype "
            "boundary is packaged alone; package each function with --function")


@dataclass(frozen=True)
class Arch35Module:
    """The operator lowered for Ascend 950, and the request of that lowering (its semantics)."""

    module: ModuleOp
    request: PackageRequest


def _a2_part(module: ModuleOp, socs: list[str], request: PackageRequest
             ) -> tuple[list[Kernel], Description, list[str]]:
    """The Atlas A2/A3 kernels of `module`, their description and the SoCs of `socs` that
    run them; OpError for kernels none of them can run or whose buffers overflow a UB."""
    kernels = operator_kernels(module, request)
    check_boundary_kernels(kernels)
    registered = socs_for(kernels, socs)
    if not registered:
        raise OpError(module, f"has kernels that none of {', '.join(socs)} can run")
    check_ub_plan(kernels, [PLATFORMS[s] for s in registered])
    d = describe(module, kernels, request)
    if not d.generated:
        check_reference(module, kernels, d)
    return [replace(k, operator=d.operator) for k in kernels], d, registered


def _arch35_part(module: ModuleOp, socs: list[str], request: PackageRequest
                 ) -> tuple[list[Kernel], Description]:
    """The Ascend 950 kernels of `module` (lowered for that SoC) and their description."""
    request = replace(request, soc=socs[0])
    kernels = operator_kernels(module, request)
    check_boundary_kernels(kernels)
    check_ub_plan(kernels, [PLATFORMS[s] for s in socs])
    d = describe(module, kernels, request)
    if not d.generated:
        check_reference(module, kernels, d, ARCH35_UT_PLATFORM)
    # The arch35 entry picks the kernel class by the tiling key's D_T_X, the first input's
    # dtype: a kernel at a dtype boundary is specialised on that (f16 of f16 -> int8), not on
    # its output's as the A2/A3 class is (package_arch35.key_dtype).
    return [replace(k, operator=d.operator, element_type=k.gm_element_types()[0])
            for k in kernels], d


def package_files(module: ModuleOp, socs: Sequence[str] = A2_SOCS,
                  request: PackageRequest | None = None,
                  arch35: Arch35Module | None = None) -> dict[str, str]:
    """Relative path -> text of every file of the package; OpError (naming the op) for a
    module that cannot be packaged, such as a kernel whose buffers overflow a target's UB, and
    PackageRefused for one that does not say what to package. `module` holds the A2/A3
    kernels; `arch35` the same operator lowered for Ascend 950 (and what its lowering showed),
    needed when `socs` has it."""
    request = request or PackageRequest()
    own = [s for s in socs if PLATFORMS[s].api == ARCH35_API]
    if own:
        if arch35 is None:
            raise PackageRefused(f"{', '.join(own)} runs the arch35 kernels: give the module "
                                 "lowered for it too")
        return _with_arch35(module, [s for s in socs if s not in own], own, request, arch35)
    kernels, d, registered = _a2_part(module, list(socs), request)
    return {
        **op_kernel_files(kernels),
        **op_host_files(kernels, d, registered),
        **op_api_files(kernels, d),
        **example_files(kernels, d),
        **build_files(kernels),
        **doc_files(kernels, d, registered),
        **test_files(kernels, d),
    }


def _with_arch35(module: ModuleOp, a2: list[str], own: list[str], request: PackageRequest,
                 arch35: Arch35Module) -> dict[str, str]:
    """A package with the arch35 layout for `own` (Ascend 950) and, if `a2` names SoCs, the
    A2/A3 layout beside it (its tiling then in op_host/arch22/). The shared files (op
    definition, aclnn, example, docs) are the A2/A3 kernels' where the package has them."""
    kernels35, d35 = _arch35_part(arch35.module, own, arch35.request)
    firsts35 = one_per_dtype(kernels35)
    configs = package_arch35.config_lines(kernels35, own)
    files = {**package_arch35.op_kernel_files(kernels35),
             **package_arch35.op_host_files(kernels35, d35),
             **arch35_test_files(kernels35, d35)}
    kernels: list[Kernel] = []
    if a2:
        kernels, d, registered = _a2_part(module, a2, request)
        if {k.dtype for k in kernels} != {k.dtype for k in firsts35}:
            raise OpError(module, "has kernels of other dtypes on Atlas A2/A3 "
                          f"({', '.join(k.dtype for k in kernels)}) than on Ascend 950 "
                          f"({', '.join(k.dtype for k in firsts35)})")
        files |= {**op_kernel_files(kernels),
                  **op_host_files(kernels, d, registered, f"{A2_TILING_DIR}/", configs),
                  **test_files(kernels, d)}
        dirs = {**{s: A2_TILING_DIR for s in registered},
                **{s: ARCH35_TILING_DIR for s in own}}
        shared, described, socs = kernels, d, [*registered, *own]
    else:
        files[f"op_host/{d35.operator.stem}_def.cpp"] = def_cpp(firsts35, d35, [], configs)
        files[f"op_host/{d35.operator.stem}_infershape.cpp"] = infershape_cpp(firsts35, d35)
        dirs = {s: ARCH35_TILING_DIR for s in own}
        shared, described, socs = firsts35, d35, own
    docs35 = Arch35Docs(firsts35, d35, own)
    return {
        **files,
        **op_api_files(shared, described),
        **example_files(shared, described),
        **build_files(kernels, kernels35, dirs),
        **doc_files(shared, described, socs, docs35),
    }


def write_package(module: ModuleOp, directory: Path, socs: Sequence[str] = A2_SOCS,
                  force: bool = False, request: PackageRequest | None = None,
                  overwrite_edits: bool = False, arch35: Arch35Module | None = None) -> Written:
    """Write the package under `directory`, all files or none (see `package_output`); the paths
    written, sorted, and what they replaced or removed. Nothing is written when the module
    cannot be packaged."""
    return write_files(package_files(module, socs, request, arch35), directory, force,
                       overwrite_edits)
