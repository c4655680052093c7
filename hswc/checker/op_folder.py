"""An ops-nn op's folder: the files its build would compile for one SoC.

    OPDIR/op_host/*_def.cpp                 the op definition (inputs, attributes, SoC configs)
    OPDIR/op_host/*tiling*.cpp              the tiling, with op_host/arch35/ for Ascend 950 and
    OPDIR/op_host/arch35/*tiling*.cpp       op_host/arch22/ (if any) for Atlas A2/A3
    OPDIR/op_kernel/<opFile>.cpp            the kernel the def's AICore config names for the SoC
                                            (`ExtendCfgInfo("opFile.value", ...)`), else the one
                                            named after the op

The host build gets the include directories ops-nn's CMake gives a tiling object: its
cmake/variables.cmake OP_TILING_INCLUDE (the ops-nn root, `common/inc`, `common/inc/op_host`,
when the folder sits in an ops-nn tree) and cmake/func.cmake add_tiling_sources's
`op_host/../../` and `op_host/` (so that `op_host/arch35/x_tiling.cpp` finds
`../op_kernel/arch35/x_dag.h` through op_host/); opbase (whose `pkg_inc/op_common` holds ATVOSS,
`atvoss/util/dag.h`) is found where ops-nn's cmake/third_party/opbase.cmake looks:
$OPBASE_SOURCE_PATH, else an `ops-base` checkout two levels above the ops-nn root, else
$CANN_3RD_LIB_PATH/opbase.

The kernel build sees the tree ops-nn's cmake/gen_ops_info.cmake lays out for the kernel
compiler: each op's op_kernel/ copied to tbe/ascendc/<op>/ and common/inc/op_kernel/ to
tbe/ascendc/inc/, so that a kernel's `#include "../inc/platform.h"` (KERNEL_API, ...) finds
ops-nn's common/inc/op_kernel/platform.h. `kernel_tree` stands for that tree: a folder holding
`inc` (a link to common/inc/op_kernel) and an empty `op/` given with -I, at a path that depends
only on the ops-nn root (the build cache keys on the command line).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hswc.checker.errors import CheckError

ARCH_DIRS = {"ascend950": ("arch35",)}
"""The op_host/op_kernel subfolders each SoC's build adds (others: arch22 if present)."""
DEFAULT_ARCH_DIRS = ("arch22",)


def is_op_folder(path: str | Path) -> bool:
    p = Path(path)
    return p.is_dir() and (p / "op_host").is_dir() and (p / "op_kernel").is_dir()


def snake(name: str) -> str:
    """HardSigmoidGrad -> hard_sigmoid_grad, ThresholdGradV2D -> threshold_grad_v2_d."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return s.lower()


def normalised(name: str) -> str:
    """An attribute name in either spelling (negative_slope, negativeSlope) -> negativeslope."""
    return name.replace("_", "").lower()


@dataclass(frozen=True)
class Folder:
    root: Path
    soc: str
    def_files: tuple[Path, ...]
    tiling_files: tuple[Path, ...]
    include_dirs: tuple[Path, ...]
    """-I for the host build, as ops-nn's CMake gives a tiling object (see the module
    docstring): opbase's ATVOSS headers, if opbase is found; the ops-nn root, common/inc and
    common/inc/op_host, if the folder sits in an ops-nn tree; op_host/../../ and op_host/."""
    kernel_include_dirs: tuple[Path, ...] = ()
    """-I for the kernel build: opbase's ATVOSS headers, if opbase is found; the ops-nn root
    and `kernel_tree`'s folder, in an ops-nn tree."""
    opbase: Path | None = None
    """opbase's root, if found: its ATVOSS tiling sources are built with the op's tiling."""
    op_type: str | None = None
    """The op type its binary configuration for the SoC names (see `binary_op_type`), if any:
    the tiling is looked up by it rather than by OP_ADD's name."""
    dependency_tilings: tuple[Path, ...] = ()
    """The tiling sources of the ops its CMakeLists.txt names as DEPENDENCIES (see
    `dependencies`), built and linked with its own."""

    @property
    def arch_dirs(self) -> tuple[str, ...]:
        return ARCH_DIRS.get(self.soc, DEFAULT_ARCH_DIRS)

    def host_text(self) -> str:
        return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                         for p in (*self.def_files, *self.tiling_files))


