"""op_host/ of the ops-nn package: host tiling, op definition, shape inference.

The tiling formula is not written here: `hard_swish_grad_tiling_compute.h` is the IR's
`hsg.tiling` functions printed by `host_tiling`, and `hard_swish_grad_tiling.cpp` only gathers
what they need from the CANN runtime (platform queries, shapes, dtype) and hands back what they
computed (tiling struct, block dim, tiling key), or fails with their message.
"""

from __future__ import annotations

from hswc.backend.host_tiling import tiling_compute_lines
from hswc.backend.kernels import Kernel
from hswc.backend.operator import (
    GE_DTYPES,
    INPUTS,
    KERNEL_ENTRY,
    OP_TYPE,
    OUTPUTS,
    TILING_NAMESPACE,
    TILING_STRUCT,
    tiling_function,
)
from hswc.backend.package_kernel import TILING_DATA_H, TILING_KEY_H, guarded
from hswc.backend.source import GENERATED
from hswc.platform import PLATFORMS

TILING_COMPUTE_H = f"{KERNEL_ENTRY}_tiling_compute.h"


def tiling_compute_h(kernels: list[Kernel]) -> str:
    body = ["#include <cstdint>", "", f'#include "../op_kernel/{TILING_DATA_H}"', "",
            *tiling_compute_lines(kernels)]
    return guarded(TILING_COMPUTE_H, body, "The host tiling of each kernel (SPEC section 4), "
                   "printed from the IR's hsg.tiling functions; needs no CANN header.")


def _dispatch(kernels: list[Kernel]) -> list[str]:
    lines = ["ComputeTiling TilingFor(ge::DataType dataType)", "{", "    switch (dataType) {"]
    for k in kernels:
        lines.append(f"        case {GE_DTYPES[k.dtype]}:")
        lines.append(f"            return {TILING_NAMESPACE}::{tiling_function(k.dtype)};")
    return [*lines, "        default:", "            return nullptr;", "    }", "}"]


def _input_checks() -> str:
    """TilingFunc's checks: every input has the first one's shape (a scalar counts as {1}) and
    dtype. Sets `shape` and `dataType`."""
    first = INPUTS[0]
    lines = []
    for index, name in enumerate(INPUTS):
        lines += [f"const gert::StorageShape* {name}Shape = context->GetInputShape({index});",
                  f"OP_CHECK_NULL_WITH_CONTEXT(context, {name}Shape);",
                  f"const gert::CompileTimeTensorDesc* {name}Desc = "
                  f"context->GetInputDesc({index});",
                  f"OP_CHECK_NULL_WITH_CONTEXT(context, {name}Desc);"]
    lines += [f"const gert::Shape shape = NotScalar({first}Shape->GetStorageShape());",
              f"const ge::DataType dataType = {first}Desc->GetDataType();"]
    for name in INPUTS[1:]:
        lines += [
            f"OP_CHECK_IF(!SameShape(shape, NotScalar({name}Shape->GetStorageShape())),",
            f'    OP_LOGE(context, "{OP_TYPE}: {first} and {name} differ in shape"), '
            "return ge::GRAPH_FAILED);",
            f"OP_CHECK_IF({name}Desc->GetDataType() != dataType,",
            f'    OP_LOGE(context, "{OP_TYPE}: {first} and {name} differ in dtype"), '
            "return ge::GRAPH_FAILED);",
        ]
    return "\n".join("    " + line for line in lines)


