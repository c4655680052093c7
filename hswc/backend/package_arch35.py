"""The Ascend 950 (arch35) files of the ops-nn package, as ops-nn lays out an arch35 op:

    op_kernel/   <entry>_apt.cpp (the entry the 950 config names with opFile.value)
    op_kernel/arch35/  <entry>.h (kernel classes), <entry>_tiling_data.h, <entry>_tiling_key.h
    op_host/arch35/    <entry>_tiling_arch35.cpp (TilingFunc) around <entry>_tiling_compute.h
    tests/ut/op_host/arch35/test_<entry>_tiling.cpp, tests/ut/op_kernel/test_<entry>_apt.cpp

The kernels are those of the module lowered for ascend950 (its semantics, schedule and the
dav_3510 column of the API table: hswc.runner.platform_kernels). The tiling key is ops-nn's
template form: the element type as a DATATYPE template parameter `D_T_X` (the first input's
dtype, its ge::DataType in the key's low 8 bits) and, for a run-time choice of kernels
(hsg.tiling_key: arch35 HardSwishGrad's depth-1 and depth-2 queues), the variant as the UINT
parameter `BUFFER_MODE` in the next 8 bits, set with ASCENDC_TPL_SEL_PARAM; that is the IR's
key of such a kernel (hswc.tiling.template_tiling_key). The formula stays in the IR: the host
tiling is printed from its hsg.tiling functions, as for A2/A3.
"""

from __future__ import annotations

from hswc.backend.description import Description
from hswc.backend.kernels import Kernel
from hswc.backend.names import TILING_PARAM
from hswc.backend.package_host import one_per_dtype, tiling_compute_text, tiling_cpp
from hswc.backend.package_kernel import (
    generated,
    guarded,
    kernel_h,
    kernel_h_text,
    tiling_data_text,
    tiling_key_h,
)
from hswc.backend.source import entry_head
from hswc.tiling import TPL_DTYPE_BITS

ARCH35 = "arch35"
"""The folder of the arch35 files under op_kernel/ and op_host/ (ops-nn's name)."""
DTYPE_PARAM = "D_T_X"
VARIANT_PARAM = "BUFFER_MODE"
C_DTYPES = {"f32": "C_DT_FLOAT", "f16": "C_DT_FLOAT16", "bf16": "C_DT_BF16", "i8": "C_DT_INT8",
            "ui8": "C_DT_UINT8", "i16": "C_DT_INT16", "i32": "C_DT_INT32",
            "f8E4M3FN": "C_DT_FLOAT8_E4M3FN", "f8E5M2": "C_DT_FLOAT8_E5M2"}
"""The template machinery's names of the ge::DataTypes."""


def key_dtype(kernel: Kernel) -> str:
    """The dtype D_T_X selects: the first input's (ASCENDC_TPL_INPUT(0)); of a kernel at a dtype
    boundary that is not its output's (f16 of an f16 -> int8 quantization)."""
    return kernel.gm_dtypes[0]


def entry_cpp(kernels: list[Kernel]) -> str:
    return f"{kernels[0].operator.stem}_apt"


def _variants(kernels: list[Kernel]) -> list[int] | None:
    if kernels[0].variant is None:
        return None
    return sorted({k.variant for k in kernels if k.variant is not None})


def tiling_key_text(kernels: list[Kernel]) -> str:
    """The template parameters of the arch35 entry, declared to the template-argument machinery:
    one selection per dtype (with its variants)."""
    operator = kernels[0].operator
    dtypes = ", ".join(C_DTYPES[key_dtype(k)] for k in one_per_dtype(kernels))
    variants = _variants(kernels)
    decl = [f"    ASCENDC_TPL_DATATYPE_DECL({DTYPE_PARAM}, {dtypes}, ASCENDC_TPL_INPUT(0))"]
    if variants is not None:
        listed = ", ".join(map(str, variants))
        decl.append(f"    ASCENDC_TPL_UINT_DECL({VARIANT_PARAM}, {TPL_DTYPE_BITS}, "
                    f"ASCENDC_TPL_UI_LIST, {listed})")
    selections = []
    for k in one_per_dtype(kernels):
        chosen = [f"ASCENDC_TPL_DATATYPE_SEL({DTYPE_PARAM}, {C_DTYPES[key_dtype(k)]})"]
        if variants is not None:
            own = ", ".join(str(o.variant) for o in kernels if o.dtype == k.dtype)
            chosen.append(f"ASCENDC_TPL_UINT_SEL({VARIANT_PARAM}, ASCENDC_TPL_UI_LIST, {own})")
        selections.append(f"    ASCENDC_TPL_ARGS_SEL({(',' + chr(10) + 8 * ' ').join(chosen)})")
    body = ['#include "ascendc/host_api/tiling/template_argument.h"', "",
            f"ASCENDC_TPL_ARGS_DECL({operator.op_type},", *_joined(decl), ");",
            "ASCENDC_TPL_SEL(", *_joined(selections), ");"]
    what = f"{DTYPE_PARAM} (the dtype)" + ("" if variants is None
                                           else f" and {VARIANT_PARAM} (the kernel variant)")
    return guarded(kernels, f"{ARCH35}/{tiling_key_h(operator)}", body,
                   f"Tiling keys of the arch35 kernels: {what}.")


