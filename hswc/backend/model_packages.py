"""One ops-nn package per kernel of a partitioned module (a whole model file), and their index.

Input: a module lowered by --lower-to-ascend whose host functions keep ops on the host
(matmuls, convolutions, reductions, reshapes) or launch several kernels, and the remarks its
lowering made (hswc.remarks: which generics joined which region, which became a launch).
Output: the files of every package under `<stem>/`, and `index.json` and `INDEX.md` beside
them.

Names. A kernel's package is named after the host function and the region of its first launch:
the op type is the function's name in CamelCase (its letters and digits; at most 48 of them)
followed by `R<n>`, n counting the function's launches from 0 in program order (`@main`'s
fourth launch: `MainR3`); the package folder, kernel entry and file stem is its snake_case
(`main_r3`), as for any op type. The names depend only on the module's text (no path, no time,
no hash of the machine), C++ and ops-nn can declare them (hswc.cpp_identifiers), and two
functions whose names differ only in characters that are dropped or in case get `Dup<k>`
after the later one's.

Identical kernels share one package: hsg-tile-on-cores builds one kernel function for all
regions of one body, element types and broadcast shapes, so one package is one kernel; its
index entry lists every region that launches it (with each launch's shapes and scalars). Its
attributes are the scalars the body captures, with the first launch's values as defaults.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from hswc.backend.description import PackageRefused, PackageRequest, launch_scalar_value
from hswc.backend.ir_tiling import TilingRefused, ir_tiling
from hswc.backend.kernels import Kernel, collect_kernels
from hswc.backend.operator import snake_case
from hswc.cpp_identifiers import unusable
from hswc.diagnostics import location_of
from hswc.dialects import hsg
from hswc.elementwise import host_kind
from hswc.platform import PLATFORMS
from hswc.remarks import Remark
from hswc.rows import read_rows
from hswc.tiling import RESULT_NAMES

LAUNCH = "becomes a launch of "
JOINS = ("joins the generic at ", "is recomputed in the generic at ")
STAYS = "stays on the host"
MAX_FUNCTION_CHARS = 48
"""The most characters of the function's name in an op type (ops-nn's are at most 64)."""
INDEX_JSON = "index.json"
INDEX_MD = "INDEX.md"


@dataclass(frozen=True)
class Tensor:
    """An operand of a launch: its shape (None for a dynamic dim) and element type."""

    shape: tuple[int | None, ...] | None
    dtype: str

    def said(self) -> str:
        if self.shape is None:
            return f"*x{self.dtype}"
        return "x".join([*("?" if d is None else str(d) for d in self.shape), self.dtype])


@dataclass
class Launch:
    """One region of a host function: one hsg.launch."""

    function: str
    index: int
    """Its place among the function's launches, from 0 in program order."""
    location: str | None
    kernel: str
    inputs: list[Tensor]
    output: Tensor
    scalars: list[float]
    ops: list[tuple[str, str | None]] = field(default_factory=list)
    """The ops of the region (name, location): its generics, in the order of their lines."""
    outputs: list[Tensor] = field(default_factory=list)
    """Every output, `output` the first (a row kernel's may differ in shape)."""

    def outputs_said(self) -> str:
        return ", ".join(t.said() for t in self.outputs or [self.output])


@dataclass
class KernelPackage:
    """One kernel, the package it becomes and the regions that launch it."""

    op_type: str
    kernel: Kernel
    launches: list[Launch]

    @property
    def stem(self) -> str:
        return snake_case(self.op_type)


def is_whole_model(module: ModuleOp) -> bool:
    """Whether the lowered module is a partitioned file: a host function keeps ops on the host
    (anything hsg-tile-on-cores says stays there) or launches more than one kernel."""
    for fn in _host_functions(module):
        # One region per source location: the kernels of a run-time choice (an scf.if on the
        # tiling key, hsg.tiling_key) are launched from one region.
        launched = {location_of(op) or op.kernel.root_reference.data for op in fn.walk()
                    if isinstance(op, hsg.LaunchOp)}
        if len(launched) > 1:
            return True
        if launched and any(_stays(op) for op in fn.walk()):
            return True
    return False


def has_ops_left(module: ModuleOp) -> int:
    """How many ops the host functions keep on the host (what hsg-tile-on-cores names so)."""
    return sum(1 for fn in _host_functions(module) for op in fn.walk() if _stays(op))


def computations_left(module: ModuleOp) -> int:
    """How many generics (computations no kernel took) the host functions keep on the host;
    the other ops that stay there (reshapes, matmuls, ...: host_kind) are not counted."""
    return sum(1 for fn in _host_functions(module) for op in fn.walk()
               if isinstance(op, GenericOp))


