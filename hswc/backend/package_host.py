"""op_host/ of the ops-nn package: host tiling, op definition, shape inference.

The tiling formula is not written here: `<entry>_tiling_compute.h` is the IR's `hsg.tiling`
functions printed by `host_tiling`, and `<entry>_tiling.cpp` only gathers what they need from
the CANN runtime (platform queries, shapes, dtype) and hands back what they computed (tiling
struct, block dim, tiling key), or fails with their message. Its inputs have one shape, any,
or, of a broadcast operator (hswc.broadcast), each the one its kernels were compiled for,
which it checks; the element count it tiles is the output's. The operator's attributes are read
from the op definition's attributes, checked (hswc.backend.package_attributes) and copied into
the tiling struct's float fields, which the kernel reads; an integer one (a row op's `dim`) is
read and checked only: normalised against the input's rank, it must be the dim the kernel's
rows are, or the tiling fails naming the attribute, the given and the served value.
"""

from __future__ import annotations

import numpy as np

from hswc.backend.cpp_types import float_literal
from hswc.backend.description import (
    Attribute,
    Description,
    dims_text,
    shape_said,
    shape_text,
)
from hswc.backend.host_tiling import tiling_compute_lines
from hswc.backend.kernels import Kernel
from hswc.backend.operator import GE_DTYPES, Operator
from hswc.backend.package_attributes import (
    attribute_checks,
    largest_finite_lines,
    needs_largest,
    served_checks,
)
from hswc.backend.package_counts import def_lines as counts_def_lines
from hswc.backend.package_counts import tiling_lines as counts_tiling_lines
from hswc.backend.package_kernel import generated, guarded, tiling_data_h, tiling_key_h
from hswc.backend.package_row_length import ROW_LENGTH, length_lines, row_count
from hswc.backend.package_row_length import tiling_lines as row_length_lines
from hswc.backend.run_time_shapes import RunTimeShapes
from hswc.broadcast import DYNAMIC_DIM
from hswc.platform import PLATFORMS


def tiling_compute_h(operator: Operator) -> str:
    return f"{operator.stem}_tiling_compute.h"


def tiling_compute_text(kernels: list[Kernel], kernel_dir: str = "../op_kernel/",
                        folder: str = "") -> str:
    """`kernel_dir`: op_kernel/ (and the kernel's sub-folder) seen from the header's folder
    `folder` under op_host/ ("" or "arch35/")."""
    operator = kernels[0].operator
    body = ["#include <cstdint>", "", f'#include "{kernel_dir}{tiling_data_h(operator)}"', "",
            *tiling_compute_lines(kernels)]
    return guarded(kernels, folder + tiling_compute_h(operator), body,
                   "The host tiling of each kernel (SPEC section 4), printed from the IR's "
                   "hsg.tiling functions; needs no CANN header.")


def _dispatch(kernels: list[Kernel]) -> list[str]:
    operator = kernels[0].operator
    lines = ["ComputeTiling TilingFor(ge::DataType dataType)", "{", "    switch (dataType) {"]
    first_output = len(operator.inputs)
    # Keyed by the (first) output's dtype, which is the first input's but at a dtype boundary.
    for k in one_per_dtype(kernels):
        lines.append(f"        case {GE_DTYPES[k.gm_dtypes[first_output]]}:")
        lines.append(f"            return {operator.tiling_namespace}::"
                     f"{operator.tiling_function(k.dtype)};")
    return [*lines, "        default:", "            return nullptr;", "    }", "}"]


def gert_shape(shape: tuple[int, ...]) -> str:
    """A gert::Shape (op::Shape) of static dims, as C++."""
    return f"gert::Shape({shape_text(shape)})" if shape else "gert::Shape()"


