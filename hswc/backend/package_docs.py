"""README.md and docs/<aclnn>.md of the ops-nn package: what the op computes, its dtypes and
platforms, its constraints, its aclnn API (the two phases, parameters, return codes, an example).

Every name, the formula (a generic's body), the notes and the parameter descriptions come from
the package's description; the dtypes from the kernels in the module; the platforms and the
per-SoC tiling from the op definition's SoCs and the IR's host tiling (`ir_tiling`), so the
docs say what the package does. The README names inputs and attributes as the kernel and the
op definition do, the aclnn doc as the aclnn API does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from hswc.backend import package_counts as counts
from hswc.backend.cpp_types import float_literal
from hswc.backend.description import Attribute, Description, shape_text
from hswc.backend.ir_tiling import ir_tiling
from hswc.backend.kernels import Kernel
from hswc.backend.operator import DOC_DTYPES, doc_dtype
from hswc.backend.package_example import example_kernel, example_path
from hswc.backend.package_op_api import RUN_PARAMETERS, call_arguments, workspace_parameters
from hswc.backend.source import generated_note
from hswc.backend.writer import wrapped
from hswc.counted_rows import GROUP_INDEX_DOC
from hswc.dialects.hsg import MAX_RANK
from hswc.ops.docs import Formula
from hswc.platform import PLATFORMS

RETURN_CODES = (
    ("ACLNN_SUCCESS", "0", "success"),
    ("ACLNN_ERR_PARAM_NULLPTR", "161001",
     "a tensor, `workspaceSize` or `executor` is a null pointer"),
    ("ACLNN_ERR_PARAM_INVALID", "161002",
     "a dtype without a kernel on this SoC, tensors of different dtypes or shapes, or a rank "
     f"above {MAX_RANK}"),
    ("ACLNN_ERR_INNER_CREATE_EXECUTOR", "561101", "the executor could not be created"),
    ("ACLNN_ERR_INNER_NULLPTR", "561103",
     "making an input contiguous, the launch or the copy into the output failed"),
)
"""What phase 1 returns, in the order its checks run (opdev/op_errno.h's values)."""


@dataclass(frozen=True)
class Arch35Docs:
    """The Ascend 950 part of a package, for its docs: the kernels (one per dtype), their
    description (their semantics) and the SoCs that run them."""

    kernels: list[Kernel]
    description: Description
    socs: list[str]

    def by_soc(self) -> dict[str, list[Kernel]]:
        return {s: self.kernels for s in self.socs}


def aclnn_doc_path(d: Description) -> str:
    return f"docs/{d.aclnn}.md"


def _layout(d: Description, arch35: bool = False) -> tuple[tuple[str, str], ...]:
    if arch35:
        return (
            ("op_kernel/", "the AscendC kernel entries: A2/A3 (`<entry>.cpp`, if the package "
             "has them) and Ascend 950 (`<entry>_apt.cpp`), the A2/A3 classes, tiling struct "
             "and keys"),
            ("op_kernel/arch35/", "the Ascend 950 kernel classes, tiling struct and template "
             "parameters"),
            ("op_host/", "op definition (every SoC), shape inference; the A2/A3 tiling (in "
             "`arch22/` beside an Ascend 950 one)"),
            ("op_host/arch35/", "the Ascend 950 host tiling (printed from the IR)"),
            ("op_host/op_api/", f"the aclnn API `{d.aclnn}` and the l0op launcher"),
            ("examples/", f"a call of `{d.aclnn}` checked against golden values"),
            ("docs/", "the aclnn API reference"),
            ("tests/ut/", "gtest unit tests of the host tilings (op_host, op_host/arch35) and "
             "the kernels (op_kernel)"),
        )
    return (
        ("op_kernel/", "the AscendC kernel: entry, one class per dtype, tiling struct and keys"),
        ("op_host/", "host tiling (printed from the IR), op definition, shape inference"),
        ("op_host/op_api/", f"the aclnn API `{d.aclnn}` and the l0op launcher"),
        ("examples/", f"a call of `{d.aclnn}` checked against golden values"),
        ("docs/", "the aclnn API reference"),
        ("tests/ut/", "gtest unit tests of the host tiling (op_host) and the kernel (op_kernel)"),
    )


def _note(d: Description) -> str:
    return f"<!-- {generated_note([d.operator])} -->"


def formula_lines(formula: Formula, names: Mapping[str, str], output: str) -> list[str]:
    """The formula as aligned rows `y = value  if condition`, names spelled by `names`; a row
    without a condition is printed without one."""
    rows = [(value.format(**names), condition.format(**names)) for condition, value in formula]
    width = max(len(value) for value, condition in rows if condition) if any(
        condition for _, condition in rows) else 0
    return [f"{output} = {value.ljust(width)}  if {condition}" if condition
            else f"{output} = {value}" for value, condition in rows]


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _dtypes(kernels: list[Kernel]) -> str:
    return ", ".join(doc_dtype(k.dtype) for k in kernels)


def _tensor_dtypes(kernels: list[Kernel], index: int, first: str) -> str:
    """The dtypes column of GM argument `index`: the first input's list, the others `as
    first`; of a kernel at a dtype boundary each tensor's own."""
    if kernels[0].mixed:
        return DOC_DTYPES[kernels[0].gm_dtypes[index]]
    return _dtypes(kernels) if index == 0 else f"as `{first}`"


def _products(socs: list[str]) -> list[str]:
    return _table(("product", "SoC", "supported"),
                  [(PLATFORMS[s].product, f"`{s}`", "yes") for s in socs])


def _formula(d: Description, names: Mapping[str, str]) -> list[str]:
    """The formula, or a generic's body as the IR holds it."""
    if not d.formula:
        return ["```mlir", *d.body, "```"]
    return ["```text", *formula_lines(d.formula, names, names[d.operator.outputs[0]]), "```"]


def _how(d: Description) -> str:
    """The notes, then what a NaN x gives."""
    if d.nan_x is None:
        return d.notes
    return f"{d.notes} A NaN {d.operator.inputs[-1]} gives {d.nan_x}."


def _default(a: Attribute) -> str:
    if a.default is None:
        return "required"
    if a.integer:
        return f"default {int(a.default)}"
    return f"default {float_literal(float(np.float32(a.default))).removesuffix('f')}"


def _attribute_constraints(d: Description, name: Mapping[str, str], flags: bool) -> list[str]:
    """One line for each attribute, their order and (`flags`: in the aclnn doc) each flag;
    `name` spells them."""
    lines = []
    for a in d.attributes if not flags else d.aclnn_attributes:
        if a.integer:
            lines.append(f"- `{name[a.name]}` is an int64, {_default(a)}, in [-rank, rank) of "
                         f"the input's rank; counted from the front (a negative one plus the "
                         f"rank) it must be {a.serves}, the dim the kernel's rows are: the host "
                         "tiling refuses any other, naming it, since a kernel of another dim's "
                         "rows cannot serve it (emit the package again from a module of that "
                         "dim).")
            continue
        rules = ["a finite float32"]
        if a.non_negative:
            rules.append("not negative")
        if a.in_dtype:
            rules.append("within the range of the input dtype, which it is converted to")
        lines.append(f"- `{name[a.name]}` is {', '.join(rules)}; {_default(a)}.")
    lines += [f"- `{name[low]}` must not be greater than `{name[high]}`."
              for low, high in d.ordered]
    lines += [f"- `{flag.name}` = true is refused with a negative "
              f"`{name[flag.non_negative_with]}`, as PyTorch refuses it."
              for flag in (d.flags if flags else ())]
    return lines


def _tiling_table(kernels: list[Kernel], socs: list[str],
                  own: Mapping[str, list[Kernel]] | None = None) -> list[str]:
    """Elements per UB pass on each SoC, from the IR's host tiling (of the SoC's `own`
    kernels where it has them: Ascend 950's, one per dtype, in `kernels`' dtype order)."""
    rows = []
    for soc in socs:
        platform = PLATFORMS[soc]
        of_dtype = {k.dtype: k for k in (own or {}).get(soc, kernels)}
        factors = [str(ir_tiling(of_dtype[k.dtype], 1, platform.core_num,
                                 platform.ub_size).ub_factor) for k in kernels]
        rows.append((f"`{soc}`", str(platform.core_num), str(platform.ub_size), *factors))
    head = ("SoC", "vector cores", "UB bytes", *(f"ubFactor {doc_dtype(k.dtype)}"
                                                  for k in kernels))
    return _table(head, rows)


def _constraints(d: Description, names: Mapping[str, str], flags: bool = False,
                 boundary: bool = False) -> list[str]:
    """`boundary`: of a kernel at a dtype boundary, whose tensors have each their own dtype."""
    tensors = [names[n] for n in d.operator.gm_arguments]
    listed = ", ".join(f"`{t}`" for t in tensors)
    one = "each the dtype of the table above" if boundary else "one dtype"
    if d.shapes is None:
        shapes = [f"- {listed} have {one}, one shape and format ND; there is no "
                  "broadcasting.",
                  f"- Any rank from 0 to {MAX_RANK}, dynamic shapes and dynamic rank; a scalar "
                  "is computed as shape {1}."]
    elif d.run_time is not None:
        own = ", ".join(f"`{t}` {shape_text(s)}"
                        for t, s in zip(tensors, d.compiled_shapes(), strict=True))
        source = tensors[d.run_time.source]
        shapes = [f"- {listed} have {one} and format ND.",
                  "- Each has the rank and the static dims its kernel was compiled for, the "
                  f"inputs broadcast to the output's: {own}; a `?` is a size known at run time, "
                  f"the size of `{source}`'s dim that the tensor's dim reads. Another shape is "
                  "refused, naming the tensor, its dim and both sizes."]
    else:
        own = ", ".join(f"`{t}` {shape_text(s)}"
                        for t, s in zip(tensors, d.gm_shapes() or (), strict=True))
        shapes = [f"- {listed} have {one} and format ND.",
                  "- Each has the one shape its kernel was compiled for, the inputs broadcast "
                  f"to the output's: {own}; another shape is refused."]
    return [
        *shapes,
        "- An empty tensor launches nothing and needs no workspace.",
        "- Non-contiguous tensors are accepted: the inputs are made contiguous first and the "
        "result is copied into the output view.",
        *_attribute_constraints(d, names, flags),
    ]


def _arch35_section(d: Description, arch35: Arch35Docs | None) -> list[str]:
    """What differs on Ascend 950, if the package has its kernel."""
    if arch35 is None:
        return []
    d35, entry = arch35.description, d.operator.kernel_entry
    lines = ["## Ascend 950", "",
             f"On {', '.join(f'`{s}`' for s in arch35.socs)} the kernel is "
             f"`op_kernel/{entry}_apt.cpp` (classes in `op_kernel/arch35/`, tiling in "
             "`op_host/arch35/`), lowered with that SoC's vector API "
             "(native bfloat16 compare, select, max and min where the body's steps are exact)."]
    if d35.formula != d.formula:
        names = d35.kernel_names()
        lines += ["", "It computes, as ops-nn's Ascend 950 kernel does:", "",
                  *_formula(d35, names), "", _how(d35)]
    return [*lines, ""]


def readme(kernels: list[Kernel], d: Description, socs: list[str],
           arch35: Arch35Docs | None = None) -> str:
    names = d.kernel_names()
    inputs, outputs = d.operator.inputs, d.operator.outputs
    first = inputs[0]
    example, doc = example_path(d), aclnn_doc_path(d)
    params = [(f"`{n}`", "input", d.parameters[n], _tensor_dtypes(kernels, i, first), "ND")
              for i, n in enumerate(inputs)]
    params += [(f"`{c}`", "optional input", GROUP_INDEX_DOC, "INT64", "ND")
               for c in d.operator.entry_inputs[len(inputs):]]
    params += [(f"`{a.name}`", "attribute", a.description, "INT64" if a.integer else "FLOAT",
                "-") for a in d.attributes]
    params += [(f"`{output}`", "output", d.parameters[output],
                _tensor_dtypes(kernels, len(inputs) + k, first), "ND")
               for k, output in enumerate(outputs)]
    entry = d.operator.kernel_entry
    lines = [
        _note(d), f"# {d.op_type}", "",
        "## Supported products", "", *_products(socs), "",
        "## What it computes", "",
        f"{d.op_type} computes {d.summary.format(**names)}, element by element:", "",
        *_formula(d, names), "", _how(d), "",
        "## Parameters", "",
        *_table(("name", "kind", "description", "dtypes", "format"), params), "",
        "## Constraints", "", *_constraints(d, names, boundary=kernels[0].mixed), "",
        "## Tiling", "",
        "The host tiling splits the elements over the vector cores (`blockFactor` each, the "
        "last core shorter) and each core's share into UB passes of `ubFactor` elements; on "
        "the SoCs of this package:", "",
        *_tiling_table(kernels, socs, arch35.by_soc() if arch35 else None), "",
        *_arch35_section(d, arch35),
        "## Calling it", "",
        *_table(("way", "example", "description"),
                [("aclnn", f"[{example.split('/')[-1]}]({example})",
                  f"calls [{d.aclnn}]({doc}) on the "
                  f"{doc_dtype(example_kernel(kernels).dtype)} kernel")]), "",
        "In an ops-nn checkout, put this folder under `experimental/<category>/` and run",
        "", "```sh",
        f"bash build.sh --pkg --experimental --soc={socs[0]} --ops={entry}",
        f"bash build.sh -u --ophost --experimental --ops={entry}    # tiling unit test",
        f"bash build.sh -u --opkernel --experimental --ops={entry}  # kernel unit test",
        f"bash build.sh --run_example {entry} eager                 # the example",
        "```", "",
        "## Files", "", *_table(("folder", "holds"),
                                [(f"`{f}`", t) for f, t in _layout(d, arch35 is not None)]),
    ]
    return "\n".join(lines) + "\n"


def _prototype(name: str, params: list[str]) -> list[str]:
    return ["```cpp", wrapped(f"aclnnStatus {name}", params, ";"), "```"]


def _return_codes(d: Description) -> list[tuple[str, str, str]]:
    codes = list(RETURN_CODES)
    if d.attributes:
        code, value, when = codes[2]
        codes[2] = (code, value, when.replace(", or a rank", ", a rank") +
                    ", or an attribute the constraints below refuse")
    return codes


def aclnn_doc(kernels: list[Kernel], d: Description, socs: list[str]) -> str:
    names = d.aclnn_names()
    inputs, outputs = d.operator.inputs, d.operator.outputs
    first, aclnn = d.aclnn_inputs[0], d.aclnn
    shapes = d.shapes or ()  # a broadcast operator's: each tensor's own
    if d.run_time is not None:  # `?`: a size known at run time
        shapes = d.compiled_shapes()
    own = d.output_shapes  # a row kernel's outputs of their own shapes

    def shape(i: int, n: str) -> str:
        if shapes:
            return shape_text(shapes[i])
        return f"any, rank <= {MAX_RANK}" if names[n] == first else f"as `{first}`"

    rows = [(f"`{names[n]}`", "input", d.parameters[n],
             _tensor_dtypes(kernels, i, first), "ND", shape(i, n))
            for i, n in enumerate(inputs)]
    optional = counts.aclnn_name(d.operator)
    rows += [(f"`{optional}`", "input", f"{GROUP_INDEX_DOC}; nullptr: absent", "INT64", "ND",
              "rank 1") for _ in [optional] if optional]
    rows += [(f"`{a.aclnn}`", "input", a.description, "INT64 (an int64_t)" if a.integer else
              "FLOAT (a host aclScalar)", "-", "-") for a in d.aclnn_attributes]
    rows += [(f"`{flag.name}`", "input", flag.description, "BOOL", "-", "-") for flag in d.flags]
    rows += [(f"`{names[output]}`", "output", d.parameters[output],
              _tensor_dtypes(kernels, len(inputs) + k, first), "ND",
              shape_text(own[k] if own else shapes[-1]) if shapes else f"as `{first}`")
             for k, output in enumerate(outputs)]
    receive = f"`{names[outputs[0]]}` receives the result" if len(outputs) == 1 else \
        " and ".join(f"`{names[o]}`" for o in outputs) + " receive its results"
    rows += [("`workspaceSize`", "output", "device workspace the launch needs (0 here)", "-",
              "-", "-"),
             ("`executor`", "output", "the planned launch, for phase 2", "-", "-", "-")]
    run_rows = [("`workspace`", "input", "device workspace of `workspaceSize` bytes (may be "
                 "null when that is 0)"),
                ("`workspaceSize`", "input", "what phase 1 returned"),
                ("`executor`", "input", "what phase 1 returned"),
                ("`stream`", "input", "the ACL stream the launch runs on")]
    example = example_path(d)
    golden = "hswc-run's run of the kernel" if d.generated else "the bit-exact model of the kernel"
    lines = [
        _note(d), f"# {aclnn}", "",
        "## Supported products", "", *_products(socs), "",
        "## What it does", "",
        f"`{aclnn}` computes {d.summary.format(**names)}, element by element, as the "
        f"{d.op_type} kernel; {receive}:", "",
        *_formula(d, names), "", _how(d), "",
        "## Prototypes", "",
        "The API has two phases: the first checks the arguments and plans the launch, the "
        "second runs it.", "",
        *_prototype(f"{aclnn}GetWorkspaceSize", workspace_parameters(d)), "",
        *_prototype(aclnn, RUN_PARAMETERS), "",
        f"## {aclnn}GetWorkspaceSize parameters", "",
        *_table(("name", "in/out", "description", "dtypes", "format", "shape"), rows), "",
        f"## {aclnn} parameters", "",
        *_table(("name", "in/out", "description"), run_rows), "",
        "## Return codes", "",
        *_table(("code", "value", "when"),
                [(f"`{c}`", v, w) for c, v, w in _return_codes(d)]),
        "", f"`{aclnn}` returns what running the plan returns (`ACLNN_SUCCESS` on success).",
        "",
        "## Constraints", "", *_constraints(d, names, True, kernels[0].mixed), "",
        "## Example", "",
        f"[{example.split('/')[-1]}](../{example}) creates the tensors, calls both phases and "
        f"checks the result against golden values of {golden}:", "",
        "```cpp",
        "uint64_t workspaceSize = 0;",
        "aclOpExecutor* executor = nullptr;",
        wrapped(f"aclnnStatus status = {aclnn}GetWorkspaceSize",
                [*call_arguments(d, flags="false"), "&workspaceSize", "&executor"], ";"),
        "void* workspace = nullptr;",
        "if (status == ACLNN_SUCCESS && workspaceSize > 0) {",
        "    aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);",
        "}",
        f"status = {aclnn}(workspace, workspaceSize, executor, stream);",
        "aclrtSynchronizeStream(stream);",
        "```",
    ]
    return "\n".join(lines) + "\n"


def doc_files(kernels: list[Kernel], d: Description, socs: list[str],
              arch35: Arch35Docs | None = None) -> dict[str, str]:
    """`socs`: every SoC of the package; `arch35`: its Ascend 950 kernels, if it has them."""
    return {"README.md": readme(kernels, d, socs, arch35),
            aclnn_doc_path(d): aclnn_doc(kernels, d, socs)}
