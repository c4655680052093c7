"""The op's own op_host tiling, run on the CPU model of the tiling context.

hswc/checker/ascendc_cpu/host/tiling_harness.cpp is linked with the op's *_def.cpp and tiling
sources, unchanged, against the model's headers (hswc/checker/ascendc_cpu/host: ge/gert types, the
platform, OpDef, IMPL_OP_OPTILING, the host side of ASCENDC_TPL_*). `describe` reads the op
definition (inputs, outputs, attributes with types and defaults, per-SoC configurations);
`HostTiling.launch` runs the tiling for one size and dtype (every input and output a 1-D tensor of
that many elements of that dtype, a mask its own (hswc.checker.masks: DT_UINT1 of that many
elements, or the uint8 bytes), an optional input the reference does not feed left out, the
attributes in the definition's order, the SoC's core count and UB size) and turns what it wrote into
the kernel's Launch: block dim, tiling key, template arguments (ASCENDC_TPL_SEL_PARAM's choice, by
parameter name), and the raw tiling bytes.

Attributes: `--attr` names match the definition's in either spelling (negative_slope /
negativeSlope); those not given take the definition's defaults. An `--attr` the tiling never
reads is refused (the kernel would not see it).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hswc.checker import build as builder
from hswc.checker import channels, halves, separate_build, time_limits
from hswc.checker.errors import CheckError
from hswc.checker.kernel_source import strip_comments, struct_namespace
from hswc.checker.masks import MaskTensor
from hswc.checker.op_folder import JSON_WHERE, Folder, atvoss_sources, normalised, snake
from hswc.checker.tiling_values import Launch, Value

HOST_MODEL = builder.MODEL / "host"
HOST_FALLBACK = builder.MODEL / "host_fallback"
"""Headers searched after every other (-idirafter): hswc's stand-in for nlohmann/json.hpp, which
a real copy found on the include path (op_folder.json_includes, the system's) shadows."""
HARNESS = HOST_MODEL / "tiling_harness.cpp"
FIELDS = HOST_MODEL / "tiling_fields.cpp"
"""Prints the kernel's tiling struct's fields; linked with the harness when the struct is known."""
GE_DTYPES = {"f32": 0, "f16": 1, "bf16": 27}
"""ge::DataType of each checked dtype (CANN's numbering)."""
NUMPY_GE = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6,
            "uint16": 7, "uint32": 8, "int64": 9, "uint64": 10, "bool": 12, "float8_e5m2": 35,
            "float8_e4m3fn": 36, "float8_e8m0fnu": 37}
"""ge::DataType of a tensor of another dtype than the run's, by its numpy dtype name."""
TEMPLATE_TYPES = {0: "float", 1: "half", 2: "int8_t", 3: "int32_t", 4: "uint8_t", 6: "int16_t",
                  7: "uint16_t", 8: "uint32_t", 9: "int64_t", 10: "uint64_t", 12: "bool",
                  27: "bfloat16_t"}
"""The AscendC type an ASCENDC_TPL_DATATYPE_DECL value (a C_DT_* number) stands for."""
HOST_FLAGS = ("-std=c++17", "-O0", "-w", "-fmax-errors=20")
"""-O0: a tiling runs once per launch, on a few numbers; its build is what costs."""


@dataclass(frozen=True)
class Attribute:
    name: str
    type: str
    default: str | None


@dataclass
class OpDefinition:
    name: str
    inputs: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    outputs: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    attributes: list[Attribute] = field(default_factory=list)
    configs: dict[str, dict[str, str]] = field(default_factory=dict)
    optional_inputs: set[int] = field(default_factory=set)
    """The inputs declared `.ParamType(OPTIONAL)`, by position."""
    optional_outputs: set[int] = field(default_factory=set)
    """The outputs declared `.ParamType(OPTIONAL)`, by position."""

    def attribute(self, name: str) -> int | None:
        for k, a in enumerate(self.attributes):
            if normalised(a.name) == normalised(name):
                return k
        return None


