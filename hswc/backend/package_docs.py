"""README.md and docs/<ACLNN_API>.md of the ops-nn package: what the op computes, its dtypes and
platforms, its constraints, its aclnn API (the two phases, parameters, return codes, an example).

Every name, the formula and the parameter descriptions come from `operator`; the dtypes from the
kernels in the module; the platforms and the per-SoC tiling from the op definition's SoCs and
the IR's host tiling (`ir_tiling`), so the docs say what the package does.
"""

from __future__ import annotations

from collections.abc import Mapping

from hswc.backend.ir_tiling import ir_tiling
from hswc.backend.kernels import Kernel
from hswc.backend.operator import (
    ACLNN_API,
    ACLNN_INPUTS,
    ACLNN_NAMES,
    ACLNN_OUTPUTS,
    DOC_DTYPES,
    INPUTS,
    KERNEL_ENTRY,
    OP_TYPE,
    OUTPUTS,
    PARAMETERS,
    SEMANTICS,
    formula_lines,
    summary,
)
from hswc.backend.package_example import example_kernel
from hswc.backend.package_op_api import RUN_PARAMETERS, workspace_parameters
from hswc.backend.source import GENERATED_NOTE
from hswc.backend.writer import wrapped
from hswc.dialects.hsg import MAX_RANK
from hswc.platform import PLATFORMS

ACLNN_DOC = f"docs/{ACLNN_API}.md"
EXAMPLE = f"examples/test_aclnn_{KERNEL_ENTRY}.cpp"
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
LAYOUT = (
    ("op_kernel/", "the AscendC kernel: entry, one class per dtype, tiling struct and keys"),
    ("op_host/", "host tiling (printed from the IR), op definition, shape inference"),
    ("op_host/op_api/", f"the aclnn API `{ACLNN_API}` and the l0op launcher"),
    ("examples/", f"a call of `{ACLNN_API}` checked against golden values"),
    ("docs/", "the aclnn API reference"),
    ("tests/ut/", "gtest unit tests of the host tiling (op_host) and the kernel (op_kernel)"),
)


def _note() -> str:
    return f"<!-- {GENERATED_NOTE} -->"


def _table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _dtypes(kernels: list[Kernel]) -> str:
    return ", ".join(DOC_DTYPES[k.dtype] for k in kernels)


def _products(socs: list[str]) -> list[str]:
    return _table(("product", "SoC", "supported"),
                  [(PLATFORMS[s].product, f"`{s}`", "yes") for s in socs])


def _formula(names: Mapping[str, str]) -> list[str]:
    return ["```text", *formula_lines(names), "```"]


def _tiling_table(kernels: list[Kernel], socs: list[str]) -> list[str]:
    """Elements per UB pass on each SoC, from the IR's host tiling."""
    rows = []
    for soc in socs:
        platform = PLATFORMS[soc]
        factors = [str(ir_tiling(k, 1, platform.core_num, platform.ub_size).ub_factor)
                   for k in kernels]
        rows.append((f"`{soc}`", str(platform.core_num), str(platform.ub_size), *factors))
    head = ("SoC", "vector cores", "UB bytes", *(f"ubFactor {DOC_DTYPES[k.dtype]}"
                                                  for k in kernels))
    return _table(head, rows)


def _constraints(names: Mapping[str, str]) -> list[str]:
    tensors = [names[n] for n in INPUTS + OUTPUTS]
    listed = ", ".join(f"`{t}`" for t in tensors)
    return [
        f"- {listed} have one dtype, one shape and format ND; there is no broadcasting.",
        f"- Any rank from 0 to {MAX_RANK}, dynamic shapes and dynamic rank; a scalar is "
        "computed as shape {1}.",
        "- An empty tensor launches nothing and needs no workspace.",
        "- Non-contiguous tensors are accepted: the inputs are made contiguous first and the "
        "result is copied into the output view.",
    ]