def ops_nn_root(root: Path) -> Path | None:
    for parent in root.resolve().parents:
        if (parent / "common" / "inc").is_dir() and (parent / "cmake").is_dir():
            return parent
    return None


def folder(path: str | Path, soc: str) -> Folder:
    """The op folder's host files for `soc`; a CheckError when it has no definition or tiling."""
    root = Path(path)
    host = root / "op_host"
    defs = tuple(sorted(host.glob("*_def.cpp")))
    if not defs:
        raise CheckError(f"{root}: not an ops-nn op folder this checker can read: op_host/ "
                         "holds no *_def.cpp (the op definition)")
    dirs = tiling_dirs(root, soc)
    tilings = _tiling_sources(host, dirs)
    if not tilings:
        where = ", ".join(f"op_host/{d}/" for d in dirs)
        raise CheckError(f"{root}: no tiling source (*tiling*.cpp) in op_host/ or {where} for "
                         f"{soc}")
    base = ops_nn_root(root)
    # ops-nn's OP_TILING_INCLUDE: its root (tilings include "activation/<op>/op_kernel/..."),
    # common/inc and common/inc/op_host.
    ops_nn = ((base, base / "common" / "inc", base / "common" / "inc" / "op_host")
              if base is not None else ())
    opbase = opbase_root(base)
    atvoss = opbase_includes(opbase)
    # OP_TILING_INCLUDE's order: opbase's, nlohmann/json's, then ops-nn's; then
    # add_tiling_sources's.
    depends = dependencies(root)
    host_dirs = (*atvoss, *opbase_host_includes(opbase), *json_includes(), *ops_nn,
                 *tiling_source_dirs(root),
                 *(d for dep in depends for d in tiling_source_dirs(dep)))
    tree = kernel_tree(base, depends)
    return Folder(root, soc, defs, tuple(tilings), tuple(dict.fromkeys(host_dirs)),
                  (*atvoss, *ops_nn[:1], *tree), opbase, binary_op_type(root, soc),
                  tuple(p for dep in depends for p in _tiling_sources(dep / "op_host", dirs)))


def tiling_dirs(root: Path, soc: str) -> tuple[str, ...]:
    """The op_host subfolder the SoC's tiling is built from: the one the folder's CMakeLists.txt
    (or op_host's) pairs with it, `set(SUPPORT_COMPUTE_UNIT ...)` beside `set(SUPPORT_TILING_DIR
    ...)` (ops-nn's cmake/func.cmake add_modules_sources: COMPUTE_UNIT and TILING_DIR "一一对应",
    find_value_by_key; experimental relu_v2 builds Atlas A2/A3's from op_host/ascend910b/), else
    ARCH_DIRS's."""
    for cmake in (root / "CMakeLists.txt", root / "op_host" / "CMakeLists.txt"):
        try:
            text = cmake.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        units = re.search(r"set\(\s*SUPPORT_COMPUTE_UNIT\s+([^)]*)\)", text)
        dirs = re.search(r"set\(\s*SUPPORT_TILING_DIR\s+([^)]*)\)", text)
        if units is None or dirs is None:
            continue
        pairs = dict(zip(re.findall(r'"?([\w.]+)"?', units.group(1)),
                         re.findall(r'"?([\w.]+)"?', dirs.group(1)), strict=False))
        if soc in pairs:
            return (pairs[soc],)
    return ARCH_DIRS.get(soc, DEFAULT_ARCH_DIRS)


def _tiling_sources(host: Path, dirs: tuple[str, ...]) -> list[Path]:
    """op_host's *tiling*.cpp, then those of its SoC subfolders `dirs`."""
    tilings = [p for p in sorted(host.glob("*.cpp")) if "tiling" in p.name]
    for d in dirs:
        tilings += [p for p in sorted((host / d).glob("*.cpp")) if "tiling" in p.name]
    return tilings


