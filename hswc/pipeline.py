"""The passes and the named pipeline: what hswc-opt, hswc-run and xdsl-opt all register."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, builtin, cf, func, linalg, memref, scf, tensor, test
from xdsl.ir import Dialect
from xdsl.passes import ModulePass


def _hsg() -> Dialect:
    from hswc.dialects.hsg import Hsg

    return Hsg


def _ascend() -> Dialect:
    from hswc.dialects.ascend import Ascend

    return Ascend


DIALECTS: dict[str, Callable[[], Dialect]] = {
    "builtin": lambda: builtin.Builtin,
    "func": lambda: func.Func,
    "arith": lambda: arith.Arith,
    "cf": lambda: cf.Cf,
    "scf": lambda: scf.Scf,
    "memref": lambda: memref.MemRef,
    "linalg": lambda: linalg.Linalg,
    "tensor": lambda: tensor.Tensor,
    "test": lambda: test.Test,
    "hsg": _hsg,
    "ascend": _ascend,
}
"""Every dialect hswc reads or writes, loaded lazily by name."""


def _decompose() -> type[ModulePass]:
    from hswc.passes.hsg_decompose import HsgDecomposePass

    return HsgDecomposePass


def _tile() -> type[ModulePass]:
    from hswc.passes.hsg_tile_on_cores import HsgTileOnCoresPass

    return HsgTileOnCoresPass


def _block() -> type[ModulePass]:
    from hswc.passes.hsg_block_into_ub import HsgBlockIntoUbPass

    return HsgBlockIntoUbPass


def _convert() -> type[ModulePass]:
    from hswc.passes.convert_hsg_to_ascend import ConvertHsgToAscendPass

    return ConvertHsgToAscendPass


PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "hsg-decompose": _decompose,
    "hsg-tile-on-cores": _tile,
    "hsg-block-into-ub": _block,
    "convert-hsg-to-ascend": _convert,
}
"""hswc's passes by command-line name, in pipeline order."""

LOWER_TO_ASCEND = ("hsg-decompose", "hsg-tile-on-cores", "hsg-block-into-ub",
                   "convert-hsg-to-ascend")
"""--lower-to-ascend: named ops or linalg.generic on tensors -> host tiling + AscendC kernel in
the ascend dialect."""
