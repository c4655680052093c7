"""The operator the printed code implements: the C++ and ops-nn names its files agree on.

One place for the identifiers that the kernel entry, the tiling struct, the host tiling, the
op definition, the aclnn layer, the docs and the unit tests must agree on. `Operator` derives
them from the operator's stem (`hard_swish_grad`: the kernels' `@hard_swish_grad_kernel_<dt>`)
and its GM arguments; a package gives it ops-nn's type name (hswc.backend.description). The
dtype spellings of the C++ APIs live here too.
"""

from __future__ import annotations

from dataclasses import dataclass

from hswc.kernel_dtypes import BOUNDARY
from hswc.kernel_signature import int_fields
from hswc.ops.definition import camel

DTYPE_WORDS = {"f16": "FP16", "f32": "FP32", "bf16": "BF16", "f8E4M3FN": "FLOAT8_E4M3FN",
               "f8E5M2": "FLOAT8_E5M2"}


@dataclass(frozen=True)
class Operator:
    """The C++ and ops-nn names of one operator, derived from its stem and GM arguments."""

    stem: str
    """snake_case, e.g. hard_swish_grad: the kernel entry and every package file's stem."""
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    aclnn: str
    scalar_fields: tuple[str, ...] = ()
    """The float fields of the tiling struct after the int64 ones: the kernel's f32 scalars
    (hswc.kernel_signature.scalar_fields)."""
    type_name: str = ""
    """The type name where it is not the CamelCase of the stem."""
    reads: tuple[int, ...] = ()
    """Of a kernel reading one input through several GM arguments (a gated op's two halves of
    x, each at its own offset): for each of the kernel's GM inputs, the index in `inputs` of
    the tensor it reads. Empty: each GM input is an input of its own."""
    counts: str | None = None
    """Of a kernel reading counts (hsg.first_rows: ops-nn's group_index), their GM argument,
    after the inputs: an optional int64 input of the operator, not among `inputs`."""
    row_length: bool = False
    """Of a row kernel of a run-time row length (hswc.rows `dynamic`): its tiling struct has
    the length (hswc.rows.ROW_LENGTH_FIELD), which the host tiling reads from x's shape."""
    row_branches: bool = False
    """Of one compiled as branches picked by that length (hswc.passes.row_branches): its host
    tiling takes the length after ubSize to pick one."""

    @property
    def int_fields(self) -> tuple[str, ...]:
        """The int64 fields of the tiling struct (hswc.kernel_signature.int_fields)."""
        return int_fields(self.row_length, bool(self.counts))

    @property
    def op_type(self) -> str:
        """The type name (OpDef, l0op, the kernel class template): HardSwishGrad."""
        return self.type_name or camel(self.stem)

    @property
    def kernel_entry(self) -> str:
        return self.stem

    @property
    def kernel_namespace(self) -> str:
        return f"Ns{self.op_type}"

    @property
    def tiling_namespace(self) -> str:
        return f"Ns{self.op_type}Tiling"

    @property
    def tiling_struct(self) -> str:
        return f"{self.op_type}TilingData"

    @property
    def gm_arguments(self) -> tuple[str, ...]:
        """The operator's tensors, inputs then outputs (its counts apart: `counts`)."""
        return self.inputs + self.outputs

    @property
    def entry_inputs(self) -> tuple[str, ...]:
        """The inputs the launch takes: the operator's, then the counts if any."""
        return self.inputs + self._counts

    @property
    def entry_arguments(self) -> tuple[str, ...]:
        """The kernel entry's GM parameters: the inputs, the counts if any, the outputs."""
        return self.inputs + self._counts + self.outputs

    @property
    def _counts(self) -> tuple[str, ...]:
        return (self.counts,) if self.counts else ()

    @property
    def kernel_arguments(self) -> tuple[str, ...]:
        """The kernel class's GM arguments, in order: what `hsg.launch` passes (an input
        read through several of them passed to each: `x, x, y`; the counts after the
        inputs)."""
        inputs = tuple(self.inputs[i] for i in self.reads) if self.reads else self.inputs
        return inputs + self._counts + self.outputs

    def key_macro(self, dtype: str, variant: int | None = None) -> str:
        """The schMode macro of a dtype's kernel, as ops-nn names it (of variant v of a run-time
        choice: ..._FP16_V<v>)."""
        suffix = "" if variant is None else f"_V{variant}"
        return f"{self.op_type.upper()}_TPL_SCH_MODE_{dtype_word(dtype)}{suffix}"

    def tiling_function(self, dtype: str) -> str:
        """The generated plain-C++ host tiling of a dtype's kernel."""
        words = dtype.split("_")  # a dtype boundary's: f32_to_f16 -> F32ToF16
        return f"Compute{self.op_type}Tiling{''.join(w.capitalize() for w in words)}"