def dependencies(root: Path) -> tuple[Path, ...]:
    """The op folders the op's CMakeLists.txt names in add_modules_sources(... DEPENDENCIES
    a b ...) (ops-nn's cmake/func.cmake: "算子依赖"), beside it in its category folder: ops-nn
    builds every tiling into one library, so log_softmax_v2's tiling classes, which derive from
    SoftmaxV2's (`op_host/arch35/log_softmax_v2_tiling.h:19`), link with softmax_v2's sources.
    A named folder that is not there is left out (the link then names what is missing). Where
    the call is in op_host/CMakeLists.txt instead, a folder it names is linked when the op's
    host sources include a file of that folder's op_host/ (swi_glu's tiling includes
    `../../swi_glu_grad/op_host/swi_glu_grad_tiling_regbase.h`, whose .cpp defines what it uses;
    glu's names sigmoid for its aclnn code alone, and sigmoid's tiling needs nlohmann/json)."""
    found = _named_dependencies(root, root / "CMakeLists.txt")
    host = root / "op_host"
    named = _named_dependencies(root, host / "CMakeLists.txt")
    if named:
        text = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                         for p in sorted(host.rglob("*")) if p.suffix in (".cpp", ".h", ".hpp"))
        found += tuple(d for d in named if f"{d.name}/op_host/" in text)
    return tuple(dict.fromkeys(found))


def _named_dependencies(root: Path, cmake: Path) -> tuple[Path, ...]:
    """The folders `cmake`'s add_modules_sources(... DEPENDENCIES ...) names, that are there."""
    try:
        text = cmake.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    found: list[Path] = []
    for m in re.finditer(r"\bDEPENDENCIES\s+([^)]*)", text):
        for name in re.split(r"\s+", m.group(1).strip()):
            if name.isupper() or not re.fullmatch(r"[a-z0-9_]+", name):
                break  # the next keyword (COMPUTE_UNIT, ...) or a variable
            dep = root.resolve().parent / name  # beside the folder itself, not a link to it
            if dep != root and (dep / "op_host").is_dir():
                found.append(dep)
    return tuple(found)


def kernel_tree(ops_nn: Path | None, depends: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """The -I directory through which `../inc/X` reaches ops-nn's common/inc/op_kernel/X, as it
    does from tbe/ascendc/<op>/ in ops-nn's kernel build (see the module docstring); none
    outside an ops-nn tree. With `depends` (the op's DEPENDENCIES), each one's op_kernel/ is
    linked in the tree as tbe/ascendc/<dep>/ holds it, and a second directory, one level deeper,
    lets `../../<dep>/arch35/x.h` from a kernel's arch35/ header reach it (log_softmax_v2's
    `op_kernel/arch35/log_softmax_v2_ar_small_r.h:23`)."""
    if ops_nn is None or not (ops_nn / "common" / "inc" / "op_kernel").is_dir():
        return ()
    target = (ops_nn / "common" / "inc" / "op_kernel").resolve()
    tag = hashlib.sha256(str(target).encode()).hexdigest()[:16]
    tree = Path(tempfile.gettempdir()) / f"hswc-ascendc-tree-{os.getuid()}" / tag
    op = tree / "op"
    op.mkdir(parents=True, exist_ok=True)
    _link(tree / "inc", target)
    if not depends:
        return (op,)
    for dep in depends:
        _link(tree / dep.name, (dep / "op_kernel").resolve())
    (op / "sub").mkdir(exist_ok=True)
    return (op, op / "sub")


def _link(link: Path, target: Path) -> None:
    """`link` -> `target`, replaced atomically when it points elsewhere."""
    if not link.is_symlink() or link.resolve() != target:
        temporary = link.with_name(f"{link.name}.{os.getpid()}")
        if temporary.is_symlink():
            temporary.unlink()
        temporary.symlink_to(target, target_is_directory=True)
        os.replace(temporary, link)


JSON_WHERE = ("$JSON_SOURCE_PATH/include (ops-nn's cmake/variables.cmake JSON_INCLUDE, the json "
              "third party its build fetches), $CANN_3RD_LIB_PATH/json/include, the "
              "nlohmann_json Python package (pip install nlohmann-json) or the compiler's own "
              "include path (Debian's nlohmann-json3-dev)")
"""Where the host build looks for nlohmann/json (`json_includes`), for the messages."""


def json_includes(environ: dict[str, str] | None = None) -> tuple[Path, ...]:
    """The directory holding nlohmann/json.hpp for tilings that parse their compile info with
    it, found where ops-nn's build takes it (JSON_INCLUDE = $JSON_SOURCE_PATH/include), else
    $CANN_3RD_LIB_PATH/json/include (as CANN's ge tests take it), else the PyPI package
    nlohmann-json's headers; none when it is in none of them (a system install needs no -I)."""
    env = os.environ if environ is None else environ
    candidates = []
    if env.get("JSON_SOURCE_PATH"):
        candidates.append(Path(env["JSON_SOURCE_PATH"]) / "include")
    if env.get("CANN_3RD_LIB_PATH"):
        candidates.append(Path(env["CANN_3RD_LIB_PATH"]) / "json" / "include")
    spec = importlib.util.find_spec("nlohmann_json") if environ is None else None
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) / "include" for p in spec.submodule_search_locations]
    for c in candidates:
        if (c / "nlohmann" / "json.hpp").is_file():
            return (c.resolve(),)
    return ()


