"""The function or module to export, and its export to linalg-on-tensors by torch-mlir.

A source is `FILE.py:NAME` or `package.module:NAME`; NAME is a function, an nn.Module (an
instance, or a subclass that takes no arguments, instantiated) or any callable of tensors. It
is exported as `torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")` prints
it (torch.export, then torch-mlir's lowering to linalg), as one function named after it.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import re
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from hswc.from_torch.errors import ExportError, SourceError
from hswc.from_torch.extra import require

MESSAGE_LINES = 8
"""How many lines of an exporter's message are shown (torch's run to pages)."""


def load_source(source: str) -> Any:
    """The callable `FILE.py:NAME` or `package.module:NAME` names (a module subclass taking no
    arguments, instantiated)."""
    where, colon, name = source.rpartition(":")
    if not colon or not where or not name:
        raise SourceError(f"'{source}': name what to export as FILE.py:NAME or "
                          "package.module:NAME")
    module = _import_file(where) if where.endswith(".py") or "/" in where else _import(where)
    value: Any = module
    for part in name.split("."):
        if not hasattr(value, part):
            known = sorted(n for n in vars(module) if not n.startswith("_"))
            raise SourceError(f"'{where}' has no '{name}' (it defines: "
                              f"{', '.join(known[:12]) or 'nothing public'})")
        value = getattr(value, part)
    return _instance(value, source)


def _import_file(path: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise SourceError(f"cannot read '{path}': no such file")
    stem = re.sub(r"\W", "_", file.stem)
    spec = importlib.util.spec_from_file_location(f"hswc_torch_source_{stem}", file)
    if spec is None or spec.loader is None:
        raise SourceError(f"'{path}' cannot be imported as Python")
    module = importlib.util.module_from_spec(spec)
    folder = str(file.resolve().parent)
    if folder not in sys.path:  # its own imports of modules beside it
        sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise SourceError(f"importing '{path}' raised {_where(error, file)}") from None
    return module


def _import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and name.startswith(error.name):
            raise SourceError(f"no module '{name}' (give FILE.py:NAME for a file)") from None
        raise SourceError(f"importing '{name}' raised {_where(error, None)}") from None
    except Exception as error:
        raise SourceError(f"importing '{name}' raised {_where(error, None)}") from None


def _where(error: BaseException, file: Path | None) -> str:
    """`Type: message (file:line)`, at the deepest frame of the user's code: in `file`, else
    outside Python's import machinery (a SyntaxError names its place itself)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not f.filename.startswith("<frozen ") and f.filename != __file__]
    if file is not None:
        frames = [f for f in frames if Path(f.filename).resolve() == file.resolve()]
    place = ""
    if frames and not isinstance(error, SyntaxError):
        place = f" ({frames[-1].filename}:{frames[-1].lineno})"
    return f"{type(error).__name__}: {error}{place}"


def _instance(value: Any, source: str) -> Any:
    torch, _ = require()
    if isinstance(value, type):
        if not issubclass(value, torch.nn.Module):
            raise SourceError(f"'{source}' is a class but not an nn.Module: give a function or "
                              "a module")
        try:
            return value()
        except TypeError as error:
            raise SourceError(f"'{source}' cannot be made without arguments ({error}): give a "
                              "module instance or a function") from None
    if isinstance(value, ModuleType):
        raise SourceError(f"'{source}' is the Python module {value.__name__}, not a function or "
                          "an nn.Module")
    if not callable(value):
        raise SourceError(f"'{source}' is a {type(value).__name__}, not a function or an "
                          "nn.Module")
    return value


def function_name(fn: Any) -> str:
    """A C identifier for the exported function, from the callable's name (`hardswish_times`,
    `MyAct` -> `my_act`; `fn` for a lambda)."""
    from hswc.backend.operator import snake_case

    name = getattr(fn, "__name__", None) or type(fn).__name__
    name = re.sub(r"\W+", "_", snake_case(name)).strip("_")
    if not name or name == "lambda" or not name[0].isalpha():
        return "fn"
    return name


def op_type(name: str) -> str:
    """`hardswish_times` -> `HardswishTimes`, the op type hswc-emit names a package by."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part) or "Fn"


def export_linalg(fn: Any, inputs: tuple[Any, ...], dynamic_shapes: Any,
                  func_name: str) -> str:
    """The function's linalg-on-tensors module, as torch-mlir prints it."""
    torch, fx = require()

    class Call(torch.nn.Module):  # forward(*inputs), so dynamic_shapes is ((per input),)
        def __init__(self) -> None:
            super().__init__()
            self.fn = fn  # an nn.Module is registered: its parameters are the module's

        def forward(self, *args: Any) -> Any:
            return self.fn(*args)

    try:
        with _torch_logs_quiet():
            module = fx.export_and_import(Call(), *inputs, output_type="linalg-on-tensors",
                                          dynamic_shapes=dynamic_shapes, func_name=func_name)
    except Exception as error:
        lines = [line for line in str(error).strip().splitlines()][:MESSAGE_LINES] or [""]
        raise ExportError(f"torch.export / torch-mlir could not export {func_name}: "
                          f"{type(error).__name__}: " + "\n".join(lines)) from None
    return str(module)


@contextmanager
def _torch_logs_quiet() -> Iterator[None]:
    """torch's loggers held to CRITICAL: a failed export logs its whole traceback on stderr
    before raising, and its message is what the step reports."""
    loggers = [logging.getLogger(name) for name in logging.root.manager.loggerDict
               if name == "torch" or name.startswith("torch.")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