def dtype_word(dtype: str) -> str:
    """A kernel's dtype (hswc.kernel_dtypes) in macro words: FP16, or FP32_TO_FP16."""
    return "_".join(DTYPE_WORDS.get(w, w.upper()) for w in dtype.split("_"))


GE_DTYPES = {"f16": "ge::DT_FLOAT16", "f32": "ge::DT_FLOAT", "bf16": "ge::DT_BF16",
             "i8": "ge::DT_INT8", "ui8": "ge::DT_UINT8", "i16": "ge::DT_INT16",
             "i32": "ge::DT_INT32", "i64": "ge::DT_INT64", "i1": "ge::DT_BOOL",
             "ui1": "ge::DT_UINT1", "f8E4M3FN": "ge::DT_FLOAT8_E4M3FN",
             "f8E5M2": "ge::DT_FLOAT8_E5M2"}
KERNEL_TENSOR_DTYPES = tuple(t for t in GE_DTYPES if t != "i64")
"""The element types a packaged kernel's own tensors may have: int64 only as group_index's
counts (hswc.backend.package_counts), which no kernel computes with (hswc.dialects.hsg:
Atlas A2/A3 has no int64_t Add, Mul or Compare)."""
ACL_DTYPES = {"f16": "ACL_FLOAT16", "f32": "ACL_FLOAT", "bf16": "ACL_BF16", "i8": "ACL_INT8",
              "ui8": "ACL_UINT8", "i16": "ACL_INT16", "i32": "ACL_INT32", "i64": "ACL_INT64",
              "i1": "ACL_BOOL",
              "ui1": "ACL_UINT1", "f8E4M3FN": "ACL_FLOAT8_E4M3FN", "f8E5M2": "ACL_FLOAT8_E5M2"}
DOC_DTYPES = {"f16": "FLOAT16", "f32": "FLOAT", "bf16": "BFLOAT16", "i8": "INT8", "ui8": "UINT8",
              "i16": "INT16", "i32": "INT32", "i64": "INT64", "i1": "BOOL",
              "ui1": "UINT1", "f8E4M3FN": "FLOAT8_E4M3FN", "f8E5M2": "FLOAT8_E5M2"}
"""The dtype names of ops-nn's docs (i1: a kernel's output stored a byte per element, 0 or 1,
as ops-nn's DT_BOOL; ui1: one stored packed, 8 elements a byte, as ops-nn's DT_UINT1)."""


def doc_dtype(dtype: str) -> str:
    """A kernel's dtype (hswc.kernel_dtypes) as the docs say it: FLOAT16, or of a kernel at a
    dtype boundary its inputs' and its output's: FLOAT, FLOAT16 -> FLOAT16."""
    inputs, boundary, outputs = dtype.partition(BOUNDARY)
    if not boundary:
        return DOC_DTYPES[dtype]
    return (", ".join(DOC_DTYPES[d] for d in inputs.split("_")) + " -> "
            + ", ".join(DOC_DTYPES[d] for d in outputs.split("_")))


def snake_case(name: str) -> str:
    """A CamelCase name as ops-nn's build spells it in file and kernel names:
    `aclnnHardswishBackward` -> `aclnn_hardswish_backward`, `ThresholdGradV2D` ->
    `threshold_grad_v2_d`: an underscore before each capital that follows a lower-case letter
    or a digit, or that starts a word after other capitals (`ABCd` -> `ab_cd`)."""
    out: list[str] = []
    for i, c in enumerate(name):
        if c.isupper() and i > 0 and name[i - 1] != "_":
            before, after = name[i - 1], name[i + 1: i + 2]
            if not before.isupper() or after.islower():
                out.append("_")
        out.append(c.lower())
    return "".join(out)
