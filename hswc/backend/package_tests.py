"""tests/ut/ of the ops-nn package: gtest unit tests of the host tiling and of the kernel.

Every expectation is computed when the package is written, never typed in: tiling figures by
the IR's host tiling function (`ir_tiling`, the function TilingFunc is printed from), the
tiling struct's float fields as the attribute values given, kernel results by the
description's golden model (a named op's bit-exact reference; hswc-run for a generic).

- `op_host/test_<entry>_tiling.cpp` runs TilingFunc through ops-nn's tiling-context faker for
  every kernel dtype on `TILING_CASES` (the shapes and platforms hswc's own tests use), with
  the op's attributes at the values the module gave them, and checks the tiling key, block
  dim, workspace and each tiling field; then the refusals: a UB too small, inputs of different
  shapes or dtypes, a dtype without a kernel, and each attribute value the op refuses. Of a
  broadcast operator (hswc.broadcast) every tensor has the shape its kernels were compiled for,
  the cases are that shape on the same platforms, and each input of another shape is refused.
- `op_kernel/test_<entry>.cpp` runs every kernel on the CPU debug model (tikicpulib) on the
  description's kernel test inputs (each of its own size, of a broadcast operator), tiled as on
  `UT_PLATFORM`, and compares y bit for bit.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IntegerAttr

from hswc.backend.cpp_types import float_literal
from hswc.backend.description import Description
from hswc.backend.ir_tiling import TilingRefused, ir_tiling
from hswc.backend.kernels import Kernel
from hswc.backend.operator import GE_DTYPES, Operator
from hswc.backend.package_example import example_arrays
from hswc.backend.package_kernel import generated, kernel_cpp, tiling_data_h
from hswc.backend.writer import wrapped
from hswc.counted_rows import COUNTS_ATTR, GROUP_NUM_FIELD
from hswc.dialects.hsg import MAX_RANK
from hswc.platform import PLATFORMS, Platform
from hswc.rows import ROW_LENGTH_FIELD
from hswc.tiling import GE_DATA_TYPES, TILING_FIELDS, Tiling

UT_PLATFORM = PLATFORMS["ascend910b"]
"""The platform the kernel unit test is tiled for: ascend910B1, the SoC it builds for."""
ARCH35_UT_PLATFORM = PLATFORMS["ascend950"]
"""The platform the Ascend 950 (arch35) kernel unit test is tiled for."""


def same_key(kernel: Kernel, key: int) -> int:
    """The A2/A3 package's tiling key: the IR's (the schMode of the kernel)."""
    return key


def arch35_key(kernel: Kernel, key: int) -> int:
    """The arch35 package's tiling key, as ASCENDC_TPL_SEL_PARAM encodes (dtype, variant): the
    input's ge::DataType in the low 8 bits, the variant (BUFFER_MODE) above; the IR's key of a
    run-time choice already is that (hswc.tiling.template_tiling_key). The input's: of a
    kernel at a dtype boundary, the first input's (hswc.backend.package_arch35.key_dtype)."""
    return key if kernel.variant is not None else GE_DATA_TYPES[kernel.gm_dtypes[0]]


def tiling_ut_path(operator: Operator) -> str:
    return f"tests/ut/op_host/test_{operator.stem}_tiling.cpp"


def kernel_ut_path(operator: Operator) -> str:
    return f"tests/ut/op_kernel/test_{operator.stem}.cpp"


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
COMPILED_SHAPE_CASES = (
    TilingCase("compiled_shape_on_64_cores", (), 64, 262144),
    TilingCase("compiled_shape_on_48_cores", (), 48, 196608),
    TilingCase("ub_of_2048_bytes", (), 64, 2048),
)
"""Of a broadcast operator, whose kernels take one shape (the output's, put in for `()`); of
a run-time shape, at its example size and at RUN_TIME_SIZES of its first run-time dim (at
most its bound: RunTimeShapes.run_time_sizes)."""


def tiling_cases(d: Description) -> tuple[TilingCase, ...]:
    """The cases of the tiling unit test: TILING_CASES, or of a broadcast operator the shape
    its kernels were compiled for on the same platforms."""
    shape = d.output_shape
    if shape is None:
        return TILING_CASES
    cases = tuple(TilingCase(c.name, shape, c.core_num, c.ub_size) for c in COMPILED_SHAPE_CASES)
    if d.run_time is None:
        return cases
    return (*cases, *(TilingCase(f"run_time_dim_{n}", d.run_time.example_output(n), 48, 196608)
                      for n in d.run_time.run_time_sizes()))


