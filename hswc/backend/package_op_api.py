"""op_host/op_api/ of the ops-nn package: the aclnn two-phase API and the l0op launcher.

aclnnHardswishBackwardGetWorkspaceSize checks the arguments (nulls, dtypes with a kernel in this
package, same shapes, rank <= hsg.MAX_RANK), returns at once for empty tensors, makes the inputs
contiguous, adds the kernel launch and copies the result into a possibly strided `out`;
aclnnHardswishBackward runs what the first phase planned.
"""

from __future__ import annotations

from hswc.backend.kernels import Kernel
from hswc.backend.operator import ACLNN_API, KERNEL_ENTRY, OP_TYPE
from hswc.backend.package_kernel import guarded
from hswc.backend.source import GENERATED
from hswc.dialects.hsg import MAX_RANK

ACLNN_STEM = "aclnn_hardswish_backward"
OP_API_DTYPES = {"f16": "op::DataType::DT_FLOAT16", "f32": "op::DataType::DT_FLOAT",
                 "bf16": "op::DataType::DT_BF16"}


def aclnn_h() -> str:
    body = [
        '#include "aclnn/aclnn_base.h"',
        '#include "aclnn_util.h"',
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        f"// Phase 1 of {ACLNN_API}: check the arguments, plan the launch, say how much",
        "// workspace it needs. out = the backward of HardSwish at self, times gradOutput.",
        f"ACLNN_API aclnnStatus {ACLNN_API}GetWorkspaceSize(const aclTensor* gradOutput,",
        "    const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,",
        "    aclOpExecutor** executor);",
        "",
        f"// Phase 2 of {ACLNN_API}: run the planned launch on `stream`.",
        f"ACLNN_API aclnnStatus {ACLNN_API}(void* workspace, uint64_t workspaceSize,",
        "    aclOpExecutor* executor, aclrtStream stream);",
        "",
        "#ifdef __cplusplus",
        "}",
        "#endif",
    ]
    return guarded(f"{ACLNN_STEM}.h", body, f"The aclnn API of {OP_TYPE}.")


def _dtype_list(kernels: list[Kernel], with_bf16: bool) -> str:
    return ", ".join(OP_API_DTYPES[k.dtype] for k in kernels if with_bf16 or k.dtype != "bf16")


