"""Output targets of hswc-opt's -t: the MLIR printer, and AscendC C++ (hswc.backend)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target


def _mlir() -> type[Target]:
    from xdsl.targets.mlir import MLIRTarget

    return MLIRTarget


@dataclass(frozen=True)
class AscendCTarget(Target):
    """`-t ascendc`: the module's kernels as one self-contained AscendC translation unit."""

    name = "ascendc"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from hswc.backend.source import kernel_source

        output.write(kernel_source(module))


TARGETS: dict[str, Callable[[], type[Target]]] = {
    "mlir": _mlir,
    "ascendc": lambda: AscendCTarget,
}
