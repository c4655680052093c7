"""What can go wrong in the one step from PyTorch, each a message naming its cause."""

from __future__ import annotations

EXTRA = "pip install 'hswc[torch]'"
"""How to install what hswc.from_torch needs (PyTorch and torch-mlir)."""


class TorchStepError(Exception):
    """A step from PyTorch to hswc failed; str() is the message, ready to print."""


class MissingExtra(TorchStepError):
    """PyTorch or torch-mlir is not installed."""


class InputSpecError(TorchStepError):
    """An example input (a shape spec, a .npy file, a tensor) hswc cannot use."""


class SourceError(TorchStepError):
    """The function or module to export cannot be loaded."""


class ExportError(TorchStepError):
    """torch.export or torch-mlir refused the function."""


class LoweringError(TorchStepError):
    """hswc did not lower what torch-mlir exported (the message says what it refused)."""


class RunError(TorchStepError):
    """hswc's interpreter refused to run the lowered kernel on the example inputs."""


class CheckFailed(TorchStepError):
    """hswc's result is outside torch.testing.assert_close's tolerances of eager PyTorch's."""


class WriteError(TorchStepError):
    """A file of the step cannot be written (the message names it)."""


class EmitError(TorchStepError):
    """hswc-emit did not write the package."""