def aclnn_cpp(kernels: list[Kernel]) -> str:
    return f"""{GENERATED}
// The aclnn API of {OP_TYPE}: argument checks, then Contiguous -> {OP_TYPE} -> ViewCopy.
#include "{ACLNN_STEM}.h"
#include "{KERNEL_ENTRY}.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/common/op_error_check.h"
#include "op_api/op_api_def.h"
#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

using namespace op;

namespace {{

// The dtypes this package has a kernel for; SoCs without bf16 get the list without it.
const std::initializer_list<op::DataType> DTYPES = {{{_dtype_list(kernels, True)}}};
const std::initializer_list<op::DataType> DTYPES_WITHOUT_BF16 = {{{_dtype_list(kernels, False)}}};
constexpr int64_t MAX_RANK = {MAX_RANK};

bool CheckDtypes(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* out)
{{
    const auto& supported = GetDtypeSupportListV3(DTYPES, DTYPES_WITHOUT_BF16);
    OP_CHECK_DTYPE_NOT_SUPPORT(self, supported, return false);
    OP_CHECK_DTYPE_NOT_SUPPORT(gradOutput, supported, return false);
    OP_CHECK_DTYPE_NOT_MATCH(gradOutput, self->GetDataType(), return false);
    OP_CHECK_DTYPE_NOT_MATCH(out, self->GetDataType(), return false);
    return true;
}}

bool CheckShapes(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* out)
{{
    OP_CHECK_MAX_DIM(gradOutput, MAX_RANK, return false);
    OP_CHECK_MAX_DIM(self, MAX_RANK, return false);
    OP_CHECK_SHAPE_NOT_EQUAL(gradOutput, self, return false);
    OP_CHECK_SHAPE_NOT_EQUAL(out, self, return false);
    return true;
}}

}}  // namespace

#ifdef __cplusplus
extern "C" {{
#endif

aclnnStatus {ACLNN_API}GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)
{{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    L2_DFX_PHASE_1({ACLNN_API}, DFX_IN(gradOutput, self), DFX_OUT(out));
    auto uniqueExecutor = CREATE_EXECUTOR();
    CHECK_RET(uniqueExecutor.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);

    CHECK_RET(CheckNotNull3Tensor(gradOutput, self, out), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_RET(CheckDtypes(gradOutput, self, out), ACLNN_ERR_PARAM_INVALID);
    CHECK_RET(CheckShapes(gradOutput, self, out), ACLNN_ERR_PARAM_INVALID);

    // An empty tensor launches nothing and needs no workspace.
    if (gradOutput->IsEmpty() || self->IsEmpty()) {{
        *workspaceSize = 0;
        uniqueExecutor.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }}

    // The kernel reads flat memory: strided inputs are made contiguous first.
    const aclTensor* gradContiguous = l0op::Contiguous(gradOutput, uniqueExecutor.get());
    CHECK_RET(gradContiguous != nullptr, ACLNN_ERR_INNER_NULLPTR);
    const aclTensor* selfContiguous = l0op::Contiguous(self, uniqueExecutor.get());
    CHECK_RET(selfContiguous != nullptr, ACLNN_ERR_INNER_NULLPTR);

    const aclTensor* result = l0op::{OP_TYPE}(gradContiguous, selfContiguous, uniqueExecutor.get());
    CHECK_RET(result != nullptr, ACLNN_ERR_INNER_NULLPTR);

    // out may be a strided view: the contiguous result is copied into it.
    const aclTensor* copied = l0op::ViewCopy(result, out, uniqueExecutor.get());
    CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);

    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}}

aclnnStatus {ACLNN_API}(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream)
{{
    L2_DFX_PHASE_2({ACLNN_API});
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}}

#ifdef __cplusplus
}}
#endif
"""


def l0op_h() -> str:
    body = [
        '#include "opdev/op_executor.h"',
        "",
        "namespace l0op {",
        f"// Adds one {OP_TYPE} kernel launch on contiguous grad and x; returns y.",
        f"const aclTensor* {OP_TYPE}(const aclTensor* grad, const aclTensor* x, "
        "aclOpExecutor* executor);",
        "}  // namespace l0op",
    ]
    return guarded(f"{KERNEL_ENTRY}_l0op.h", body, f"The l0op launcher of {OP_TYPE}.")


def l0op_cpp() -> str:
    return f"""{GENERATED}
// The l0op launcher of {OP_TYPE}: y gets x's shape and dtype, then the AI Core launch.
#include "{KERNEL_ENTRY}.h"
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

const aclTensor* {OP_TYPE}(const aclTensor* grad, const aclTensor* x, aclOpExecutor* executor)
{{
    L0_DFX({OP_TYPE}, grad, x);
    aclTensor* y = executor->AllocTensor(x->GetViewShape(), x->GetDataType());
    CHECK_RET(y != nullptr, nullptr);
    const aclnnStatus launched =
        ADD_TO_LAUNCHER_LIST_AICORE({OP_TYPE}, OP_INPUT(grad, x), OP_OUTPUT(y));
    OP_CHECK(launched == ACLNN_SUCCESS,
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "{OP_TYPE}: adding the AI Core launch failed."),
        return nullptr);
    return y;
}}

}}  // namespace l0op
"""


def op_api_files(kernels: list[Kernel]) -> dict[str, str]:
    return {
        f"op_host/op_api/{ACLNN_STEM}.h": aclnn_h(),
        f"op_host/op_api/{ACLNN_STEM}.cpp": aclnn_cpp(kernels),
        f"op_host/op_api/{KERNEL_ENTRY}.h": l0op_h(),
        f"op_host/op_api/{KERNEL_ENTRY}.cpp": l0op_cpp(),
    }
