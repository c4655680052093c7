"""The optional `torch` extra: PyTorch and torch-mlir, imported only when a step needs them."""

from __future__ import annotations

from types import ModuleType

from hswc.from_torch.errors import EXTRA, MissingExtra


def require() -> tuple[ModuleType, ModuleType]:
    """torch and torch_mlir.fx; MissingExtra, naming the extra, when either is missing."""
    try:
        import torch  # pyright: ignore[reportMissingImports]
        from torch_mlir import fx  # pyright: ignore[reportMissingImports]
    except ImportError as error:
        missing = (error.name or "torch").split(".")[0]
        raise MissingExtra(f"{missing} is not installed: the step from PyTorch needs the torch "
                           f"extra ({EXTRA})") from None
    return torch, fx
