"""The functions a kernel is made of, shared by the elementwise and the row kernels
hsg-tile-on-cores builds: their names, the host tiling function, the table that reuses an
identical function instead of adding it twice, and small helpers for the host code around a
launch."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from io import StringIO
from typing import Any

from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    Float32Type,
    IndexType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter

from hswc.diagnostics import copy_location
from hswc.dialects import hsg
from hswc.index_arith import IRArith
from hswc.tiling import RESULT_NAMES, Plans, tiling_formula

F32 = Float32Type()
INT64_MAX = 2**63 - 1


def tiling_function_name(op_name: str, dtype: str) -> str:
    return f"{op_name}_tiling_{dtype}"


def kernel_function_name(op_name: str, dtype: str) -> str:
    return f"{op_name}_kernel_{dtype}"


def build_tiling_function(name: str, dtype: str, plans: Plans,
                          by_length: bool = False) -> func.FuncOp:
    """The host TilingFunc as IR: (totalNum, coreNum, ubSize) -> the tiling; `by_length`:
    (totalNum, coreNum, ubSize, rowLength), its variants picked by the row length
    (hswc.passes.row_branches)."""
    index = IndexType()
    names = ("total_num", "core_num", "ub_size", *(("row_length",) if by_length else ()))
    block = Block(arg_types=[index] * len(names))
    for arg, arg_name in zip(block.args, names, strict=True):
        arg.name_hint = arg_name
    a = IRArith(InsertPoint.at_end(block))
    tiling = tiling_formula(a, block.args[0], block.args[1], block.args[2], dtype, plans,
                            block.args[3] if by_length else None)
    results = tiling.as_tuple()
    for value, result_name in zip(results, RESULT_NAMES, strict=True):
        if value.name_hint is None:
            value.name_hint = result_name
    a.builder.insert(func.ReturnOp(*results))
    fn = func.FuncOp(name, ((index,) * len(names), (index,) * 5), Region(block))
    fn.attributes[hsg.TILING_ATTR] = UnitAttr()
    return fn


def scalar_names(scalars: Sequence[SSAValue]) -> list[str]:
    """The kernel's names of the scalars a body captures: their names on the host, made
    unique (`scalar<i>` without one)."""
    names: list[str] = []
    taken: set[str] = set()
    suffix: dict[str, int] = {}  # the next suffix to try for a base (a long chain repeats one)
    for i, value in enumerate(scalars):
        base = name = value.name_hint or f"scalar{i}"
        n = suffix.get(base, 1)
        while name in taken:
            name, n = f"{base}_{n}", n + 1
        suffix[base] = n
        names.append(name)
        taken.add(name)
    return names


def host_scalars(builder: Builder, scalars: Sequence[SSAValue]) -> list[SSAValue]:
    """A launch's scalars: what the body captures, widened to f32 where it is f16 or bf16."""
    values: list[SSAValue] = []
    for value in scalars:
        if value.type != F32:
            value = builder.insert(arith.ExtFOp(value, F32)).result
        values.append(value)
    return values


def static_num_elements(t: Attribute) -> int | None:
    if isinstance(t, TensorType) and t.has_static_shape():
        count = 1
        for dim in t.get_shape():
            count *= dim
        return count
    return None


def display_name(op: Operation) -> str:
    """How messages name a generic: after the named op it was decomposed from, if any."""
    attr = op.attributes.get(hsg.OP_NAME_ATTR)
    return f"hsg.{attr.data}" if isinstance(attr, StringAttr) else op.name


def enclosing(op: Operation, kind: type[Operation]) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, kind):
        parent = parent.parent_op()
    return parent


def function_text(fn: func.FuncOp) -> str:
    """The function's signature and body as IR text (what makes two functions the same)."""
    stream = StringIO()
    printer = Printer(stream=stream)
    printer.print_attribute(fn.function_type)
    printer.print_region(fn.body)
    return stream.getvalue()


