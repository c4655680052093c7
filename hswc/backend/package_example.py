"""examples/test_aclnn_hard_swish_grad.cpp: the SPEC section 7 example through the aclnn API.

Shape {9}, x = -4..4, grad = [1, 2, 3, -4, 5, -6, 7, 8, -9], checked against golden values
that hswc.reference.hard_swish_grad_cann (the bit-exact model of the kernel) computes when the
package is written, with |a - e| <= 1e-5 + 1e-5 * |e|. The example runs the f32 kernel when the
package has one, else the kernel of the lowest tiling key.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from hswc.backend.kernels import Kernel
from hswc.backend.operator import ACL_DTYPES, ACLNN_API, KERNEL_ENTRY, OP_TYPE
from hswc.backend.package_op_api import ACLNN_STEM
from hswc.backend.source import GENERATED
from hswc.reference import hard_swish_grad_cann

GRAD = (1, 2, 3, -4, 5, -6, 7, 8, -9)
X = (-4, -3, -2, -1, 0, 1, 2, 3, 4)
TOLERANCE = 1e-5
NUMPY_DTYPES = {"f16": np.float16, "f32": np.float32, "bf16": ml_dtypes.bfloat16}

_TO_FLOAT = {
    "f32": ["float ToFloat(Element value)", "{", "    return value;", "}"],
    "f16": ["float ToFloat(Element bits)", "{", "    return aclFloat16ToFloat(bits);", "}"],
    "bf16": ["float ToFloat(Element bits)", "{",
             "    const uint32_t widened = static_cast<uint32_t>(bits) << 16;",
             "    float value = 0.0f;", "    std::memcpy(&value, &widened, sizeof value);",
             "    return value;", "}"],
}
"""An element of y as float: f16 through ACL, bf16 by widening its bits (exact)."""


def _float(value: float) -> str:
    return f"{np.float32(value)!s}f"


def _elements(values: np.ndarray, dtype: str) -> str:
    """C++ initialisers: float literals for f32, bit patterns (value in a comment) otherwise."""
    if dtype == "f32":
        return ", ".join(_float(v) for v in values)
    bits = values.view(np.uint16)
    return ", ".join(f"0x{b:04x} /* {_float(float(v))} */" for b, v in zip(bits, values,
                                                                          strict=True))


def example_kernel(kernels: list[Kernel]) -> Kernel:
    return next((k for k in kernels if k.dtype == "f32"), kernels[0])


def example_cpp(kernels: list[Kernel]) -> str:
    dtype = example_kernel(kernels).dtype
    np_type = NUMPY_DTYPES[dtype]
    grad, x = np.array(GRAD, dtype=np_type), np.array(X, dtype=np_type)
    expected = hard_swish_grad_cann(grad, x).astype(np.float32)
    element = "float" if dtype == "f32" else "uint16_t"
    to_float = "\n".join(_TO_FLOAT[dtype])
    return f"""{GENERATED}
// {ACLNN_API} on the {dtype} kernel: the SPEC section 7 example, checked against goldens of
// hswc.reference.hard_swish_grad_cann (the bit-exact model of the kernel).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "{ACLNN_STEM}.h"

namespace {{

using Element = {element};
constexpr aclDataType DTYPE = {ACL_DTYPES[dtype]};
const std::vector<int64_t> SHAPE = {{{len(GRAD)}}};
const std::vector<Element> GRAD = {{{_elements(grad, dtype)}}};
const std::vector<Element> X = {{{_elements(x, dtype)}}};
const std::vector<float> EXPECTED = {{{", ".join(_float(v) for v in expected)}}};
constexpr float TOLERANCE = {_float(TOLERANCE)};

{to_float}

bool IsClose(float actual, float expected)
{{
    return std::fabs(actual - expected) <= TOLERANCE + TOLERANCE * std::fabs(expected);
}}

bool Ok(aclError status, const char* what)
{{
    if (status != ACL_SUCCESS) {{
        std::printf("%s failed: error %d\\n", what, static_cast<int>(status));
        return false;
    }}
    return true;
}}

// One device tensor of SHAPE, freed when it goes out of scope.
struct DeviceTensor {{
    void* address = nullptr;
    aclTensor* tensor = nullptr;

    bool Create(const std::vector<Element>& host)
    {{
        const size_t bytes = host.size() * sizeof(Element);
        if (!Ok(aclrtMalloc(&address, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc") ||
            !Ok(aclrtMemcpy(address, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
                "aclrtMemcpy to the device")) {{
            return false;
        }}
        const std::vector<int64_t> strides(SHAPE.size(), 1);
        tensor = aclCreateTensor(SHAPE.data(), SHAPE.size(), DTYPE, strides.data(), 0,
            ACL_FORMAT_ND, SHAPE.data(), SHAPE.size(), address);
        return tensor != nullptr;
    }}

    ~DeviceTensor()
    {{
        if (tensor != nullptr) {{
            aclDestroyTensor(tensor);
        }}
        if (address != nullptr) {{
            aclrtFree(address);
        }}
    }}
}};

int Run(aclrtStream stream)
{{
    DeviceTensor grad;
    DeviceTensor x;
    DeviceTensor y;
    if (!grad.Create(GRAD) || !x.Create(X) || !y.Create(std::vector<Element>(GRAD.size()))) {{
        return 1;
    }}
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    if (!Ok({ACLNN_API}GetWorkspaceSize(grad.tensor, x.tensor, y.tensor, &workspaceSize,
            &executor), "{ACLNN_API}GetWorkspaceSize")) {{
        return 1;
    }}
    void* workspace = nullptr;
    if (workspaceSize > 0 &&
        !Ok(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST), "workspace")) {{
        return 1;
    }}
    const bool ran = Ok({ACLNN_API}(workspace, workspaceSize, executor, stream), "{ACLNN_API}") &&
        Ok(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
    if (workspace != nullptr) {{
        aclrtFree(workspace);
    }}
    std::vector<Element> actual(GRAD.size());
    const size_t bytes = actual.size() * sizeof(Element);
    if (!ran || !Ok(aclrtMemcpy(actual.data(), bytes, y.address, bytes,
            ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy to the host")) {{
        return 1;
    }}
    int mismatches = 0;
    for (size_t i = 0; i < actual.size(); ++i) {{
        const float value = ToFloat(actual[i]);
        const bool close = IsClose(value, EXPECTED[i]);
        std::printf("y[%zu] = %.9g, expected %.9g%s\\n", i, value, EXPECTED[i],
            close ? "" : "  MISMATCH");
        mismatches += close ? 0 : 1;
    }}
    std::printf(mismatches == 0 ? "{OP_TYPE} example passed.\\n" : "{OP_TYPE} example FAILED.\\n");
    return mismatches == 0 ? 0 : 1;
}}

}}  // namespace

int main()
{{
    constexpr int32_t deviceId = 0;
    if (!Ok(aclInit(nullptr), "aclInit")) {{
        return 1;
    }}
    int status = 1;
    aclrtStream stream = nullptr;
    if (Ok(aclrtSetDevice(deviceId), "aclrtSetDevice")) {{
        if (Ok(aclrtCreateStream(&stream), "aclrtCreateStream")) {{
            status = Run(stream);
            aclrtDestroyStream(stream);
        }}
        aclrtResetDevice(deviceId);
    }}
    aclFinalize();
    return status;
}}
"""


def example_files(kernels: list[Kernel]) -> dict[str, str]:
    return {f"examples/test_aclnn_{KERNEL_ENTRY}.cpp": example_cpp(kernels)}
