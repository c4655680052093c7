"""The tiling a kernel runs with: its values per run, and their bytes in the kernel's struct.

Values come from `--tiling key=value,...` (fixed, for every run of a dtype: `f16:key=value`
restricts them to one) and from `--tiling-function module:function` (per run), which is
called as `function(total_elements, core_num, ub_size, dtype)` with dtype 'f16', 'bf16' or
'f32' (each call stopped after --timeout seconds: hswc.checker.time_limits) and returns a
mapping of tiling field names to values, plus these reserved keys:

- `block_dim` (required unless --block-dim is given): how many cores the launch uses;
- `tiling_key` (default --tiling-key, else 0): what TILING_KEY_IS compares with;
- `template_args` (optional): the entry's template arguments for this run, a string
  (`"half, 1"`) or a sequence (`("half", 1)`); default --template-args;
- `workspace` (default 0): the bytes of GM workspace the entry gets (GetUserWorkspace returns
  it; 0: the entry gets nullptr), as an op's tiling asks for with GetWorkspaceSizes.

Fixed values override the function's. `module` is an importable module name or a path to a
`.py` file. The struct's layout (offsets, sizes, kinds, the defaults of its member
initialisers) comes from the built harness (`run_kernel --tiling-layout`); `StructLayout.pack`
checks every value against its field and lays the bytes out as the device would see them.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import struct
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hswc.checker import time_limits
from hswc.checker.errors import CheckError
from hswc.checker.kernel_source import TilingField

Value = int | float
RESERVED = ("block_dim", "tiling_key", "template_args", "workspace")


@dataclass(frozen=True)
class FieldLayout:
    name: str
    offset: int
    size: int
    kind: str
    """int, uint, float, bool or other (arrays, nested structs: not settable)."""


@dataclass(frozen=True)
class StructLayout:
    name: str
    size: int
    defaults: bytes
    fields: Mapping[str, FieldLayout]

    def pack(self, values: Mapping[str, Value], declared: Sequence[TilingField],
             where: str) -> bytes:
        """The struct's bytes with `values` set; a CheckError naming the field for a value
        that does not fit, an unknown field, or a field without default left unset."""
        unknown = [k for k in values if k not in self.fields]
        if unknown:
            raise CheckError(f"{where}: {self.name} has no field {', '.join(unknown)} (its "
                             f"fields: {', '.join(self.fields)})")
        missing = [f.name for f in declared if not f.has_default and f.name not in values]
        if missing:
            raise CheckError(f"{where}: tiling field(s) {', '.join(missing)} of {self.name} "
                             "have no default; give them in --tiling or return them from the "
                             "tiling function")
        data = bytearray(self.defaults)
        for name, value in values.items():
            f = self.fields[name]
            data[f.offset:f.offset + f.size] = _encode(f, value, where)
        return bytes(data)


def _encode(f: FieldLayout, value: Value, where: str) -> bytes:
    what = f"{where}: tiling field {f.name} ({f.kind}, {f.size} bytes) = {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CheckError(f"{what}: not a number")
    if f.kind in ("int", "uint", "bool"):
        if isinstance(value, float) and not value.is_integer():
            raise CheckError(f"{what}: the field is an integer")
        v = int(value)
        lo, hi = (0, 1) if f.kind == "bool" else (
            (-(1 << (8 * f.size - 1)), (1 << (8 * f.size - 1)) - 1) if f.kind == "int"
            else (0, (1 << (8 * f.size)) - 1))
        if not lo <= v <= hi:
            raise CheckError(f"{what}: outside [{lo}, {hi}]")
        return v.to_bytes(f.size, "little", signed=f.kind == "int")
    if f.kind == "float" and f.size in (4, 8):
        v = float(value)
        if f.size == 4 and math.isfinite(v) and abs(v) > 3.4028234663852886e38:
            raise CheckError(f"{what}: too large for a float")
        return struct.pack("<f" if f.size == 4 else "<d", v)
    raise CheckError(f"{what}: the checker cannot set a field of this type")


def parse_layout(name: str, text: str) -> StructLayout:
    """The output of `run_kernel --tiling-layout`."""
    lines = text.split("\n")
    head = lines[0].split()
    if len(head) != 3 or head[0] != "struct":
        raise CheckError(f"the harness printed no layout of {name}: {text[:200]!r}")
    fields = {}
    for line in lines[1:]:
        parts = line.split()
        if len(parts) == 5 and parts[0] == "field":
            fields[parts[1]] = FieldLayout(parts[1], int(parts[2]), int(parts[3]), parts[4])
    return StructLayout(name, int(head[1]), bytes.fromhex(head[2]), fields)


def parse_values(text: str, option: str = "--tiling") -> dict[str, Value]:
    """`a=1,b=0.5` -> {"a": 1, "b": 0.5}; integers in any base Python reads (0x10)."""
    values: dict[str, Value] = {}
    for item in (part.strip() for part in text.split(",")):
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not key.isidentifier() or not raw:
            raise CheckError(f"{option} {text}: expected name=value[,name=value...], got "
                             f"'{item}'")
        try:
            values[key] = int(raw, 0)
        except ValueError:
            try:
                values[key] = float(raw)
            except ValueError:
                raise CheckError(f"{option} {text}: {key}={raw} is not a number") from None
    return values


TilingFunction = Callable[[int, int, int, str], Mapping[str, Any]]


def load_function(spec: str) -> TilingFunction:
    """`module:function` or `path/to/file.py:function`; a CheckError saying what failed."""
    module_name, sep, name = spec.rpartition(":")
    if not sep or not module_name or not name.isidentifier():
        raise CheckError(f"--tiling-function {spec}: expected module:function or "
                         "file.py:function")
    try:
        if module_name.endswith(".py") or "/" in module_name:
            path = Path(module_name)
            if not path.is_file():
                raise CheckError(f"--tiling-function {spec}: no file '{module_name}'")
            loaded = importlib.util.spec_from_file_location(path.stem, path)
            assert loaded is not None and loaded.loader is not None
            module = importlib.util.module_from_spec(loaded)
            loaded.loader.exec_module(module)
        else:
            if "" not in sys.path:
                sys.path.insert(0, "")
            module = importlib.import_module(module_name)
    except CheckError:
        raise
    except Exception as error:  # the user's module: any error it raises is its own
        raise CheckError(f"--tiling-function {spec}: importing {module_name} failed: "
                         f"{type(error).__name__}: {error}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise CheckError(f"--tiling-function {spec}: {module_name} has no function {name}")
    return function  # type: ignore[return-value]  (its result is checked at each call)


@dataclass(frozen=True)
class Launch:
    """How one run launches the kernel."""

    fields: Mapping[str, Value]
    block_dim: int
    tiling_key: int
    template_args: str | None
    """Set by the tiling function; None: the --template-args of the dtype."""
    raw: bytes | None = None
    """The tiling data exactly as the op's own tiling wrote it (hswc.checker.host_tiling);
    None: `fields` packed into the struct's layout."""
    workspace: int = 0
    """The workspace bytes the op's tiling asked for (GetWorkspaceSizes), which the run
    passes the kernel; 0: none (the entry gets nullptr)."""