def _input_checks(operator: Operator, d: Description, kernels: list[Kernel]) -> str:
    """TilingFunc's checks: every input has the first one's dtype, and the first one's shape
    (a scalar counts as {1}), or, of a broadcast operator, its own shape, the one the kernel
    was compiled for. Sets `shape` (the output's) and `dataType`. Of a kernel at a dtype
    boundary (one per package) every tensor has the dtype it was compiled for, checked, and
    `dataType` is the output's."""
    inputs, op_type = operator.inputs, operator.op_type
    boundary = kernels[0].mixed
    first = inputs[0]
    lines = []
    for index, name in enumerate(inputs):
        lines += [f"const gert::StorageShape* {name}Shape = context->GetInputShape({index});",
                  f"OP_CHECK_NULL_WITH_CONTEXT(context, {name}Shape);",
                  f"const gert::CompileTimeTensorDesc* {name}Desc = "
                  f"context->GetInputDesc({index});",
                  f"OP_CHECK_NULL_WITH_CONTEXT(context, {name}Desc);"]
    if d.shapes is None:
        lines.append(f"const gert::Shape shape = NotScalar({first}Shape->GetStorageShape());")
    elif d.run_time is not None:
        lines += run_time_shape_checks(operator, d.run_time)
    else:
        lines.append(f"const gert::Shape shape = {gert_shape(d.shapes[-1])};")
        for name, own in zip(inputs, d.shapes[:-1], strict=True):
            lines += [f"OP_CHECK_IF(!SameShape({name}Shape->GetStorageShape(), "
                      f"{gert_shape(own)}),",
                      f'    OP_LOGE(context, "{op_type}: {name} must have {shape_said(own)}, the '
                      'shape its kernel was compiled for"),',
                      "    return ge::GRAPH_FAILED);"]
    if not boundary:
        lines.append(f"const ge::DataType dataType = {first}Desc->GetDataType();")
    for name in inputs[1:]:
        if d.shapes is None:
            lines += [
                f"OP_CHECK_IF(!SameShape(shape, NotScalar({name}Shape->GetStorageShape())),",
                f'    OP_LOGE(context, "{op_type}: {first} and {name} differ in shape"), '
                "return ge::GRAPH_FAILED);"]
        if not boundary:
            lines += [
                f"OP_CHECK_IF({name}Desc->GetDataType() != dataType,",
                f'    OP_LOGE(context, "{op_type}: {first} and {name} differ in dtype"), '
                "return ge::GRAPH_FAILED);",
            ]
    if boundary:
        lines += _boundary_dtype_checks(operator, kernels[0])
    lines += length_lines(d.run_time_row)
    return "\n".join("    " + line for line in lines)


def run_time_dims(name: str, run_time: RunTimeShapes, of: str) -> str:
    """The output's shape as C++ initializer list: its static dims and the run-time ones of
    the source input `name`, whose gert::Shape is `of` (a C++ expression with GetDim)."""
    return dims_text(run_time.output, of)


def run_time_shape_checks(operator: Operator, run_time: RunTimeShapes) -> list[str]:
    """Of a broadcast operator over a shape known only at run time (hswc.backend.
    run_time_shapes): each input's rank and static dims, then each dim of a run-time size
    against the output's dim it reads (taken from the source input), each refusal naming the
    input, its dim and both sizes; sets `shape`, the output's."""
    op_type, inputs = operator.op_type, operator.inputs
    source = inputs[run_time.source]
    compiled = run_time.compiled
    lines = [f"const gert::Shape& {n}Dims = {n}Shape->GetStorageShape();" for n in inputs]
    for name, shape in zip(inputs, compiled, strict=False):
        rank = len(shape)
        lines += [f"OP_CHECK_IF({name}Dims.GetDimNum() != {rank},",
                  f'    OP_LOGE(context, "{op_type}: {name} must have rank {rank} '
                  f'({shape_said(shape)}), the rank its kernel was compiled for, not %zu",',
                  f"        {name}Dims.GetDimNum()), return ge::GRAPH_FAILED);"]
    lines.append(f"const gert::Shape shape({run_time_dims(source, run_time, source + 'Dims')});")
    for d, most in enumerate(run_time.bounds):
        if run_time.output[d] == DYNAMIC_DIM:  # a shared kernel's UB holds at most `most`
            lines += [f"OP_CHECK_IF(shape.GetDim({d}) > {most},",
                      f'    OP_LOGE(context, "{op_type}: dim {d} of {source} must be at most '
                      f'{most}, the largest its kernel keeps its inputs in UB for, not %ld",',
                      f"        static_cast<long>(shape.GetDim({d}))), return ge::GRAPH_FAILED);"]
    for i, (name, reads) in enumerate(zip(inputs, run_time.inputs, strict=True)):
        for k, read in enumerate(reads):
            if read.size is not None:
                expected, said = str(read.size), f"{read.size}"
                why = "as its kernel was compiled"
            else:
                d = read.output_dim
                assert d is not None
                if i == run_time.source and run_time.output[d] == DYNAMIC_DIM:
                    continue  # the output's own run-time dim
                expected = f"shape.GetDim({d})"
                said = f"{run_time.output[d]}" if run_time.output[d] != DYNAMIC_DIM else \
                    f"dim {d} of {source} (%ld)"
                why = "to broadcast to the output" if i != run_time.source else \
                    "as the output's"
            values = f"static_cast<long>({name}Dims.GetDim({k}))"
            if "%ld" in said:
                values = f"static_cast<long>(shape.GetDim({read.output_dim})), {values}"
            lines += [f"OP_CHECK_IF({name}Dims.GetDim({k}) != {expected},",
                      f'    OP_LOGE(context, "{op_type}: dim {k} of {name} must be {said} {why}, '
                      f'not %ld",', f"        {values}), return ge::GRAPH_FAILED);"]
    return lines


