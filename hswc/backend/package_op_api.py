"""op_host/op_api/ of the ops-nn package: the aclnn two-phase API and the l0op launcher.

<aclnn>GetWorkspaceSize takes the inputs, then the attributes (`const aclScalar*`, a row op's
`dim` an `int64_t` as ops-nn's aclnnSoftmax takes it) and flags
(`bool`) as ops-nn's own header of that API orders them, then the output. It checks the
arguments (nulls, dtypes with a kernel in this package, same dtype and shape for all, or of a
broadcast operator each tensor's own shape, rank <= hsg.MAX_RANK, the attributes' values:
hswc.backend.package_attributes), returns at once for
empty tensors, makes the inputs contiguous, adds the kernel launch with the attributes as
floats and copies the result into a possibly strided output; <aclnn> runs what the first
phase planned. Every name comes from the package's description.

The includes are those of ops-nn's own aclnn sources: `op_api/level2_base.h` (the dtype list
per SoC), `opdev/make_op_executor.h` (CREATE_EXECUTOR, ADD_TO_LAUNCHER_LIST_AICORE) and the
checks of `aclnn_kernels/common/op_error_check.h`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hswc.backend import package_counts as counts
from hswc.backend.cpp_types import float_literal
from hswc.backend.description import Attribute, Description, dims_text, shape_said, shape_text
from hswc.backend.kernels import Kernel
from hswc.backend.operator import snake_case
from hswc.backend.package_attributes import (
    aclnn_parameter,
    attribute_checks,
    cpp_type,
    float_attributes,
    largest_finite_lines,
    needs_largest,
)
from hswc.backend.package_kernel import generated, guarded
from hswc.backend.run_time_shapes import Read, RunTimeShapes
from hswc.backend.writer import wrapped
from hswc.broadcast import DYNAMIC_DIM
from hswc.dialects.hsg import MAX_RANK

OP_API_DTYPES = {"f16": "op::DataType::DT_FLOAT16", "f32": "op::DataType::DT_FLOAT",
                 "bf16": "op::DataType::DT_BF16",
                 "i8": "op::DataType::DT_INT8", "ui8": "op::DataType::DT_UINT8",
                 "i16": "op::DataType::DT_INT16", "i32": "op::DataType::DT_INT32",
                 "i1": "op::DataType::DT_BOOL", "ui1": "op::DataType::DT_UINT1",
                 "f8E4M3FN": "op::DataType::DT_FLOAT8_E4M3FN",
                 "f8E5M2": "op::DataType::DT_FLOAT8_E5M2"}


def aclnn_stem(d: Description) -> str:
    """The stem of the aclnn header, source and op_api unit test: aclnn_hardswish_backward."""
    return snake_case(d.aclnn)


def aclnn_h(d: Description) -> str:
    return f"{aclnn_stem(d)}.h"


def l0op_h(d: Description) -> str:
    return f"{d.operator.stem}.h"


def _tensors(names: tuple[str, ...], const: bool) -> list[str]:
    return [f"{'const ' if const else ''}aclTensor* {name}" for name in names]


def workspace_parameters(d: Description) -> list[str]:
    """Phase 1's parameters: the inputs, the attributes and flags, the output, then where the
    plan goes."""
    return [*_tensors(d.aclnn_inputs, True), *counts.aclnn_parameters(d.operator),
            *(aclnn_parameter(a) for a in d.aclnn_attributes),
            *(f"bool {flag.name}" for flag in d.flags),
            *_tensors(d.aclnn_outputs, False),
            "uint64_t* workspaceSize", "aclOpExecutor** executor"]


def call_arguments(d: Description, flags: str = "") -> list[str]:
    """Phase 1's arguments as the names of its parameters (`flags`: a value for every flag)."""
    optional = counts.aclnn_name(d.operator)
    return [*d.aclnn_inputs, *([optional] if optional else []),
            *(a.aclnn for a in d.aclnn_attributes),
            *(flags or flag.name for flag in d.flags), *d.aclnn_outputs]


HAS_SHAPE = """// Whether a tensor has these dims (a broadcast operator's kernel takes one shape).
bool HasShape(const aclTensor* tensor, const std::initializer_list<int64_t>& dims)
{
    const op::Shape& shape = tensor->GetViewShape();
    if (shape.GetDimNum() != dims.size()) {
        return false;
    }
    size_t i = 0;
    for (const int64_t dim : dims) {
        if (shape.GetDim(i++) != dim) {
            return false;
        }
    }
    return true;
}

"""

