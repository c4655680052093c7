"""Mask tensors: a kernel's input or output that holds, per element, whether the op's comparison
holds (ops-nn's ReluV2 writes one beside y, ReluGradV2 reads one instead of x).

No hsg op has a mask operand; a mask stands for the comparison the reference op makes on x.
Which ops have one, and which comparison it is (MASK_RULES):

    hsg.threshold       x > threshold   the elements y keeps x (else y = value); ReluV2's
                                        Compare(x, 0, GT)
    hsg.threshold_grad  x > threshold   the elements the result passes grad through (else
                                        +0); ReluGradV2's Select(mask, gradients, 0)
    hsg.relu_mask       x > 0           its own mask output (hswc.reference_relu_mask's
                                        golden model), which ReluV2 and ReluV3 write

x is compared in f32 with the f32 threshold, as the reference compares (`x <= threshold` is
the complement for every x but NaN; NaN x is outside the family's contract, FAMILY.md, and its
mask bit is not compared where --ignore-nan-inputs x leaves NaN x out).

How a tensor of the op definition is recognised as a mask, and how it is laid out (`find`):

    the definition's tensor                layout   bytes for n       the op's tiling sees
    DT_UINT1 in every dtype row            bits     ceil(n / 8)       DT_UINT1, shape [n]
    DT_UINT8 in every row, named mask      bits     ceil(n / 8)       DT_UINT8, [ceil(n / 8)]
    DT_UINT8 in every row, another input   bytes    n                 DT_UINT8, [n]
      standing for the reference's x

`bits`: element i is bit i % 8 of byte i // 8, the least significant bit first; 1 = the
comparison holds. That is what AscendC's Compare writes and Select reads: asc-devkit's
docs/zh/api/SIMD-API/.../比较与选择/Compare.md, "dst按照小端顺序排序" (little-endian order), its
GT example compares [2 3 5 7 11 13 17 19] with [2 4 6 8 10 12 14 16] into 240 = 0b11110000
(elements 4 to 7 true: bits 4 to 7), EQ into 1 (element 0: bit 0); the CPU model
(hswc/checker/ascendc_cpu/ascendc_cpu_vec_cmpsel.h) writes and reads that order. Opbase's ATVOSS
schedule (atvoss/elewise/elewise_sch.h) copies a uint1_t tensor to and from GM as those bytes, at
byte offset element offset / 8. ge::ReluV2's prototype gives its mask as uint8 or uint1 alike
(op_graph/relu_v2_proto.h), and ReluV3's InferShape gives its uint8 mask the last dim
(d + 7) / 8. The padding bits of the last byte (n not a multiple of 8) are no element: a mask
fed to a kernel has them 0, a kernel's mask is not compared there; a byte past ceil(n / 8) is
outside the tensor (the CPU model reports a write there).
`bytes`: one uint8 per element, 1 or 0 (experimental ReluGradV4's `features`, "the ReLU
forward mask, uint8 {0, 1}, the shape of gradOutput", its README).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from hswc.checker.errors import CheckError
from hswc.checker.report import MASK_DTYPE
from hswc.reference import Comparison, Difference
from hswc.reference_relu_mask import relu_mask

DT_UINT8 = 4
DT_UINT1 = 30
"""ge::DataType numbers (graph/types.h)."""


@dataclass(frozen=True)
class MaskRule:
    """The comparison a mask of the op holds: `input` `compare` the attribute `attribute`, or,
    for an op whose mask is an output of its own (`model`), that model's mask of `input`."""

    input: str
    attribute: str
    compare: str = ">"
    model: Callable[[np.ndarray], np.ndarray] | None = None
    """The op's golden model of its mask (then `attribute` is the fixed bound it says)."""

    def describe(self, attrs: Mapping[str, str]) -> str:
        return f"{self.input} {self.compare} {attrs.get(self.attribute, self.attribute)}"

    def values(self, x: np.ndarray, attrs: Mapping[str, str]) -> np.ndarray:
        """The mask of x, one bool per element (NaN x: False)."""
        if self.model is not None:
            return np.asarray(self.model(x), dtype=bool)
        bound = np.float32(float(attrs[self.attribute]))
        with np.errstate(invalid="ignore"):
            return np.asarray(x.astype(np.float32) > bound, dtype=bool)


def _relu_mask(x: np.ndarray) -> np.ndarray:
    return relu_mask(x)[1]


