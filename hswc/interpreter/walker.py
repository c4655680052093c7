"""xDSL's Interpreter with a leaner walk over a region's ops.

`Interpreter.run_ssacfg_region` costs several microseconds an op on top of the op's impl
(a generator per operand tuple, listener loops, a result named tuple checked twice), and when an
impl raises it prints the whole module into the exception once per enclosing region. The
kernel's chunk loop runs tens of ops per chunk for thousands of chunks, so this walk does the
same thing directly: look the operands up, call the registered impl, bind the results, follow
the terminator. Errors propagate unchanged (an OpError already names the op and its location),
except a limit the op's impl reached (hswc.interpreter.limits) or a MemoryError, which become an
OpError at that op; regions nested deeper than `MAX_RUN_DEPTH` are refused at the op that holds
the region. An op whose class has no impl of its own runs its nearest base class's (the
subclasses hswc.dialects.linalg registers in place of xDSL's linalg ops run xDSL's impls).
"""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter, PythonValues, ReturnedValues, Successor
from xdsl.ir import Operation, Region
from xdsl.utils.scoped_dict import ScopedDict

from hswc.diagnostics import OpError
from hswc.interpreter.limits import MAX_RUN_DEPTH, LimitReached


class Walker(Interpreter):
    """The interpreter hswc runs modules with (see the module docstring)."""

    depth = 0
    """Regions entered and not yet left."""

    def run_ssacfg_region(self, region: Region, args: PythonValues,
                          name: str = "unknown") -> PythonValues:
        block = region.blocks.first
        if block is None:
            return ()
        if self.depth >= MAX_RUN_DEPTH:
            owner = region.parent_op()
            assert owner is not None
            raise OpError(owner, f"is nested too deeply at run time: more than {MAX_RUN_DEPTH} "
                          "function bodies, branches and loop bodies are active")
        outer = self._ctx
        table = self._impls._impl_dict  # pyright: ignore[reportPrivateUsage]
        self.depth += 1
        try:
            while block is not None:
                scope: ScopedDict[Any, Any] = ScopedDict(outer, name=name)
                self._ctx = scope
                local = scope._local_scope  # pyright: ignore[reportPrivateUsage]
                for arg, value in zip(block.args, args, strict=True):
                    local[arg] = value
                current, block = block, None
                for op in current.ops:
                    entry = table.get(type(op)) or _inherited(table, type(op))
                    if entry is None:
                        raise OpError(op, "is not supported by the interpreter")
                    functions, run = entry
                    try:
                        inputs = tuple(scope[v] for v in op.operands)
                    except KeyError:
                        raise OpError(op, "uses a value that was never computed") from None
                    try:
                        result = run(functions, self, op, inputs)
                    except (LimitReached, MemoryError) as error:
                        raise OpError(op, _cannot_run(error)) from None
                    for value, python_value in zip(op.results, result.values, strict=True):
                        local[value] = python_value
                    jump = result.terminator_value
                    if isinstance(jump, ReturnedValues):
                        return jump.values
                    if isinstance(jump, Successor):
                        block, args = jump
                        break
            return ()
        finally:
            self._ctx = outer
            self.depth -= 1


def _inherited(table: dict[type[Operation], Any], op_type: type[Operation]) -> Any:
    """The impl of op_type's nearest base class that has one, remembered for op_type."""
    for base in op_type.__mro__[1:]:
        entry = table.get(base)
        if entry is not None:
            table[op_type] = entry
            return entry
    return None


def _cannot_run(error: LimitReached | MemoryError) -> str:
    if isinstance(error, MemoryError):
        return f"ran out of memory: {error}"
    return f"cannot run: {error}"