def readme(kernels: list[Kernel], socs: list[str]) -> str:
    names = {n: n for n in INPUTS + OUTPUTS}
    first = INPUTS[0]
    params = [(f"`{n}`", "input", PARAMETERS[n],
               _dtypes(kernels) if n == first else f"as `{first}`", "ND")
              for n in INPUTS]
    params += [(f"`{n}`", "output", PARAMETERS[n], f"as `{first}`", "ND") for n in OUTPUTS]
    lines = [
        _note(), f"# {OP_TYPE}", "",
        "## Supported products", "", *_products(socs), "",
        "## What it computes", "",
        f"{OP_TYPE} computes {summary(names)}, element by element:", "",
        *_formula(names), "", SEMANTICS, "",
        "## Parameters", "",
        *_table(("name", "kind", "description", "dtypes", "format"), params), "",
        "## Constraints", "", *_constraints(names), "",
        "## Tiling", "",
        "The host tiling splits the elements over the vector cores (`blockFactor` each, the "
        "last core shorter) and each core's share into UB passes of `ubFactor` elements; on "
        "the SoCs of this package:", "", *_tiling_table(kernels, socs), "",
        "## Calling it", "",
        *_table(("way", "example", "description"),
                [("aclnn", f"[{EXAMPLE.split('/')[-1]}]({EXAMPLE})",
                  f"calls [{ACLNN_API}]({ACLNN_DOC}) on the "
                  f"{DOC_DTYPES[example_kernel(kernels).dtype]} kernel")]), "",
        "In an ops-nn checkout, put this folder under `experimental/<category>/` and run",
        "", "```sh",
        f"bash build.sh --pkg --experimental --soc={socs[0]} --ops={KERNEL_ENTRY}",
        f"bash build.sh -u --ophost --experimental --ops={KERNEL_ENTRY}    # tiling unit test",
        f"bash build.sh -u --opkernel --experimental --ops={KERNEL_ENTRY}  # kernel unit test",
        f"bash build.sh --run_example {KERNEL_ENTRY} eager                 # the example",
        "```", "",
        "## Files", "", *_table(("folder", "holds"), [(f"`{f}`", d) for f, d in LAYOUT]),
    ]
    return "\n".join(lines) + "\n"


def _prototype(name: str, params: list[str]) -> list[str]:
    return ["```cpp", wrapped(f"aclnnStatus {name}", params, ";"), "```"]


def aclnn_doc(kernels: list[Kernel], socs: list[str]) -> str:
    first = ACLNN_INPUTS[0]
    rows = [(f"`{ACLNN_NAMES[n]}`", "input" if n in INPUTS else "output", PARAMETERS[n],
             _dtypes(kernels) if ACLNN_NAMES[n] == first else f"as `{first}`", "ND",
             f"any, rank <= {MAX_RANK}" if ACLNN_NAMES[n] == first else f"as `{first}`")
            for n in INPUTS + OUTPUTS]
    rows += [("`workspaceSize`", "output", "device workspace the launch needs (0 here)", "-",
              "-", "-"),
             ("`executor`", "output", "the planned launch, for phase 2", "-", "-", "-")]
    run_rows = [("`workspace`", "input", "device workspace of `workspaceSize` bytes (may be "
                 "null when that is 0)"),
                ("`workspaceSize`", "input", "what phase 1 returned"),
                ("`executor`", "input", "what phase 1 returned"),
                ("`stream`", "input", "the ACL stream the launch runs on")]
    lines = [
        _note(), f"# {ACLNN_API}", "",
        "## Supported products", "", *_products(socs), "",
        "## What it does", "",
        f"`{ACLNN_API}` computes {summary(ACLNN_NAMES)}, element by element, as the "
        f"{OP_TYPE} kernel; `{', '.join(ACLNN_OUTPUTS)}` receives the result:", "",
        *_formula(ACLNN_NAMES), "", SEMANTICS, "",
        "## Prototypes", "",
        "The API has two phases: the first checks the arguments and plans the launch, the "
        "second runs it.", "",
        *_prototype(f"{ACLNN_API}GetWorkspaceSize", workspace_parameters()), "",
        *_prototype(ACLNN_API, RUN_PARAMETERS), "",
        f"## {ACLNN_API}GetWorkspaceSize parameters", "",
        *_table(("name", "in/out", "description", "dtypes", "format", "shape"), rows), "",
        f"## {ACLNN_API} parameters", "",
        *_table(("name", "in/out", "description"), run_rows), "",
        "## Return codes", "",
        *_table(("code", "value", "when"), [(f"`{c}`", v, w) for c, v, w in RETURN_CODES]),
        "", f"`{ACLNN_API}` returns what running the plan returns (`ACLNN_SUCCESS` on success).",
        "",
        "## Constraints", "", *_constraints(ACLNN_NAMES), "",
        "## Example", "",
        f"[{EXAMPLE.split('/')[-1]}](../{EXAMPLE}) creates the tensors, calls both phases and "
        "checks the result against golden values of the bit-exact model of the kernel:", "",
        "```cpp",
        "uint64_t workspaceSize = 0;",
        "aclOpExecutor* executor = nullptr;",
        wrapped(f"aclnnStatus status = {ACLNN_API}GetWorkspaceSize",
                [*ACLNN_INPUTS, *ACLNN_OUTPUTS, "&workspaceSize", "&executor"], ";"),
        "void* workspace = nullptr;",
        "if (status == ACLNN_SUCCESS && workspaceSize > 0) {",
        "    aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);",
        "}",
        f"status = {ACLNN_API}(workspace, workspaceSize, executor, stream);",
        "aclrtSynchronizeStream(stream);",
        "```",
    ]
    return "\n".join(lines) + "\n"


def doc_files(kernels: list[Kernel], socs: list[str]) -> dict[str, str]:
    return {"README.md": readme(kernels, socs), ACLNN_DOC: aclnn_doc(kernels, socs)}