def _tensor_list(descs: list[str]) -> list[str]:
    """`const std::vector<Desc> tensors = {...};`, one descriptor a line."""
    return ["    const std::vector<Desc> tensors = {", *(f"        {d}," for d in descs), "    };"]


def _shape(shape: tuple[int, ...]) -> str:
    dims = "{" + ", ".join(map(str, shape)) + "}"
    return f"{{{dims}, {dims}}}"


def case_tiling(kernel: Kernel, case: TilingCase, d: Description | None = None
                ) -> Tiling[int] | None:
    """What TilingFunc computes for `case` (a scalar counts as one element; `d`: of a row
    kernel, the tiling counts rows); None: refused."""
    total = int(np.prod(case.shape)) if case.shape else 1
    try:
        return ir_tiling(kernel, total if d is None else d.tiled_count(total), case.core_num,
                         case.ub_size)
    except TilingRefused:
        return None


def _attrs(d: Description, values: dict[str, float]) -> str:
    """The Tile() argument of the op's attributes (nothing for an op without)."""
    if not d.attributes:
        return ""
    given = ", ".join(f'Attribute("{a.name}", ' + (f"int64_t{{{int(values[a.name])}}})"
                                                     if a.integer else
                                                     f"{_float(values[a.name])})")
                      for a in d.attributes)
    return f"{{{given}}}, "


def _float(value: float) -> str:
    """A C++ float expression: a literal, or the NaN of <limits>."""
    if np.isnan(value):
        return "std::numeric_limits<float>::quiet_NaN()"
    return float_literal(float(np.float32(value)))


def _tiling_test(kernel: Kernel, d: Description, case: TilingCase,
                 key: Callable[[Kernel, int], int] = same_key) -> list[str]:
    op = kernel.operator
    tensors = [f"Tensor({_shape(shape)}, {GE_DTYPES[dtype]})"
               for shape, dtype in zip(d.tensor_shapes(case.shape), kernel.gm_dtypes,
                                       strict=True)]
    name = f"{kernel.dtype}_{case.name}"
    tiling = case_tiling(kernel, case, d)
    values = d.attribute_values(kernel)
    attrs = _attrs(d, values)
    lines = [f"TEST_F({op.op_type}TilingTest, {name})", "{", *_tensor_list(tensors),
             "    TilingInfo info;"]
    if tiling is None:
        lines += [f"    EXPECT_FALSE(Tile(tensors, {attrs}{case.core_num}, {case.ub_size}, "
                  "info));"]
    else:
        length = (math.prod(case.shape[k] for k in d.run_time_row.dims),) \
            if d.run_time_row is not None else ()
        fields = ", ".join(str(v) for v in (tiling.total_num, tiling.block_factor,
                                            tiling.ub_factor, *length))
        scalars = ", ".join(_float(v) for v in d.scalar_values(values, case.shape))
        expected = f", {{{scalars}}}" if d.attributes or op.scalar_fields else ""
        lines += [f"    ASSERT_TRUE(Tile(tensors, {attrs}{case.core_num}, {case.ub_size}, info));",
                  f"    ExpectTiling(info, {key(kernel, tiling.tiling_key)}, "
                  f"{tiling.used_core_num}, "
                  f"{{{fields}}}{expected});"]
    return [*lines, "}"]


def _refusal(op: Operator, name: str, tensors: list[tuple[tuple[int, ...], str]],
             attrs: str = "") -> list[str]:
    descs = [f"Tensor({_shape(shape)}, {dtype})" for shape, dtype in tensors]
    return [f"TEST_F({op.op_type}TilingTest, {name})", "{", *_tensor_list(descs),
            "    TilingInfo info;",
            f"    EXPECT_FALSE(Tile(tensors, {attrs}64, 262144, info));", "}", ""]