def _boundary_dtype_checks(operator: Operator, kernel: Kernel) -> list[str]:
    """Of a kernel at a dtype boundary: each input and output has the dtype the kernel was
    compiled for; `dataType` is the (first) output's, which picks its tiling."""
    output = operator.outputs[0]
    lines: list[str] = []
    for index, name in enumerate(operator.outputs):
        lines += [f"const gert::CompileTimeTensorDesc* {name}Desc = "
                  f"context->GetOutputDesc({index});",
                  f"OP_CHECK_NULL_WITH_CONTEXT(context, {name}Desc);"]
    for name, dtype in zip(operator.gm_arguments, kernel.gm_dtypes, strict=True):
        word = GE_DTYPES[dtype].removeprefix("ge::")
        lines += [f"OP_CHECK_IF({name}Desc->GetDataType() != {GE_DTYPES[dtype]},",
                  f'    OP_LOGE(context, "{operator.op_type}: {name} must be {word}, the dtype '
                  'its kernel was compiled for"), return ge::GRAPH_FAILED);']
    return [*lines, f"const ge::DataType dataType = {output}Desc->GetDataType();"]


def _attribute_pointer(a: Attribute) -> str:
    return f"{a.field}Attr"


def _attribute_reads(d: Description) -> str:
    """The attributes from the op definition (each a float), then their checks; empty for an
    op without attributes."""
    if not d.attributes:
        return ""
    lines = ["const gert::RuntimeAttrs* attrs = context->GetAttrs();",
             "OP_CHECK_NULL_WITH_CONTEXT(context, attrs);"]
    for index, a in enumerate(d.attributes):
        kind, get = ("int64_t", "GetInt") if a.integer else ("float", "GetFloat")
        lines += [f"const {kind}* {_attribute_pointer(a)} = attrs->{get}({index});",
                  f"OP_CHECK_NULL_WITH_CONTEXT(context, {_attribute_pointer(a)});"]
    for check in attribute_checks(d, lambda a: f"*{_attribute_pointer(a)}", lambda a: a.name,
                                  "dataType"):
        lines += [f"OP_CHECK_IF(!({check.condition}),",
                  f'    OP_LOGE(context, "{d.op_type}: {check.message}",',
                  f"        static_cast<double>({check.value})), return ge::GRAPH_FAILED);"]
    served = served_checks(d, lambda a: f"*{_attribute_pointer(a)}", lambda a: a.name, "rank")
    if served:  # the rank was checked with the shape: a kernel is compiled for one
        first = d.operator.inputs[0]
        lines.append("const int64_t rank = "
                     f"static_cast<int64_t>({first}Shape->GetStorageShape().GetDimNum());")
    for s in served:
        printed = ", ".join(f"static_cast<long long>({v})" for v in s.arguments)
        lines += [f"OP_CHECK_IF(!({s.condition}),",
                  f'    OP_LOGE(context, "{d.op_type}: {s.message}",',
                  f"        {printed}), return ge::GRAPH_FAILED);"]
    return "\n".join("    " + line for line in lines) + "\n"