MASK_RULES: Mapping[str, MaskRule] = {
    "hsg.threshold": MaskRule("x", "threshold"),
    "hsg.threshold_grad": MaskRule("x", "threshold"),
    "hsg.relu_mask": MaskRule("x", "0", model=_relu_mask),
}
"""The hsg ops whose comparison a mask can hold (the module docstring's first table)."""


@dataclass(frozen=True)
class MaskTensor:
    """A tensor of the op definition that is a mask (the module docstring's second table)."""

    direction: str
    """input or output."""
    position: int
    """Its index among the definition's inputs or outputs."""
    name: str
    ge_dtype: int
    packed: bool
    """bits (True) or bytes (False)."""

    @property
    def layout(self) -> str:
        return ("bits, element i = bit i % 8 of byte i / 8" if self.packed
                else "one byte per element, 1 or 0")

    def nbytes(self, n: int) -> int:
        return (n + 7) // 8 if self.packed else n

    def tiling_tensor(self, n: int) -> str:
        """The tensor the op's tiling is given: `DTYPE:DIMS` (hswc/checker/ascendc_cpu/host's
        tiling harness), as the framework passes it."""
        elements = n if self.ge_dtype == DT_UINT1 else self.nbytes(n)
        return f"{self.ge_dtype}:{elements}"

    def pack(self, bits: np.ndarray) -> np.ndarray:
        """The tensor's bytes for one bool per element (padding bits 0)."""
        if not self.packed:
            return bits.astype(np.uint8)
        return np.packbits(bits.astype(np.uint8), bitorder="little")

    def unpack(self, data: np.ndarray, n: int) -> np.ndarray:
        """One bool per element of the tensor's bytes (padding bits left out)."""
        raw = np.asarray(data, dtype=np.uint8).reshape(-1)
        if not self.packed:
            return raw[:n] != 0
        return np.unpackbits(raw, count=n, bitorder="little").astype(bool)


def _only(listed: Sequence[int], dtype: int) -> bool:
    return bool(listed) and all(t == dtype for t in listed)


def find(inputs: Sequence[tuple[str, Sequence[int]]], outputs: Sequence[tuple[str, Sequence[int]]],
         hsg_op: str, reference_inputs: Sequence[str], where: str, op_name: str
         ) -> tuple[MaskTensor, ...]:
    """The definition's mask tensors (the module docstring's second table); a CheckError
    naming the file and the tensor for a DT_UINT1 tensor of an op with no mask rule."""
    rule = MASK_RULES.get(hsg_op)
    found: list[MaskTensor] = []
    for direction, tensors in (("input", inputs), ("output", outputs)):
        for k, (name, listed) in enumerate(tensors):
            if _only(listed, DT_UINT1):
                if rule is None or rule.input not in reference_inputs:
                    known = ", ".join(MASK_RULES)
                    raise CheckError(
                        f"{where}: {op_name}'s {direction} {name} is DT_UINT1, a bit mask, and "
                        f"{hsg_op} makes no comparison a mask can hold (masks are known for "
                        f"{known}: hswc/checker/masks.py)")
                found.append(MaskTensor(direction, k, name, DT_UINT1, packed=True))
            elif rule is not None and rule.input in reference_inputs and _only(listed,
                                                                               DT_UINT8):
                named = name.lower() == "mask"
                if named or direction == "input":
                    found.append(MaskTensor(direction, k, name, DT_UINT8, packed=named))
    return tuple(found)


def compare(actual: np.ndarray, expected: np.ndarray) -> Comparison:
    """Two masks (one bool per element) bit for bit: every differing element is a `values`
    difference (bits 1 and 0)."""
    differ = actual != expected
    count = int(differ.sum())
    first = int(np.argmax(differ)) if count else None
    kind = Difference(count, None if first is None else (first,),
                      None if first is None else int(actual[first]),
                      None if first is None else int(expected[first]))
    none = Difference(0, None, None, None)
    return Comparison(MASK_DTYPE, int(actual.size), count, kind.first_index,
                      kind.first_actual_bits, kind.first_expected_bits, kind, none, none,
                      1.0 if count else 0.0, 1 if count else 0)


def rule_for(hsg_op: str) -> MaskRule:
    rule = MASK_RULES.get(hsg_op)
    if rule is None:
        raise CheckError(f"{hsg_op} has no mask rule")
    return rule