def _stays(op: Operation) -> bool:
    """Whether `op` is host work the partition left: a generic (no kernel took it) or what
    hsg-tile-on-cores calls staying on the host (a matmul, a reshape, ...)."""
    return isinstance(op, GenericOp) or host_kind(op) is not None


def _host_functions(module: ModuleOp) -> list[func.FuncOp]:
    return [op for op in module.ops if isinstance(op, func.FuncOp)
            and not hsg.is_kernel(op) and not hsg.is_tiling(op)]


def _function_words(name: str) -> str:
    """The CamelCase of a function's name: its runs of letters and digits, each capitalised
    (`main` -> Main, `forward_block2` -> ForwardBlock2), at most MAX_FUNCTION_CHARS; a name
    with none, or starting with a digit, gets `F` before it."""
    words = "".join(w[:1].upper() + w[1:] for w in re.findall(r"[A-Za-z0-9]+", name))
    if not words or words[0].isdigit():
        words = "F" + words
    return words[:MAX_FUNCTION_CHARS]


def _tensor(t: object) -> Tensor:
    from hswc.dialects.ascend import element_type_name

    if isinstance(t, TensorType):
        shape = tuple(None if d < 0 else d for d in t.get_shape())
        return Tensor(shape, element_type_name(t.element_type))
    return Tensor(None, str(t))


def _launches(module: ModuleOp) -> list[Launch]:
    """Every launch of every host function, in module and program order."""
    found: list[Launch] = []
    for fn in _host_functions(module):
        index = 0
        for op in fn.walk():
            if not isinstance(op, hsg.LaunchOp):
                continue
            scalars = [launch_scalar_value(v, op) for v in op.scalars]
            found.append(Launch(fn.sym_name.data, index, location_of(op),
                                op.kernel.root_reference.data,
                                [_tensor(v.type) for v in op.inputs], _tensor(op.y.type),
                                scalars, outputs=[_tensor(v.type) for v in op.ys]))
            index += 1
    return found


def _region_ops(launches: list[Launch], said: Sequence[Remark]) -> None:
    """Each launch's ops from the remarks: the generic that became it, and those that joined it
    (or were recomputed in it), transitively."""
    joined: dict[str, list[Remark]] = {}
    for r in said:
        for prefix in JOINS:
            if r.text.startswith(prefix):
                joined.setdefault(r.text.removeprefix(prefix), []).append(r)
    roots: dict[str, Remark] = {r.where: r for r in said
                                if r.where is not None and r.text.startswith(LAUNCH)}
    for launch in launches:
        root = roots.get(launch.location) if launch.location is not None else None
        if root is None:
            continue
        ops: dict[tuple[str, str | None], None] = {(root.name, root.where): None}
        todo = [root.where]
        seen: set[str] = set()
        while todo:
            where = todo.pop()
            if where is None or where in seen:
                continue
            seen.add(where)
            for r in joined.get(where, []):
                ops[(r.name, r.where)] = None
                todo.append(r.where)
        launch.ops = sorted(ops, key=lambda o: _position(o[1]))


def _position(where: str | None) -> tuple[str, int, int]:
    if where is None:
        return ("", 0, 0)
    file, line, column = where.rsplit(":", 2)
    return (file, int(line), int(column))


def plan_packages(module: ModuleOp, said: Sequence[Remark]) -> list[KernelPackage]:
    """The packages of the module's kernels, named (module docstring), in the order of their
    first launch; kernels nothing launches come last, named after themselves."""
    kernels = {k.func.sym_name.data: k for k in collect_kernels(module, by_stem=False)}
    launches = _launches(module)
    _region_ops(launches, said)
    packages: dict[str, KernelPackage] = {}
    taken: set[str] = set()
    for launch in launches:
        kernel = kernels.get(launch.kernel)
        if kernel is None:
            continue
        if launch.kernel not in packages:
            base = f"{_function_words(launch.function)}R{launch.index}"
            packages[launch.kernel] = KernelPackage(_unique(base, taken), kernel, [])
        packages[launch.kernel].launches.append(launch)
    for name, kernel in kernels.items():
        if name not in packages:
            base = _function_words(kernel.operator.stem)
            packages[name] = KernelPackage(_unique(base, taken), kernel, [])
    return list(packages.values())


def _unique(base: str, taken: set[str]) -> str:
    """`base`, or `base` Dup<k> when its name (any case) is taken; then taken."""
    name, k = base, 2
    while name.lower() in taken or unusable(snake_case(name)) is not None:
        name, k = f"{base}Dup{k}", k + 1
    taken.add(name.lower())
    return name