RUN_PARAMETERS = ["void* workspace", "uint64_t workspaceSize", "aclOpExecutor* executor",
                  "aclrtStream stream"]
"""Phase 2's parameters."""


def summary_line(d: Description, names: dict[str, str]) -> str:
    return d.summary.format(**names)


def aclnn_h_text(kernels: list[Kernel], d: Description) -> str:
    body = [
        '#include "aclnn/aclnn_base.h"',
        '#include "aclnn_util.h"',
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        f"// {d.aclnn}: {summary_line(d, d.aclnn_names())}.",
        "// Phase 1: check the arguments, plan the launch, say how much workspace it needs.",
        wrapped(f"ACLNN_API aclnnStatus {d.aclnn}GetWorkspaceSize", workspace_parameters(d),
                ";"),
        "",
        "// Phase 2: run the planned launch on `stream`.",
        wrapped(f"ACLNN_API aclnnStatus {d.aclnn}", RUN_PARAMETERS, ";"),
        "",
        "#ifdef __cplusplus",
        "}",
        "#endif",
    ]
    return guarded(kernels, aclnn_h(d), body, f"The aclnn API of {d.op_type}.")


def _dtype_list(kernels: list[Kernel], with_bf16: bool, index: int = 0) -> str:
    """The dtypes of GM argument `index` with a kernel here (without bf16: of the kernels
    reading and writing no bf16)."""
    return ", ".join(OP_API_DTYPES[k.gm_dtypes[index]] for k in kernels
                     if with_bf16 or "bf16" not in k.gm_dtypes)


def _indent(lines: list[str], depth: int = 1) -> str:
    return "\n".join(("    " * depth + line) if line else "" for line in lines)


def _value(a: Attribute) -> str:
    """The attribute's value as a float, after phase 1 read it from its aclScalar (an
    integer's: its int64_t)."""
    return f"{a.aclnn}Value"


def _attribute_check_function(kernels: list[Kernel], d: Description) -> str:
    """CheckAttributes(values..., flags..., dataType): what the operator refuses."""
    if not float_attributes(d):
        return ""
    params = [*(f"float {_value(a)}" for a in float_attributes(d)),
              *(f"bool {flag.name}" for flag in d.flags)]
    if needs_largest(d):
        params.append("op::DataType dataType")
    lines: list[str] = []
    for check in attribute_checks(d, _value, lambda a: a.aclnn, "dataType"):
        lines += [f"OP_CHECK({check.condition},",
                  f'    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "{check.message}",',
                  f"        static_cast<double>({check.value})),", "    return false);"]
    by_name = {a.name: a for a in d.attributes}
    for flag in d.flags:
        value = _value(by_name[flag.non_negative_with])
        lines += [f"OP_CHECK(!{flag.name} || {value} >= 0.0f,",
                  f'    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "{flag.name} is refused with a negative '
                  f'{by_name[flag.non_negative_with].aclnn} (%f)",',
                  f"        static_cast<double>({value})),", "    return false);"]
    largest = ["", *largest_finite_lines(kernels, OP_API_DTYPES, "op::DataType")] \
        if needs_largest(d) else []
    return "\n" + "\n".join([
        *largest, "",
        "// The attributes' values: what the operator refuses, as its verifier and PyTorch do.",
        f"bool CheckAttributes({', '.join(params)})", "{", _indent(lines), "    return true;",
        "}"])


