"""The hand-written kernels with run-time scalars that the scalar tests share: the two cases of
test/lit/printer/scalar-arguments.mlir, which checks their C++.

- `slope_clip`, f16, with a host function that passes two f32 constants through
  `hsg.launch ... scalars(...)`. With slope = maximumf(negative_slope, 0) and every scalar
  rounded to half once, per element:

      y = x * half(slope)   where -half(lambd) <= x <= half(lambd)   (Muls, CompareScalar GE,
      y = half(lambd)       elsewhere, and for NaN                    Compare LE, two Selects)

- `scale_shift`, f32, one core, arithmetic on three scalars (scale, a, b): shift = a + 0.5,
  bias = minimumf((shift - b) * scale / scale, b), y = (x * scale + f32(-half(bias))) * shift.
  The file has no host function for it; `scale_shift_module` adds one.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).resolve().parent / "lit" / "printer" / "scalar-arguments.mlir"
HOST_CONSTANT = re.compile(r"(  %(negative_slope|lambd) = arith\.constant )[^:]+( : f32)")


def slope_clip_module(negative_slope: float = 0.25, lambd: float = 1.1) -> str:
    """The module's text with the host's two constants replaced (written as MLIR floats)."""
    text = SOURCE.read_text().split("// -----")[0]
    values = {"negative_slope": negative_slope, "lambd": lambd}
    text, count = HOST_CONSTANT.subn(
        lambda m: f"{m.group(1)}{_mlir_float(values[m.group(2)])}{m.group(3)}", text)
    assert count == 2, "the host constants of scalar-arguments.mlir moved"
    return text


def per_core_scalar_module() -> str:
    """slope_clip whose Duplicate takes half(lambd) on core 0 and half(slope) on the others: a
    scalar that differs between cores, chosen by an arith.select on the block index."""
    return slope_clip_module().replace(
        "    %bound = ascend.tbuf_get",
        "    %is_first = arith.cmpi eq, %block_idx, %c0 : index\n"
        "    %per_core = arith.select %is_first, %lambd_half, %slope_half : f16\n"
        "    %bound = ascend.tbuf_get",
    ).replace("ascend.duplicate %bound, %lambd_half", "ascend.duplicate %bound, %per_core")


SCALE_SHIFT_HOST = """
func.func @scale_shift(%x: tensor<?xf32>) -> tensor<?xf32> {{
  %n = hsg.num_elements %x : tensor<?xf32>
  %cores = hsg.get_core_num_aiv
  %ub = hsg.get_ub_size
  %t, %bf, %uf, %used, %key = func.call @scale_shift_tiling_f32(%n, %cores, %ub)
      : (index, index, index) -> (index, index, index, index, index)
  %scale = arith.constant {scale} : f32
  %a = arith.constant {a} : f32
  %b = arith.constant {b} : f32
  %y = hsg.launch @scale_shift_kernel_f32 blocks %used (%x) tiling(%t, %bf, %uf)
      scalars(%scale, %a, %b : f32, f32, f32) : tensor<?xf32> -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}}
"""


def scale_shift_module(scale: float, a: float, b: float) -> str:
    """The second case of the file with a host function launching it on (scale, a, b)."""
    kernel = SOURCE.read_text().split("// -----")[1]
    values = {k: _mlir_float(v) for k, v in (("scale", scale), ("a", a), ("b", b))}
    return SCALE_SHIFT_HOST.format(**values) + kernel


def _mlir_float(value: float) -> str:
    """A float literal MLIR reads back to `value` (its f32 bits in hex when not finite)."""
    if not np.isfinite(value):
        return f"0x{np.float32(value).view(np.uint32):08X}"
    return f"{value:.17e}"