def tiling_cpp(kernels: list[Kernel]) -> str:
    text = f"""{GENERATED}
// TilingFunc of {OP_TYPE}: platform and tensor queries around the generated tiling.
#include <cstdint>

#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "tiling/platform/platform_ascendc.h"
#include "../op_kernel/{TILING_KEY_H}"
#include "{TILING_COMPUTE_H}"

namespace optiling {{

namespace {{

using ComputeTiling = bool (*)(int64_t, int64_t, int64_t, {TILING_STRUCT}*, int64_t*, int64_t*,
    const char**);

// The generated tiling of the kernel for each dtype the package has a kernel for.
{chr(10).join(_dispatch(kernels))}

// A scalar (rank 0) is treated as shape {{1}}.
gert::Shape NotScalar(const gert::Shape& shape)
{{
    return shape.GetDimNum() == 0 ? gert::Shape({{1}}) : shape;
}}

bool SameShape(const gert::Shape& a, const gert::Shape& b)
{{
    if (a.GetDimNum() != b.GetDimNum()) {{
        return false;
    }}
    for (size_t i = 0; i < a.GetDimNum(); ++i) {{
        if (a.GetDim(i) != b.GetDim(i)) {{
            return false;
        }}
    }}
    return true;
}}

}}  // namespace

static ge::graphStatus {OP_TYPE}TilingFunc(gert::TilingContext* context)
{{
    fe::PlatFormInfos* platformInfo = context->GetPlatformInfo();
    OP_CHECK_NULL_WITH_CONTEXT(context, platformInfo);
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(platformInfo);
    const int64_t coreNum = static_cast<int64_t>(ascendcPlatform.GetCoreNumAiv());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);

    size_t* workspaceSizes = context->GetWorkspaceSizes(1);
    OP_CHECK_NULL_WITH_CONTEXT(context, workspaceSizes);
    workspaceSizes[0] = 0;

{_input_checks()}
    const ComputeTiling computeTiling = TilingFor(dataType);
    OP_CHECK_IF(computeTiling == nullptr,
        OP_LOGE(context, "{OP_TYPE}: no kernel for this dtype"), return ge::GRAPH_FAILED);

    {TILING_STRUCT}* tilingData = context->GetTilingData<{TILING_STRUCT}>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tilingData);
    int64_t blockDim = 0;
    int64_t tilingKey = 0;
    const char* error = "";
    OP_CHECK_IF(!computeTiling(shape.GetShapeSize(), coreNum,
        static_cast<int64_t>(ubSize), tilingData, &blockDim, &tilingKey, &error),
        OP_LOGE(context, "{OP_TYPE}: tiling failed: %s", error), return ge::GRAPH_FAILED);
    context->SetBlockDim(static_cast<uint32_t>(blockDim));
    context->SetTilingKey(GET_TPL_TILING_KEY(static_cast<uint64_t>(tilingKey)));
    return ge::GRAPH_SUCCESS;
}}

static ge::graphStatus TilingParseFor{OP_TYPE}([[maybe_unused]] gert::TilingParseContext* context)
{{
    return ge::GRAPH_SUCCESS;
}}

struct {OP_TYPE}CompileInfo {{}};

IMPL_OP_OPTILING({OP_TYPE})
    .Tiling({OP_TYPE}TilingFunc)
    .TilingParse<{OP_TYPE}CompileInfo>(TilingParseFor{OP_TYPE});

}}  // namespace optiling
"""
    return text


def socs_for(kernels: list[Kernel], socs: list[str]) -> list[str]:
    """The SoCs to register: those asked for whose platform runs every kernel's dtype."""
    needs_bf16 = any(k.dtype == "bf16" for k in kernels)
    return [s for s in socs if PLATFORMS[s].supports_bf16 or not needs_bf16]


def def_cpp(kernels: list[Kernel], socs: list[str]) -> str:
    dtypes = ", ".join(GE_DTYPES[k.dtype] for k in kernels)
    formats = ", ".join("ge::FORMAT_ND" for _ in kernels)
    lines = [GENERATED, f"// The {OP_TYPE} operator: inputs, output, dtypes, SoCs.",
             '#include "register/op_def_registry.h"', "", "namespace ops {", "",
             f"class {OP_TYPE} : public OpDef {{", "public:",
             f"    explicit {OP_TYPE}(const char* name) : OpDef(name)", "    {"]
    for kind, names in (("Input", INPUTS), ("Output", OUTPUTS)):
        for name in names:
            lines += [
                f'        this->{kind}("{name}")',
                "            .ParamType(REQUIRED)",
                f"            .DataType({{{dtypes}}})",
                f"            .Format({{{formats}}})",
                f"            .UnknownShapeFormat({{{formats}}});",
            ]
    lines += [f'        this->AICore().AddConfig("{soc}");' for soc in socs_for(kernels, socs)]
    lines += ["    }", "};", "", f"OP_ADD({OP_TYPE});", "", "}  // namespace ops"]
    return "\n".join(lines) + "\n"


def infershape_cpp() -> str:
    """Every output gets the first input's shape."""
    first = INPUTS[0]
    verb = "gets" if len(OUTPUTS) == 1 else "get"
    outputs = "\n".join(
        f"    gert::Shape* {name}Shape = context->GetOutputShape({index});\n"
        f"    OP_CHECK_NULL_WITH_CONTEXT(context, {name}Shape);\n"
        f"    *{name}Shape = *{first}Shape;" for index, name in enumerate(OUTPUTS))
    return f"""{GENERATED}
// Shape inference of {OP_TYPE}: {" and ".join(OUTPUTS)} {verb} {first}'s shape.
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace ops {{

static ge::graphStatus InferShape{OP_TYPE}(gert::InferShapeContext* context)
{{
    const gert::Shape* {first}Shape = context->GetInputShape(0);
    OP_CHECK_NULL_WITH_CONTEXT(context, {first}Shape);
{outputs}
    return ge::GRAPH_SUCCESS;
}}

IMPL_OP_INFERSHAPE({OP_TYPE}).InferShape(InferShape{OP_TYPE});

}}  // namespace ops
"""


def op_host_files(kernels: list[Kernel], socs: list[str]) -> dict[str, str]:
    return {
        f"op_host/{KERNEL_ENTRY}_tiling.cpp": tiling_cpp(kernels),
        f"op_host/{TILING_COMPUTE_H}": tiling_compute_h(kernels),
        f"op_host/{KERNEL_ENTRY}_def.cpp": def_cpp(kernels, socs),
        f"op_host/{KERNEL_ENTRY}_infershape.cpp": infershape_cpp(),
    }

