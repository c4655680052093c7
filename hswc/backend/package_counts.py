"""A package's group_index: the optional int64 input of an operator whose kernel reads counts
(hsg.first_rows, hswc.counted_rows), in each layer that names it.

As ops-nn's ClippedSwiglu declares it (activation/clipped_swiglu/op_host/clipped_swiglu_def.cpp:
`Input("group_index").ParamType(OPTIONAL)`, DT_INT64 for every dtype) and tiles it
(op_host/clipped_swiglu_tiling.cpp, CheckAndGetGroupIndex: rank 1, int64; absent: isGroup 0):
the op definition declares it after the other inputs; the host tiling writes the tiling
struct's groupNum, the counts' number, or -1 when it is absent, which the kernel reads (every
row then); aclnn takes a `const aclTensor*` that may be nullptr and checks a given one's rank
and dtype; the kernel entry takes its GM address after the inputs.
"""

from __future__ import annotations

from hswc.backend.operator import Operator
from hswc.counted_rows import GROUP_NUM_FIELD
from hswc.cpp_identifiers import lower_camel


def counts_index(operator: Operator) -> int:
    """group_index's index among the op definition's inputs (after the others)."""
    return len(operator.inputs)


def def_lines(operator: Operator, dtypes: int, formats: str) -> list[str]:
    """The OPTIONAL int64 Input of the op definition (one DT_INT64 per dtype the package has),
    or nothing for an operator without counts."""
    if not operator.counts:
        return []
    listed = ", ".join("ge::DT_INT64" for _ in range(dtypes))
    return [f'        this->Input("{operator.counts}")',
            "            .ParamType(OPTIONAL)",
            f"            .DataType({{{listed}}})",
            f"            .Format({{{formats}}})",
            f"            .UnknownShapeFormat({{{formats}}});"]


def tiling_lines(operator: Operator) -> str:
    """TilingFunc's lines after the generated tiling: groupNum in the tiling struct (the
    counts' number; -1 when group_index is absent), a given one of rank 1 and int64."""
    if not operator.counts:
        return ""
    name, op_type, index = operator.counts, operator.op_type, counts_index(operator)
    name = lower_camel(name)
    lines = [
        f"const gert::StorageShape* {name}Shape = context->GetOptionalInputShape({index});",
        f"tilingData->{GROUP_NUM_FIELD} = -1;  // absent: every row",
        f"if ({name}Shape != nullptr) {{",
        f"    const gert::Shape& {name}Dims = {name}Shape->GetStorageShape();",
        f"    OP_CHECK_IF({name}Dims.GetDimNum() != 1,",
        f'        OP_LOGE(context, "{op_type}: {name} must have rank 1 (one count per group), '
        'not %zu",',
        f"            {name}Dims.GetDimNum()), return ge::GRAPH_FAILED);",
        f"    const gert::CompileTimeTensorDesc* {name}Desc = "
        f"context->GetOptionalInputDesc({index});",
        f"    OP_CHECK_NULL_WITH_CONTEXT(context, {name}Desc);",
        f"    OP_CHECK_IF({name}Desc->GetDataType() != ge::DT_INT64,",
        f'        OP_LOGE(context, "{op_type}: {name} must be INT64"), '
        "return ge::GRAPH_FAILED);",
        f"    tilingData->{GROUP_NUM_FIELD} = {name}Dims.GetDim(0);",
        "}",
    ]
    return "".join(f"    {line}\n" for line in lines)


def aclnn_name(operator: Operator) -> str | None:
    """The aclnn parameter (`groupIndexOptional`, as ops-nn names optional tensors), or None."""
    return f"{lower_camel(operator.counts)}Optional" if operator.counts else None


def aclnn_parameters(operator: Operator) -> list[str]:
    """aclnn's parameter after the inputs: a tensor that may be nullptr."""
    name = aclnn_name(operator)
    return [] if name is None else [f"const aclTensor* {name}"]


def aclnn_check_function(operator: Operator) -> str:
    """CheckGroupIndex: a given group_index is INT64 of rank 1 (nullptr: absent, every row)."""
    name = aclnn_name(operator)
    if name is None:
        return ""
    return f"""

// {name} may be nullptr (every row); given, it is INT64 of rank 1, one count per group.
bool CheckGroupIndex(const aclTensor* {name})
{{
    if ({name} == nullptr) {{
        return true;
    }}
    OP_CHECK_DTYPE_NOT_MATCH({name}, op::DataType::DT_INT64, return false);
    OP_CHECK_WRONG_DIMENSION({name}, 1, return false);
    return true;
}}"""


def aclnn_check_call(operator: Operator) -> str:
    name = aclnn_name(operator)
    return "" if name is None else \
        f"    CHECK_RET(CheckGroupIndex({name}), ACLNN_ERR_PARAM_INVALID);\n"


def aclnn_launch_lines(operator: Operator) -> tuple[list[str], list[str]]:
    """The lines making a given group_index contiguous, and the l0op arguments they give."""
    name = aclnn_name(operator)
    if name is None:
        return [], []
    made = f"{name}Contiguous"
    return [f"const aclTensor* {made} = {name} == nullptr ? nullptr : "
            f"l0op::Contiguous({name}, uniqueExecutor.get());",
            f"CHECK_RET({name} == nullptr || {made} != nullptr, ACLNN_ERR_INNER_NULLPTR);"], \
        [made]
