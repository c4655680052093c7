"""hswc-check-kernel --sweep OPS_NN_DIR: every op folder of an ops-nn tree, checked from its
folder alone on each SoC its definition configures against the hswc semantics it maps to, or
reported with what hswc cannot express of it yet, in one table.

An op folder maps by its name (as listed below), else without a version suffix (`_v2`, `_v3`,
`_d`): the hsg op of the same name (FAMILY.md, EXPONENTIAL.md), or one of these, with the
attributes that make them the same function:

    relu6, relu6_d       hsg.hardtanh       min_val = 0, max_val = 6
    relu6_grad           hsg.hardtanh_grad  min_val = 0, max_val = 6
    relu                 hsg.threshold      threshold = 0, value = 0
    relu_grad            hsg.threshold_grad threshold = 0
    shrink               hsg.softshrink     (ONNX Shrink: lambd and bias its definition's)
    threshold_grad_v2_d  hsg.threshold_grad
    threshold_v2         hsg.threshold      threshold = 0.5, value = -2 (no default in the family)
    gelu, gelu_grad      hsg.gelu, hsg.gelu_grad  approximate = "tanh" (ops-nn's Gelu and GeluGrad
                         are the tanh form; GeluV2 and GeluGradV2 take approximate, default none)
    elu_grad             hsg.elu_grad       is_result = true (EluGrad takes the forward output)
    elu_grad_v2          hsg.elu_grad       (its own is_result, default false)
    selu_grad            hsg.elu_grad       SELU's alpha and scale, is_result = true
    swish, swish_v2      hsg.silu           (Swish's scale, its definition's default 1)
    swish_grad           hsg.silu_grad      (the forward y it also takes is silu(x))
    logsigmoid           hsg.log_sigmoid    (ops-nn spells it without the underscore)
    logsigmoid_grad      hsg.log_sigmoid_grad
    soft_plus            hsg.softplus       (soft_plus_v2 spelled with one)
    softplus_v2_grad     hsg.softplus_grad

An hsg attribute the mapping leaves out takes the op definition's default where the definition
has it (hswc.checker.op_dir): ops-nn's LeakyRelu is checked with its slope 0.0, HardSigmoid with
its alpha and beta, Celu with its alpha2 and alpha3. Folders no named op computes map to the
generic their README writes (GENERIC_FOLDERS: hswc.checker.opsnn_generics, checked as a
`--reference` module with the folder's own tiling, attributes at the definition's defaults):
bnll, erfinv, fast_gelu (and activation/'s fast_gelu_v2, the same formula; experimental/'s is a
polynomial), fast_gelu_grad, fused_bias_leaky_relu and its grad, heaviside (same shapes),
softsign_grad, squared_relu, silu_mul, threshold (a step function, `x > threshold ? 1 : 0`,
not torch.threshold), p_relu and experimental/'s prelu (x > 0 ? x : weight * x, run on x of
[N, C, L] with a weight per channel as each tiling reads it: CHANNEL_FOLDERS,
hswc.checker.channels), and p_relu_grad_update (one generic of two results, dx and update,
on the same tensors). The gated folders (GATED_FOLDERS: glu, swi_glu and their gradients,
gelu_mul, fatrelu_mul, situ_glu and its gradient, ge_glu_v2 (y and gelu) and its gradient
ge_glu_grad_v2, swiglu_clamp, clipped_swiglu) map to the hsg op of their name, run on x of
[rows, 2H] and results of [rows, H] (a gradient's dx of [rows, 2H] from its gradient of
[rows, H]; GeGluGradV2's gelu of [rows, H]; hswc.checker.halves; FatreluMul's threshold 0.5).
The softmax family's folders (ROW_FOLDERS: softmax_v2, log_softmax_v2, softmax_grad,
log_softmax_grad) map to hsg.softmax, log_softmax, softmax_grad and log_softmax_grad, every tensor
of [rows, L] reduced along L (dim -1; hswc.checker.expected.from_row_op; experimental/
activation/softmax_v2, whose tiling takes 4-d tensors, [1, 1, rows, L] with dim = 3:
ROW_DIMS), within PyTorch's tolerance. gelu_quant (QUANTIZED_FOLDERS) maps to
hswc.checker.quantized's generic of its dynamic mode, x of [rows, L], y int8 and out_scale f32
per row compared bit for bit. The reductions no hsg op computes (ROW_GENERIC_FOLDERS:
confusion_softmax_grad, softmax_grad_ext, softmax_cross_entropy_with_logits, p_relu_grad_reduce)
map to the linalg.generics of hswc.checker.row_generics their definitions write, run by hswc's
interpreter on [rows, L], within PyTorch's tolerance. swiglu_group_quant (GROUP_QUANT_FOLDERS)
maps to hsg.swiglu_group_quant as hswc.checker.group_quant runs it: x of [rows, 2H] (2H a
multiple of 256), y (f8E4M3FN) and y_scale (f32 per 128; its MX variant f8E8M0FNU per 32)
compared bit for bit; swiglu_group_quant_grad is a gated folder (its optional grad_weight
output left out). A folder hswc expresses whose kernel the checker cannot run (UNCHECKABLE:
none left) would get one row per SoC, `not checkable: why`, without a run. A
folder hswc cannot express (BLOCKED: none left) would get one row per SoC, `not expressible:
why`.

A kernel with a mask tensor (ReluV2's and ReluV3's second output, ReluGradV2's and ReluGradV4's
mask input; hswc.checker.masks says how one is recognised and laid out) is checked against the
mask of the comparison its hsg op makes: for relu = hsg.threshold and relu_grad =
hsg.threshold_grad with threshold 0, x > 0, one bit per element, least significant bit first. A
mask input is computed from the x drawn for the reference (which the kernel then does not take
itself); a mask output is read back at its packed size and compared bit for bit (a NaN x's bit
is left out with its other outputs, --ignore-nan-inputs x). Where such an op's tiling refuses a
size that is not a multiple of 8 (x's last dim, whole bytes of the mask), the run is at the next
multiple of 8.

Each row is a kernel, SoC and dtype: bit-exact (every run), differing (how many runs), rule broken
(which kinds), not checkable (why: the first line of the checker's message), or not expressible. The
synchronisation rules a kernel broke (an event id reused in flight; with --auto-sync off, vector
calls on one buffer with no PipeBarrier<PIPE_V> between them) follow the table, each once per
kernel and SoC with its dtypes, located at both calls (file:line, files of the op folder named
from it). The runs use
--record-rules, so that kernels reading past the end or breaking another rule the model can go
on after still get their values compared, and, for the piecewise-linear family's ops,
--ignore-nan-inputs x (NaN x is outside the family's contract, FAMILY.md); the exponential
activations propagate NaN as PyTorch does, so their NaN inputs are compared. An op with a
semantics per CANN architecture (HardSwishGrad) is compared with the one of the SoC's kernel.

On a terminal the sweep keeps one progress line (hswc.progress: folders done of those that map,
the kernel and SoC being checked, the time elapsed); in a pipe or a log it prints nothing until
its table, which ends with the rows counted by verdict (`verdict_kind`).
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from hswc.checker.errors import CheckError
from hswc.checker.op_folder import is_op_folder
from hswc.checker.options import CheckOptions
from hswc.checker.report import MASK_DTYPE, RunOutcome
from hswc.checker.rules import SYNC_CATEGORIES
from hswc.progress import Progress, summary_table

SELU = {"alpha": "1.6732632423543772", "scale": "1.0507009873554805"}
"""SELU's constants (torch.selu's), which hsg.elu_grad takes as attributes."""
ALIASES: Mapping[str, tuple[str, Mapping[str, str]]] = {
    "relu6": ("hardtanh", {"min_val": "0", "max_val": "6"}),
    "relu6_grad": ("hardtanh_grad", {"min_val": "0", "max_val": "6"}),
    "relu": ("threshold", {"threshold": "0", "value": "0"}),
    "relu_v2": ("relu_mask", {}),
    "relu_v3": ("relu_mask", {}),
    "relu_grad": ("threshold_grad", {"threshold": "0"}),
    "shrink": ("softshrink", {}),
    "threshold_v2": ("threshold", {"threshold": "0.5", "value": "-2"}),
    "leakyrelu": ("leaky_relu", {}),
    "soft_shrink_grad": ("softshrink_grad", {}),
    "gelu": ("gelu", {"approximate": "tanh"}),
    "gelu_grad": ("gelu_grad", {"approximate": "tanh"}),
    "gelu_v2": ("gelu", {}),
    "gelu_grad_v2": ("gelu_grad", {}),
    "elu_grad": ("elu_grad", {"is_result": "true"}),
    "elu_grad_v2": ("elu_grad", {}),
    "selu_grad": ("elu_grad", {**SELU, "is_result": "true"}),
    "swish": ("silu", {}),
    "swish_grad": ("silu_grad", {}),
    "logsigmoid": ("log_sigmoid", {}),
    "logsigmoid_grad": ("log_sigmoid_grad", {}),
    "soft_plus": ("softplus", {}),
    "softplus_v2_grad": ("softplus_grad", {}),
}
FOLDER_SEMANTICS: Mapping[str, str] = {"hard_swish_grad_v2": "cann"}
"""Folders whose kernels on every SoC compute one semantics of their hsg op: HardSwishGradV2's
README and its Ascend 950 kernel (op_kernel/arch35/hard_swish_grad_v2.h:151,156, Compares GT -3
and LT 3) take the open interval, as the A2/A3 kernel does, not HardSwishGrad's 950 kernel's
closed one (`cann-arch35`)."""
NAN_LEFT_OUT: Mapping[str, tuple[str, ...]] = {"elu_grad": ("v",), "selu_grad": ("v",)}
"""Folders whose NaN input the op's own definition leaves open, left out of the comparison:
EluGrad and SeluGrad take the forward output, whose NaN their READMEs' cases (`> 0` / `<= 0`,
`>= 0` / `< 0`) do not decide; their kernels give the positive case's gradient for it,
hsg.elu_grad NaN (as ATen's vectorised elu_backward). The census's rerun of EluGrad left them out
the same way (--ignore-nan-inputs v)."""
GENERIC_FOLDERS: Mapping[str, str] = {
    "bnll": "bnll",
    "erfinv": "erfinv_giles",
    "fast_gelu": "fast_gelu",
    "fast_gelu_v2": "fast_gelu",
    "experimental/fast_gelu_v2": "fast_gelu_v2_poly",
    "fast_gelu_grad": "fast_gelu_grad",
    "fused_bias_leaky_relu": "fused_bias_leaky_relu",
    "fused_bias_leaky_relu_grad": "fused_bias_leaky_relu_grad",
    "heaviside": "heaviside",
    "p_relu": "prelu",
    "prelu": "prelu",
    "p_relu_grad_update": "prelu_grad_update",
    "softsign_grad": "softsign_grad",
    "squared_relu": "squared_relu",
    "threshold": "threshold_step",
    "silu_mul": "silu_mul",
}
"""Folder name (`experimental/<name>` where experimental/activation's differs) -> the generic
of hswc.checker.opsnn_generics its README's formula is."""
CHANNEL_FOLDERS: Mapping[str, Mapping[str, str]] = {
    "p_relu": {"weight": "channel_nd"},
    "prelu": {"weight": "channel"},
    "p_relu_grad_update": {"weights": "channel"},
}
"""Folders whose weight is per channel (hswc.checker.channels): x of [N, C, L], the weight as
its tiling reads it: activation/p_relu's broadcast tiling (opbase's BroadcastBaseTiling)
NumPy's way, x's rank with C at dim 1 (aclnnPrelu reshapes the weight so); experimental/
activation/prelu's tiling a 1-d weight of x's dim 1 ("weight must be 1-D"); activation/
p_relu_grad_update's a 1-d weights of features' dim 1, which its tiling reshapes to [1, C, 1]
itself (op_host/arch35/prelu_grad_update_tiling_arch35.cpp:121-136; aclnnPreluBackward makes
the weight 1-d before it)."""
ROWS_GENERIC_FOLDERS = frozenset({"silu_mul"})
"""Generic folders whose tiling takes 2-d tensors alone, run with every tensor [rows, L]
(hswc.checker.halves' "x": L even and at most 1024): experimental/activation/silu_mul's
(op_host/silu_mul_tiling.cpp: "Input shape dim should be no less than 2", ShapeCheck's last dim
even and at most 1024, batch at most 200000)."""
TYPE_SELECTED: Mapping[str, str] = {"prelu": "DTYPE_X"}
"""Folders whose entry picks its element type by `#ifdef DTYPE_X` inside its body (float
otherwise: experimental/activation/prelu's prelu.cpp), which the checker leaves undefined as
for a UT entry (hswc.checker.kernel_source): defined to the dtype, as ops-nn's kernel build
defines it from the op's definition, so an f16 run is not the f32 kernel."""
GATED_FOLDERS = ("glu", "glu_grad", "swi_glu", "swi_glu_grad", "gelu_mul", "fatrelu_mul",
                 "situ_glu", "situ_glu_grad", "ge_glu_v2", "ge_glu_grad_v2", "swiglu_clamp",
                 "clipped_swiglu", "clipped_swiglu_grad", "swiglu_group",
                 "swiglu_group_quant_grad")
"""Folders of ops-nn's gated ops checked against the hsg op of the same name
(hswc.dialects.hsg_gated_ops, hsg_gated_variants), x of [rows, 2H] split along its last dim
(hswc.checker.halves): the definitions' default dim. ClippedSwiglu's optional group_index is
given at one size per dtype besides the runs without it (hswc.checker.counts); SwigluGroup's
would be given so too, but its one SoC, the Ascend 950, is not checkable (its optional weight
is left out). SwigluGroupQuantGrad is run in its form without weight: its optional weight,
y_origin and group_index inputs and its optional grad_weight output left out (a null address,
OpDir.absent_outputs), group_index also given as ClippedSwiglu's."""
ROW_FOLDERS: Mapping[str, str] = {
    "softmax_v2": "softmax",
    "log_softmax_v2": "log_softmax",
    "softmax_grad": "softmax_grad",
    "log_softmax_grad": "log_softmax_grad",
}
"""Folders of ops-nn's softmax family (activation/ and experimental/activation/) checked against
the hsg op (hswc.checker.expected.ROW_OPS), every tensor of [rows, L] reduced along L, dim -1
(their definitions' default axes); SoftmaxGrad's (softmax, grad_softmax) are hsg.softmax_grad's
(output, grad_output), matched by name (hswc.checker.op_dir.OpDir.kernel_inputs), and
LogSoftmaxGrad's (grad, x) hsg.log_softmax_grad's (grad_output, output) in order."""
ROW_GENERIC_FOLDERS = ("confusion_softmax_grad", "softmax_grad_ext", "p_relu_grad_reduce",
                       "softmax_cross_entropy_with_logits")
"""Folders of reductions no hsg op computes, checked against the generic of their name in
hswc.checker.row_generics (`--op <name>`): its linalg.generics run by hswc's interpreter on
tensors of [rows, L], the definitions' default axes (the last dim; PReluGradReduce's every dim
but the channel), within PyTorch's tolerance."""
QUANTIZED_FOLDERS = ("gelu_quant",)
"""Folders checked against a generic of hswc.checker.quantized (`--op gelu_quant`): GeluQuant's
dynamic mode, its definition's default, x of [rows, L] and its smooth scales of [L] (the
optional input_scale), y int8 and out_scale f32 per row."""
VARIANTS: Mapping[str, tuple[tuple[str, Mapping[str, str]], ...]] = {
    "gelu_quant": (("static", {"quant_mode": "static"}),
                   ("static-tensor", {"quant_mode": "static", "scales": "tensor"})),
    "swiglu_group_quant": (("mx", {"quant_mode": "1", "round_scale": "true"}),),
}
"""Folders checked again with other attributes, each a row of its own named
`<folder>:<variant>`: GeluQuant's static mode with input_scale and input_offset of [L] (per
channel: its tiling's StaticQuantBlock or GeluQuant templates) and of one element (per tensor:
StaticQuantPerTensor), hswc.checker.quantized; SwigluGroupQuant's MX mode (quant_mode 1, which
needs round_scale: E8M0 scales per 32), hswc.checker.group_quant."""
GROUP_QUANT_FOLDERS = ("swiglu_group_quant",)
"""Folders checked against hsg.swiglu_group_quant (hswc.checker.group_quant): x of [rows, 2H]
(2H a multiple of 256), y of its 8-bit float and y_scale per block, its definition's defaults
(block FP8 to f8E4M3FN, f32 scales per 128), compared bit for bit."""
ROW_DIMS: Mapping[str, str] = {"experimental/softmax_v2": "3"}
"""ROW_FOLDERS whose tiling takes another spelling of the last dim: experimental/activation/
softmax_v2's takes 4-d tensors and an int `dim` in [0, 3] (its README.md: "维度为4维", dim in
[0, 3]; its tiling's default 3 indexes the dims with it), so its tensors are [1, 1, rows, L]
(hswc.checker.halves' "x4") with dim = 3."""
UNCHECKABLE: Mapping[str, tuple[str, str]] = {}
"""Folders hswc expresses (an hsg op) whose kernel the checker cannot run yet: folder name ->
(the op, why), reported as `not checkable: why` on each SoC the definition configures, without
a run (none left: swiglu_group_quant and swiglu_group_quant_grad run now)."""
BLOCKED: Mapping[str, str] = {}
"""Folder name -> what hswc cannot express yet, which the sweep reports as the folder's row."""
_VERSION = re.compile(r"(?:_v\d+)?(?:_d)?$")
SWEEP_LIMIT = 1 << 16
"""The sweep's largest size (every f16/bf16 bit pattern; a whole sweep in minutes)."""


def _generic(folder: Path) -> str | None:
    """The generic of GENERIC_FOLDERS for the folder (an experimental/ folder's own first)."""
    if folder.parent.parent.name == "experimental":
        own = GENERIC_FOLDERS.get(f"experimental/{folder.name}")
        if own is not None:
            return own
    return GENERIC_FOLDERS.get(folder.name)


def mapping(folder: Path) -> tuple[str, dict[str, str], str] | None:
    """(hsg op, or `generic <name>` of hswc.checker.opsnn_generics; attributes; how it maps) for
    an op folder's name, or None (a blocked folder, or no op of ops-nn's activations)."""
    from hswc.dialects import hsg

    family = {op.name.removeprefix("hsg."): op for op in hsg.NAMED_OPS}
    generic = _generic(folder)
    if generic is not None:
        return f"generic {generic}", {}, f"{folder.name} = the generic {generic}"
    if folder.name in BLOCKED:
        return None
    if folder.name in UNCHECKABLE:
        op = UNCHECKABLE[folder.name][0]
        return op, {}, f"{folder.name} = {op} (its definition's defaults)"
    if folder.name in GROUP_QUANT_FOLDERS:
        return ("hsg.swiglu_group_quant", {}, f"{folder.name} = hsg.swiglu_group_quant (x of "
                "[rows, 2H]; y 8-bit, y_scale per block)")
    if folder.name in ROW_GENERIC_FOLDERS:
        from hswc.checker.row_generics import ROW_GENERICS

        return (folder.name, {}, f"{folder.name} = hswc.checker.row_generics' generic "
                f"({ROW_GENERICS[folder.name].formula})")
    if folder.name in QUANTIZED_FOLDERS:
        return (folder.name, {}, f"{folder.name} = hswc.checker.quantized's generic (its "
                "dynamic mode: int8 y of [rows, L] and an f32 scale per row)")
    if folder.name in ROW_FOLDERS:
        op = ROW_FOLDERS[folder.name]
        experimental = folder.parent.parent.name == "experimental"
        dim = ROW_DIMS.get(f"experimental/{folder.name}" if experimental else folder.name)
        if dim is not None:
            return (f"hsg.{op}", {"dim": dim}, f"{folder.name} = hsg.{op} (dim = {dim}: every "
                    "tensor of [1, 1, rows, L], reduced along L)")
        return (f"hsg.{op}", {}, f"{folder.name} = hsg.{op} (every tensor of [rows, L], reduced "
                "along L)")
    stem = folder.name if folder.name in ALIASES else _VERSION.sub("", folder.name)
    if stem in ALIASES:
        op, attrs = ALIASES[stem]
        said = ", ".join(f"{k}={v}" for k, v in attrs.items())
        return f"hsg.{op}", dict(attrs), f"{folder.name} = hsg.{op}" + (f"({said})" if said else "")
    if stem in family:
        return f"hsg.{stem}", {}, f"{folder.name} = hsg.{stem} (same name)"
    if folder.name in GATED_FOLDERS:
        return (f"hsg.{folder.name}", {}, f"{folder.name} = hsg.{folder.name} (same name; x of "
                "[rows, 2H])")
    return None


def blocked(folder: Path) -> str | None:
    """What hswc cannot express yet of the op in `folder` (BLOCKED), or None."""
    return BLOCKED.get(folder.name)


def op_folders(root: Path) -> Iterator[Path]:
    """Every op folder up to three levels below `root` (activation/x, experimental/activation/x)."""
    for depth in ("*", "*/*", "*/*/*"):
        for p in sorted(root.glob(depth)):
            if is_op_folder(p):
                yield p


@dataclass(frozen=True)
class Row:
    kernel: str
    soc: str
    dtype: str
    verdict: str
    sync: tuple[str, ...] = ()
    """The synchronisation rules its runs broke, each in brief (Violation.brief)."""


def _verdicts(report: object) -> dict[str, tuple[str, tuple[str, ...]]]:
    """dtype -> (verdict, the synchronisation rules broken)."""
    from hswc.checker.report import CheckReport

    assert isinstance(report, CheckReport)
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for f in report.build_failures:
        out[f.dtype] = (f"not checkable: does not compile ({f.errors[0] if f.errors else '?'})",
                        ())
    for dtype in dict.fromkeys(o.dtype for o in report.outcomes):
        runs = [o for o in report.outcomes if o.dtype == dtype]
        failed = [o for o in runs if o.failure is not None]
        kinds = sorted({v.category for o in runs for v in o.violations})
        parts = [_values_verdict(runs)] if any(o.comparisons for o in runs) else []
        if kinds:
            parts.append(f"rule broken ({', '.join(kinds)})")
        if failed:
            parts.append(f"{len(failed)} runs failed ({failed[0].failure})")
        sync = dict.fromkeys(v.brief for o in runs for v in o.violations
                             if v.category in SYNC_CATEGORIES)
        out[dtype] = ("; ".join(p for p in parts if p) or f"{len(runs)} runs gave no outputs",
                      tuple(sync))
    return out


def _values_verdict(runs: list[RunOutcome]) -> str:
    """How the runs' values compare: bit-exact or differing (by kind), or, for an op compared
    within a tolerance, within it (with the largest error) or outside it (how many runs)."""
    compared = [o for o in runs if o.comparisons is not None]
    plural = "s" * (len(compared) != 1)
    if compared[0].tolerance is not None:
        how = compared[0].tolerance
        worst = max((w.max_ulp for o in compared for _, w in o.measured), default=0.0)
        outside = [o for o in compared if not all(ok for ok, _ in o.measured)]
        if not outside:
            return f"within {how} ({len(compared)} run{plural}, max {worst:.3g} ulp)"
        misplaced = sum(w.specials_differ for o in outside for _, w in o.measured)
        beyond = sum(w.outside for o in outside for _, w in o.measured)
        return (f"outside {how} ({len(outside)} of {len(compared)} runs: {beyond} values "
                f"outside rtol/atol, {misplaced} inf/NaN misplaced; max {worst:.3g} ulp)")
    differing = [o for o in compared if not all(c.equal for c in o.comparisons or ())]
    comparisons = [c for o in compared for c in (o.comparisons or ())]
    if not differing:  # a mask output (ReluV2's DT_UINT1 bits) is said to be compared too
        masked = ", mask bits too" if any(c.dtype == MASK_DTYPE for c in comparisons) else ""
        return f"bit-exact ({len(compared)} run{plural}{masked})"
    counts = [(c.values.count, c.zero_signs.count, c.nans.count)
              for c in comparisons if c.dtype != MASK_DTYPE]
    values, zeros, nans = (sum(k[i] for k in counts) for i in range(3))
    bits = sum(c.mismatches for c in comparisons if c.dtype == MASK_DTYPE)
    masks = f", mask bits {bits}" if any(c.dtype == MASK_DTYPE for c in comparisons) else ""
    return (f"differing ({len(differing)} of {len(compared)} runs: values {values}, signs of "
            f"zero {zeros}, NaN class {nans}{masks})")


def sweep(root: Path, base: CheckOptions, socs: tuple[str, ...] | None,
          progress: Progress | None = None) -> list[Row]:
    """Every op folder below `root` that maps or is blocked, checked or reported (see the
    module docstring). `progress` (its total set to the number of those folders) names each
    kernel and SoC as its check starts and counts the folders done."""
    rows: list[Row] = []
    found = list(op_folders(root))
    if not found:
        raise CheckError(f"--sweep {root}: no op folder (op_host/ and op_kernel/) below it")
    chosen = [f for f in found if mapping(f) is not None or blocked(f) is not None]
    if progress is not None:
        progress.total = len(chosen)
    for folder in chosen:
        rows += check_folder(folder, str(folder.relative_to(root)), base, socs, progress)
        if progress is not None:
            progress.advance()
    return rows


def check_folder(folder: Path, name: str, base: CheckOptions, socs: tuple[str, ...] | None,
                 progress: Progress | None = None) -> list[Row]:
    """The rows of one op folder: its checks' verdicts, per SoC its definition configures; a
    blocked folder's reason on each of them; none when it is neither mapped nor blocked."""
    from hswc.platform import PLATFORMS

    mapped = mapping(folder)
    reason = blocked(folder)
    if mapped is None and reason is None:
        return []
    rows: list[Row] = []
    for soc in socs or configured_socs(folder, base, tuple(PLATFORMS)):
        if mapped is None:
            rows.append(Row(name, soc, "-", f"not expressible: {reason}"))
            continue
        if folder.name in UNCHECKABLE:
            rows.append(Row(name, soc, "-", f"not checkable: {UNCHECKABLE[folder.name][1]}"))
            continue
        if progress is not None:
            progress.working_on(f"{name} on {soc}")
        rows += _check_on(folder, name, base, soc, *mapped[:2])
        for variant, attrs in VARIANTS.get(folder.name, ()):
            rows += _check_on(folder, f"{name}:{variant}", base, soc, mapped[0],
                              {**mapped[1], **attrs})
    return rows


def _check_on(folder: Path, name: str, base: CheckOptions, soc: str, op: str,
              attrs: dict[str, str]) -> list[Row]:
    """The rows of one folder's check on one SoC, against an hsg op or a generic's module."""
    from hswc.checker.check import check

    with tempfile.TemporaryDirectory(prefix="hswc-sweep-") as scratch:
        options = folder_options(folder, base, soc, op, attrs, Path(scratch))
        try:
            return [Row(name, soc, d, v, sync)
                    for d, (v, sync) in _verdicts(check(options)).items()]
        except CheckError as error:
            return [Row(name, soc, "-", f"not checkable: {_reason(str(error))}")]


def folder_options(folder: Path, base: CheckOptions, soc: str, op: str, attrs: dict[str, str],
                   scratch: Path) -> CheckOptions:
    """The options the sweep checks `folder` with on `soc` against `op` (an hsg op, or
    `generic NAME`, whose module is written into `scratch`): `base` with the folder's
    semantics, NaN inputs left out and rules recorded (bench/bench_vs_opsnn.py times the same
    runs)."""
    from hswc.checker.opsnn_generics import GENERICS, argument, module_text

    if op.startswith("generic "):
        generic = GENERICS[op.removeprefix("generic ")]
        path = scratch / f"{generic.name}.mlir"
        rows = folder.name in ROWS_GENERIC_FOLDERS
        path.write_text(module_text(generic.name, rank=2 if rows else 1))
        return replace(base, kernel=str(folder), op=None, reference=str(path),
                       attrs=dict(generic.attrs), soc=soc, record_gm_reads=True,
                       record_rules=True, tolerance=base.tolerance or generic.tolerance,
                       channels={argument(n): kind for n, kind in
                                 CHANNEL_FOLDERS.get(folder.name, {}).items()},
                       halves=dict.fromkeys(map(argument, generic.inputs), "x") if rows else {},
                       defines=_type_selected(folder.name, base))
    return replace(base, kernel=str(folder), op=op, attrs=attrs, soc=soc,
                   record_gm_reads=True, record_rules=True,
                   ignore_nan_inputs=NAN_LEFT_OUT.get(folder.name) or _nan_outside_contract(op),
                   semantics=folder_semantics(folder, base, op, soc))


def _type_selected(name: str, base: CheckOptions) -> Mapping[str | None, Sequence[str]]:
    """`base`'s defines, and the dtype macro of a TYPE_SELECTED folder per dtype."""
    from hswc.checker.dtypes import CPP

    macro = TYPE_SELECTED.get(name)
    if macro is None:
        return base.defines
    return {**base.defines, **{d: (*base.defines.get(d, ()), f"{macro}={t}")
                               for d, t in CPP.items()}}


def folder_semantics(folder: Path, base: CheckOptions, op: str, soc: str) -> str | None:
    """The semantics the sweep compares `folder`'s kernel on `soc` with (None: the op's
    default)."""
    return base.semantics or FOLDER_SEMANTICS.get(folder.name) or _soc_semantics(op, soc)


def _soc_semantics(op: str, soc: str) -> str | None:
    """The semantics of CANN's own kernel for the SoC where the op has one per architecture
    (HardSwishGrad: `cann` on Atlas A2/A3, `cann-arch35` on Ascend 950); None: the op's
    default."""
    from hswc.checker.expected import gated_op, is_relu_mask, row_op
    from hswc.checker.quantized import is_quantized
    from hswc.checker.row_generics import is_row_generic
    from hswc.ops import definition_of
    from hswc.platform import get_platform

    if (gated_op(op) is not None or row_op(op) is not None or is_quantized(op)
            or is_row_generic(op) or is_relu_mask(op)):
        return None  # one semantics, its definition's
    known = tuple(definition_of(op).semantics)
    if "cann-arch35" in known and get_platform(soc).api == "dav_3510":
        return "cann-arch35"
    return None


def _nan_outside_contract(op: str) -> tuple[str, ...]:
    """The inputs whose NaN the op's contract leaves open: x of a piecewise-linear family op."""
    from hswc.dialects import hsg

    return ("x",) if op in {o.name for o in (*hsg.PIECEWISE_OPS, hsg.ReluMaskOp)} else ()


def _reason(message: str) -> str:
    """A checker message in one line: its first, and the first detail when it ends in ':' (past
    the compiler's `In file included from` lines, the first error they lead to)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        detail = lines[1]
        if detail.startswith("In file included from"):
            detail = next((line for line in lines[2:] if "error:" in line), detail)
        return f"{lines[0]} {detail}"
    return lines[0] if lines else "?"


def configured_socs(folder: Path, base: CheckOptions, known: tuple[str, ...]) -> tuple[str, ...]:
    """The SoCs the definition's AICore().AddConfig names (as text), those hswc knows."""
    text = "\n".join(p.read_text(errors="replace") for p in (folder / "op_host").glob("*_def.cpp"))
    named = [s for s in dict.fromkeys(re.findall(r'AddConfig\(\s*"(\w+)"', text)) if s in known]
    return tuple(named) or (base.soc,)


VERDICT_KINDS = ("not expressible", "not checkable", "outside", "differing", "rule broken",
                 "within", "bit-exact")
"""The kinds of verdict, in the order a verdict is counted by (a row differing and breaking a
rule is differing)."""
SYNC_HEADING = "synchronisation rules broken (kernel on SoC [dtypes]: both calls):"


def verdict_kind(verdict: str) -> str:
    """Which of VERDICT_KINDS a row's verdict is."""
    for kind in VERDICT_KINDS:
        if verdict.startswith(kind) or (not kind.startswith("not ") and kind in verdict):
            return kind
    return "other"


def table(rows: list[Row]) -> str:
    """The rows (kernel, SoC, dtype, verdict); after a blank line the synchronisation rules
    broken (after SYNC_HEADING, one per line) if any; after another, how many rows of each kind
    (`4 rows: bit-exact 2, differing 1, not checkable 1`)."""
    body = summary_table(("kernel", "soc", "dtype", "verdict"),
                         ((r.kernel, r.soc, r.dtype, r.verdict) for r in rows))
    found = sync_rules(rows)
    if found:
        body += "\n\n" + "\n".join([SYNC_HEADING] + [
            f"{kernel} on {soc} [{', '.join(dtypes)}]: {rule}"
            for (kernel, soc, rule), dtypes in found.items()])
    counts = Counter(verdict_kind(r.verdict) for r in rows)
    kinds = [k for k in (*reversed(VERDICT_KINDS), "other") if counts[k]]
    totals = ", ".join(f"{kind} {counts[kind]}" for kind in kinds)
    return f"{body}\n\n{len(rows)} row{'s' * (len(rows) != 1)}{': ' * bool(kinds)}{totals}"


def sync_rules(rows: list[Row]) -> dict[tuple[str, str, str], list[str]]:
    """(kernel, SoC, rule) -> the dtypes whose runs broke it, in the rows' order."""
    found: dict[tuple[str, str, str], list[str]] = {}
    for r in rows:
        for rule in r.sync:
            found.setdefault((r.kernel, r.soc, rule), []).append(r.dtype)
    return found