def _attribute_refusals(kernels: list[Kernel], d: Description) -> list[str]:
    """Attribute values TilingFunc refuses: NaN for each; a negative one where none is allowed;
    one beyond the input dtype where the op converts to it; the bounds the wrong way round."""
    op, kernel = kernels[0].operator, kernels[0]
    shapes = d.tensor_shapes((7, 3))
    base = d.attribute_values(kernel)
    lines: list[str] = []

    def refuse(name: str, changed: dict[str, float], on: Kernel = kernel) -> None:
        values = {**d.attribute_values(on), **changed}
        lines.extend(_refusal(op, name, [(s, GE_DTYPES[dt]) for s, dt in
                                         zip(shapes, on.gm_dtypes, strict=True)],
                              _attrs(d, values)))

    rank = len(shapes[0])
    for a in d.attributes:
        if a.serves is not None:  # a dim: one out of range, one of other rows (if any)
            refuse(f"{a.name}_is_out_of_range", {a.name: float(rank)})
            if rank > 1:
                refuse(f"{a.name}_is_not_served", {a.name: float((a.serves + 1) % rank)})
            continue
        refuse(f"{a.name}_is_not_finite", {a.name: float("nan")})
        if a.non_negative:
            refuse(f"{a.name}_is_negative", {a.name: -0.5})
        narrow = next((k for k in kernels if k.dtype in ("f16", "bf16")), None)
        if a.in_dtype and narrow is not None:
            beyond = 70000.0 if narrow.dtype == "f16" else 3.4e38
            if any(a.name == low for low, _ in d.ordered):
                beyond = -beyond  # a lower bound: too low, not above its upper bound
            refuse(f"{a.name}_does_not_fit_{narrow.dtype}", {a.name: beyond}, narrow)
    for low, high in d.ordered:
        refuse(f"{low}_greater_than_{high}", {low: base[high] + 1.0})
    return lines


def _refusal_tests(kernels: list[Kernel], d: Description) -> list[str]:
    """Inputs TilingFunc refuses on any platform: mixed shapes or dtypes, a dtype without a
    kernel; then the attribute values it refuses."""
    op = kernels[0].operator
    attrs = _attrs(d, d.attribute_values(kernels[0]))
    dtypes = [GE_DTYPES[dt] for dt in kernels[0].gm_dtypes]  # one each, inputs then output
    unsupported = next(d for d in UNSUPPORTED_GE_DTYPES
                       if d not in {GE_DTYPES[dt] for k in kernels for dt in k.gm_dtypes})
    other = next((GE_DTYPES[k.dtype] for k in kernels[1:]), unsupported)
    shapes = d.tensor_shapes((7, 3))
    last_input = len(op.inputs) - 1
    lines: list[str] = []
    if d.shapes is not None:  # each input of another shape than its kernel's
        for i, name in enumerate(op.inputs):
            lines += _refusal(op, f"{name}_has_another_shape", [
                (_another(d, i, s) if j == i else s, dt)
                for j, (s, dt) in enumerate(zip(shapes, dtypes, strict=True))], attrs)
    elif len(op.inputs) > 1:
        lines += _refusal(op, "inputs_differ_in_shape", [
            ((21,) if i == last_input else s, dt)
            for i, (s, dt) in enumerate(zip(shapes, dtypes, strict=True))], attrs)
    if kernels[0].mixed:  # each tensor of another dtype than its kernel's, in turn
        names = op.gm_arguments
        for i, name in enumerate(names):
            swapped = next(g for g in (*GE_DTYPES.values(), unsupported) if g != dtypes[i])
            lines += _refusal(op, f"{name}_has_another_dtype", [
                (s, swapped if j == i else dt)
                for j, (s, dt) in enumerate(zip(shapes, dtypes, strict=True))], attrs)
    elif len(op.inputs) > 1:
        lines += _refusal(op, "inputs_differ_in_dtype", [
            (s, other if i == last_input else dt)
            for i, (s, dt) in enumerate(zip(shapes, dtypes, strict=True))], attrs)
    lines += _refusal(op, "dtype_without_a_kernel", [(s, unsupported) for s in shapes], attrs)
    return lines + _attribute_refusals(kernels, d)