def _checks(kernels: list[Kernel], d: Description) -> str:
    """The argument checks: nulls, then dtypes, then shapes, each against the first input (of
    a broadcast operator: against the shape its kernel was compiled for); then the
    attributes."""
    tensors = (*d.aclnn_inputs, *d.aclnn_outputs)
    first, others = d.aclnn_inputs[0], tensors[1:]
    params = ", ".join(f"const aclTensor* {t}" for t in tensors)
    null_params = ", ".join([*(f"const aclTensor* {t}" for t in d.aclnn_inputs),
                             *(aclnn_parameter(a) for a in d.aclnn_attributes
                               if not a.integer),
                             *(f"const aclTensor* {t}" for t in d.aclnn_outputs)])
    nulls = [f"OP_CHECK_NULL({t}, return false);"
             for t in (*d.aclnn_inputs, *(a.aclnn for a in d.aclnn_attributes if not a.integer),
                       *d.aclnn_outputs)]
    dtypes = [f"OP_CHECK_DTYPE_NOT_SUPPORT({t}, supported, return false);"
              for t in d.aclnn_inputs]
    dtypes += [f"OP_CHECK_DTYPE_NOT_MATCH({t}, {first}->GetDataType(), return false);"
               for t in others]
    boundary = kernels[0].mixed  # one kernel (hswc.backend.package.check_boundary_kernels)
    if boundary:  # each tensor has the dtype its kernel was compiled for
        dtypes = [f"OP_CHECK_DTYPE_NOT_MATCH({t}, {OP_API_DTYPES[dt]}, return false);"
                  for t, dt in zip(tensors, kernels[0].gm_dtypes, strict=True)]
    shapes = [f"OP_CHECK_MAX_DIM({t}, MAX_RANK, return false);" for t in d.aclnn_inputs]
    if d.shapes is None:
        shapes += [f"OP_CHECK_SHAPE_NOT_EQUAL({t}, {first}, return false);" for t in others]
    elif d.run_time is not None:  # the run-time dims of the source's, the static ones
        shapes += _run_time_shape_checks(d, d.run_time, tensors)
    else:  # a broadcast operator: each tensor has the shape its kernel was compiled for
        for t, shape in zip(tensors, d.gm_shapes() or (), strict=True):
            dims = shape_text(shape)
            shapes += [f"OP_CHECK(HasShape({t}, {dims}),",
                       f'    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "{t} must have {shape_said(shape)}, '
                       'the shape its kernel was compiled for"),', "    return false);"]
    has_shape = "" if d.shapes is None else HAS_SHAPE
    listed = f"""// The dtypes with a kernel here; SoCs without bf16 get the list without it.
const std::initializer_list<op::DataType> DTYPES = {{{_dtype_list(kernels, True)}}};
const std::initializer_list<op::DataType> DTYPES_WITHOUT_BF16 = {{{_dtype_list(kernels, False)}}};
"""
    check_body = """    const auto supported = GetDtypeSupportListV3(DTYPES, DTYPES_WITHOUT_BF16);
"""
    if boundary:
        listed = ("// The kernel reads and writes tensors of different dtypes: each tensor has "
                  "the one its\n// kernel was compiled for.\n")
        check_body = ""
    return f"""{listed}constexpr int64_t MAX_RANK = {MAX_RANK};

bool CheckNotNull({null_params})
{{
{_indent(nulls)}
    return true;
}}

bool CheckDtypes({params})
{{
{check_body}{_indent(dtypes)}
    return true;
}}

{has_shape}bool CheckShapes({params})
{{
{_indent(shapes)}
    return true;
}}{_attribute_check_function(kernels, d)}{counts.aclnn_check_function(d.operator)}"""


def _run_time_shape_checks(d: Description, run_time: RunTimeShapes,
                           tensors: Sequence[str]) -> list[str]:
    """Of a broadcast operator over a shape known only at run time: the source input's rank,
    then each tensor's dims: static ones as compiled, run-time ones as the output dim they
    read, the output's run-time dims the source's."""
    source = d.aclnn_inputs[run_time.source]
    rank = len(run_time.output)
    compiled = d.compiled_shapes()
    outputs = compiled[len(run_time.inputs):]  # each its own (a row kernel's), or the output's
    reads = [*run_time.inputs, *(tuple(Read(None if n == DYNAMIC_DIM else n, k)
                                       for k, n in enumerate(o)) for o in outputs)]
    lines = [f"OP_CHECK({source}->GetViewShape().GetDimNum() == {rank},",
             f'    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "{source} must have rank {rank} '
             f'({shape_said(run_time.output)}), the rank its kernel was compiled for"),',
             "    return false);"]
    for t, dims, shape in zip(tensors, reads, compiled, strict=True):
        expected = ", ".join(
            str(r.size) if r.size is not None else str(run_time.output[r.output_dim])
            if r.output_dim is not None and run_time.output[r.output_dim] != DYNAMIC_DIM
            else f"{source}->GetViewShape().GetDim({r.output_dim})" for r in dims)
        lines += [f"OP_CHECK(HasShape({t}, {{{expected}}}),",
                  f'    OP_LOGE(ACLNN_ERR_PARAM_INVALID, "{t} must have {shape_said(shape)}, '
                  f'? the run-time dims of {source} it reads, the shape its kernel was '
                  'compiled for"),', "    return false);"]
    return lines


def _contiguous(name: str) -> str:
    return f"{name}Contiguous"


