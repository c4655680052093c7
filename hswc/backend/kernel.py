"""One kernel function as an AscendC class: Init, Process, the pipeline stages, the members.

`KernelLayout` says which method prints each op; this module writes the methods, sending
every op to its rule (arith expressions, `ascend` calls, scf control flow) and refusing, with
an error naming the op, any op without one.

Each kernel function becomes an explicit specialisation `<Op><half|float|bfloat16_t>` (e.g.
`HardSwishGrad<half>`) of its operator's class template, so the entry reads as ops-nn's does
(`HardSwishGrad<T> op;`), while
each class is a plain transcription of its own function. One template body with
`if constexpr (std::is_same_v<T, float>)` branches would instead need the printer to merge the
per-dtype functions and decide which of their differences depend on T: the f32 kernel has no
f32 copies and reinterprets where the others cast, and kernel variants differ more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType, StringAttr
from xdsl.ir import Block, Operation, SSAValue

from hswc.backend import ascend_ops
from hswc.backend.context import CppContext, fallback_name
from hswc.backend.cpp_types import ELEMENT_TYPES, cpp_type, spelling
from hswc.backend.expressions import EXPRESSIONS
from hswc.backend.kernels import Kernel, no_rule
from hswc.backend.layout import INIT, PROCESS, KernelLayout, kernel_layout
from hswc.backend.names import TILING_PARAM, Scope
from hswc.broadcast import BROADCAST_COPY_ATTR
from hswc.cpp_identifiers import lower_camel
from hswc.diagnostics import OpError
from hswc.kernel_signature import kernel_arguments

KERNEL_EXPRESSIONS = {**EXPRESSIONS, **ascend_ops.EXPRESSIONS}
QUALIFIERS = "__aicore__ inline"


class KernelPrinter:
    """Prints one kernel function as the explicit specialisation `<Op><T>`."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel
        self.layout: KernelLayout = kernel_layout(kernel.func, KERNEL_EXPRESSIONS,
                                                  ascend_ops.VIEWS)
        self.op_type = kernel.operator.op_type
        class_scope = Scope(reserved=(self.op_type, TILING_PARAM, *self.layout.methods))
        for value in self.layout.members:
            class_scope.declare(value, fallback_name(value))
        self.ctx = CppContext(class_scope, self.layout.inlined, frozenset(self.layout.members),
                              expressions=KERNEL_EXPRESSIONS)

    def lines(self) -> list[str]:
        w = self.ctx.writer
        variant = "" if self.kernel.variant is None else f" (variant {self.kernel.variant})"
        w.line(f"// @{self.kernel.func.sym_name.data}: the {self.kernel.dtype} kernel{variant}, "
               f"tiling key {self.kernel.tiling_key}.")
        w.line("template <>")
        with w.descend(f"class {self.op_type}<{self.kernel.template_arguments}>", close="};"):
            w.label("public:")
            w.line(f"{QUALIFIERS} {self.op_type}() {{}}")
            w.blank()
            self._init()
            w.blank()
            self._process()
            w.blank()
            w.label("private:")
            for stage in self.layout.stages:
                self._stage(stage.name, stage.params, stage.ops)
                w.blank()
            self._members()
        return w.lines

    # region methods

    @contextmanager
    def _method(self, name: str, params: Callable[[], list[str]] = list) -> Iterator[None]:
        """A method: its own scope below the class scope, where `params` declares its
        parameters; braces on lines of their own."""
        ctx = self.ctx
        with ctx.inner_scope():
            signature = ctx.writer.wrap(f"{QUALIFIERS} void {name}", params())
            with ctx.writer.descend(signature, brace_on_own_line=True):
                yield

    def _init(self) -> None:
        ctx = self.ctx
        args = kernel_arguments(self.kernel.func)
        gm_args = args.gm
        fields = zip((*args.tiling, *args.scalars),
                     (*self.kernel.operator.int_fields, *self.kernel.operator.scalar_fields),
                     strict=True)
        copies: list[tuple[SSAValue, str]] = []

        def params() -> list[str]:
            names = []
            for arg in gm_args:
                if not arg.uses:  # unnamed, or -Wunused-parameter would object
                    names.append(f"/* {lower_camel(arg.name_hint or '') or 'addr'} */")
                elif arg in ctx.members:  # kept past Init: the parameter is copied into it
                    names.append(ctx.scope.fresh(lower_camel(arg.name_hint or "") or "addr"))
                    copies.append((arg, names[-1]))
                else:
                    names.append(ctx.scope.declare(arg, fallback_name(arg)))
            struct = self.kernel.operator.tiling_struct
            return [*(f"GM_ADDR {n}" for n in names), f"const {struct}* {TILING_PARAM}"]

        with self._method(INIT, params):
            for arg, name in copies:
                ctx.writer.line(f"{ctx.text(arg)} = {name};")
            for arg, field in fields:
                if arg.uses:
                    ctx.define(arg, f"{TILING_PARAM}->{field}")
            self._init_block(self.kernel.func.body.block, 0)

    def _init_block(self, block: Block, depth: int) -> None:
        path = self.layout.path
        target = path[depth] if depth < len(path) else None
        for op in block.ops:
            if op is target:
                if op in self.layout.init_guards:
                    assert isinstance(op, scf.IfOp)
                    with self.ctx.descend(f"if ({self.ctx.text(op.cond)})"):
                        self._init_block(op.true_region.block, depth + 1)
                return
            self.op(op)

    def _process(self) -> None:
        with self._method(PROCESS):
            if self.layout.path:
                self._process_block(self.kernel.func.body.block, 0)

    def _process_block(self, block: Block, depth: int) -> None:
        target = self.layout.path[depth]
        after = False
        for op in block.ops:
            if op is target:
                after = True
                if isinstance(op, scf.IfOp):
                    with self.ctx.descend(f"if ({self.ctx.text(op.cond)})"):
                        self._process_block(op.true_region.block, depth + 1)
                else:
                    assert isinstance(op, scf.ForOp)
                    self._for(op, self._chunk_body)
            elif after:
                self.op(op)

    def _chunk_body(self, loop: scf.ForOp) -> None:
        self.ops(self.layout.preamble)
        for stage in self.layout.stages:
            self.ctx.writer.call(stage.name, [self.ctx.text(p) for p in stage.params])

    def _stage(self, name: str, params: list[SSAValue], ops: list[Operation]) -> None:
        def declare() -> list[str]:
            return [f"{cpp_type(p.type)} {self.ctx.scope.declare(p, fallback_name(p))}"
                    for p in params]

        with self._method(name, declare):
            self.ops(ops)

    def _members(self) -> None:
        for value in self.layout.members:
            t = value.type
            init = ""
            if isinstance(t, IndexType | IntegerType):
                init = " = false" if isinstance(t, IntegerType) and t.width.data == 1 else " = 0"
            elif type(t) in ELEMENT_TYPES:  # a float scalar: half, bfloat16_t or float
                init = " = 0"
            elif isinstance(t, MemRefType):
                init = " = nullptr"
            self.ctx.writer.line(f"{cpp_type(t)} {self.ctx.text(value)}{init};")

    # endregion
    # region ops

    def ops(self, ops: Iterable[Operation]) -> None:
        for op in ops:
            self.op(op)

    def op(self, op: Operation) -> None:
        """Print one op through its rule; an op without a rule, or of a type without C++
        spelling, is an error naming it."""
        with spelling(op):
            self._print(op)

    def _print(self, op: Operation) -> None:
        expression = KERNEL_EXPRESSIONS.get(type(op))
        if expression is not None:
            if op not in self.ctx.inlined and op.results[0].uses:
                self.ctx.define(op.results[0], expression(self.ctx, op).text)
            return
        if isinstance(op, scf.IfOp):
            self._if(op)
        elif isinstance(op, scf.ForOp):
            self._for(op, lambda loop: self.ops(loop.body.block.ops))
        elif isinstance(op, scf.YieldOp | func.ReturnOp):
            if op.operands:
                raise OpError(op, "returns values, which the AscendC printer has no rule for")
        else:
            rule = ascend_ops.RULES.get(type(op))
            if rule is None:
                raise no_rule(op)
            rule(self.ctx, op)

    def _if(self, op: scf.IfOp) -> None:
        if op.results:
            raise OpError(op, "yields values, which the AscendC printer has no rule for")
        with self.ctx.descend(f"if ({self.ctx.text(op.cond)})"):
            self.ops(op.true_region.block.ops)
        if any(not isinstance(o, scf.YieldOp) for o in op.false_region.walk()):
            self.ctx.writer.lines.pop()  # the `}` closing the then-branch
            with self.ctx.descend("} else"):
                self.ops(op.false_region.block.ops)

    def _for(self, loop: scf.ForOp, body: Callable[[scf.ForOp], None]) -> None:
        """`for (...) { ... }`; a value carried across iterations (iter_args) is a variable
        declared before the loop from its initial value, read by the body under its name and
        assigned what the body yields, its value after the loop the loop's result."""
        ctx = self.ctx
        carried = list(zip(loop.results, loop.iter_args, loop.body.block.args[1:], strict=True))
        for result, initial, _ in carried:
            if not result.uses:
                raise OpError(loop, "carries a value across iterations that nothing reads")
            ctx.define(result, ctx.text(initial))
        lower, upper = ctx.text(loop.lb), ctx.text(loop.ub)
        if carried:
            body = self._carrying(carried)
        with ctx.inner_scope():  # the index is declared in the for statement's own scope
            index = loop.body.block.args[0]
            name = ctx.scope.declare(index, "i")
            step = ctx.text(loop.step)
            step = f"++{name}" if step == "1" else f"{name} += {step}"
            header = f"for ({cpp_type(index.type)} {name} = {lower}; {name} < {upper}; {step})"
            how = loop.attributes.get(BROADCAST_COPY_ATTR)
            if isinstance(how, StringAttr):  # a broadcast input's copy-in: how it reads
                ctx.writer.line(f"// {how.data}")
            with ctx.writer.descend(header):
                body(loop)

    def _carrying(self, carried: Sequence[tuple[SSAValue, SSAValue, SSAValue]]
                  ) -> Callable[[scf.ForOp], None]:
        """A loop body that reads each carried value (result, initial, block argument) under
        its variable's name and assigns it what the body yields."""
        ctx = self.ctx

        def body(loop: scf.ForOp) -> None:
            yielded = loop.body.block.last_op
            assert isinstance(yielded, scf.YieldOp)
            for result, _, arg in carried:
                ctx.scope.names[arg] = ctx.text(result)
            self.ops([o for o in loop.body.block.ops if o is not yielded])
            for (result, _, _), value in zip(carried, yielded.operands, strict=True):
                ctx.writer.line(f"{ctx.text(result)} = {ctx.text(value)};")

        return body

    # endregion