def _another(d: Description, i: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape of input i its package refuses: another_shape, or of a run-time shape one with
    a static dim one longer, else a run-time dim one longer than the output dim it reads,
    else (the source input, every dim of a run-time size) one more dim."""
    if d.run_time is None:
        return another_shape(shape)
    reads = d.run_time.inputs[i]
    changed = next((k for k, r in enumerate(reads) if r.size is not None), None)
    if changed is None and i != d.run_time.source:
        changed = next((k for k, r in enumerate(reads) if r.output_dim is not None), None)
    if changed is None:
        return (*shape, 1) if len(shape) < MAX_RANK else shape[:-1]
    return tuple(n + 1 if k == changed else n for k, n in enumerate(shape))


def another_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape other than `shape` (its last dim one longer; a scalar becomes {2})."""
    return (*shape[:-1], shape[-1] + 1) if shape else (2,)


ATTRIBUTE_HELPERS = """
using Attr = gert::TilingContextPara::OpAttr;

Attr Attribute(const char* name, float value)
{
    return Attr(name, Ops::NN::AnyValue::CreateFrom<float>(value));
}
"""
"""How the tiling test gives TilingFunc the op's attributes (only when it has some)."""
INTEGER_ATTRIBUTE = """
Attr Attribute(const char* name, int64_t value)
{
    return Attr(name, Ops::NN::AnyValue::CreateFrom<int64_t>(value));
}
"""
"""And an integer one (a row op's dim), when it has one."""


def tiling_ut(kernels: list[Kernel], d: Description, kernel_dir: str = "../../../op_kernel/",
              key: Callable[[Kernel, int], int] = same_key) -> str:
    """`kernels`: one per dtype; `kernel_dir`: op_kernel/ (and its sub-folder) seen from the
    test; `key`: the tiling key the package's TilingFunc sets for an IR key."""
    op = kernels[0].operator
    op_type, struct = op.op_type, op.tiling_struct
    count = len(op.inputs)
    field_checks = "\n".join(f"    EXPECT_EQ(data.{f}, fields[{i}]) << \"{f}\";"
                             for i, f in enumerate(op.int_fields) if f != GROUP_NUM_FIELD)
    field_checks += "".join(f"\n    EXPECT_EQ(data.{f}, scalars[{i}]) << \"{f}\";"
                            for i, f in enumerate(op.scalar_fields))
    if op.counts:  # the tests give no group_index: every row
        field_checks += (f"\n    EXPECT_EQ(data.{GROUP_NUM_FIELD}, -1) << "
                         f"\"{GROUP_NUM_FIELD} ({op.counts} absent)\";")
    tests = [line for k in kernels for case in tiling_cases(d)
             for line in [*_tiling_test(k, d, case, key), ""]]
    limits = "#include <limits>\n" if d.attributes else ""
    helpers = (ATTRIBUTE_HELPERS if d.attributes else "") + \
        (INTEGER_ATTRIBUTE if any(a.integer for a in d.attributes) else "")
    attr_param = "const std::vector<Attr>& attrs, " if d.attributes else ""
    attr_arg = "attrs, " if d.attributes else ""
    scalars_param = ",\n    const std::vector<float>& scalars" \
        if d.attributes or op.scalar_fields else ""
    order = "in the order of the op definition; then its attributes" if d.attributes else \
        "in the order of the op definition"
    tile = (f"bool Tile(const std::vector<Desc>& tensors, {attr_param}uint64_t coreNum, "
            "uint64_t ubSize, TilingInfo& info)")
    context = (f'gert::TilingContextPara context("{op_type}", inputs, outputs, {attr_arg}'
               "&compileInfo, coreNum, ubSize);")
    return f"""{generated(kernels)}
// Tiling unit tests of {op_type}: TilingFunc through ops-nn's tiling-context faker. The expected
// figures were computed by hswc from the IR's host tiling when the package was written.
#include <cstdint>
#include <cstring>
{limits}#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "tiling_context_faker.h"
#include "tiling_case_executor.h"
#include "{kernel_dir}{tiling_data_h(op)}"

namespace {{

using Desc = gert::TilingContextPara::TensorDescription;
{helpers}
struct {op_type}CompileInfo {{}};

Desc Tensor(const gert::StorageShape& shape, ge::DataType dtype)
{{
    return Desc(shape, dtype, ge::FORMAT_ND);
}}

// Inputs then outputs, {order}.
{tile}
{{
    const std::vector<Desc> inputs(tensors.begin(), tensors.begin() + {count});
    const std::vector<Desc> outputs(tensors.begin() + {count}, tensors.end());
    static {op_type}CompileInfo compileInfo;
    {context}
    return ExecuteTiling(context, info);
}}

void ExpectTiling(const TilingInfo& info, int64_t tilingKey, size_t blockDim,
    const std::vector<int64_t>& fields{scalars_param})
{{
    EXPECT_EQ(info.tilingKey, tilingKey);
    EXPECT_EQ(info.blockNum, blockDim);
    EXPECT_EQ(info.workspaceSizes, std::vector<int64_t>({{0}}));
    ASSERT_GE(info.tilingDataSize, sizeof({struct}));
    {struct} data;
    std::memcpy(&data, info.tilingData.get(), sizeof data);
{field_checks}
}}

}}  // namespace

class {op_type}TilingTest : public testing::Test {{}};

{chr(10).join(tests)}
{chr(10).join(_refusal_tests(kernels, d)).rstrip()}
"""


def _bits(values: np.ndarray) -> str:
    """C++ initialisers: each element's bit pattern, its value in a comment."""
    width = values.dtype.itemsize * 2
    raw = values.view(_UNSIGNED[values.dtype.itemsize])
    shown = values if values.dtype.kind in "iu" else values.astype(np.float64)
    return ", ".join(f"0x{int(b):0{width}x} /* {v!r} */" if values.dtype.kind in "iu"
                     else f"0x{int(b):0{width}x} /* {float(v)!r} */"
                     for b, v in zip(raw, shown.tolist(), strict=True))


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32}
"""The unsigned integer of each element width: what the tests compare bit patterns as."""