def _dtypes(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(int(t) for t in text.split(","))


def parse_description(text: str) -> tuple[list[OpDefinition], list[str]]:
    ops: list[OpDefinition] = []
    tilings: list[str] = []
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        kind = words[0]
        if kind == "op":
            ops.append(OpDefinition(words[1]))
        elif kind in ("input", "output") and ops:
            listed = getattr(ops[-1], f"{kind}s")
            if words[3:4] == ["optional"]:
                getattr(ops[-1], f"optional_{kind}s").add(len(listed))
            listed.append((words[1], _dtypes(words[2])))
        elif kind == "attr" and ops:
            ops[-1].attributes.append(Attribute(words[1], words[2],
                                                None if words[3] == "-" else words[3]))
        elif kind == "config" and ops:
            ops[-1].configs[words[1]] = dict(w.split("=", 1) for w in words[2:] if "=" in w)
        elif kind == "tiling":
            tilings.append(words[1])
    return ops, tilings


def _compile(cxx: str, units: Sequence[tuple[Path, Sequence[str]]], exe: Path,
             what: str) -> None:
    """Build `exe` from `units` (source, flags) as separate_build does: each source's object
    kept in the build cache, so the harness and an op's definition compile once a run."""
    limit = time_limits.build_limit()
    try:
        done = separate_build.build(cxx, units, exe, limit, builder.c_locale())
    except time_limits.TimedOut:
        raise builder.BuildTimedOut(what, limit) from None
    said = done.stdout + done.stderr
    if done.returncode != 0 and re.search(r"host_fallback/nlohmann/json\.hpp|nlohmann::json", said):
        raise CheckError(f"{what} uses more of nlohmann/json than hswc's stand-in for it "
                         "(hswc/checker/ascendc_cpu/host_fallback/nlohmann/json.hpp: the type, "
                         "parse and dump) has, and the library is not found: looked in "
                         f"{JSON_WHERE}")
    if done.returncode != 0:
        said = [line.replace("the kernel uses", "the tiling uses").replace(
                    "hswc/checker/ascendc_cpu does", "hswc/checker/ascendc_cpu/host does")
                for line in builder.summarise_errors(done.stdout + done.stderr)]
        lines = "\n".join(f"  {line}" for line in said)
        raise CheckError(f"{what} does not build against the CPU model of the tiling context "
                         f"(hswc/checker/ascendc_cpu/host):\n{lines}")


def _run_step(command: list[str], what: str) -> subprocess.CompletedProcess[str]:
    """One run of the built tiling harness, within the run limit (--timeout)."""
    try:
        return time_limits.run(command, time_limits.run_limit())
    except time_limits.TimedOut as error:
        raise CheckError(f"{what} {error} (--timeout): a tiling that never returns?") from None


def _flags(folder: Folder) -> list[str]:
    """The flags of the op's own sources."""
    return [*HOST_FLAGS, f"-I{HOST_MODEL}", *(f"-I{d}" for d in folder.include_dirs),
            f"-I{folder.root.resolve()}", f"-idirafter{HOST_FALLBACK}"]


HARNESS_FLAGS = (*HOST_FLAGS, f"-I{HOST_MODEL}")
"""The harness's flags: it includes the model's headers and the standard library's only, which
the op's -I folders (after the model's) would not change unless one held a file named as a
standard header; so it is the same object for every op, one compile a run. The struct's header
goes to tiling_fields.cpp (FIELDS) with the op's flags (it may include the op's own headers);
the op's sources never take the HSWC_TILING_* macros (the harness's own names)."""


def describe(folder: Folder, cxx: str, workdir: Path) -> OpDefinition:
    """The op definition of the folder (the one whose name its tiling registers, if several)."""
    exe = workdir / "op_def"
    workdir.mkdir(parents=True, exist_ok=True)
    names = ", ".join(str(p) for p in folder.def_files)
    _compile(cxx, [(HARNESS, HARNESS_FLAGS), *((f, _flags(folder)) for f in folder.def_files)],
             exe, f"the op definition {names}")
    done = _run_step([str(exe), "--describe"], f"the op definition {names}")
    ops, _ = parse_description(done.stdout)
    if not ops:
        raise CheckError(f"{names}: no op definition (OP_ADD) found")
    return ops[0]


@dataclass
class HostTiling:
    """The op's tiling, built; `launch` runs it for one size and dtype."""

    executable: Path
    op: OpDefinition
    folder: Folder
    attributes: list[str]
    """`--attr` arguments of the harness, one per attribute of the definition."""
    given: dict[int, str]
    """Attribute index -> the --attr name the user gave for it."""
    template: Sequence[tuple[str, bool]] | None
    """The entry's template parameters: (name, is a type), or None for a plain entry."""
    soc: str
    one_element: frozenset[int] = frozenset()
    """Inputs that are one-element tensors (an attribute passed as a tensor)."""
    absent: frozenset[int] = frozenset()
    """Optional inputs left out (the tiling's GetOptionalInputShape/Desc give null for them)."""
    masks: Mapping[tuple[str, int], MaskTensor] = field(default_factory=dict)
    """Mask tensors by (input or output, position): given their own dtype and shape
    (hswc.checker.masks: DT_UINT1 of the elements' shape, ...), as the framework passes them."""
    kinds: Mapping[tuple[str, int], str] = field(default_factory=dict)
    """A gated op's tensors by (input or output, position): their kind of hswc.checker.halves
    ("x", "half", "one"), given as 2-d shapes [rows, 2H], [rows, H] (or one element) for a run
    of `total` elements of x; or a per-channel op's, of hswc.checker.channels (x and y
    [N, C, L], the weight [C] or [1, C, 1]); empty: every tensor 1-d of `total` elements."""
    dtypes: Mapping[tuple[str, int], str] = field(default_factory=dict)
    """Tensors of another dtype than the run's, by (input or output, position): their numpy
    dtype name (GeluQuant's int8 y, f32 out_scale)."""
    absent_outputs: frozenset[int] = frozenset()
    """Optional outputs left out, the last ones (OpDir.absent_outputs): not given to the tiling,
    whose GetOutputDesc/GetOutputShape then return null for them."""
    fields_of: str | None = None
    """The tiling-data class whose scalar fields each run reports (the kernel's struct when it
    is generated from the class: `tiling_data_header`)."""
    _cache: dict[tuple[int, str, int, int, tuple[int, int] | None], Launch] = field(
        default_factory=dict)
    _checked: bool = False

    @property
    def op_type(self) -> str:
        """The op type the tiling is looked up by: the binary configuration's, else OP_ADD's
        (op_folder.binary_op_type says why)."""
        return self.folder.op_type or self.op.name

    def launch(self, total: int, dtype: str, core_num: int, ub_size: int,
               counted: tuple[int, int] | None = None) -> Launch:
        """`counted`: (position of an absent optional input, G): that input given instead, an
        int64 tensor of [G] (group_index: hswc.checker.counts)."""
        key = (total, dtype, core_num, ub_size, counted)
        if key not in self._cache:
            self._cache[key] = self._run(total, dtype, core_num, ub_size, counted)
        return self._cache[key]

    def _tensor(self, direction: str, k: int, total: int, ge: int) -> str:
        """The harness's words for tensor k of `direction` in a run of `total` elements."""
        mask = self.masks.get((direction, k))
        if mask is not None:
            return mask.tiling_tensor(total)
        kind = self.kinds.get((direction, k))
        own = self.dtypes.get((direction, k))
        number = ge if own is None else NUMPY_GE[own]
        if kind is not None:
            sized = channels.shape if kind in channels.KINDS else halves.shape
            return f"{number}:{'x'.join(map(str, sized(kind, total)))}"
        return f"{number}:{1 if direction == 'input' and k in self.one_element else total}"

    def _input(self, k: int, total: int, ge: int, counted: tuple[int, int] | None) -> str:
        if counted is not None and k == counted[0]:
            return f"{NUMPY_GE['int64']}:{counted[1]}"
        return "none" if k in self.absent else self._tensor("input", k, total, ge)

    def _run(self, total: int, dtype: str, core_num: int, ub_size: int,
             counted: tuple[int, int] | None = None) -> Launch:
        ge = GE_DTYPES[dtype]
        command = [str(self.executable), "--op", self.op_type, "--soc", self.soc, "--core-num",
                   str(core_num), "--ub-size", str(ub_size)]
        command += [a for k, _ in enumerate(self.op.inputs)
                    for a in ("--input", self._input(k, total, ge, counted))]
        command += [a for k, _ in enumerate(self.op.outputs) if k not in self.absent_outputs
                    for a in ("--output", self._tensor("output", k, total, ge))]
        command += [a for value in self.attributes for a in ("--attr", value)]
        if self.fields_of is not None:
            command += ["--fields-of", self.fields_of]
        where = (f"{self.op_type}'s tiling ({', '.join(str(p) for p in self.folder.tiling_files)})"
                 f" for {total} {dtype} elements"
                 + ("" if counted is None else f" and {counted[1]} counts"))
        done = _run_step(command, where)
        if done.returncode == 2:
            raise CheckError(f"{where}: {done.stderr.strip()}")
        lines = {line.split(" ", 1)[0]: line.split(" ", 1)[1] if " " in line else ""
                 for line in done.stdout.splitlines()}
        if done.returncode != 0 or lines.get("status") != "ok":
            logs = [line.removeprefix("hswc_tiling: ") for line in done.stderr.splitlines()
                    if line.startswith("hswc_tiling: ")][:6]
            said = "; ".join(logs) or done.stderr.strip()[:300] or "no message"
            raise CheckError(f"{where} failed: {said}")
        if not self._checked:
            self._checked = True
            read = {int(w) for w in lines.get("attrs_read", "").split()}
            unread = [n for k, n in self.given.items() if k not in read]
            if unread:
                raise CheckError(f"--attr {', '.join(unread)}: {where.split(' for ')[0]} does "
                                 "not read it, so the kernel would not see it")
        block = lines.get("block_dim", "0").split()
        if len(block) > 1:
            raise CheckError(f"{where}: the tiling never called SetBlockDim")
        _, _, hex_bytes = lines.get("tiling", "0 ").partition(" ")
        raw = bytes.fromhex(hex_bytes.strip())
        fields: dict[str, Value] = {}
        for line in done.stdout.splitlines():
            if line.startswith("field "):
                _, name, text = line.split(" ", 2)
                fields[name] = float(text) if any(c in text for c in ".en") else int(text)
        chosen = dict(w.split("=", 1) for w in lines.get("template", "").split())
        key = int(lines.get("tiling_key", "0"))
        workspace = sum(int(w) for w in lines.get("workspace", "").split())  # each asked for
        return Launch(fields, int(block[0]), key, self._template_args(chosen, key), raw,
                      workspace)

    def tiling_data_header(self, *wanted: str) -> tuple[str, Path] | None:
        """The kernel's tiling struct as CANN's kernel build generates it from the tiling-data
        class REGISTER_TILING_DATA_CLASS names for the op type (ops-nn's kernels that say
        `GET_TILING_DATA(d, tiling)` and use `SigmoidTilingData` without declaring it get it
        force-included), with those registered for one tiling key (`OpType_500`) and the
        `wanted` ones (the structs the kernel names) the tiling defines: (the one wanted if the
        header has it, else the op type's class, else the first; the header the harness wrote),
        or None when it has none.
        The header's folder depends on its text alone (the build cache keys on the kernel
        build's command line, which names it)."""
        done = _run_step([str(self.executable), "--tiling-header", self.op_type, *wanted],
                         f"{self.op_type}'s tiling-data header")
        first, _, rest = done.stdout.partition("\n")
        if done.returncode != 0 or not first.startswith("// tiling-data class "):
            return None
        name = first.removeprefix("// tiling-data class ").strip()
        listed = rest.partition("\n")[0].removeprefix("// tiling-data classes").split()
        if len(wanted) == 1 and wanted[0] in listed:
            name = wanted[0]
        tag = hashlib.sha256(done.stdout.encode()).hexdigest()[:16]
        directory = Path(tempfile.gettempdir()) / f"hswc-tiling-data-{os.getuid()}" / tag
        directory.mkdir(parents=True, exist_ok=True)
        header = directory / f"{snake(self.op_type)}_tiling_data.h"
        if not header.is_file() or header.read_text(encoding="utf-8") != done.stdout:
            partial = header.with_name(f"{header.name}.{os.getpid()}")
            partial.write_text(done.stdout, encoding="utf-8")
            partial.replace(header)
        return name, header

    def _template_args(self, chosen: Mapping[str, str], tiling_key: int) -> str | None:
        """The entry's template arguments: ASCENDC_TPL_SEL_PARAM's choice by name (or in
        order), a non-type parameter called tilingKey the launch's key (an entry templated on
        the key itself, as ops-nn's experimental elu: CANN builds one instance per key)."""
        keyed = {name for name, is_type in self.template or () if not is_type
                 and normalised(name) == "tilingkey" and name not in chosen}
        if self.template is None or not (chosen or keyed):
            return None
        values = list(chosen.values())
        args = []
        for k, (name, is_type) in enumerate(self.template):
            text = str(tiling_key) if name in keyed else chosen.get(name)
            if text is None and len(values) == len(self.template):
                text = values[k]
            if text is None:
                args.append("{T}" if is_type else "0")
            elif is_type:
                args.append(TEMPLATE_TYPES.get(int(text), "{T}"))
            else:
                args.append(text)
        return ", ".join(args)


def attribute_arguments(op: OpDefinition, given: Mapping[str, str]) -> tuple[list[str],
                                                                               dict[int, str]]:
    """The harness's --attr list (every attribute of the definition, the user's value or its
    default) and which indices the user gave."""
    values: dict[int, str] = {}
    names: dict[int, str] = {}
    for name, text in given.items():
        k = op.attribute(name)
        if k is not None:
            values[k], names[k] = text, name
    out = []
    for k, a in enumerate(op.attributes):
        text = values.get(k, a.default)
        out.append(f"{a.type}:{text}" if text is not None else "none:")
    return out, names


def build(folder: Folder, op: OpDefinition, given: Mapping[str, str],
          struct: str | None, fields: Sequence[str], struct_header: Path | None,
          template: Sequence[tuple[str, bool]] | None, cxx: str, workdir: Path,
          one_element: frozenset[int] = frozenset(),
          absent: frozenset[int] = frozenset(),
          masks: Mapping[tuple[str, int], MaskTensor] | None = None,
          kinds: Mapping[tuple[str, int], str] | None = None,
          dtypes: Mapping[tuple[str, int], str] | None = None,
          absent_outputs: frozenset[int] = frozenset()) -> HostTiling:
    exe = workdir / "op_tiling"
    flags = _flags(folder)
    units: list[tuple[Path, Sequence[str]]] = [(HARNESS, HARNESS_FLAGS)]
    if struct_header is not None and struct is not None:
        scope = struct_namespace(strip_comments(struct_header.read_text(
            encoding="utf-8", errors="replace")), struct)
        units.append((FIELDS, [
            *flags, f'-DHSWC_TILING_HEADER="{struct_header.resolve()}"',
            f"-DHSWC_TILING_STRUCT={scope}{struct}",
            "-DHSWC_TILING_FIELDS=" + " ".join(f"HSWC_TILING_FIELD({f})" for f in fields)]))
    files = (*folder.def_files, *folder.tiling_files, *folder.dependency_tilings,
             *atvoss_sources(folder))
    _compile(cxx, [*units, *((f, flags) for f in files)], exe,
             f"the tiling of {op.name} ({', '.join(str(p) for p in folder.tiling_files)})")
    attributes, names = attribute_arguments(op, given)
    return HostTiling(exe, op, folder, attributes, names, template, folder.soc, one_element,
                      absent, dict(masks or {}), dict(kinds or {}), dict(dtypes or {}),
                      absent_outputs)