def _attribute_reads(d: Description) -> str:
    """Each attribute as a float, then its checks; empty without attributes."""
    if not d.attributes:
        return ""
    by_name = {a.name: a for a in d.attributes}
    lines = [f"const int64_t {_value(a)} = {a.aclnn};  // the tiling checks it" if a.integer
             else f"const float {_value(a)} = {a.aclnn}->ToFloat();" if a.in_aclnn else
             f"const float {_value(a)} = {_value(by_name[a.follows])};  // {a.aclnn}: as "
             f"{by_name[a.follows].aclnn}" if a.follows else
             f"const float {_value(a)} = {float_literal(float(np.float32(a.default)))};  // "
             f"{a.aclnn}: its default (ops-nn's {d.aclnn} takes none)"
             for a in d.attributes]
    args = [*(_value(a) for a in float_attributes(d)), *(flag.name for flag in d.flags)]
    if needs_largest(d):
        args.append(f"{d.aclnn_inputs[0]}->GetDataType()")
    if float_attributes(d):
        lines.append(f"CHECK_RET(CheckAttributes({', '.join(args)}), ACLNN_ERR_PARAM_INVALID);")
    return _indent(lines) + "\n"


def _launch_body(d: Description) -> list[str]:
    """Contiguous inputs -> the l0op launch -> ViewCopy into the output."""
    lines = ["// The kernel reads flat memory: strided inputs are made contiguous first."]
    for name in d.aclnn_inputs:
        lines += [f"const aclTensor* {_contiguous(name)} = l0op::Contiguous({name}, "
                  "uniqueExecutor.get());",
                  f"CHECK_RET({_contiguous(name)} != nullptr, ACLNN_ERR_INNER_NULLPTR);"]
    made, given = counts.aclnn_launch_lines(d.operator)
    lines += made
    args = ", ".join([*(_contiguous(n) for n in d.aclnn_inputs), *given,
                      *(_value(a) for a in d.attributes), "uniqueExecutor.get()"])
    if len(d.aclnn_outputs) > 1:
        return lines + _launch_several(d, args)
    output = d.aclnn_output
    lines += ["", f"const aclTensor* result = l0op::{d.op_type}({args});",
              "CHECK_RET(result != nullptr, ACLNN_ERR_INNER_NULLPTR);", "",
              f"// {output} may be a strided view: the contiguous result is copied into it.",
              f"const aclTensor* copied = l0op::ViewCopy(result, {output}, uniqueExecutor.get());",
              "CHECK_RET(copied != nullptr, ACLNN_ERR_INNER_NULLPTR);"]
    return lines


def _launch_several(d: Description, args: str) -> list[str]:
    """The l0op launch of an operator of several outputs (a tuple, as ops-nn's GeGluV2's),
    then a ViewCopy into each output."""
    outputs = d.aclnn_outputs
    results = [f"{name}Result" for name in outputs]
    lines = ["", f"const auto results = l0op::{d.op_type}({args});"]
    lines += [f"const aclTensor* {r} = std::get<{i}>(results);" for i, r in enumerate(results)]
    lines += [f"CHECK_RET({' && '.join(f'{r} != nullptr' for r in results)}, "
              "ACLNN_ERR_INNER_NULLPTR);", "",
              f"// {', '.join(outputs)} may be strided views: each contiguous result is copied "
              "into its own."]
    for name, result in zip(outputs, results, strict=True):
        lines += [f"const aclTensor* {name}Copied = l0op::ViewCopy({result}, {name}, "
                  "uniqueExecutor.get());",
                  f"CHECK_RET({name}Copied != nullptr, ACLNN_ERR_INNER_NULLPTR);"]
    return lines