def tiling_source_dirs(root: Path) -> tuple[Path, ...]:
    """The include directories ops-nn's cmake/func.cmake add_tiling_sources gives the op's
    tiling sources, after OP_TILING_INCLUDE: `${source_dir}/../../` and `${source_dir}`, the
    source dir being the op's op_host/ (`../op_kernel/...` from op_host/arch35/ resolves
    through op_host/)."""
    host = (root / "op_host").resolve()
    return (host.parent.parent, host)


def binary_op_type(root: Path, soc: str) -> str | None:
    """The op type the op's kernels are built and launched under, when its binary configuration
    names one: `"op_type"` of op_host/config/<soc>/<folder name>_binary.json, which ops-nn's
    cmake/func.cmake (get_op_type_from_binary_json) takes before OP_ADD's name (metadef's OP_ADD
    registers the definition under its class name, `#opType`, so `OP_ADD(EluDef)` names an
    op EluDef while the binary config, the proto and the tiling say Elu)."""
    config = root / "op_host" / "config" / soc / f"{root.resolve().name}_binary.json"
    try:
        text = config.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    m = re.search(r'"op_type"\s*:\s*"([^"]+)"', text)
    return m.group(1) if m else None


ATVOSS_PARTS = ("elewise", "broadcast", "reduce")
"""opbase's ATVOSS tiling libraries: pkg_inc/op_common/atvoss/<part>/ headers, whose
non-template code is in src/op_common/atvoss/<part>/*.cpp."""


def atvoss_sources(folder: Folder) -> tuple[Path, ...]:
    """opbase's src/op_common/atvoss/<part>/*.cpp for each ATVOSS part the op's host files, or
    the tilings of the ops it depends on, include (ops-nn links them from opbase's library):
    PReluGradUpdate's build links PReluGradReduce's reduce tiling."""
    if folder.opbase is None:
        return ()
    text = "\n".join([folder.host_text(), *(p.read_text(encoding="utf-8", errors="replace")
                                             for p in folder.dependency_tilings)])
    out: list[Path] = []
    for part in ATVOSS_PARTS:
        if re.search(rf'#\s*include\s*["<](?:op_common/)?atvoss/{part}/', text) or any(
                f"atvoss/{part}/" in h for h in _local_header_text(folder)):
            out += sorted((folder.opbase / "src" / "op_common" / "atvoss" / part).glob("*.cpp"))
    return tuple(out)


def _local_header_text(folder: Folder) -> list[str]:
    """The op's own op_host headers (a tiling's .h may be where the ATVOSS include is)."""
    host = folder.root / "op_host"
    return [p.read_text(encoding="utf-8", errors="replace")
            for d in (host, *(host / a for a in folder.arch_dirs)) for p in sorted(d.glob("*.h"))]