def _bits_type(dtype: str) -> str:
    """The C++ type of an element's bit pattern (by its width)."""
    if dtype in ("i8", "ui8", "i1", "ui1", "f8E4M3FN", "f8E5M2"):
        return "uint8_t"
    return "uint16_t" if dtype in ("f16", "bf16", "i16") else "uint32_t"


def _kernel_test(kernel: Kernel, d: Description, arch35: bool = False) -> list[str]:
    op = kernel.operator
    inputs, results = example_arrays(kernel, d, d.kernel_test_inputs)
    expected = results[0]
    p = ARCH35_UT_PLATFORM if arch35 else UT_PLATFORM
    tiling = ir_tiling(kernel, d.tiled_count(expected.size), p.core_num, p.ub_size)
    element = _bits_type(kernel.gm_dtypes[-1])
    own = [_bits_type(dt) for dt in kernel.gm_dtypes]  # a dtype boundary's: each its own
    given = d.attribute_values(kernel)
    test = kernel.dtype if kernel.variant is None else f"{kernel.dtype}_v{kernel.variant}"
    lines = [f"TEST_F({op.op_type}KernelTest, {test}_kernel)", "{",
             f"    // tiled as on {p.name}: {p.core_num} cores, {p.ub_size} bytes of UB"]
    lines += [f"    const std::vector<{bits}> {name} = {{{_bits(values)}}};"
              for name, values, bits in zip(op.inputs, inputs, own, strict=False)]
    several = len(op.outputs) > 1
    if several:
        lines += [f"    const std::vector<{bits}> expected_{name} = "
                  f"{{{_bits(packed_values(values, dt))}}};"
                  for name, values, bits, dt in zip(op.outputs, results, own[len(op.inputs):],
                                                    kernel.gm_dtypes[len(op.inputs):],
                                                    strict=True)]
    else:
        values = packed_values(expected, kernel.gm_dtypes[-1])
        lines += [f"    const std::vector<{element}> expected = {{{_bits(values)}}};"]
    lines += [f"    {op.tiling_struct} tiling;"]
    lines += [f"    tiling.{field} = {value};" for field, value in
              zip(TILING_FIELDS, (tiling.total_num, tiling.block_factor,
                                  tiling.ub_factor), strict=True)]
    if op.row_length:  # the example's (hswc.backend.package_row_length)
        lines += [f"    tiling.{ROW_LENGTH_FIELD} = {d.output_per_row};"]
    lines += [f"    tiling.{f} = {_float(v)};"
              for f, v in zip(op.scalar_fields, d.scalar_values(given), strict=True)]
    if op.counts:  # group_index absent (groupNum -1): every row
        lines += [f"    tiling.{GROUP_NUM_FIELD} = -1;",
                  f"    const std::vector<int64_t> {op.counts};"]
    launch = (f"{arch35_key(kernel, kernel.tiling_key)}, {kernel.template_arguments}"
              if arch35 else str(tiling.tiling_key))
    if several:
        lines += [f"    std::vector<{bits}> actual_{name};"
                  for name, bits in zip(op.outputs, own[len(op.inputs):], strict=True)]
        lines += [f"    LaunchKernel<{launch}>({', '.join(op.entry_inputs)}, tiling, "
                  f"{tiling.used_core_num}, {', '.join(f'actual_{o}' for o in op.outputs)});"]
        for name in op.outputs:
            lines += [f"    ASSERT_EQ(actual_{name}.size(), expected_{name}.size());",
                      f"    for (size_t i = 0; i < actual_{name}.size(); ++i) {{",
                      f"        EXPECT_EQ(actual_{name}[i], expected_{name}[i]) << "
                      f'"{name} element " << i;', "    }"]
        return [*lines, "}"]
    lines += [f"    const std::vector<{element}> actual = LaunchKernel<{launch}>("
              f"{', '.join(op.entry_inputs)}, tiling, {tiling.used_core_num});",
              "    ASSERT_EQ(actual.size(), expected.size());",
              "    for (size_t i = 0; i < actual.size(); ++i) {",
              '        EXPECT_EQ(actual[i], expected[i]) << "element " << i;',
              "    }"]
    if op.counts:
        lines += _counted_lines(op.counts, kernel, d, expected.size, element, launch,
                                tiling.used_core_num)
    return [*lines, "}"]