def aclnn_cpp_text(kernels: list[Kernel], d: Description) -> str:
    tensors = ", ".join((*d.aclnn_inputs, *d.aclnn_outputs))
    not_null = ", ".join((*d.aclnn_inputs, *(a.aclnn for a in d.aclnn_attributes
                                              if not a.integer),
                          *d.aclnn_outputs))
    optional = counts.aclnn_name(d.operator)
    inputs = ", ".join((*d.aclnn_inputs, *([optional] if optional else []),
                        *(a.aclnn for a in d.aclnn_attributes),
                        *(flag.name for flag in d.flags)))
    empty = " || ".join(f"{name}->IsEmpty()" for name in d.aclnn_inputs)
    cmath = "#include <cmath>\n\n" if float_attributes(d) else ""
    return f"""{generated(kernels)}
// The aclnn API of {d.op_type}: argument checks, then Contiguous -> {d.op_type} -> ViewCopy.
{cmath}#include "{aclnn_h(d)}"
#include "{l0op_h(d)}"
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

{_checks(kernels, d)}

}}  // namespace

#ifdef __cplusplus
extern "C" {{
#endif

{wrapped(f"aclnnStatus {d.aclnn}GetWorkspaceSize", workspace_parameters(d))}
{{
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    L2_DFX_PHASE_1({d.aclnn}, DFX_IN({inputs}), DFX_OUT({", ".join(d.aclnn_outputs)}));
    auto uniqueExecutor = CREATE_EXECUTOR();
    CHECK_RET(uniqueExecutor.get() != nullptr, ACLNN_ERR_INNER_CREATE_EXECUTOR);

    CHECK_RET(CheckNotNull({not_null}), ACLNN_ERR_PARAM_NULLPTR);
    CHECK_RET(CheckDtypes({tensors}), ACLNN_ERR_PARAM_INVALID);
    CHECK_RET(CheckShapes({tensors}), ACLNN_ERR_PARAM_INVALID);
{counts.aclnn_check_call(d.operator)}{_attribute_reads(d)}
    // An empty tensor launches nothing and needs no workspace.
    if ({empty}) {{
        *workspaceSize = 0;
        uniqueExecutor.ReleaseTo(executor);
        return ACLNN_SUCCESS;
    }}

{_indent(_launch_body(d))}

    *workspaceSize = uniqueExecutor->GetWorkspaceSize();
    uniqueExecutor.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}}

{wrapped(f"aclnnStatus {d.aclnn}", RUN_PARAMETERS)}
{{
    L2_DFX_PHASE_2({d.aclnn});
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}}

#ifdef __cplusplus
}}
#endif
"""


def l0op_result(d: Description) -> str:
    """The l0op launcher's result type: its output, or a tuple of its outputs."""
    count = len(d.operator.outputs)
    return "const aclTensor*" if count == 1 else \
        f"std::tuple<{', '.join(['aclTensor*'] * count)}>"


def l0op_signature(d: Description) -> str:
    params = ", ".join([*(f"const aclTensor* {name}" for name in d.operator.entry_inputs),
                        *(f"{cpp_type(a)} {a.field}" for a in d.attributes)])
    return f"{l0op_result(d)} {d.op_type}({params}, aclOpExecutor* executor)"


def l0op_h_text(kernels: list[Kernel], d: Description) -> str:
    inputs, outputs = d.operator.inputs, d.operator.outputs
    body = [
        *(["#include <tuple>", ""] if len(outputs) > 1 else []),
        '#include "opdev/op_executor.h"',
        "",
        "namespace l0op {",
        f"// Adds one {d.op_type} kernel launch on contiguous {' and '.join(inputs)}; returns "
        f"{' and '.join(outputs)}.",
        f"{l0op_signature(d)};",
        "}  // namespace l0op",
    ]
    return guarded(kernels, f"{d.operator.stem}_l0op.h", body,
                   f"The l0op launcher of {d.op_type}.")


