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

Everything dtype-dependent (kernels, tiling keys, the dtype lists of the op definition and of
aclnn, the unit tests) comes from the kernels in the module. Before any text is made, each
kernel's UB plan is checked against every SoC the op definition registers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from hswc.backend.ir_tiling import check_ub_plan
from hswc.backend.kernels import collect_kernels
from hswc.backend.package_build import build_files
from hswc.backend.package_docs import doc_files
from hswc.backend.package_example import example_files
from hswc.backend.package_host import op_host_files, socs_for
from hswc.backend.package_kernel import op_kernel_files
from hswc.backend.package_op_api import op_api_files
from hswc.backend.package_output import write_files
from hswc.backend.package_tests import test_files
from hswc.diagnostics import OpError
from hswc.platform import PLATFORMS


def package_files(module: ModuleOp, socs: Sequence[str] = tuple(PLATFORMS)) -> dict[str, str]:
    """Relative path -> text of every file of the package; OpError (naming the op) for a
    module that cannot be packaged, such as a kernel whose buffers overflow a target's UB."""
    kernels = collect_kernels(module)
    registered = socs_for(kernels, list(socs))
    if not registered:
        raise OpError(module, f"has kernels that none of {', '.join(socs)} can run")
    check_ub_plan(kernels, [PLATFORMS[s] for s in registered])
    return {
        **op_kernel_files(kernels),
        **op_host_files(kernels, registered),
        **op_api_files(kernels),
        **example_files(kernels),
        **build_files(kernels),
        **doc_files(kernels, registered),
        **test_files(kernels),
    }


def write_package(module: ModuleOp, directory: Path, socs: Sequence[str] = tuple(PLATFORMS),
                  force: bool = False) -> list[Path]:
    """Write the package under `directory`, all files or none (see `package_output`); the paths
    written, sorted. Nothing is written when the module cannot be packaged."""
    return write_files(package_files(module, socs), directory, force)