def _counted_lines(name: str, kernel: Kernel, d: Description, size: int, element: str,
                   launch: str, cores: int) -> list[str]:
    """The same launch given a group_index of two counts summing to half the rows: the
    counted rows are the golden ones (the rest are not written: not compared)."""
    per_row = kernel.func.attributes[COUNTS_ATTR]
    assert isinstance(per_row, IntegerAttr)
    row = per_row.value.data if per_row.value.data > 1 else (d.output_per_row or 1)
    rows = size // row
    first, second = rows // 4, rows // 2 - rows // 4
    op = kernel.operator
    return [f"    // {name} = {{{first}, {second}}}: the first {first + second} of {rows} rows",
            f"    tiling.{GROUP_NUM_FIELD} = 2;",
            "#ifdef HSWC_UT_EXPECT_WRITTEN  // a CPU model checking which output bytes are written",
            f"    HSWC_UT_EXPECT_WRITTEN({(first + second) * row} * sizeof({element}));",
            "#endif",
            f"    const std::vector<{element}> counted = LaunchKernel<{launch}>("
            f"{', '.join(op.inputs)}, {{{first}, {second}}}, tiling, {cores});",
            f"    for (size_t i = 0; i < {(first + second) * row}; ++i) {{",
            '        EXPECT_EQ(counted[i], expected[i]) << "counted element " << i;',
            "    }"]


def picked(kernels: list[Kernel], d: Description, platform: Platform) -> list[Kernel]:
    """The kernels their host tiling launches for the kernel test's data on `platform`: every
    kernel, but of a run-time choice (hsg.tiling_key) only the one the tiling picks, since the
    others' UB plans need their own tiling."""
    def chosen(k: Kernel) -> bool:
        size = example_arrays(k, d, d.kernel_test_inputs)[1][0].size
        return ir_tiling(k, d.tiled_count(size), platform.core_num,
                         platform.ub_size).tiling_key == k.tiling_key

    return [k for k in kernels if k.variant is None or chosen(k)]


PACKED = "ui1"
"""An output stored packed (ops-nn's DT_UINT1): ceil(n / 8) bytes, element i bit i % 8 of byte
i / 8, the least significant first."""


def _padding(result: str, elements: str, packed: bool) -> str:
    """Of a packed output: its last byte's padding bits cleared (no element: the kernel's
    compare leaves whatever the lanes past the tensor gave), so the bytes compare with
    np.packbits'."""
    if not packed:
        return ""
    return (f"\n    if ({elements} % 8 != 0) {{  // the last byte's padding bits are no element\n"
            f"        {result}.back() &= static_cast<uint8_t>((1u << ({elements} % 8)) - 1);\n"
            "    }")


