"""From PyTorch in one step: export with torch-mlir, lower with hswc, check, package.

    import torch.nn.functional as F
    import hswc.from_torch

    done = hswc.from_torch.compile(F.hardswish, ["4x1000:f16"], check=True, emit="out/hardswish")
    done.exported, done.lowered      # the linalg file torch-mlir wrote, hswc's ascend IR
    done(torch.randn(4, 1000, dtype=torch.float16))  # hswc's interpreter on other inputs

`hswc-from-torch FILE.py:NAME --input-shape 4x1000:f16 -o out/ [--check] [--emit]` is the same
step on the command line. It needs the `torch` extra (PyTorch and torch-mlir: pip install
'hswc[torch]'); importing this package does not, and without it every step says so
(MissingExtra).
"""

from hswc.from_torch.compile import Compiled, compile
from hswc.from_torch.errors import (
    CheckFailed,
    EmitError,
    ExportError,
    InputSpecError,
    LoweringError,
    MissingExtra,
    RunError,
    SourceError,
    TorchStepError,
    WriteError,
)
from hswc.from_torch.inputs import InputSpec

__all__ = ["CheckFailed", "Compiled", "EmitError", "ExportError", "InputSpec", "InputSpecError",
           "LoweringError", "MissingExtra", "RunError", "SourceError", "TorchStepError",
           "WriteError", "compile"]