def _template_args(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        return ", ".join(str(v) for v in value)
    raise CheckError(f"{where}: template_args must be a string or a sequence, got {value!r}")


def _integer(value: Any, what: str, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or (not isinstance(value, int) and not (
            hasattr(value, "dtype") and getattr(value.dtype, "kind", "") in "iu")):
        raise CheckError(f"{where}: {what} must be an integer, got {value!r}")
    v = int(value)
    if not lo <= v <= hi:
        raise CheckError(f"{where}: {what} = {v} is outside [{lo}, {hi}]")
    return v


@dataclass(frozen=True)
class TilingSource:
    """Where each run's launch comes from (see the module docstring)."""

    fixed: Mapping[str, Mapping[str, Value]]
    """dtype -> the --tiling values for it."""
    function: TilingFunction | None
    function_name: str
    block_dim: int | None
    tiling_key: Mapping[str, int]
    host: Callable[[int, str, int, int], Launch] | None = None
    """The op's own op_host tiling (hswc.checker.host_tiling), run per launch instead of a
    function."""

    @property
    def sweeps(self) -> bool:
        """The launch depends on the size (a function or the op's tiling), so sizes can be
        found from it."""
        return self.function is not None or self.host is not None

    def launch(self, total: int, dtype: str, core_num: int, ub_size: int) -> Launch:
        if self.host is not None:
            return self.host(total, dtype, core_num, ub_size)
        where = f"tiling of {total} {dtype} elements"
        values: dict[str, Any] = {}
        if self.function is not None:
            where = f"{self.function_name}({total}, {core_num}, {ub_size}, '{dtype}')"
            try:
                result = time_limits.call_within(time_limits.run_limit(), self.function, total,
                                                 core_num, ub_size, dtype)
            except time_limits.TimedOut as error:
                raise CheckError(f"{where} {error} (--timeout): a tiling function that never "
                                 "returns?") from None
            except Exception as error:  # the user's function: report what it raised
                raise CheckError(f"{where} raised {type(error).__name__}: {error}") from None
            if not isinstance(result, Mapping):
                raise CheckError(f"{where} returned {type(result).__name__}, not a mapping of "
                                 "tiling fields")
            values.update(result)
        values.update(self.fixed.get(dtype, {}))
        block_dim = values.pop("block_dim", self.block_dim)
        if block_dim is None:
            raise CheckError(f"{where}: no block_dim (return it from the tiling function, or "
                             "give --block-dim)")
        key = values.pop("tiling_key", self.tiling_key.get(dtype, 0))
        args = values.pop("template_args", None)
        workspace = values.pop("workspace", 0)
        fields: dict[str, Value] = {}
        for k, v in values.items():
            if isinstance(v, np.integer | np.floating):
                v = v.item()
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise CheckError(f"{where}: tiling field {k} = {v!r} is not a number")
            fields[str(k)] = v
        return Launch(fields, _integer(block_dim, "block_dim", where, 1, 65535),
                      _integer(key, "tiling_key", where, 0, (1 << 64) - 1),
                      None if args is None else _template_args(args, where),
                      workspace=_integer(workspace, "workspace", where, 0, 1 << 34))
