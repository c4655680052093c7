"""op_host/op_api/ of the ops-nn package: the aclnn two-phase API and the l0op launcher.

<ACLNN_API>GetWorkspaceSize checks the arguments (nulls, dtypes with a kernel in this package,
same dtype and shape for all, rank <= hsg.MAX_RANK), returns at once for empty tensors, makes
the inputs contiguous, adds the kernel launch and copies the result into a possibly strided
output; <ACLNN_API> runs what the first phase planned. Every name comes from `operator`.

The includes are those of ops-nn's own aclnn sources: `op_api/level2_base.h` (the dtype list
per SoC), `opdev/make_op_executor.h` (CREATE_EXECUTOR, ADD_TO_LAUNCHER_LIST_AICORE) and the
checks of `aclnn_kernels/common/op_error_check.h`.
"""

from __future__ import annotations

from hswc.backend.kernels import Kernel
from hswc.backend.operator import (
    ACLNN_API,
    ACLNN_INPUTS,
    ACLNN_NAMES,
    ACLNN_OUTPUTS,
    ACLNN_STEM,
    INPUTS,
    KERNEL_ENTRY,
    OP_TYPE,
    OUTPUTS,
    summary,
)
from hswc.backend.package_kernel import guarded
from hswc.backend.source import GENERATED
from hswc.backend.writer import wrapped
from hswc.dialects.hsg import MAX_RANK

OP_API_DTYPES = {"f16": "op::DataType::DT_FLOAT16", "f32": "op::DataType::DT_FLOAT",
                 "bf16": "op::DataType::DT_BF16"}
ACLNN_H = f"{ACLNN_STEM}.h"
L0OP_H = f"{KERNEL_ENTRY}.h"


def _tensors(names: tuple[str, ...], const: bool) -> list[str]:
    return [f"{'const ' if const else ''}aclTensor* {name}" for name in names]


def workspace_parameters() -> list[str]:
    """Phase 1's parameters: the inputs, the outputs, then where the plan goes."""
    return [*_tensors(ACLNN_INPUTS, True), *_tensors(ACLNN_OUTPUTS, False),
            "uint64_t* workspaceSize", "aclOpExecutor** executor"]


RUN_PARAMETERS = ["void* workspace", "uint64_t workspaceSize", "aclOpExecutor* executor",
                  "aclrtStream stream"]
"""Phase 2's parameters."""


def aclnn_h() -> str:
    body = [
        '#include "aclnn/aclnn_base.h"',
        '#include "aclnn_util.h"',
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        f"// {ACLNN_API}: {summary(ACLNN_NAMES)}.",
        "// Phase 1: check the arguments, plan the launch, say how much workspace it needs.",
        wrapped(f"ACLNN_API aclnnStatus {ACLNN_API}GetWorkspaceSize", workspace_parameters(),
                ";"),
        "",
        "// Phase 2: run the planned launch on `stream`.",
        wrapped(f"ACLNN_API aclnnStatus {ACLNN_API}", RUN_PARAMETERS, ";"),
        "",
        "#ifdef __cplusplus",
        "}",
        "#endif",
    ]
    return guarded(ACLNN_H, body, f"The aclnn API of {OP_TYPE}.")


def _dtype_list(kernels: list[Kernel], with_bf16: bool) -> str:
    return ", ".join(OP_API_DTYPES[k.dtype] for k in kernels if with_bf16 or k.dtype != "bf16")


def _indent(lines: list[str], depth: int = 1) -> str:
    return "\n".join(("    " * depth + line) if line else "" for line in lines)


def _checks(kernels: list[Kernel]) -> str:
    """The argument checks: nulls, then dtypes, then shapes, each against the first input."""
    tensors = ACLNN_INPUTS + ACLNN_OUTPUTS
    first, others = ACLNN_INPUTS[0], tensors[1:]
    params = ", ".join(f"const aclTensor* {t}" for t in tensors)
    nulls = [f"OP_CHECK_NULL({t}, return false);" for t in tensors]
    dtypes = [f"OP_CHECK_DTYPE_NOT_SUPPORT({t}, supported, return false);" for t in ACLNN_INPUTS]
    dtypes += [f"OP_CHECK_DTYPE_NOT_MATCH({t}, {first}->GetDataType(), return false);"
               for t in others]
    shapes = [f"OP_CHECK_MAX_DIM({t}, MAX_RANK, return false);" for t in ACLNN_INPUTS]
    shapes += [f"OP_CHECK_SHAPE_NOT_EQUAL({t}, {first}, return false);" for t in others]
    return f"""// The dtypes with a kernel here; SoCs without bf16 get the list without it.
const std::initializer_list<op::DataType> DTYPES = {{{_dtype_list(kernels, True)}}};
const std::initializer_list<op::DataType> DTYPES_WITHOUT_BF16 = {{{_dtype_list(kernels, False)}}};
constexpr int64_t MAX_RANK = {MAX_RANK};

bool CheckNotNull({params})
{{
{_indent(nulls)}
    return true;
}}

bool CheckDtypes({params})
{{
    const auto supported = GetDtypeSupportListV3(DTYPES, DTYPES_WITHOUT_BF16);
{_indent(dtypes)}
    return true;
}}

bool CheckShapes({params})
{{
{_indent(shapes)}
    return true;
}}"""


def _contiguous(name: str) -> str:
    return f"{name}Contiguous"


