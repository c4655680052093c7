"""hswc-check-kernel OPDIR: an ops-nn op folder checked with nothing written by hand.

From the folder (hswc.checker.op_folder) and its definition (hswc.checker.host_tiling.describe):
the kernel file its AICore configuration names for the SoC, the attributes split between the
reference and the op's tiling, the tiling struct (the one the tiling's GetTilingData<S> names
when the entry names none), and the op's own tiling built to give every launch.

Attributes: each `--attr` is matched, in either spelling, to the hsg op's attributes (the
reference) and to the op definition's (the tiling); one only the definition has reaches the
tiling alone. An hsg attribute not given takes the definition's default when the definition has
it, so that reference and kernel agree (ops-nn's LeakyRelu checks hsg.leaky_relu with its own
negative_slope 0.0, not PyTorch's 0.01). With `--reference FILE.mlir` instead of `--op`, the
module holds its own values and every `--attr` goes to the tiling.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

from hswc.checker import host_tiling, kernel_source, op_folder
from hswc.checker.errors import CheckError
from hswc.checker.masks import MaskTensor
from hswc.checker.masks import find as find_masks
from hswc.checker.op_folder import Folder, normalised

_GET_TILING_DATA = re.compile(r"\bGetTilingData\s*<\s*(?:\w+::)*(\w+)\s*>")


@dataclass
class OpDir:
    folder: Folder
    op: host_tiling.OpDefinition
    kernel: Path
    cxx: str
    workdir: Path

    @property
    def def_names(self) -> str:
        return ", ".join(str(p) for p in self.folder.def_files)

    def kernel_names(self) -> tuple[str, ...]:
        """The names the build gives the op's kernel entry, in order: the op type in snake
        case (the binary configuration's, then OP_ADD's: ops-nn's swish_apt.cpp defines
        `swish`), then the kernel file's stem (opFile) and that without `_apt`."""
        stem = self.kernel.stem
        names = (op_folder.snake(self.folder.op_type or self.op.name),
                 op_folder.snake(self.op.name), stem, stem.removesuffix("_apt"))
        return tuple(dict.fromkeys(names))

    def struct_from_tiling(self) -> str | None:
        found = set(_GET_TILING_DATA.findall(kernel_source.strip_comments(
            self.folder.host_text())))
        return found.pop() if len(found) == 1 else None

    def dtypes(self, masks: Collection[int] = ()) -> set[str]:
        """The checked dtypes every input of the definition takes, but those at `masks`
        (ReluGradV2's DT_UINT1 mask beside its float gradients; optional inputs left out)."""
        wanted = {v: k for k, v in host_tiling.GE_DTYPES.items()}
        out: set[str] | None = None
        for k, (_, listed) in enumerate(self.op.inputs):
            if k in masks:
                continue
            these = {wanted[t] for t in listed if t in wanted}
            out = these if out is None else out & these
        return out or set()

    def masks(self, hsg_op: str, reference_inputs: tuple[str, ...]) -> tuple[MaskTensor, ...]:
        """The definition's tensors that are masks of the reference's comparison
        (hswc.checker.masks); a CheckError naming the file for a DT_UINT1 tensor of an op no
        mask rule covers."""
        return find_masks(self.op.inputs, self.op.outputs, hsg_op, reference_inputs,
                          self.def_names, self.op.name)

    def kernel_inputs(self, reference_inputs: tuple[str, ...],
                      elsewhere: Collection[int] = ()) -> list[str] | None:
        """The reference input each of the definition's inputs takes, in its order, for a
        backward op (reference inputs `grad` or `grad_output` and one other): the definition's
        input named like a gradient (`dy`, or containing `grad`: grads, gradients, grad_output,
        y_grad, grad_softmax, ...) takes the gradient, the other the forward operand; with none
        named so, the input named as the forward operand takes it and the other the gradient
        (ReluGradV3's x and y, y the gradient). SoftmaxGrad's definition names (softmax,
        grad_softmax) the other way round from hsg.softmax_grad's (grad_output, output), as its
        l0op launches it (`op_api/softmax_grad.cpp:28`, `OP_INPUT(output, gradOutput)`).
        Inputs at `elsewhere` (an attribute's tensor, a forward result) are left out. None when
        that does not decide it."""
        names = [n for k, (n, _) in enumerate(self.op.inputs) if k not in elsewhere]
        grad = next((r for r in ("grad", "grad_output") if r in reference_inputs), None)
        if grad is None or len(names) != 2 or len(reference_inputs) != 2:
            return None
        other = next(r for r in reference_inputs if r != grad)
        grads = [k for k, n in enumerate(names) if n.lower() == "dy" or "grad" in n.lower()]
        if not grads:
            grads = [k for k, n in enumerate(names) if normalised(n) != normalised(other)]
        if len(grads) != 1:
            return None
        return [grad if k == grads[0] else other for k in range(len(names))]

    def absent_inputs(self, reference_inputs: tuple[str, ...],
                      elsewhere: Collection[int] = ()) -> frozenset[int]:
        """The definition's optional inputs the reference does not feed, to be left out as the
        framework leaves out an optional input the caller omits (the tiling sees no such input,
        the kernel a null GM address): MishGrad's `tanhx` (`.ParamType(OPTIONAL)`), which
        hsg.mish_grad, of grad and x, does not take. While the definition has more tensor inputs
        (those not at `elsewhere`) than the reference, its optional ones not named like a
        reference input, the last first."""
        tensors = [k for k in range(len(self.op.inputs)) if k not in elsewhere]
        named = {normalised(r) for r in reference_inputs}
        optional = [k for k in reversed(tensors) if k in self.op.optional_inputs
                    and normalised(self.op.inputs[k][0]) not in named]
        return frozenset(optional[:max(0, len(tensors) - len(reference_inputs))])

    def registers_tiling_class(self) -> bool:
        """Whether the op's tiling sources (its op_host/ and its DEPENDENCIES') register a
        tiling-data class for its op type (REGISTER_TILING_DATA_CLASS(OpType, ...): SwiGluGrad's
        in swi_glu's `op_host/swi_glu_tiling.h:76`), which a kernel saying GET_TILING_DATA gets."""
        op_type = re.escape(self.folder.op_type or self.op.name)
        registered = re.compile(rf"REGISTER_TILING_DATA_CLASS\(\s*{op_type}\s*,")
        roots = (self.folder.root, *op_folder.dependencies(self.folder.root))
        return any(registered.search(p.read_text(encoding="utf-8", errors="replace"))
                   for root in roots for p in sorted((root / "op_host").rglob("*"))
                   if p.suffix in (".h", ".hpp", ".cpp"))

    def absent_outputs(self, results: int) -> frozenset[int]:
        """The definition's last outputs, past the reference's `results` (its results and mask
        outputs), when each is optional: left out as the framework leaves out an optional output
        the caller omits (the tiling sees no such output, the kernel a null GM address):
        SwigluGroupQuantGrad's `grad_weight` (`.ParamType(OPTIONAL)`), which
        hsg.swiglu_group_quant_grad of grad_y and x does not give. Empty when one of them is
        required (the checker's count check then names the mismatch)."""
        extra = range(results, len(self.op.outputs))
        if all(k in self.op.optional_outputs for k in extra):
            return frozenset(extra)
        return frozenset()

    def forward_inputs(self, hsg_op: str, reference_inputs: tuple[str, ...],
                       elsewhere: Collection[int] = ()) -> dict[int, str]:
        """The definition's inputs that hold the forward op's result, which the backward
        reference computes itself (GeluGrad and SwishGrad take `y` = gelu(x), silu(x) besides
        x): position -> the forward hsg op (the backward op's name without `_grad`, an op of x
        alone). An input named y, out, output or result counts when the definition has one
        tensor input more than the reference; none otherwise."""
        from hswc.dialects import hsg

        forward = hsg_op.removesuffix("_grad")
        ops = {op.name: op for op in hsg.NAMED_OPS}
        if (forward == hsg_op or forward not in ops or ops[forward].INPUTS != ("x",)
                or "x" not in reference_inputs):
            return {}
        tensors = [(k, n) for k, (n, _) in enumerate(self.op.inputs) if k not in elsewhere]
        if len(tensors) != len(reference_inputs) + 1:
            return {}
        results = [k for k, n in tensors if normalised(n) in ("y", "out", "output", "result")]
        return {results[0]: forward} if len(results) == 1 else {}

    def attribute_inputs(self, hsg_op: str, semantic: Mapping[str, str]
                         ) -> dict[int, tuple[str, str]]:
        """The definition's inputs that carry an attribute of the hsg op as a one-element
        tensor of x's dtype (ThresholdV2's threshold and value, as aclnnThreshold's
        ConvertToTensor passes them): input position -> (attribute, value)."""
        from hswc.checker.expected import gated_op, is_relu_mask, named_op, row_op

        if gated_op(hsg_op) is not None or row_op(hsg_op) is not None or is_relu_mask(hsg_op):
            return {}  # a gated op's one-element operands are its own inputs; the others have none
        specs = {normalised(s.name): s.name for s in named_op(hsg_op).ATTRIBUTES}
        out: dict[int, tuple[str, str]] = {}
        for k, (name, _) in enumerate(self.op.inputs):
            attr = specs.get(normalised(name))
            if attr is None:
                continue
            if attr not in semantic:
                raise CheckError(f"{self.def_names}: {self.op.name}'s input {name} is "
                                 f"{hsg_op}'s attribute {attr}: give --attr {attr}=VALUE")
            out[k] = (attr, semantic[attr])
        return out

    def tiling_attributes(self, given: Mapping[str, str]) -> dict[str, str]:
        """`--attr`s for the op's tiling alone (a --reference module holds its own values):
        each must be an attribute of the definition."""
        for name in given:
            if self.op.attribute(name) is None:
                theirs = ", ".join(a.name for a in self.op.attributes) or "none"
                raise CheckError(f"--attr {name}: {self.op.name} ({self.def_names}: {theirs}) "
                                 "has no such attribute")
        return dict(given)

    def split_attributes(self, hsg_op: str, given: Mapping[str, str]) -> tuple[dict[str, str],
                                                                              dict[str, str]]:
        """(the reference's attributes, the tiling's)."""
        from hswc.checker.expected import (
            gated_attribute_names,
            gated_op,
            is_relu_mask,
            named_op,
            row_op,
        )

        gated = gated_op(hsg_op)
        specs: tuple[_Named, ...] = tuple(_Named(n) for n in gated_attribute_names(gated)) \
            if gated is not None else (_Named("dim"),) if row_op(hsg_op) is not None \
            else () if is_relu_mask(hsg_op) else tuple(_Named(s.name) for s in (
                *named_op(hsg_op).ATTRIBUTES, *named_op(hsg_op).OPTIONS))
        semantic: dict[str, str] = {}
        tiling: dict[str, str] = {}
        for name, value in given.items():
            spec = next((s for s in specs if normalised(s.name) == normalised(name)), None)
            k = self.op.attribute(name)
            if spec is None and k is None:
                mine = ", ".join(s.name for s in specs) or "none"
                theirs = ", ".join(a.name for a in self.op.attributes) or "none"
                raise CheckError(f"--attr {name}: neither {hsg_op} (attributes: {mine}) nor "
                                 f"{self.op.name} ({self.def_names}: {theirs}) has it")
            if spec is not None:
                semantic[spec.name] = value
            if k is not None:
                tiling[name] = value
        for spec in specs:
            k = self.op.attribute(spec.name)
            if spec.name not in semantic and k is not None:
                attribute = self.op.attributes[k]
                default = attribute.default
                if default is not None and attribute.type.lower().startswith("bool"):
                    default = {"0": "false", "1": "true"}.get(default, default)
                if default is not None:
                    semantic[spec.name] = default
        return semantic, tiling


@dataclass(frozen=True)
class _Named:
    """An attribute known by its name alone (a gated op's)."""

    name: str


def open_op_dir(path: str, soc: str, cxx: str, workdir: Path) -> OpDir:
    """The folder's definition and the kernel for `soc`; a CheckError naming the file for a
    folder that is not an op, or a kernel the definition has for other SoCs only."""
    folder = op_folder.folder(path, soc)
    op = host_tiling.describe(folder, cxx, workdir / "host")
    configured = tuple(op.configs)
    if configured and soc not in op.configs:
        defs = ", ".join(str(p) for p in folder.def_files)
        raise CheckError(f"{defs}: {op.name} has no AICore configuration for {soc} (it has "
                         f"{', '.join(configured)}): give --soc {configured[0]}")
    op_file = op.configs.get(soc, {}).get("opFile.value")
    kernel = op_folder.kernel_file(folder.root, op.name, op_file, soc, configured)
    return OpDir(folder, op, kernel, cxx, workdir)