def package_module(package: KernelPackage, module: ModuleOp) -> tuple[ModuleOp, str]:
    """A module of the package's kernel and its tiling function, renamed after the package,
    and a host function @<stem> launching it as its first region does (that launch's tensor
    types and scalar values); and the kernel's new name."""
    kernel = package.kernel
    stem = package.stem
    kernel_fn = kernel.func.clone()
    kernel_name = f"{stem}_kernel_{kernel.dtype}"
    kernel_fn.sym_name = StringAttr(kernel_name)
    tiling_fn = kernel.tiling.clone()
    tiling_name = f"{stem}_tiling_{kernel.dtype}"
    tiling_fn.sym_name = StringAttr(tiling_name)
    functions = [tiling_fn, kernel_fn]
    if package.launches:
        functions.insert(0, _host(package.launches[0], stem, kernel, kernel_name, tiling_name,
                                  module))
    return ModuleOp(functions), kernel_name


def _host(launch: Launch, stem: str, kernel: Kernel, kernel_name: str, tiling_name: str,
          module: ModuleOp) -> func.FuncOp:
    """@stem(inputs) launching the kernel on the first launch's tensor types with its scalar
    values as constants (what the package takes its shapes and attribute defaults from); a
    tensor the launch passes to several GM inputs (a gated op's halves of x) is one argument
    passed to each, as the package takes it (kernels.with_shared_inputs)."""
    original = next(op for fn in _host_functions(module) if fn.sym_name.data == launch.function
                    for op in fn.walk() if isinstance(op, hsg.LaunchOp)
                    and location_of(op) == launch.location
                    and op.kernel.root_reference.data == launch.kernel)
    unique = list(dict.fromkeys(original.inputs))
    types = [v.type for v in unique]
    block = Block(arg_types=types)
    b = Builder(InsertPoint.at_end(block))
    outputs = [y.type for y in original.ys]
    output = outputs[0]
    assert isinstance(output, TensorType)
    static = all(d >= 0 for d in output.get_shape())
    first: SSAValue = block.args[0]
    total = b.insert(hsg.NumElementsOp(first)).result if not static else \
        b.insert(arith.ConstantOp(IntegerAttr(_count(output), IndexType()))).result
    cores = b.insert(hsg.GetCoreNumAivOp()).result
    ub = b.insert(hsg.GetUbSizeOp()).result
    call = b.insert(func.CallOp(tiling_name, [total, cores, ub],
                                [IndexType()] * len(RESULT_NAMES)))
    values = [b.insert(arith.ConstantOp(FloatAttr(v, Float32Type()))).result
              for v in launch.scalars]
    operands = [block.args[unique.index(v)] for v in original.inputs]
    made = b.insert(hsg.LaunchOp(kernel_name, call.results[3], operands, call.results[:3],
                                 values, outputs))
    b.insert(func.ReturnOp(*made.ys))
    return func.FuncOp(stem, (types, outputs), Region(block))


def _count(t: TensorType) -> int:
    n = 1
    for d in t.get_shape():
        n *= d
    return n


def request_for(package: KernelPackage, kernel_name: str,
                bodies: dict[str, tuple[str, ...]], semantics: str | None) -> PackageRequest:
    """The package's request: its op type and the kernel's body under its new name."""
    body = bodies.get(package.kernel.func.sym_name.data)
    return PackageRequest(package.op_type, None, None, semantics, frozenset(),
                          {kernel_name: body} if body is not None else {})


def refuse_arch35(socs: Sequence[str]) -> None:
    """Whole models are packaged for Atlas A2/A3 (its kernels' dtype boundaries are)."""
    own = [s for s in socs if PLATFORMS[s].api == "dav_3510"]
    if own:
        raise PackageRefused(f"--soc {own[0]}: the packages of a whole model are written for "
                             "Atlas A2/A3 only (hswc-emit packages one operator for Ascend "
                             "950: pick it with --function and --name)")


# region the index


def _tiling(kernel: Kernel, launch: Launch) -> dict[str, object] | None:
    """The launch's tiling on ascend910b (48 cores), where its shape is static; a row kernel's
    counts its rows (hswc.rows.Rows.counted), as its package's host tiling does."""
    shape = launch.output.shape
    if shape is None or any(d is None for d in shape):
        return None
    total = 1
    for d in shape:
        total *= d or 0
    rows = read_rows(kernel.func)
    if rows is not None:
        per_row, group = rows.counted(rows.outputs[0])
        total = total // per_row * group if per_row else 0
    platform = PLATFORMS["ascend910b"]
    try:
        t = ir_tiling(kernel, total, platform.core_num, platform.ub_size)
    except TilingRefused as error:
        return {"refused": str(error)}
    return {"soc": platform.name, "totalNum": t.total_num, "blockFactor": t.block_factor,
            "ubFactor": t.ub_factor, "usedCoreNum": t.used_core_num, "tilingKey": t.tiling_key}