def _launch_body() -> list[str]:
    """Contiguous inputs -> the l0op launch -> ViewCopy into each output."""
    lines = ["// The kernel reads flat memory: strided inputs are made contiguous first."]
    for name in ACLNN_INPUTS:
        lines += [f"const aclTensor* {_contiguous(name)} = l0op::Contiguous({name}, "
                  "uniqueExecutor.get());",
                  f"CHECK_RET({_contiguous(name)} != nullptr, ACLNN_ERR_INNER_NULLPTR);"]
    args = ", ".join([*(_contiguous(n) for n in ACLNN_INPUTS), "uniqueExecutor.get()"])
    (output,) = ACLNN_OUTPUTS
    lines += ["", f"const aclTensor* result = l0op::{OP_TYPE}({args});",
              "CHECK_RET(result != nullptr, ACLNN_ERR_INNER_NULLPTR);", "",
              f"// {output} may be a strided view: the contiguous result is copied into it.",
              f"const aclTensor* copied = l0op::ViewCopy(result, {output}, uniqueExecutor.get());",
              "CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);"]
    return lines


def aclnn_cpp(kernels: list[Kernel]) -> str:
    tensors = ", ".join(ACLNN_INPUTS + ACLNN_OUTPUTS)
    inputs, outputs = ", ".join(ACLNN_INPUTS), ", ".join(ACLNN_OUTPUTS)
    empty = " || ".join(f"{name}->IsEmpty()" for name in ACLNN_INPUTS)
    return f"""{GENERATED}
// The aclnn API of {OP_TYPE}: argument checks, then Contiguous -> {OP_TYPE} -> ViewCopy.
#include "{ACLNN_H}"
#include "{L0OP_H}"
#include "aclnn_kernels/common/op_error_check.h"
#include "aclnn_kernels/contiguous.h"
#include "op_api/level2_base.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

using namespace op;

namespace {{

{_checks(kernels)}

}}  // namespace

#ifdef __cplusplus
extern "C" {{
#endif

{wrapped(f"aclnnStatus {ACLNN_API}GetWorkspaceSize", workspace_parameters())}
{{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    L2_DFX_PHASE_1({ACLNN_API}, DFX_IN({inputs}), DFX_OUT({outputs}));
    auto uniqueExecutor = CREATE_EXECUTOR();
    CHECK_RET(uniqueExecutor.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);

    CHECK_RET(CheckNotNull({tensors}), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_RET(CheckDtypes({tensors}), ACLNN_ERR_PARAM_INVALID);
    CHECK_RET(CheckShapes({tensors}), ACLNN_ERR_PARAM_INVALID);

    // An empty tensor launches nothing and needs no workspace.
    if ({empty}) {{
        *workspaceSize = 0;
        uniqueExecutor.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }}

{_indent(_launch_body())}

    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}}

{wrapped(f"aclnnStatus {ACLNN_API}", RUN_PARAMETERS)}
{{
    L2_DFX_PHASE_2({ACLNN_API});
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}}

#ifdef __cplusplus
}}
#endif
"""


def l0op_signature() -> str:
    inputs = ", ".join(f"const aclTensor* {name}" for name in INPUTS)
    return f"const aclTensor* {OP_TYPE}({inputs}, aclOpExecutor* executor)"


def l0op_h() -> str:
    body = [
        '#include "opdev/op_executor.h"',
        "",
        "namespace l0op {",
        f"// Adds one {OP_TYPE} kernel launch on contiguous {' and '.join(INPUTS)}; returns "
        f"{' and '.join(OUTPUTS)}.",
        f"{l0op_signature()};",
        "}  // namespace l0op",
    ]
    return guarded(f"{KERNEL_ENTRY}_l0op.h", body, f"The l0op launcher of {OP_TYPE}.")


def l0op_cpp() -> str:
    (output,) = OUTPUTS
    shape_from = INPUTS[-1]
    return f"""{GENERATED}
// The l0op launcher of {OP_TYPE}: {output} gets {shape_from}'s shape and dtype, then the launch.
#include "{L0OP_H}"
#include "opdev/data_type_utils.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

using namespace op;

namespace l0op {{

OP_TYPE_REGISTER({OP_TYPE});

{l0op_signature()}
{{
    L0_DFX({OP_TYPE}, {", ".join(INPUTS)});
    aclTensor* {output} =
        executor->AllocTensor({shape_from}->GetViewShape(), {shape_from}->GetDataType());
    CHECK_RET({output} != nullptr, nullptr);
    const aclnnStatus launched =
        ADD_TO_LAUNCHER_LIST_AICORE({OP_TYPE}, OP_INPUT({", ".join(INPUTS)}), OP_OUTPUT({output}));
    OP_CHECK(launched == ACLNN_SUCCESS,
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "{OP_TYPE}: adding the AI Core launch failed."),
        return nullptr);
    return {output};
}}

}}  // namespace l0op
"""


def op_api_files(kernels: list[Kernel]) -> dict[str, str]:
    return {
        f"op_host/op_api/{ACLNN_H}": aclnn_h(),
        f"op_host/op_api/{ACLNN_STEM}.cpp": aclnn_cpp(kernels),
        f"op_host/op_api/{L0OP_H}": l0op_h(),
        f"op_host/op_api/{KERNEL_ENTRY}.cpp": l0op_cpp(),
    }