class KernelFunctions:
    """The tiling and kernel functions of one module: reused when identical, else renamed.

    What each generic needs is looked up first by a key of what it is built from (`built`), so
    a module of many generics builds and prints each distinct function once: the pass is
    linear in the number of generics. Two functions are the same when their attributes and
    printed text are; the text is printed only for functions that could be the same by a key
    that text determines (`_outline`: attributes, type, the ops' names in walk order), so a
    module whose kernels all differ prints none of them."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.existing: dict[str, func.FuncOp] = {}
        self.texts: dict[str, str] = {}
        """The printed text of the functions in `existing` that were compared (by name)."""
        self.built: dict[tuple[object, ...], str] = {}
        """What a function was built from -> the symbol `ensure` gave it."""
        self.walks: dict[str, tuple[dict[tuple[object, ...], list[tuple[str, func.FuncOp]]],
                                    tuple[str, int]]] = {}
        """A name `ensure` was asked for -> the taken names it walked (by their functions'
        outlines, in walk order) and where its walk stopped: the first free name and its
        number."""
        self.plans: dict[tuple[object, ...], Any] = {}
        """A body (and dtype) -> its schedule's choice (None: the options') and the kernels
        planned for it."""
        for op in module.body.block.ops:
            sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
            if sym is not None:
                self.existing[sym.data] = op  # type: ignore[assignment, union-attr]

    def ensure_built(self, key: tuple[object, ...], build: Callable[[], func.FuncOp],
                     source: Operation) -> str:
        """`ensure` of the function `build` makes, built only the first time `key` is seen."""
        name = self.built.get(key)
        if name is None:
            fn = build()
            name = self.built[key] = self.ensure(fn.sym_name.data, fn, source)
        return name

    def _text_of(self, name: str, fn: func.FuncOp) -> str:
        text = self.texts.get(name)
        if text is None:
            text = self.texts[name] = function_text(fn)
        return text

    def ensure(self, name: str, fn: func.FuncOp, source: Operation) -> str:
        """The symbol of a function equal to `fn`: an existing one, or `fn` added under
        `name` (or `name` with a number, when the name is taken by something else).

        The names `name`, then `name` numbered 1, 2, ... are tried in turn, as far as the first
        free one; what each taken one holds is remembered by its outline (`walks`), so the next
        function of that name is compared with those of its outline only, and the walk goes
        on from the free name: n functions of one name cost O(n), not O(n^2)."""
        outline = _outline(fn)
        text: list[str] = []  # fn's, printed only when some function has its outline

        def same(candidate: str, found: func.FuncOp) -> bool:
            if found.attributes != fn.attributes:
                return False
            if not text:
                text.append(function_text(fn))
            return self._text_of(candidate, found) == text[0]

        walked, (candidate, n) = self.walks.setdefault(name, ({}, (name, 1)))
        for earlier, found in walked.get(outline, ()):
            if same(earlier, found):
                return earlier
        while candidate in self.existing:
            found = self.existing[candidate]
            if isinstance(found, func.FuncOp):
                found_outline = _outline(found)
                walked.setdefault(found_outline, []).append((candidate, found))
                if found_outline == outline and same(candidate, found):
                    self.walks[name] = (walked, (candidate, n))
                    return candidate
            candidate, n = name.replace("_kernel_", f"_{n}_kernel_").replace(
                "_tiling_", f"_{n}_tiling_"), n + 1
        self.walks[name] = (walked, (candidate, n))
        fn.sym_name = StringAttr(candidate)
        copy_location(source, [fn])
        self.module.body.block.add_op(fn)
        self.existing[candidate] = fn
        return candidate


def _outline(fn: func.FuncOp) -> tuple[object, ...]:
    """What the printed text of `fn` and its attributes determine, cheaper than printing:
    functions that differ in it differ in text or attributes."""
    return (_attributes_key(fn), fn.function_type, tuple(op.name for op in fn.body.walk()))


def _attributes_key(fn: func.FuncOp) -> tuple[tuple[str, Attribute], ...]:
    return tuple(sorted(fn.attributes.items()))


def erase_if_dead(op: Operation | object) -> None:
    """Remove the generic's tensor.empty (and its tensor.dim operands) once nothing uses it."""
    if not isinstance(op, Operation) or any(r.uses for r in op.results) or op.regions:
        return
    if op.dialect_name() not in ("tensor", "arith"):
        return
    operands = [o.owner for o in op.operands]
    Rewriter.erase_op(op)
    for owner in operands:
        erase_if_dead(owner)


def module_functions(tables: dict[Operation, KernelFunctions], module: ModuleOp
                     ) -> KernelFunctions:
    """The KernelFunctions of `module` in `tables`, made the first time only: it indexes every
    function the module holds, so one per generic would tile n generics in n^2 steps."""
    table = tables.get(module)
    if table is None:
        table = tables[module] = KernelFunctions(module)
    return table