def _attribute_copies(d: Description) -> str:
    """The tiling struct's float fields: the attributes, for the kernel."""
    fields = d.by_field()
    from_row = d.run_time_row.scalars if d.run_time_row is not None else ()
    return "".join(f"    tilingData->{f} = *{_attribute_pointer(fields[f])};\n"
                   for f in d.operator.scalar_fields if f not in from_row)


def _largest(kernels: list[Kernel], d: Description) -> str:
    if not needs_largest(d):
        return ""
    return "\n" + "\n".join(largest_finite_lines(kernels, GE_DTYPES, "ge::DataType")) + "\n"


def one_per_dtype(kernels: list[Kernel]) -> list[Kernel]:
    """The first kernel of each dtype (the kernels of a run-time choice share their dtype)."""
    return [k for i, k in enumerate(kernels) if all(k.dtype != o.dtype for o in kernels[:i])]


NOT_SCALAR = """
// A scalar (rank 0) is treated as shape {1}.
gert::Shape NotScalar(const gert::Shape& shape)
{
    return shape.GetDimNum() == 0 ? gert::Shape({1}) : shape;
}
"""
"""Of an operator whose inputs have any shape, all the same; a broadcast one's have their own."""

KEY_BY_NUMBER = "    context->SetTilingKey(GET_TPL_TILING_KEY(static_cast<uint64_t>(tilingKey)));\n"
"""How the A2/A3 tiling hands the IR's tiling key (the schMode) to the template machinery."""


def tiling_cpp(kernels: list[Kernel], d: Description, kernel_dir: str = "../op_kernel/",
               set_key: str = KEY_BY_NUMBER) -> str:
    """TilingFunc; `kernel_dir` is op_kernel/ (and the kernel's sub-folder) seen from the file,
    `set_key` the line(s) that hand the tiling key to the runtime."""
    operator = kernels[0].operator
    op_type, struct = operator.op_type, operator.tiling_struct
    lengths = "int64_t, " if operator.row_branches else ""  # the branches' pick (row_branches)
    length_arg = f"{ROW_LENGTH}, " if operator.row_branches else ""
    cmath = "#include <cmath>\n" if d.attributes else ""
    text = f"""{generated(kernels)}
// TilingFunc of {op_type}: platform and tensor queries around the generated tiling.
{cmath}#include <cstdint>

#include "register/op_def_registry.h"
#include "op_common/log/log.h"
#include "tiling/platform/platform_ascendc.h"
#include "{kernel_dir}{tiling_key_h(operator)}"
#include "{tiling_compute_h(operator)}"

namespace optiling {{

namespace {{

using ComputeTiling = bool (*)(int64_t, int64_t, int64_t, {lengths}{struct}*, int64_t*, int64_t*,
    const char**);

// The generated tiling of the kernel for each dtype the package has a kernel for.
{chr(10).join(_dispatch(kernels))}
{_largest(kernels, d)}{NOT_SCALAR if d.shapes is None else ""}
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

static ge::graphStatus {op_type}TilingFunc(gert::TilingContext* context)
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

{_input_checks(operator, d, kernels)}
    const ComputeTiling computeTiling = TilingFor(dataType);
    OP_CHECK_IF(computeTiling == nullptr,
        OP_LOGE(context, "{op_type}: no kernel for this dtype"), return ge::GRAPH_FAILED);
{_attribute_reads(d)}
    {struct}* tilingData = context->GetTilingData<{struct}>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tilingData);
    int64_t blockDim = 0;
    int64_t tilingKey = 0;
    const char* error = "";
    OP_CHECK_IF(!computeTiling({row_count(d.run_time_row, d.output_per_row, d.row_group)}, coreNum,
        static_cast<int64_t>(ubSize), {length_arg}tilingData, &blockDim, &tilingKey, &error),
        OP_LOGE(context, "{op_type}: tiling failed: %s", error), return ge::GRAPH_FAILED);
{_attribute_copies(d)}{row_length_lines(d.run_time_row)}{counts_tiling_lines(operator)}\
    context->SetBlockDim(static_cast<uint32_t>(blockDim));
{set_key}    return ge::GRAPH_SUCCESS;
}}

static ge::graphStatus TilingParseFor{op_type}([[maybe_unused]] gert::TilingParseContext* context)
{{
    return ge::GRAPH_SUCCESS;
}}

struct {op_type}CompileInfo {{}};

IMPL_OP_OPTILING({op_type})
    .Tiling({op_type}TilingFunc)
    .TilingParse<{op_type}CompileInfo>(TilingParseFor{op_type});

}}  // namespace optiling
"""
    return text