def opbase_root(ops_nn: Path | None, environ: dict[str, str] | None = None) -> Path | None:
    """Where ops-nn's build takes opbase from (see the module docstring), or None."""
    env = os.environ if environ is None else environ
    candidates = [Path(env["OPBASE_SOURCE_PATH"])] if env.get("OPBASE_SOURCE_PATH") else []
    if ops_nn is not None:
        candidates.append(ops_nn / ".." / ".." / "ops-base")
    if env.get("CANN_3RD_LIB_PATH"):
        candidates.append(Path(env["CANN_3RD_LIB_PATH"]) / "opbase")
    for c in candidates:
        if (c / "pkg_inc").is_dir():
            return c.resolve()
    return None


def opbase_includes(opbase: Path | None) -> tuple[Path, ...]:
    """opbase's include directories ATVOSS needs: pkg_inc/op_common (atvoss/...), pkg_inc
    (op_common/atvoss/...), include/op_common and include (op_common/op_host/util/...)."""
    if opbase is None:
        return ()
    dirs = (opbase / "pkg_inc" / "op_common", opbase / "pkg_inc", opbase / "include" / "op_common",
            opbase / "include")
    return tuple(d for d in dirs if d.is_dir())


def opbase_host_includes(opbase: Path | None) -> tuple[Path, ...]:
    """The rest of opbase's OPBASE_INC_DIRS a tiling sees (ops-nn's cmake/modules/
    FindOPBASE.cmake:43-52): include/op_common/op_host and op_graph, through which ops-nn's
    common/inc/op_api/runtime2_util.h reaches `util/fp16.h`."""
    if opbase is None:
        return ()
    common = opbase / "include" / "op_common"
    return tuple(d for d in (common / "op_host", common / "op_graph") if d.is_dir())


def kernel_file(root: Path, op_name: str, op_file: str | None, soc: str,
                configured: tuple[str, ...]) -> Path:
    """The op_kernel source the build compiles for `soc`: the KERNEL_SRC an
    `add_kernel_sources(... COMPUTE_UNITS soc ...)` of op_kernel/CMakeLists.txt names for it
    (ops-nn's cmake/func.cmake; hard_swish_grad_v2 keeps its A2 kernel in op_kernel/ and its
    950 one in op_kernel/arch35/ under one name), else the definition's file there."""
    stem = op_file or snake(op_name)
    kernel = root / "op_kernel"
    listed = _cmake_kernel_source(kernel, soc)
    if listed is not None:
        return listed
    for candidate in (kernel / f"{stem}.cpp", *(kernel / d / f"{stem}.cpp"
                                                for d in ARCH_DIRS.get(soc, DEFAULT_ARCH_DIRS))):
        if candidate.is_file():
            return candidate
    socs = ", ".join(configured) or "none"
    raise CheckError(f"{root}/op_kernel: no {stem}.cpp, the kernel {op_name}'s definition names "
                     f"for {soc} (its AICore configurations: {socs})")


_ADD_KERNEL_SOURCES = re.compile(r"\badd_kernel_sources\s*\(([^)]*)\)", re.IGNORECASE)


def _cmake_kernel_source(kernel: Path, soc: str) -> Path | None:
    """The KERNEL_SRC op_kernel/CMakeLists.txt gives `soc` (None: it names none)."""
    try:
        text = (kernel / "CMakeLists.txt").read_text(errors="replace")
    except OSError:
        return None
    text = re.sub(r"#[^\n]*", "", text)
    for call in _ADD_KERNEL_SOURCES.findall(text):
        words = call.split()
        if "KERNEL_SRC" not in words or "COMPUTE_UNITS" not in words:
            continue
        source = words[words.index("KERNEL_SRC") + 1]
        units = words[words.index("COMPUTE_UNITS") + 1:]
        units = units[:next((k for k, w in enumerate(units) if w.isupper()), len(units))]
        if soc in units and (kernel / source).is_file():
            return kernel / source
    return None
