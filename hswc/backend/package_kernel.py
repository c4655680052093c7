"""op_kernel/ of the ops-nn package: the kernel entry, the kernel classes, tiling struct and keys.

The same pieces `-t ascendc` prints as one translation unit, split into ops-nn's files, under
the names of the package's operator (the kernels carry it: hswc.backend.description).
"""

from __future__ import annotations

from hswc.backend.kernels import Kernel
from hswc.backend.operator import Operator
from hswc.backend.source import (
    entry_lines,
    generated_line,
    kernel_namespace_lines,
    tiling_key_lines,
    tiling_struct_lines,
)


def tiling_data_h(operator: Operator) -> str:
    return f"{operator.stem}_tiling_data.h"


def tiling_key_h(operator: Operator) -> str:
    return f"{operator.stem}_tiling_key.h"


def kernel_h(operator: Operator) -> str:
    return f"{operator.stem}.h"


def kernel_cpp(operator: Operator) -> str:
    return f"{operator.stem}.cpp"


def generated(kernels: list[Kernel]) -> str:
    """The first line of every C++ file of the package."""
    return generated_line([kernels[0].operator])


def guarded(kernels: list[Kernel], name: str, body: list[str], brief: str) -> str:
    """A header: banner, what it holds, include guard around `body`."""
    guard = name.upper().replace(".", "_").replace("/", "_")
    lines = [generated(kernels), f"// {brief}", f"#ifndef {guard}", f"#define {guard}", "",
             *body, "", f"#endif  // {guard}"]
    return "\n".join(lines) + "\n"


def tiling_data_text(kernels: list[Kernel], folder: str = "") -> str:
    """`folder`: the file's folder under op_kernel/ ("" or "arch35/"), for its include guard."""
    operator = kernels[0].operator
    return guarded(kernels, folder + tiling_data_h(operator), tiling_struct_lines(operator),
                   "The tiling struct: written by the host tiling, read by the kernel.")


def tiling_key_text(kernels: list[Kernel]) -> str:
    """schMode of each kernel, declared to the template-argument machinery of ascendc."""
    operator = kernels[0].operator
    macros = ", ".join(operator.key_macro(k.dtype, k.variant) for k in kernels)
    body = [
        '#include "ascendc/host_api/tiling/template_argument.h"',
        "",
        *tiling_key_lines(kernels),
        "",
        f"ASCENDC_TPL_ARGS_DECL({operator.op_type}, ASCENDC_TPL_UINT_DECL(schMode, 8, "
        "ASCENDC_TPL_UI_LIST,",
        f"    {macros}));",
        "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST,",
        f"    {macros})));",
    ]
    return guarded(kernels, tiling_key_h(operator), body,
                   "Tiling keys: one schMode per kernel dtype.")


def kernel_h_text(kernels: list[Kernel], folder: str = "") -> str:
    """`folder` as tiling_data_text's; the tiling headers are beside it."""
    operator = kernels[0].operator
    body = [
        '#include "kernel_operator.h"',
        f'#include "{tiling_data_h(operator)}"',
        f'#include "{tiling_key_h(operator)}"',
        "",
        *kernel_namespace_lines(kernels),
    ]
    what = "dtype" if kernels[0].variant is None else "dtype and variant"
    return guarded(kernels, folder + kernel_h(operator), body,
                   f"The {operator.op_type} kernel class, one specialisation per {what}.")


def kernel_cpp_text(kernels: list[Kernel]) -> str:
    operator = kernels[0].operator
    lines = [generated(kernels),
             f"// The {operator.op_type} kernel entry: dispatch on the tiling key.",
             f'#include "{kernel_h(operator)}"', "", *entry_lines(kernels)]
    return "\n".join(lines) + "\n"


def op_kernel_files(kernels: list[Kernel]) -> dict[str, str]:
    operator = kernels[0].operator
    return {
        f"op_kernel/{kernel_cpp(operator)}": kernel_cpp_text(kernels),
        f"op_kernel/{kernel_h(operator)}": kernel_h_text(kernels),
        f"op_kernel/{tiling_data_h(operator)}": tiling_data_text(kernels),
        f"op_kernel/{tiling_key_h(operator)}": tiling_key_text(kernels),
    }
