"""Statements for the `ascend` ops: a table per uniform family, a function for every other op.

Each rule spells one AscendC call exactly as the IR gives it: the operands, the scalar in its
dtype (a literal, or the expression of a run-time scalar), the enum value of the mode, the
count. Nothing is chosen here.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Operation

from hswc.backend.context import CppContext, ExprRule, fallback_name
from hswc.backend.cpp_types import cpp_type, element_cpp, enum_cpp, scalar_cpp
from hswc.backend.expressions import ADDITIVE, POSTFIX, UNARY, Expr
from hswc.diagnostics import OpError
from hswc.dialects import ascend
from hswc.dialects.ascend import GlobalTensorType, LocalTensorType
from hswc.dialects.ascend_repeat import BINARY_STRIDES

Rule = Callable[[CppContext, Operation], None]
Arg = Callable[[CppContext, Operation], str]


# region the vector instructions: one table


def operand(name: str) -> Arg:
    return lambda ctx, op: ctx.text(getattr(op, name))


def scalar(ctx: CppContext, op: Operation) -> str:
    """The scalar source: the attribute as a literal of its type, or the run-time value's
    expression (which has the tensors' type, as the verifier requires)."""
    assert isinstance(op, ascend.ScalarSourceOp)
    source = op.scalar_source
    if isinstance(source, FloatAttr | IntegerAttr):
        return scalar_cpp(op, source)
    if source is None:
        raise OpError(op, "has no scalar to print")
    return ctx.text(source)


def enum(enum_name: str, prop: str) -> Arg:
    return lambda ctx, op: enum_cpp(enum_name, getattr(op, prop).data)


def tensor_or_scalar(tensor: str) -> Arg:
    """Select's second source: a tensor, or (VSEL_TENSOR_SCALAR_MODE) a scalar."""
    return lambda ctx, op: (
        ctx.text(getattr(op, tensor)) if getattr(op, tensor) is not None else scalar(ctx, op)
    )


TWO_SOURCES: tuple[Arg, ...] = (operand("dst"), operand("src0"), operand("src1"), operand("count"))
"""(dst, src0, src1, count): Add, Sub, Mul, Div, Max, Min, And, Or."""
ONE_SOURCE: tuple[Arg, ...] = (operand("dst"), operand("src"), operand("count"))
"""(dst, src, count): Abs, Relu, Exp, Ln, Sqrt, Rsqrt, Not."""
WITH_SCALAR: tuple[Arg, ...] = (operand("dst"), operand("src"), scalar, operand("count"))
"""(dst, src, scalar, count): Adds, Muls, Maxs, Mins, ShiftLeft, ShiftRight; the scalar in the
tensors' type."""

VECTOR_CALLS: dict[type[ascend.VectorOp], tuple[str, tuple[Arg, ...]]] = {
    ascend.AddOp: ("Add", TWO_SOURCES),
    ascend.SubOp: ("Sub", TWO_SOURCES),
    ascend.MulOp: ("Mul", TWO_SOURCES),
    ascend.DivOp: ("Div", TWO_SOURCES),
    ascend.MaxOp: ("Max", TWO_SOURCES),
    ascend.MinOp: ("Min", TWO_SOURCES),
    ascend.AndOp: ("And", TWO_SOURCES),
    ascend.OrOp: ("Or", TWO_SOURCES),
    ascend.AbsOp: ("Abs", ONE_SOURCE),
    ascend.ReluOp: ("Relu", ONE_SOURCE),
    ascend.ExpOp: ("Exp", ONE_SOURCE),
    ascend.LnOp: ("Ln", ONE_SOURCE),
    ascend.SqrtOp: ("Sqrt", ONE_SOURCE),
    ascend.RsqrtOp: ("Rsqrt", ONE_SOURCE),
    ascend.NotOp: ("Not", ONE_SOURCE),
    ascend.AddsOp: ("Adds", WITH_SCALAR),
    ascend.MulsOp: ("Muls", WITH_SCALAR),
    ascend.MaxsOp: ("Maxs", WITH_SCALAR),
    ascend.MinsOp: ("Mins", WITH_SCALAR),
    ascend.ShiftLeftOp: ("ShiftLeft", WITH_SCALAR),
    ascend.ShiftRightOp: ("ShiftRight", WITH_SCALAR),
    ascend.DuplicateOp: ("Duplicate", (operand("dst"), scalar, operand("count"))),
    ascend.CompareOp: ("Compare", (operand("dst"), operand("src0"), operand("src1"),
                                   enum("CMPMODE", "mode"), operand("count"))),
    ascend.CompareScalarOp: ("CompareScalar", (operand("dst"), operand("src0"), scalar,
                                               enum("CMPMODE", "mode"), operand("count"))),
    ascend.ComparesOp: ("Compares", (operand("dst"), operand("src0"), scalar,
                                     enum("CMPMODE", "mode"), operand("count"))),
    ascend.SelectOp: ("Select", (operand("dst"), operand("mask"), operand("src0"),
                                 tensor_or_scalar("src1"), enum("SELMODE", "mode"),
                                 operand("count"))),
    ascend.CastOp: ("Cast", (operand("dst"), operand("src"), enum("RoundMode", "round_mode"),
                             operand("count"))),
}
"""AscendC::<api>(args...) for every vector instruction of the dialect."""


def _vector_call(ctx: CppContext, op: Operation) -> None:
    api, args = VECTOR_CALLS[type(op)]  # type: ignore[index]
    ctx.writer.call(f"AscendC::{api}", [arg(ctx, op) for arg in args])


# endregion
# region the reductions and the mask/repeat calls


def stride(name: str) -> Arg:
    """A stride property, as the integer literal it is."""
    return lambda ctx, op: str(op.properties[name].value.data)  # type: ignore[attr-defined]


def params(struct: str, names: tuple[str, ...]) -> Arg:
    """`AscendC::BinaryRepeatParams(1, 1, 0, 8, 8, 1)`: a parameter struct of stride literals,
    in its constructor's order."""
    return lambda ctx, op: f"AscendC::{struct}({', '.join(stride(n)(ctx, op) for n in names)})"


REDUCE_CALLS: dict[type[Operation], tuple[Arg, ...]] = {
    ascend.ReduceSumOp: (operand("dst"), operand("src"), operand("work"), operand("count")),
    ascend.ReduceMaxOp: (operand("dst"), operand("src"), operand("work"), operand("count"),
                         lambda ctx, op: "false"),
    ascend.ReduceMinOp: (operand("dst"), operand("src"), operand("work"), operand("count"),
                         lambda ctx, op: "false"),
}
"""AscendC::ReduceSum(dst, src, sharedTmpBuffer, count), ReduceMax / ReduceMin(..., count,
calIndex = false)."""

_WHOLE: tuple[Arg, ...] = (operand("dst"), operand("src"), operand("mask"), operand("repeat"),
                           stride("dst_rep_stride"), stride("src_blk_stride"),
                           stride("src_rep_stride"))
_VALUE_ONLY: Arg = lambda ctx, op: "AscendC::ReduceOrder::ORDER_ONLY_VALUE"  # noqa: E731
_BINARY_REPEAT: tuple[Arg, ...] = (operand("dst"), operand("src0"), operand("src1"),
                                   operand("mask"), operand("repeat"),
                                   params("BinaryRepeatParams", BINARY_STRIDES))

REPEAT_CALLS: dict[type[Operation], tuple[Arg, ...]] = {
    **dict.fromkeys(ascend.BINARY_REPEAT_OPS, _BINARY_REPEAT),
    ascend.WholeReduceSumOp: _WHOLE,
    ascend.WholeReduceMaxOp: (*_WHOLE, _VALUE_ONLY),
    ascend.WholeReduceMinOp: (*_WHOLE, _VALUE_ONLY),
    ascend.BrcbOp: (operand("dst"), operand("src"), operand("repeat"),
                    params("BrcbRepeatParams", ("dst_blk_stride", "dst_rep_stride"))),
}
"""AscendC::<call>(args...) of each mask/repeat call: the level-0 binary forms with
BinaryRepeatParams, WholeReduceSum(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
srcRepStride) (WholeReduceMax / Min with ReduceOrder::ORDER_ONLY_VALUE), Brcb with
BrcbRepeatParams(dstBlkStride, dstRepStride)."""


def _reduction_call(ctx: CppContext, op: Operation) -> None:
    assert isinstance(op, ascend.ReduceCountOp | ascend.RepeatOp)
    args = REDUCE_CALLS.get(type(op)) or REPEAT_CALLS[type(op)]
    ctx.writer.call(f"AscendC::{ascend.api_name(op)}", [arg(ctx, op) for arg in args])


def _flag(ctx: CppContext, op: Operation) -> None:
    """`AscendC::SetFlag<AscendC::HardEvent::V_S>(0);` and WaitFlag alike."""
    assert isinstance(op, ascend.FlagOp)
    call = "SetFlag" if isinstance(op, ascend.SetFlagOp) else "WaitFlag"
    ctx.writer.line(f"AscendC::{call}<{enum_cpp('HardEvent', op.event.data)}>({op.id});")


# endregion
# region everything else: small tables for the queries and the queue calls, a function per op


def _element(t: object) -> str:
    assert isinstance(t, LocalTensorType | GlobalTensorType)
    return element_cpp(t.element_type)


CORE_QUERIES: dict[type[Operation], str] = {
    ascend.GetBlockIdxOp: "AscendC::GetBlockIdx()",
    ascend.GetBlockNumOp: "AscendC::GetBlockNum()",
}


def _core_query(ctx: CppContext, op: Operation) -> None:
    ctx.define(op.results[0], CORE_QUERIES[type(op)])


def _set_global_buffer(ctx: CppContext, op: Operation) -> None:
    assert isinstance(op, ascend.SetGlobalBufferOp)
    pointer = f"(__gm__ {_element(op.result.type)}*){ctx.expr(op.gm).at(UNARY)}"
    offset = ctx.expr(op.offset)
    if offset.text != "0":
        pointer = f"{pointer} + {offset.at(ADDITIVE + 1)}"
    if op.result not in ctx.members:
        name = ctx.scope.declare(op.result, fallback_name(op.result))
        ctx.writer.line(f"{cpp_type(op.result.type)} {name};")
    ctx.writer.call(f"{ctx.text(op.result)}.SetGlobalBuffer", [pointer, ctx.text(op.length)])


def _set_l2_cache_hint(ctx: CppContext, op: Operation) -> None:
    """`xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);`"""
    assert isinstance(op, ascend.SetL2CacheHintOp)
    mode = ascend.SetL2CacheHintOp.MODES[op.mode.data]
    ctx.writer.call(f"{ctx.expr(op.tensor).at(POSTFIX)}.SetL2CacheHint",
                    [f"AscendC::CacheMode::{mode}"])


def _set_ctrl_spr(ctx: CppContext, op: Operation) -> None:
    """`AscendC::SetCtrlSpr<48, 48>(1);`"""
    assert isinstance(op, ascend.SetCtrlSprOp)
    start, end, value = op.bits
    ctx.writer.call(f"AscendC::SetCtrlSpr<{start}, {end}>", [str(value)])


def element_view(ctx: CppContext, op: Operation) -> Expr:
    """`tensor[offset]`: GlobalTensor's or LocalTensor's operator[]."""
    assert isinstance(op, ascend.GlobalAtOp | ascend.LocalAtOp)
    return Expr(f"{ctx.expr(op.tensor).at(POSTFIX)}[{ctx.text(op.offset)}]", POSTFIX)


def _declaration(ctx: CppContext, op: Operation) -> None:
    """TPipe / TQue / TBuf: class members, declared with the class; no statement."""


def _init_buffer(ctx: CppContext, op: Operation) -> None:
    assert isinstance(op, ascend.InitBufferOp)
    num = [] if op.num is None else [str(op.num.value.data)]
    ctx.writer.call(f"{ctx.text(op.pipe)}.InitBuffer",
                    [ctx.text(op.buffer), *num, ctx.text(op.length)])


TENSOR_GETTERS: dict[type[Operation], tuple[str, str]] = {
    ascend.AllocTensorOp: ("que", "AllocTensor"),
    ascend.DeQueOp: ("que", "DeQue"),
    ascend.TBufGetOp: ("buf", "Get"),
}
"""`T tensor = <object>.<Method><T>();`: the ops that hand out a local tensor."""

TENSOR_RETURNS: dict[type[Operation], str] = {
    ascend.EnQueOp: "EnQue",
    ascend.FreeTensorOp: "FreeTensor",
}
"""`<que>.<Method>(tensor);`: the ops that give a local tensor back to its queue."""


def _tensor_getter(ctx: CppContext, op: Operation) -> None:
    owner, method = TENSOR_GETTERS[type(op)]
    result = op.results[0]
    call = f"{ctx.text(getattr(op, owner))}.{method}<{_element(result.type)}>()"
    ctx.define(result, call)


def _tensor_return(ctx: CppContext, op: Operation) -> None:
    assert isinstance(op, ascend.EnQueOp | ascend.FreeTensorOp)
    ctx.writer.line(f"{ctx.text(op.que)}.{TENSOR_RETURNS[type(op)]}({ctx.text(op.tensor)});")


def _reinterpret_cast(ctx: CppContext, op: Operation) -> None:
    assert isinstance(op, ascend.ReinterpretCastOp)
    source = ctx.expr(op.src).at(POSTFIX)
    ctx.define(op.result, f"{source}.ReinterpretCast<{_element(op.result.type)}>()")


def _pipe_barrier(ctx: CppContext, op: Operation) -> None:
    assert isinstance(op, ascend.PipeBarrierOp)
    ctx.writer.line(f"AscendC::PipeBarrier<{op.pipe.data.value.upper()}>();")


def _data_copy(ctx: CppContext, op: Operation) -> None:
    """GM -> UB, UB -> GM and UB -> UB alike: the overload is chosen by the operands' types."""
    assert isinstance(op, ascend.DataCopyOp)
    ctx.writer.call("AscendC::DataCopy", [ctx.text(op.dst), ctx.text(op.src), ctx.text(op.count)])


def _data_copy_pad(ctx: CppContext, op: Operation) -> None:
    """block_count blocks (1 when the IR gives none) of block_len bytes with the IR's strides
    (the UB side's its run-time `ub_gap` where given); GM -> UB pads with the first element
    (isPad false) or, when the IR gives a pad value, with that value in the tensor's dtype."""
    assert isinstance(op, ascend.DataCopyPadOp)
    length = ctx.text(op.block_len)
    count = "1" if op.block_count is None else ctx.text(op.block_count)
    src_stride, dst_stride = str(op.stride("src_stride")), str(op.stride("dst_stride"))
    if op.ub_gap is not None:  # the UB side's stride a run-time value
        if isinstance(op.dst.type, GlobalTensorType):
            src_stride = ctx.text(op.ub_gap)
        else:
            dst_stride = ctx.text(op.ub_gap)
    strides = f"{src_stride}, {dst_stride}"
    args = [ctx.text(op.dst), ctx.text(op.src)]
    if isinstance(op.dst.type, GlobalTensorType):
        args.append(f"AscendC::DataCopyParams({count}, {length}, {strides})")
    elif op.pad_value is None:
        args += [f"AscendC::DataCopyParams({count}, {length}, {strides})",
                 "AscendC::DataCopyPadParams(false, 0, 0, 0)"]
    else:
        pad = scalar_cpp(op, op.pad_value)
        args += [f"AscendC::DataCopyExtParams({count}, {length}, {strides}, 0)",
                 f"AscendC::DataCopyPadExtParams<{_element(op.dst.type)}>(true, 0, 0, {pad})"]
    ctx.writer.call("AscendC::DataCopyPad", args)


def _global_get_value(ctx: CppContext, op: Operation) -> None:
    """`T v = gm.GetValue(offset);`: the scalar unit's read of one GM element."""
    assert isinstance(op, ascend.GlobalGetValueOp)
    tensor = ctx.expr(op.tensor).at(POSTFIX)
    ctx.define(op.result, f"{tensor}.GetValue({ctx.text(op.offset)})")


def _local_get_value(ctx: CppContext, op: Operation) -> None:
    """`T v = tensor.GetValue(index);`: the scalar unit's read of one UB element."""
    assert isinstance(op, ascend.LocalGetValueOp)
    tensor = ctx.expr(op.tensor).at(POSTFIX)
    ctx.define(op.result, f"{tensor}.GetValue({ctx.text(op.index)})")


def _set_value(ctx: CppContext, op: Operation) -> None:
    """`tensor.SetValue(index, value);`: the scalar unit's write of one UB element."""
    assert isinstance(op, ascend.SetValueOp)
    tensor = ctx.expr(op.tensor).at(POSTFIX)
    ctx.writer.call(f"{tensor}.SetValue", [ctx.text(op.index), ctx.text(op.value)])


def _duplicate_lanes(ctx: CppContext, op: Operation) -> None:
    """Duplicate's bitwise-mask form over one repeat, the mask lanes [first, first + count)
    of mask[0] (count in [1, 64], so neither shift reaches 64 bits):

        uint64_t laneMask[2] = {(~0ULL >> (64 - count)) << first, 0};
        AscendC::Duplicate(dst, scalar, laneMask, 1, 1, 8);
    """
    assert isinstance(op, ascend.DuplicateLanesOp)
    mask = ctx.scope.fresh("laneMask")
    count = ctx.expr(op.count).at(ADDITIVE + 1)
    first = ctx.expr(op.first).at(UNARY)
    ctx.writer.line(f"uint64_t {mask}[2] = {{(~0ULL >> (64 - {count})) << {first}, 0}};")
    ctx.writer.call("AscendC::Duplicate",
                    [ctx.text(op.dst), scalar(ctx, op), mask, "1", "1", "8"])


def _duplicate_lanes_repeat(ctx: CppContext, op: Operation) -> None:
    """Duplicate's bitwise-mask form over `repeat` repeats, dstRepStride apart, the mask lanes
    [first, first + count) of mask[0] (count in [1, 64], as _duplicate_lanes):

        uint64_t laneMask[2] = {(~0ULL >> (64 - count)) << first, 0};
        AscendC::Duplicate(dst, scalar, laneMask, repeat, 1, dstRepStride);
    """
    assert isinstance(op, ascend.DuplicateLanesRepeatOp)
    mask = ctx.scope.fresh("laneMask")
    count = ctx.expr(op.count).at(ADDITIVE + 1)
    first = ctx.expr(op.first).at(UNARY)
    ctx.writer.line(f"uint64_t {mask}[2] = {{(~0ULL >> (64 - {count})) << {first}, 0}};")
    ctx.writer.call("AscendC::Duplicate", [
        ctx.text(op.dst), scalar_cpp(op, op.scalar), mask, ctx.text(op.repeat), "1",
        str(op.stride("dst_rep_stride"))])


RULES: dict[type[Operation], Rule] = {
    **dict.fromkeys(VECTOR_CALLS, _vector_call),
    **dict.fromkeys((*REDUCE_CALLS, *REPEAT_CALLS), _reduction_call),
    ascend.DuplicateLanesRepeatOp: _duplicate_lanes_repeat,
    ascend.SetFlagOp: _flag,
    ascend.WaitFlagOp: _flag,
    **dict.fromkeys(CORE_QUERIES, _core_query),
    ascend.SetGlobalBufferOp: _set_global_buffer,
    ascend.SetL2CacheHintOp: _set_l2_cache_hint,
    ascend.SetCtrlSprOp: _set_ctrl_spr,
    ascend.TPipeOp: _declaration,
    ascend.TQueOp: _declaration,
    ascend.TBufOp: _declaration,
    ascend.InitBufferOp: _init_buffer,
    **dict.fromkeys(TENSOR_GETTERS, _tensor_getter),
    **dict.fromkeys(TENSOR_RETURNS, _tensor_return),
    ascend.ReinterpretCastOp: _reinterpret_cast,
    ascend.PipeBarrierOp: _pipe_barrier,
    ascend.DataCopyOp: _data_copy,
    ascend.DataCopyPadOp: _data_copy_pad,
    ascend.GlobalGetValueOp: _global_get_value,
    ascend.LocalGetValueOp: _local_get_value,
    ascend.SetValueOp: _set_value,
    ascend.DuplicateLanesOp: _duplicate_lanes,
}
"""The statement of every ascend op except GlobalAt, which is an expression."""

EXPRESSIONS: dict[type[Operation], ExprRule] = {ascend.GlobalAtOp: element_view,
                                                ascend.LocalAtOp: element_view}
VIEWS: tuple[type[Operation], ...] = (ascend.GlobalAtOp, ascend.LocalAtOp)
"""Addressing printed where it is used, `xGm[chunkOffset]`, even when the IR names it."""

# endregion