def index_entries(packages: list[KernelPackage], skipped: Mapping[str, str]
                  ) -> list[dict[str, object]]:
    """One entry a package: its names, kernel, dtypes, UB plan, every region it serves, and,
    for a kernel the checks refused (`skipped`, by package stem), why it has no package."""
    entries = []
    for p in packages:
        k = p.kernel
        plan = k.func.attributes.get("hsg.ub_plan")
        entries.append({
            "package": p.stem,
            "not_packaged": skipped.get(p.stem),
            "op_type": p.op_type,
            "aclnn": f"aclnn{p.op_type}",
            "kernel": f"@{k.func.sym_name.data}",
            "dtype": k.dtype,
            "inputs": [{"name": n, "dtype": dt} for n, dt in
                       zip(k.operator.inputs, k.gm_dtypes, strict=False)],
            "output": {"name": k.operator.outputs[0],
                       "dtype": k.gm_dtypes[len(k.operator.inputs)]},
            "outputs": [{"name": n, "dtype": dt} for n, dt in
                        zip(k.operator.outputs, k.gm_dtypes[len(k.operator.inputs):],
                            strict=True)],
            "attributes": list(k.operator.scalar_fields),
            "ub_plan": str(plan) if plan is not None else None,
            "regions": [{
                "function": f"@{launch.function}",
                "region": launch.index,
                "location": launch.location,
                "ops": [{"op": name, "location": where} for name, where in launch.ops],
                "inputs": [t.said() for t in launch.inputs],
                "output": launch.output.said(),
                "outputs": [t.said() for t in launch.outputs],
                "scalars": launch.scalars,
                "tiling": _tiling(k, launch),
            } for launch in p.launches],
        })
    return entries


def index_json(source: str, entries: list[dict[str, object]], left: int) -> str:
    return json.dumps({"source": source, "packages": entries, "ops_left_on_the_host": left},
                      indent=2) + "\n"


def index_md(source: str, packages: list[KernelPackage], left: int,
             skipped: Mapping[str, str]) -> str:
    """The index as a table: one row a region (a shared package's later regions say so), then
    the kernels that have no package and why."""
    lines = [f"# Packages of {source}", "",
             f"{len(packages)} package{'s' if len(packages) != 1 else ''}, one per kernel "
             "(regions with the same kernel share its package); "
             f"{left} op{'s' if left != 1 else ''} left on the host. The kernel is named as "
             "`hswc-opt --lower-to-ascend` names it; the tiling is ascend910b's (48 cores), "
             "where the shape is static.", "",
             "| package | kernel | dtypes | region | ops (source) | inputs -> outputs | "
             "scalars | tiling |", "|---|---|---|---|---|---|---|---|"]
    for p in packages:
        kernel = f"`@{p.kernel.func.sym_name.data}`"
        if not p.launches:
            lines.append(f"| `{p.stem}` | {kernel} | {p.kernel.dtype} | (not launched) "
                         "| | | | |")
        for i, launch in enumerate(p.launches):
            ops = "<br>".join(f"`{name}` {where or ''}".strip() for name, where in launch.ops)
            t = _tiling(p.kernel, launch)
            tiling = "" if t is None else str(t["refused"]) if "refused" in t else \
                f"{t['usedCoreNum']} cores x {t['blockFactor']}, ubFactor {t['ubFactor']}"
            scalars = ", ".join(f"{v:g}" for v in launch.scalars)
            name = f"`{p.stem}`" if i == 0 else f"(shares `{p.stem}`)"
            if p.stem in skipped:
                name = f"`{p.stem}` (no package: below)"
            shapes = f"{', '.join(t.said() for t in launch.inputs)} -> {launch.outputs_said()}"
            lines.append(f"| {name} | {kernel} | {p.kernel.dtype} | @{launch.function} "
                         f"#{launch.index} | {ops} | {shapes} | {scalars} | {tiling} |")
    if skipped:
        lines += ["", "Kernels without a package (the checks hswc-emit makes before it writes "
                  "refused them):", ""]
        lines += [f"- `{stem}`: {why}" for stem, why in skipped.items()]
    return "\n".join(lines) + "\n"


# endregion
