"""The ops-nn operator package of a lowered module, as ops-nn lays it out:

    op_kernel/   hard_swish_grad.cpp (entry), hard_swish_grad.h (kernel classes),
                 hard_swish_grad_tiling_data.h, hard_swish_grad_tiling_key.h
    op_host/     hard_swish_grad_tiling.cpp (TilingFunc) around hard_swish_grad_tiling_compute.h
                 (the IR's host tiling as plain C++), hard_swish_grad_def.cpp,
                 hard_swish_grad_infershape.cpp
    op_host/op_api/  aclnn_hardswish_backward.h/.cpp, hard_swish_grad.h/.cpp (l0op)
    examples/    test_aclnn_hard_swish_grad.cpp

Everything dtype-dependent (kernels, tiling keys, the dtype lists of the op definition and of
aclnn) comes from the kernels in the module.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from hswc.backend.kernels import collect_kernels
from hswc.backend.package_example import example_files
from hswc.backend.package_host import op_host_files
from hswc.backend.package_kernel import op_kernel_files
from hswc.backend.package_op_api import op_api_files
from hswc.platform import PLATFORMS


def package_files(module: ModuleOp, socs: Sequence[str] = tuple(PLATFORMS)) -> dict[str, str]:
    """Relative path -> text of every file of the package."""
    kernels = collect_kernels(module)
    return {
        **op_kernel_files(kernels),
        **op_host_files(kernels, list(socs)),
        **op_api_files(kernels),
        **example_files(kernels),
    }


def write_package(module: ModuleOp, directory: Path,
                  socs: Sequence[str] = tuple(PLATFORMS)) -> list[Path]:
    """Write the package under `directory` (created if needed); the paths written, sorted."""
    written: list[Path] = []
    for relative, text in sorted(package_files(module, socs).items()):
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