def packed_values(values: np.ndarray, dtype: str) -> np.ndarray:
    """An output's golden values as its GM holds them: a packed one's bytes (np.packbits,
    least significant bit first, padding bits 0), any other's as they are."""
    if dtype != PACKED:
        return values
    return np.packbits(np.asarray(values, dtype=bool).reshape(-1), bitorder="little")


def _elements(rows: str, per_row: int | None, group: int) -> str:
    """An output's elements as C++, of `rows` rows (a C++ expression) holding `per_row` of
    them every `group` rows (Description.row_group)."""
    if per_row in (None, 1) and group == 1:
        return rows
    return f"{rows} * {per_row}" if group == 1 else f"{rows} / {group} * {per_row}"


def kernel_ut(kernels: list[Kernel], d: Description, arch35: bool = False) -> str:
    """`arch35`: the kernels of the arch35 entry (op_kernel/<entry>_apt.cpp), templated on the
    element type (and the variant), tiled as on ARCH35_UT_PLATFORM: of a run-time choice, the
    kernel the tiling picks for the test's data (`picked`)."""
    op = kernels[0].operator
    outputs = op.outputs
    output = outputs[0]
    several = len(outputs) > 1
    inputs, entry = op.inputs, op.kernel_entry
    first = inputs[0]
    boundary = kernels[0].mixed  # one kernel, each tensor of its own type
    types = dict(zip(op.gm_arguments, (_bits_type(dt) for dt in kernels[0].gm_dtypes),
                     strict=True)) if boundary else {n: "Bits" for n in op.gm_arguments}
    counted = list(op.entry_inputs[len(inputs):])  # group_index, which a test may leave empty
    types |= {c: "int64_t" for c in counted}
    params = [*(f"const std::vector<{types[name]}>& {name}" for name in (*inputs, *counted)),
              f"const {op.tiling_struct}& tilingData", "uint32_t blockDim",
              *(f"std::vector<{types[o]}>& {o}Result" for o in outputs if several)]
    gm = [*inputs, *counted, *outputs]
    own = d.shapes is not None  # inputs of their own sizes: y has the tiling's totalNum
    size = {name: f"{name}.size() * sizeof({types[name]})"
            if own or several or types[name] != types[output] else "bytes" for name in inputs}
    size |= {c: f"({c}.size() + 1) * sizeof(int64_t)" for c in counted}  # never 0 bytes
    counts = {o: f"{first}.size()" if not own else
              _elements("tilingData.totalNum", per_row, d.row_group)
              for o, per_row in zip(outputs, d.each_output_per_row(), strict=True)}
    packed = [o for o, dt in zip(outputs, kernels[0].gm_dtypes[len(inputs):], strict=True)
              if dt == PACKED]
    elements = dict(counts)
    counts |= {o: f"({counts[o]} + 7) / 8" for o in packed}  # DT_UINT1: 8 elements a byte
    count = counts[output]  # each output's elements (of a row kernel: its own per row)
    size |= {o: f"{counts[o]} * sizeof({types[o]})" if several else "bytes" for o in outputs}
    allocs = "\n".join(
        f"    uint8_t* {name}Gm = static_cast<uint8_t*>(AscendC::GmAlloc({size[name]}));"
        for name in gm)
    copies = "\n".join([*(f"    std::memcpy({name}Gm, {name}.data(), {size[name]});"
                          for name in inputs),
                        *(f"    std::memcpy({c}Gm, {c}.data(), {c}.size() * sizeof(int64_t));"
                          for c in counted)])
    frees = "\n".join(f"    AscendC::GmFree({name}Gm);" for name in [*gm, "workspace", "tiling"])
    args = ", ".join([*(f"{name}Gm" for name in gm), "workspaceGm", "tilingGm"])
    tested = picked(kernels, d, ARCH35_UT_PLATFORM) if arch35 else kernels
    tests = [line for k in tested for line in [*_kernel_test(k, d, arch35), ""]]
    variant = kernels[0].variant is not None
    bits = "" if boundary else ", typename Bits"  # a boundary's tensors have their own types
    template = f"template <uint32_t KEY, typename T{', uint32_t MODE' if variant else ''}{bits}>" \
        if arch35 else f"template <uint32_t KEY{bits}>"
    instance = (f"{entry}<T, MODE>" if variant else f"{entry}<T>") if arch35 else f"{entry}<KEY>"
    source = f"{entry}_apt.cpp" if arch35 else kernel_cpp(op)
    what = f"{entry}<T{', MODE' if variant else ''}> (tiling key KEY)" if arch35 else \
        f"{entry}<KEY>"
    golden = ("hswc-run's run of the kernel" if d.generated
              else "the bit-exact model of the kernel")
    heading = "\n".join(textwrap.wrap(
        f"Kernel unit tests of {op.op_type}: each kernel on the CPU debug model, "
        f"{' and '.join(outputs)} compared bit for bit with {golden} (its values computed when "
        "the package was written).", 97, initial_indent="// ", subsequent_indent="// ")) \
        if several else (
            f"// Kernel unit tests of {op.op_type}: each kernel on the CPU debug model, {output} "
            f"compared bit for\n// bit with {golden} (its values computed when the package was "
            "written).")
    if several:
        launch_text = (f"// {what} on blockDim cores with this tiling; each output's elements, "
                       f"as bit patterns,\n// into {', '.join(f'{o}Result' for o in outputs)}.\n"
                       f"{template}\n{wrapped('void LaunchKernel', params)}\n{{\n{allocs}")
        results = "\n".join(f"    {o}Result.resize({counts[o]});\n"
                             f"    std::memcpy({o}Result.data(), {o}Gm, {size[o]});"
                             + _padding(f"{o}Result", elements[o], o in packed)
                             for o in outputs)
        returned = ""
    else:
        launch_text = (f"// {what} on blockDim cores with this tiling; {output}'s elements, "
                       f"as bit patterns.\n{template}\n"
                       f"{wrapped(f'std::vector<{types[output]}> LaunchKernel', params)}\n"
                       f"{{\n    const size_t bytes = {count} * sizeof({types[output]});\n"
                       f"{allocs}")
        results = (f"    std::vector<{types[output]}> result({count});\n"
                   f"    std::memcpy(result.data(), {output}Gm, bytes);"
                   + _padding("result", elements[output], output in packed))
        returned = "    return result;\n"
    return f"""{generated(kernels)}
{heading}
#include "../../../op_kernel/{source}"

#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "tikicpulib.h"

namespace {{

{launch_text}
    uint8_t* workspaceGm = static_cast<uint8_t*>(AscendC::GmAlloc(32));
    uint8_t* tilingGm = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof tilingData));
{copies}
    std::memcpy(tilingGm, &tilingData, sizeof tilingData);
    ICPU_SET_TILING_KEY(KEY);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(({instance}), blockDim, {args});
{results}
{frees}
{returned}}}

}}  // namespace

class {op.op_type}KernelTest : public testing::Test {{}};

{chr(10).join(tests).rstrip()}
"""


