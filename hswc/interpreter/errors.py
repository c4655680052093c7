"""The errors hswc-run and its Python API report as one message (and exit code 1)."""

from __future__ import annotations


class RunnerError(Exception):
    """Anything hswc-run reports as one message and exit code 1."""


class CompileError(RunnerError):
    """The module cannot be read, parsed, verified or lowered."""


class InputError(RunnerError, ValueError):
    """An input that does not fit the function, or a file that is not a readable .npy."""


class KernelError(RunnerError):
    """Running the module failed: a hardware rule, a host check, an unsupported op."""
