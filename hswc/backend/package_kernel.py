"""op_kernel/ of the ops-nn package: the kernel entry, the kernel classes, tiling struct and keys.

The same pieces `-t ascendc` prints as one translation unit, split into ops-nn's files.
"""

from __future__ import annotations

from hswc.backend.kernels import Kernel
from hswc.backend.operator import KERNEL_ENTRY, OP_TYPE, key_macro
from hswc.backend.source import (
    GENERATED,
    entry_lines,
    kernel_namespace_lines,
    tiling_key_lines,
    tiling_struct_lines,
)

TILING_DATA_H = f"{KERNEL_ENTRY}_tiling_data.h"
TILING_KEY_H = f"{KERNEL_ENTRY}_tiling_key.h"
KERNEL_H = f"{KERNEL_ENTRY}.h"
KERNEL_CPP = f"{KERNEL_ENTRY}.cpp"


def guarded(name: str, body: list[str], brief: str) -> str:
    """A header: banner, what it holds, include guard around `body`."""
    guard = name.upper().replace(".", "_").replace("/", "_")
    lines = [GENERATED, f"// {brief}", f"#ifndef {guard}", f"#define {guard}", "", *body, "",
             f"#endif  // {guard}"]
    return "\n".join(lines) + "\n"


def tiling_data_h(kernels: list[Kernel]) -> str:
    return guarded(TILING_DATA_H, tiling_struct_lines(kernels[0].operator),
                   "The tiling struct: written by the host tiling, read by the kernel.")


def tiling_key_h(kernels: list[Kernel]) -> str:
    """schMode of each kernel, declared to the template-argument machinery of ascendc."""
    macros = ", ".join(key_macro(k.dtype) for k in kernels)
    body = [
        '#include "ascendc/host_api/tiling/template_argument.h"',
        "",
        *tiling_key_lines(kernels),
        "",
        f"ASCENDC_TPL_ARGS_DECL({OP_TYPE}, ASCENDC_TPL_UINT_DECL(schMode, 8, ASCENDC_TPL_UI_LIST,",
        f"    {macros}));",
        "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST,",
        f"    {macros})));",
    ]
    return guarded(TILING_KEY_H, body, "Tiling keys: one schMode per kernel dtype.")


def kernel_h(kernels: list[Kernel]) -> str:
    body = [
        '#include "kernel_operator.h"',
        f'#include "{TILING_DATA_H}"',
        f'#include "{TILING_KEY_H}"',
        "",
        *kernel_namespace_lines(kernels),
    ]
    return guarded(KERNEL_H, body, f"The {OP_TYPE} kernel class, one specialisation per dtype.")


def kernel_cpp(kernels: list[Kernel]) -> str:
    lines = [GENERATED, f"// The {OP_TYPE} kernel entry: dispatch on the tiling key.",
             f'#include "{KERNEL_H}"', "", *entry_lines(kernels)]
    return "\n".join(lines) + "\n"


def op_kernel_files(kernels: list[Kernel]) -> dict[str, str]:
    return {
        f"op_kernel/{KERNEL_CPP}": kernel_cpp(kernels),
        f"op_kernel/{KERNEL_H}": kernel_h(kernels),
        f"op_kernel/{TILING_DATA_H}": tiling_data_h(kernels),
        f"op_kernel/{TILING_KEY_H}": tiling_key_h(kernels),
    }