def test_files(kernels: list[Kernel], d: Description) -> dict[str, str]:
    op = kernels[0].operator
    return {tiling_ut_path(op): tiling_ut(kernels, d), kernel_ut_path(op): kernel_ut(kernels, d)}


def arch35_test_files(kernels: list[Kernel], d: Description) -> dict[str, str]:
    """The arch35 tests: tests/ut/op_host/arch35/test_<entry>_tiling.cpp (one kernel per dtype:
    the tiling picks the variant) and tests/ut/op_kernel/test_<entry>_apt.cpp (every kernel)."""
    op = kernels[0].operator
    firsts = [k for i, k in enumerate(kernels) if all(k.dtype != o.dtype for o in kernels[:i])]
    tiling = tiling_ut(firsts, d, "../../../../op_kernel/arch35/", arch35_key)
    kernel = kernel_ut(kernels, d, arch35=True)
    # Their own fixtures: the A2/A3 tests may be built into the same UT binaries.
    return {
        f"tests/ut/op_host/arch35/test_{op.stem}_tiling.cpp":
            tiling.replace(f"{op.op_type}TilingTest", f"{op.op_type}Arch35TilingTest"),
        f"tests/ut/op_kernel/test_{op.stem}_apt.cpp":
            kernel.replace(f"{op.op_type}KernelTest", f"{op.op_type}Arch35KernelTest"),
    }