def socs_for(kernels: list[Kernel], socs: list[str]) -> list[str]:
    """The SoCs to register: those asked for whose platform runs every kernel's dtype."""
    needs_bf16 = any("bf16" in k.gm_dtypes for k in kernels)
    return [s for s in socs if PLATFORMS[s].supports_bf16 or not needs_bf16]


def _attribute_defs(d: Description) -> list[str]:
    """One Attr per attribute, a float (optional with its default, or required) or an
    integer (optional with its default)."""
    lines = []
    for a in d.attributes:
        kind = ("AttrType(REQUIRED).Float()" if a.default is None
                else f"AttrType(OPTIONAL).Int({int(a.default)})" if a.integer
                else f"AttrType(OPTIONAL).Float({float_literal(float(np.float32(a.default)))})")
        lines.append(f'        this->Attr("{a.name}").{kind};')
    return lines


def def_cpp(kernels: list[Kernel], d: Description, socs: list[str],
            configs: tuple[str, ...] = ()) -> str:
    """The OpDef; `configs`: lines after the AddConfig of `socs` (an SoC's own config)."""
    operator = kernels[0].operator
    op_type = operator.op_type
    firsts = one_per_dtype(kernels)
    formats = ", ".join("ge::FORMAT_ND" for _ in firsts)
    dtypes = [", ".join(GE_DTYPES[k.gm_dtypes[i]] for k in firsts)
              for i in range(len(operator.gm_arguments))]
    what = "inputs, output, attributes, dtypes, SoCs" if d.attributes else \
        "inputs, output, dtypes, SoCs"
    lines = [generated(kernels), f"// The {op_type} operator: {what}.",
             '#include "register/op_def_registry.h"', "", "namespace ops {", "",
             f"class {op_type} : public OpDef {{", "public:",
             f"    explicit {op_type}(const char* name) : OpDef(name)", "    {"]
    kinds = [*(("Input", n) for n in operator.inputs), *(("Output", n) for n in operator.outputs)]
    for (kind, name), listed in zip(kinds, dtypes, strict=True):  # each tensor its own dtypes
        lines += [
            f'        this->{kind}("{name}")',
            "            .ParamType(REQUIRED)",
            f"            .DataType({{{listed}}})",
            f"            .Format({{{formats}}})",
            f"            .UnknownShapeFormat({{{formats}}});",
        ]
        if kind == "Input" and name == operator.inputs[-1]:
            lines += counts_def_lines(operator, len(firsts), formats)
    lines += _attribute_defs(d)
    lines += [f'        this->AICore().AddConfig("{soc}");' for soc in socs_for(kernels, socs)]
    lines += configs
    lines += ["    }", "};", "", f"OP_ADD({op_type});", "", "}  // namespace ops"]
    return "\n".join(lines) + "\n"


