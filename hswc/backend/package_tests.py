"""tests/ut/ of the ops-nn package: gtest unit tests of the host tiling and of the kernel.

Every expectation is computed when the package is written, never typed in: tiling figures by
the IR's host tiling function (`ir_tiling`, the function TilingFunc is printed from), kernel
results by `operator.REFERENCE`, the bit-exact model of the kernel.

- `op_host/test_<entry>_tiling.cpp` runs TilingFunc through ops-nn's tiling-context faker for
  every kernel dtype on `TILING_CASES` (the shapes and platforms hswc's own tests use) and
  checks the tiling key, block dim, workspace and each tiling field; then the refusals: a UB
  too small, inputs of different shapes or dtypes, a dtype without a kernel.
- `op_kernel/test_<entry>.cpp` runs every kernel on the CPU debug model (tikicpulib) on
  `operator.KERNEL_TEST_INPUTS`, tiled as on `UT_PLATFORM`, and compares y bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hswc.backend.ir_tiling import TilingRefused, ir_tiling
from hswc.backend.kernels import Kernel
from hswc.backend.operator import (
    GE_DTYPES,
    INPUTS,
    KERNEL_ENTRY,
    KERNEL_TEST_INPUTS,
    OP_TYPE,
    OUTPUTS,
    TILING_STRUCT,
    TILING_STRUCT_FIELDS,
)
from hswc.backend.package_example import example_arrays
from hswc.backend.package_kernel import KERNEL_CPP, TILING_DATA_H
from hswc.backend.source import GENERATED
from hswc.backend.writer import wrapped
from hswc.platform import PLATFORMS
from hswc.tiling import Tiling

UT_PLATFORM = PLATFORMS["ascend910b"]
"""The platform the kernel unit test is tiled for: ascend910B1, the SoC it builds for."""
TILING_UT = f"tests/ut/op_host/test_{KERNEL_ENTRY}_tiling.cpp"
KERNEL_UT = f"tests/ut/op_kernel/test_{KERNEL_ENTRY}.cpp"
UNSUPPORTED_GE_DTYPES = ("ge::DT_INT32", "ge::DT_INT8", "ge::DT_DOUBLE")
"""Candidates for a dtype the package has no kernel for (the first one not in it is used)."""


@dataclass(frozen=True)
class TilingCase:
    """A shape on a platform: what the tiling unit test runs for every kernel dtype."""

    name: str
    shape: tuple[int, ...]
    core_num: int
    ub_size: int


TILING_CASES = (
    TilingCase("shape_7x3_on_64_cores", (7, 3), 64, 262144),
    TilingCase("one_million_on_48_cores", (1000, 1000), 48, 196608),
    TilingCase("scalar", (), 48, 196608),
    TilingCase("empty", (2, 0), 48, 196608),
    TilingCase("ub_too_small", (7, 3), 64, 2048),
)
"""The first two are ops-nn's tiling test ({7, 3} on 64 cores, 262144 B: 21, 1, 5440) and
SPEC section 4's worked example (10^6 elements on 48 cores: 20834, 4032)."""


def _tensor_list(descs: list[str]) -> list[str]:
    """`const std::vector<Desc> tensors = {...};`, one descriptor a line."""
    return ["    const std::vector<Desc> tensors = {", *(f"        {d}," for d in descs), "    };"]


def _shape(shape: tuple[int, ...]) -> str:
    dims = "{" + ", ".join(map(str, shape)) + "}"
    return f"{{{dims}, {dims}}}"


def case_tiling(kernel: Kernel, case: TilingCase) -> Tiling[int] | None:
    """What TilingFunc computes for `case` (a scalar counts as one element); None: refused."""
    total = int(np.prod(case.shape)) if case.shape else 1
    try:
        return ir_tiling(kernel, total, case.core_num, case.ub_size)
    except TilingRefused:
        return None


def _tiling_test(kernel: Kernel, case: TilingCase) -> list[str]:
    tensors = [f"Tensor({_shape(case.shape)}, {GE_DTYPES[kernel.dtype]})"
               for _ in INPUTS + OUTPUTS]
    name = f"{kernel.dtype}_{case.name}"
    tiling = case_tiling(kernel, case)
    lines = [f"TEST_F({OP_TYPE}TilingTest, {name})", "{", *_tensor_list(tensors),
             "    TilingInfo info;"]
    if tiling is None:
        lines += [f"    EXPECT_FALSE(Tile(tensors, {case.core_num}, {case.ub_size}, info));"]
    else:
        fields = ", ".join(str(v) for v in (tiling.total_num, tiling.block_factor,
                                            tiling.ub_factor))
        lines += [f"    ASSERT_TRUE(Tile(tensors, {case.core_num}, {case.ub_size}, info));",
                  f"    ExpectTiling(info, {tiling.tiling_key}, {tiling.used_core_num}, "
                  f"{{{fields}}});"]
    return [*lines, "}"]