def l0op_cpp_text(kernels: list[Kernel], d: Description) -> str:
    outputs = d.operator.outputs
    output = outputs[0]
    inputs = d.operator.inputs
    shape_from = inputs[-1]
    shape = d.output_shape
    allocated = f"{shape_from}->GetViewShape()" if shape is None else \
        (f"op::Shape({shape_text(shape)})" if shape else "op::Shape()")
    gets = f"{shape_from}'s shape and dtype" if shape is None else \
        f"the shape {shape_text(shape)} and {shape_from}'s dtype"
    if d.run_time is not None:  # its run-time dims the source input's
        source = inputs[d.run_time.source]
        shape = d.run_time.output
        allocated = f"op::Shape({dims_text(shape, f'{source}->GetViewShape()')})"
        gets = (f"the shape {shape_text(shape)} (each ? {source}'s dim) and {shape_from}'s "
                "dtype")
    if d.output_shapes is not None:  # a row kernel's outputs of their own shapes
        shape = None
        gets = "the shapes " + ", ".join(shape_text(s) for s in d.output_shapes) + \
            f" and {shape_from}'s dtype"
    dtype = f"{shape_from}->GetDataType()"
    dtypes = [dtype for _ in outputs]
    if kernels[0].mixed:  # a kernel at a dtype boundary writes its own dtype
        dtypes = [OP_API_DTYPES[dt] for dt in kernels[0].gm_dtypes[len(inputs):]]
        dtype = dtypes[0]
        gets = (f"the shapes {', '.join(shape_text(s) for s in d.output_shapes)}"
                if d.output_shapes is not None else f"{shape_from}'s shape" if shape is None
                else f"the shape {shape_text(shape)}") \
            + f" and the dtype{'s' if len(outputs) > 1 else ''} " \
            + ", ".join(t.split('::')[-1] for t in dtypes)
    attrs = [a.field for a in d.attributes]
    op_attr = f", OP_ATTR({', '.join(attrs)})" if attrs else ""
    launch = (f"ADD_TO_LAUNCHER_LIST_AICORE({d.op_type}, "
              f"OP_INPUT({', '.join(d.operator.entry_inputs)}), "
              f"OP_OUTPUT({', '.join(outputs)}){op_attr});")
    if len(outputs) > 1:
        return _l0op_several_text(kernels, d, allocated, dtypes, gets, launch)
    return f"""{generated(kernels)}
// The l0op launcher of {d.op_type}: {output} gets {gets}, then the launch.
#include "{l0op_h(d)}"
#include "opdev/data_type_utils.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

using namespace op;

namespace l0op {{

OP_TYPE_REGISTER({d.op_type});

{l0op_signature(d)}
{{
    L0_DFX({d.op_type}, {", ".join([*d.operator.entry_inputs, *attrs])});
    aclTensor* {output} =
        executor->AllocTensor({allocated}, {dtype});
    CHECK_RET({output} != nullptr, nullptr);
    const aclnnStatus launched =
        {launch}
    OP_CHECK(launched == ACLNN_SUCCESS,
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "{d.op_type}: adding the AI Core launch failed."),
        return nullptr);
    return {output};
}}

}}  // namespace l0op
"""


def _l0op_several_text(kernels: list[Kernel], d: Description, allocated: str,
                       dtypes: list[str], gets: str, launch: str) -> str:
    """The l0op launcher of an operator of several outputs: each allocated, then the launch;
    it returns them as a tuple (of nullptrs when one fails), as ops-nn's GeGluV2 does."""
    outputs = d.operator.outputs
    attrs = [a.field for a in d.attributes]
    source = f"{d.operator.inputs[d.run_time.source]}->GetViewShape()" if d.run_time else ""
    own = [f"op::Shape({dims_text(s, source)})" if s else "op::Shape()"
           for s in d.output_shapes or ()] or [allocated for _ in outputs]
    allocs = "\n".join(f"    aclTensor* {o} = executor->AllocTensor({a}, {t});"
                       for o, a, t in zip(outputs, own, dtypes, strict=True))
    return f"""{generated(kernels)}
// The l0op launcher of {d.op_type}: {" and ".join(outputs)} get {gets}, then the launch.
#include "{l0op_h(d)}"
#include "opdev/data_type_utils.h"
#include "opdev/make_op_executor.h"
#include "opdev/op_def.h"
#include "opdev/op_dfx.h"
#include "opdev/op_executor.h"
#include "opdev/op_log.h"
#include "opdev/shape_utils.h"

using namespace op;

namespace l0op {{

OP_TYPE_REGISTER({d.op_type});

{l0op_signature(d)}
{{
    L0_DFX({d.op_type}, {", ".join([*d.operator.entry_inputs, *attrs])});
{allocs}
    if ({" || ".join(f"{o} == nullptr" for o in outputs)}) {{
        return {{}};  // nullptrs
    }}
    const aclnnStatus launched =
        {launch}
    OP_CHECK(launched == ACLNN_SUCCESS,
        OP_LOGE(ACLNN_ERR_INNER_NULLPTR, "{d.op_type}: adding the AI Core launch failed."),
        return {{}});
    return {{{", ".join(outputs)}}};
}}

}}  // namespace l0op
"""


def op_api_files(kernels: list[Kernel], d: Description) -> dict[str, str]:
    return {
        f"op_host/op_api/{aclnn_h(d)}": aclnn_h_text(kernels, d),
        f"op_host/op_api/{aclnn_stem(d)}.cpp": aclnn_cpp_text(kernels, d),
        f"op_host/op_api/{l0op_h(d)}": l0op_h_text(kernels, d),
        f"op_host/op_api/{d.operator.stem}.cpp": l0op_cpp_text(kernels, d),
    }