def _joined(lines: list[str]) -> list[str]:
    return [line + ("," if i + 1 < len(lines) else "") for i, line in enumerate(lines)]


def entry_text(kernels: list[Kernel]) -> str:
    """The templated entry: the kernel class of the tiling key's template arguments."""
    operator = kernels[0].operator
    variant = _variants(kernels) is not None
    params = f"typename {DTYPE_PARAM}" + (f", uint32_t {VARIANT_PARAM}" if variant else "")
    arguments = DTYPE_PARAM + (f", {VARIANT_PARAM}" if variant else "")
    lines = [
        generated(kernels),
        f"// The {operator.op_type} kernel entry on Ascend 950 (arch35): the template arguments "
        "are the tiling key's.",
        f'#include "{ARCH35}/{kernel_h(operator)}"', "",
        *entry_head(operator, params),
        f"    {operator.kernel_namespace}::{operator.op_type}<{arguments}> op;",
        f"    op.Init({', '.join(operator.kernel_arguments)}, &{TILING_PARAM});",
        "    op.Process();",
        "}",
    ]
    return "\n".join(lines) + "\n"


def set_key_lines(kernels: list[Kernel]) -> str:
    """TilingFunc's last step: the key from the dtype (and the variant the IR's tiling chose).
    Of a kernel at a dtype boundary, whose `dataType` is its output's, the first input's dtype
    (key_dtype)."""
    variant = "" if _variants(kernels) is None else \
        f", static_cast<uint64_t>(tilingKey) >> {TPL_DTYPE_BITS}"
    dtype = f"{kernels[0].operator.inputs[0]}Desc->GetDataType()" if kernels[0].mixed \
        else "dataType"
    return f"    ASCENDC_TPL_SEL_PARAM(context, static_cast<uint64_t>({dtype}){variant});\n"


def op_kernel_files(kernels: list[Kernel]) -> dict[str, str]:
    operator = kernels[0].operator
    return {
        f"op_kernel/{entry_cpp(kernels)}.cpp": entry_text(kernels),
        f"op_kernel/{ARCH35}/{kernel_h(operator)}": kernel_h_text(kernels, f"{ARCH35}/"),
        f"op_kernel/{ARCH35}/{operator.stem}_tiling_data.h":
            tiling_data_text(kernels, f"{ARCH35}/"),
        f"op_kernel/{ARCH35}/{tiling_key_h(operator)}": tiling_key_text(kernels),
    }


def op_host_files(kernels: list[Kernel], d: Description) -> dict[str, str]:
    """op_host/arch35/: the tiling (the op definition and shape inference are shared)."""
    stem = kernels[0].operator.stem
    kernel_dir = f"../../op_kernel/{ARCH35}/"
    return {
        f"op_host/{ARCH35}/{stem}_tiling_arch35.cpp":
            tiling_cpp(kernels, d, kernel_dir, set_key_lines(kernels)),
        f"op_host/{ARCH35}/{stem}_tiling_compute.h":
            tiling_compute_text(kernels, kernel_dir, f"{ARCH35}/"),
    }


def config_lines(kernels: list[Kernel], socs: list[str]) -> tuple[str, ...]:
    """The op definition's config of the arch35 SoCs: dynamic shapes and rank, and the entry
    file (opFile.value) of their kernel."""
    name = "arch35Config"
    lines = [f"        OpAICoreConfig {name};",
             f"        {name}.DynamicCompileStaticFlag(true)",
             "            .DynamicRankSupportFlag(true)",
             "            .DynamicShapeSupportFlag(true)",
             f'            .ExtendCfgInfo("opFile.value", "{entry_cpp(kernels)}");']
    lines += [f'        this->AICore().AddConfig("{soc}", {name});' for soc in socs]
    return tuple(lines)