def infershape_cpp(kernels: list[Kernel], d: Description) -> str:
    """Every output gets the first input's shape, or, of a broadcast operator, the shape its
    kernel was compiled for (the inputs broadcast to it), or, of a row kernel whose outputs
    differ in shape, each its own static one (a row output the rows' dims, an element output
    the input's shape)."""
    operator = kernels[0].operator
    op_type, outputs_ = operator.op_type, operator.outputs
    first = operator.inputs[0]
    verb = "gets" if len(outputs_) == 1 else "get"
    shape = d.output_shape
    given = f"*{first}Shape" if shape is None else gert_shape(shape)
    if d.run_time is not None:  # the source input's run-time dims, the static ones
        first = operator.inputs[d.run_time.source]
        given = f"gert::Shape({run_time_dims(first, d.run_time, f'(*{first}Shape)')})"
        shape = None
    givens = [given for _ in outputs_]
    what = f"{first}'s shape" if shape is None else \
        f"the shape {shape_text(shape)} its inputs broadcast to"
    if d.output_shapes is not None:  # a row kernel's: a row output the rows' dims, an element
        givens = [gert_shape(s) for s in d.output_shapes]  # output the input's shape
        what = "the shape its kernel was compiled for, " + ", ".join(
            f"{name} {shape_text(s)}" for name, s in zip(outputs_, d.output_shapes, strict=True))
        verb = "each get"
        if d.run_time is not None:  # each run-time dim the source's of its index
            givens = [f"gert::Shape({dims_text(s, f'(*{first}Shape)')})"
                      for s in d.output_shapes]
            what += f", each ? {first}'s dim"
    outputs = "\n".join(
        f"    gert::Shape* {name}Shape = context->GetOutputShape({index});\n"
        f"    OP_CHECK_NULL_WITH_CONTEXT(context, {name}Shape);\n"
        f"    *{name}Shape = {g};" for index, (name, g) in enumerate(zip(outputs_, givens,
                                                                        strict=True)))
    if d.run_time is not None and d.output_shapes is None:
        what = (f"the shape {shape_text(d.run_time.output)} its inputs "
                f"broadcast to, the run-time dims {first}'s")
    index = 0 if d.run_time is None else d.run_time.source
    reads = "" if shape is not None and d.run_time is None else (
        f"    const gert::Shape* {first}Shape = context->GetInputShape({index});\n"
        f"    OP_CHECK_NULL_WITH_CONTEXT(context, {first}Shape);\n")
    dtypes, register = _infer_dtype(kernels[0])
    return f"""{generated(kernels)}
// Shape inference of {op_type}: {" and ".join(outputs_)} {verb} {what}.
#include "log/log.h"
#include "register/op_impl_registry.h"

namespace ops {{

static ge::graphStatus InferShape{op_type}(gert::InferShapeContext* context)
{{
{reads}{outputs}
    return ge::GRAPH_SUCCESS;
}}
{dtypes}
IMPL_OP_INFERSHAPE({op_type}).InferShape(InferShape{op_type}){register};

}}  // namespace ops
"""


def _infer_dtype(kernel: Kernel) -> tuple[str, str]:
    """Of a kernel whose outputs have their own dtypes (a dtype boundary; an i1 output, a bool
    tensor): InferDataType, setting each output's (ops-nn sets an output's dtype in its
    InferDataType, e.g. celu's op_graph), and its registration; else nothing: GE gives each
    output its input's dtype."""
    if not kernel.mixed:
        return "", ""
    op = kernel.operator
    op_type = op.op_type
    sets = "\n".join(
        f"    context->SetOutputDataType({k}, {GE_DTYPES[dt]});  // {name}"
        for k, (name, dt) in enumerate(zip(op.outputs, kernel.gm_dtypes[len(op.inputs):],
                                           strict=True)))
    text = f"""
// The dtype of each output: the one its kernel was compiled for.
static ge::graphStatus InferDataType{op_type}(gert::InferDataTypeContext* context)
{{
{sets}
    return ge::GRAPH_SUCCESS;
}}
"""
    return text, f".InferDataType(InferDataType{op_type})"


def op_host_files(kernels: list[Kernel], d: Description, socs: list[str],
                  tiling_folder: str = "", configs: tuple[str, ...] = ()) -> dict[str, str]:
    """`tiling_folder`: where the tiling goes under op_host/ ("", or "arch22/" beside an
    arch35 tiling, which the build adds for Ascend 950 only); `configs` as def_cpp's."""
    stem = kernels[0].operator.stem
    up = "../" * (1 + tiling_folder.count("/"))
    return {
        f"op_host/{tiling_folder}{stem}_tiling.cpp": tiling_cpp(kernels, d, f"{up}op_kernel/"),
        f"op_host/{tiling_folder}{tiling_compute_h(kernels[0].operator)}":
            tiling_compute_text(kernels, f"{up}op_kernel/", tiling_folder),
        f"op_host/{stem}_def.cpp": def_cpp(kernels, d, socs, configs),
        f"op_host/{stem}_infershape.cpp": infershape_cpp(kernels, d),
    }
