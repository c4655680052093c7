"""The passes and the named pipeline: what hswc-opt, hswc-run and xdsl-opt all register."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from importlib import import_module
from typing import Any, get_args, get_origin, get_type_hints

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec


def _loader(module: str, name: str) -> Callable[[], Dialect]:
    """The dialect `name` of `module`, imported when a context first needs it."""
    return lambda: getattr(import_module(module), name)


def _builtin() -> Dialect:
    """The builtin dialect with a resource store per context (hswc.dialects.builtin)."""
    return import_module("hswc.dialects.builtin").builtin_dialect()


DIALECTS: dict[str, Callable[[], Dialect]] = {
    "builtin": _builtin,
    "func": _loader("xdsl.dialects.func", "Func"),
    "arith": _loader("xdsl.dialects.arith", "Arith"),
    "math": _loader("xdsl.dialects.math", "Math"),
    "cf": _loader("xdsl.dialects.cf", "Cf"),
    "scf": _loader("xdsl.dialects.scf", "Scf"),
    "memref": _loader("xdsl.dialects.memref", "MemRef"),
    "linalg": _loader("hswc.dialects.linalg", "Linalg"),
    "tensor": _loader("xdsl.dialects.tensor", "Tensor"),
    "test": _loader("xdsl.dialects.test", "Test"),
    "hsg": _loader("hswc.dialects.hsg", "Hsg"),
    "ascend": _loader("hswc.dialects.ascend", "Ascend"),
}
"""Every dialect hswc reads or writes, loaded lazily by name."""


def context() -> Context:
    """A context with every dialect of DIALECTS registered (loaded on first use)."""
    ctx = Context()
    for name, factory in DIALECTS.items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_text(text: str, name: str) -> ModuleOp:
    """`text` parsed as a module in such a context, its diagnostics located in `name`."""
    from hswc.diagnostics import LocatingParser

    return LocatingParser(context(), text, name).parse_module()


def _generalize() -> type[ModulePass]:
    from hswc.passes.hsg_generalize_named import HsgGeneralizeNamedPass

    return HsgGeneralizeNamedPass


def _decompose() -> type[ModulePass]:
    from hswc.passes.hsg_decompose import HsgDecomposePass

    return HsgDecomposePass


def _fold_constants() -> type[ModulePass]:
    from hswc.passes.hsg_fold_constant_operands import HsgFoldConstantOperandsPass

    return HsgFoldConstantOperandsPass


def _fold_reshapes() -> type[ModulePass]:
    from hswc.passes.hsg_fold_reshapes import HsgFoldReshapesPass

    return HsgFoldReshapesPass


def _fold_slices() -> type[ModulePass]:
    from hswc.passes.hsg_fold_slices import HsgFoldSlicesPass

    return HsgFoldSlicesPass


def _exact_f64() -> type[ModulePass]:
    from hswc.passes.hsg_exact_f64 import HsgExactF64Pass

    return HsgExactF64Pass


def _demote_f64() -> type[ModulePass]:
    from hswc.passes.hsg_demote_f64 import HsgDemoteF64Pass

    return HsgDemoteF64Pass


def _widen_bf16() -> type[ModulePass]:
    from hswc.passes.hsg_widen_bf16 import HsgWidenBf16Pass

    return HsgWidenBf16Pass


def _fuse() -> type[ModulePass]:
    from hswc.passes.hsg_fuse_elementwise import HsgFuseElementwisePass

    return HsgFuseElementwisePass


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
    "hsg-generalize-named": _generalize,
    "hsg-decompose": _decompose,
    "hsg-fold-constant-operands": _fold_constants,
    "hsg-fold-reshapes": _fold_reshapes,
    "hsg-fold-slices": _fold_slices,
    "hsg-exact-f64": _exact_f64,
    "hsg-demote-f64": _demote_f64,
    "hsg-widen-bf16": _widen_bf16,
    "hsg-fuse-elementwise": _fuse,
    "hsg-tile-on-cores": _tile,
    "hsg-block-into-ub": _block,
    "convert-hsg-to-ascend": _convert,
}
"""hswc's passes by command-line name, in pipeline order."""

LEVEL_PASSES: dict[str, tuple[str, ...]] = {
    "linalg": ("hsg-generalize-named", "hsg-decompose", "hsg-fold-constant-operands",
               "hsg-fold-reshapes", "hsg-fold-slices", "hsg-exact-f64", "hsg-demote-f64",
               "hsg-widen-bf16",
               "hsg-fuse-elementwise"),
    "tiled": ("hsg-tile-on-cores",),
    "blocked": ("hsg-block-into-ub",),
    "ascend": ("convert-hsg-to-ascend",),
}
"""The passes that take a module from the level before to each IR level (the first is 'hsg':
named ops; then their linalg.generic, fused; tiled on cores; blocked into UB chunks; AscendC
calls)."""

LOWER_TO_ASCEND = tuple(name for names in LEVEL_PASSES.values() for name in names)
"""--lower-to-ascend: named ops or linalg.generic on tensors -> host tiling + AscendC kernel in
the ascend dialect."""


def _option(name: str) -> str:
    """An option as the command line spells it: dashes, not the field's underscores."""
    return name.replace("_", "-")


def _takes(hint: Any) -> str:
    """What a pass option of this type accepts, in words."""
    kinds = {int: "an integer", bool: "true or false", str: "a name", float: "a number"}
    options = [t for t in get_args(hint) if t is not type(None)] or [hint]
    if get_origin(options[0]) is tuple:
        return "a list of values"
    return " or ".join(kinds.get(t, getattr(t, "__name__", str(t))) for t in options)


def pass_from_spec(pass_type: type[ModulePass], spec: ArgSpec) -> ModulePass:
    """The pass a `-p` entry names, its options checked one by one: an unknown option, an
    option without a value (`{core-num}`) or of the wrong type is a ValueError naming the
    option as the command line spells it."""
    hints = get_type_hints(pass_type)
    fields = {f.name: hints[f.name] for f in dataclasses.fields(pass_type)
              if f.init and f.name != "name"}
    known = ", ".join(_option(f) for f in fields)
    for given, value in spec.normalize_parameter_names().parameters.items():
        where = f"option '{_option(given)}' of pass '{spec.name}'"
        if given not in fields:
            raise ValueError(f"pass '{spec.name}' has no option '{_option(given)}' "
                             f"(options: {known})")
        if get_origin(fields[given]) is not tuple and value == ():
            raise ValueError(f"{where} has no value: write {_option(given)}=<value>, where "
                             f"the value is {_takes(fields[given])}")
        try:
            pass_type.from_pass_spec(ArgSpec(spec.name, {given: value}))
        except (ValueError, TypeError) as error:
            shown = ",".join(str(v) for v in value)
            reason = (f"it takes {_takes(fields[given])}, got '{shown}'"
                      if str(error).startswith("Incompatible types") else str(error))
            raise ValueError(f"bad {where}: {reason}") from None
    try:
        return pass_type.from_pass_spec(spec)
    except (ValueError, TypeError) as error:
        raise ValueError(f"bad options of pass '{spec.name}': {error}") from None