def _refusal(name: str, tensors: list[tuple[tuple[int, ...], str]]) -> list[str]:
    descs = [f"Tensor({_shape(shape)}, {dtype})" for shape, dtype in tensors]
    return [f"TEST_F({OP_TYPE}TilingTest, {name})", "{", *_tensor_list(descs),
            "    TilingInfo info;",
            "    EXPECT_FALSE(Tile(tensors, 64, 262144, info));", "}", ""]


def _refusal_tests(kernels: list[Kernel]) -> list[str]:
    """Inputs TilingFunc refuses on any platform: mixed shapes or dtypes, a dtype without a
    kernel."""
    dtype = GE_DTYPES[kernels[0].dtype]
    unsupported = next(d for d in UNSUPPORTED_GE_DTYPES
                       if d not in {GE_DTYPES[k.dtype] for k in kernels})
    other = next((GE_DTYPES[k.dtype] for k in kernels[1:]), unsupported)
    shape, count = (7, 3), len(INPUTS + OUTPUTS)
    last_input = len(INPUTS) - 1
    lines: list[str] = []
    if len(INPUTS) > 1:
        lines += _refusal("inputs_differ_in_shape", [
            ((21,) if i == last_input else shape, dtype) for i in range(count)])
        lines += _refusal("inputs_differ_in_dtype", [
            (shape, other if i == last_input else dtype) for i in range(count)])
    return lines + _refusal("dtype_without_a_kernel", [(shape, unsupported)] * count)


def tiling_ut(kernels: list[Kernel]) -> str:
    field_checks = "\n".join(f"    EXPECT_EQ(data.{f}, fields[{i}]) << \"{f}\";"
                             for i, f in enumerate(TILING_STRUCT_FIELDS))
    tests = [line for k in kernels for case in TILING_CASES
             for line in [*_tiling_test(k, case), ""]]
    return f"""{GENERATED}
// Tiling unit tests of {OP_TYPE}: TilingFunc through ops-nn's tiling-context faker. The expected
// figures were computed by hswc from the IR's host tiling when the package was written.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "tiling_context_faker.h"
#include "tiling_case_executor.h"
#include "../../../op_kernel/{TILING_DATA_H}"

namespace {{

using Desc = gert::TilingContextPara::TensorDescription;

struct {OP_TYPE}CompileInfo {{}};

Desc Tensor(const gert::StorageShape& shape, ge::DataType dtype)
{{
    return Desc(shape, dtype, ge::FORMAT_ND);
}}

// Inputs then outputs, in the order of the op definition.
bool Tile(const std::vector<Desc>& tensors, uint64_t coreNum, uint64_t ubSize, TilingInfo& info)
{{
    const std::vector<Desc> inputs(tensors.begin(), tensors.begin() + {len(INPUTS)});
    const std::vector<Desc> outputs(tensors.begin() + {len(INPUTS)}, tensors.end());
    static {OP_TYPE}CompileInfo compileInfo;
    gert::TilingContextPara context("{OP_TYPE}", inputs, outputs, &compileInfo, coreNum, ubSize);
    return ExecuteTiling(context, info);
}}

void ExpectTiling(const TilingInfo& info, int64_t tilingKey, size_t blockDim,
    const std::vector<int64_t>& fields)
{{
    EXPECT_EQ(info.tilingKey, tilingKey);
    EXPECT_EQ(info.blockNum, blockDim);
    EXPECT_EQ(info.workspaceSizes, std::vector<int64_t>({{0}}));
    ASSERT_GE(info.tilingDataSize, sizeof({TILING_STRUCT}));
    {TILING_STRUCT} data;
    std::memcpy(&data, info.tilingData.get(), sizeof data);
{field_checks}
}}

}}  // namespace

class {OP_TYPE}TilingTest : public testing::Test {{}};

{chr(10).join(tests)}
{chr(10).join(_refusal_tests(kernels)).rstrip()}
"""


