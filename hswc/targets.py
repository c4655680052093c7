"""Output targets of hswc-opt's -t: the MLIR printer, and AscendC C++ (hswc.backend)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.utils.target import Target


def _mlir() -> type[Target]:
    from xdsl.targets.mlir import MLIRTarget

    return MLIRTarget


TARGETS: dict[str, Callable[[], type[Target]]] = {"mlir": _mlir}