def _bits(values: np.ndarray) -> str:
    """C++ initialisers: each element's bit pattern, its value in a comment."""
    width = values.dtype.itemsize * 2
    raw = values.view(np.uint16 if values.dtype.itemsize == 2 else np.uint32)
    return ", ".join(f"0x{int(b):0{width}x} /* {float(v)!r} */"
                     for b, v in zip(raw, values.astype(np.float64), strict=True))


def _bits_type(kernel: Kernel) -> str:
    return "uint16_t" if kernel.dtype in ("f16", "bf16") else "uint32_t"


def _kernel_test(kernel: Kernel) -> list[str]:
    inputs, expected = example_arrays(kernel, KERNEL_TEST_INPUTS)
    p = UT_PLATFORM
    tiling = ir_tiling(kernel, expected.size, p.core_num, p.ub_size)
    element = _bits_type(kernel)
    lines = [f"TEST_F({OP_TYPE}KernelTest, {kernel.dtype}_kernel)", "{",
             f"    // tiled as on {p.name}: {p.core_num} cores, {p.ub_size} bytes of UB"]
    lines += [f"    const std::vector<{element}> {name} = {{{_bits(values)}}};"
              for name, values in zip(INPUTS, inputs, strict=True)]
    lines += [f"    const std::vector<{element}> expected = {{{_bits(expected)}}};",
              f"    {TILING_STRUCT} tiling;"]
    lines += [f"    tiling.{field} = {value};" for field, value in
              zip(TILING_STRUCT_FIELDS, (tiling.total_num, tiling.block_factor,
                                         tiling.ub_factor), strict=True)]
    lines += [f"    const std::vector<{element}> actual = LaunchKernel<{tiling.tiling_key}>("
              f"{', '.join(INPUTS)}, tiling, {tiling.used_core_num});",
              "    ASSERT_EQ(actual.size(), expected.size());",
              "    for (size_t i = 0; i < actual.size(); ++i) {",
              '        EXPECT_EQ(actual[i], expected[i]) << "element " << i;',
              "    }", "}"]
    return lines


def kernel_ut(kernels: list[Kernel]) -> str:
    (output,) = OUTPUTS
    first = INPUTS[0]
    params = [*(f"const std::vector<Bits>& {name}" for name in INPUTS),
              f"const {TILING_STRUCT}& tilingData", "uint32_t blockDim"]
    gm = [*INPUTS, output]
    allocs = "\n".join(
        f"    uint8_t* {name}Gm = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));" for name in gm)
    copies = "\n".join(f"    std::memcpy({name}Gm, {name}.data(), bytes);" for name in INPUTS)
    frees = "\n".join(f"    AscendC::GmFree({name}Gm);" for name in [*gm, "workspace", "tiling"])
    args = ", ".join([*(f"{name}Gm" for name in gm), "workspaceGm", "tilingGm"])
    tests = [line for k in kernels for line in [*_kernel_test(k), ""]]
    return f"""{GENERATED}
// Kernel unit tests of {OP_TYPE}: each kernel on the CPU debug model, {output} compared bit for
// bit with the bit-exact model of the kernel (its values computed when the package was written).
#include "../../../op_kernel/{KERNEL_CPP}"

#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tikicpulib.h"

namespace {{

// {KERNEL_ENTRY}<KEY> on blockDim cores with this tiling; {output}'s elements, as bit patterns.
template <uint32_t KEY, typename Bits>
{wrapped("std::vector<Bits> LaunchKernel", params)}
{{
    const size_t bytes = {first}.size() * sizeof(Bits);
{allocs}
    uint8_t* workspaceGm = static_cast<uint8_t*>(AscendC::GmAlloc(32));
    uint8_t* tilingGm = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof tilingData));
{copies}
    std::memcpy(tilingGm, &tilingData, sizeof tilingData);
    ICPU_SET_TILING_KEY(KEY);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(({KERNEL_ENTRY}<KEY>), blockDim, {args});
    std::vector<Bits> result({first}.size());
    std::memcpy(result.data(), {output}Gm, bytes);
{frees}
    return result;
}}

}}  // namespace

class {OP_TYPE}KernelTest : public testing::Test {{}};

{chr(10).join(tests).rstrip()}
"""


def test_files(kernels: list[Kernel]) -> dict[str, str]:
    return {TILING_UT: tiling_ut(kernels), KERNEL_UT: kernel_ut(kernels)}
