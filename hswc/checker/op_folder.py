"""An ops-nn op's folder: the files its build would compile for one SoC.

    OPDIR/op_host/*_def.cpp                 the op definition (inputs, attributes, SoC configs)
    OPDIR/op_host/*tiling*.cpp              the tiling, with op_host/arch35/ for Ascend 950 and
    OPDIR/op_host/arch35/*tiling*.cpp       op_host/arch22/ (if any) for Atlas A2/A3
    OPDIR/op_kernel/<opFile>.cpp            the kernel the def's AICore config names for the SoC
                                            (`ExtendCfgInfo("opFile.value", ...)`), else the one
                                            named after the op

ops-nn's own shared headers (`common/inc`: op_host/tiling_base.h, ...) come from the ops-nn root
above the folder, as its CMake adds them; opbase (whose `pkg_inc/op_common` holds ATVOSS,
`atvoss/util/dag.h`) is found where ops-nn's cmake/third_party/opbase.cmake looks:
$OPBASE_SOURCE_PATH, else an `ops-base` checkout two levels above the ops-nn root, else
$CANN_3RD_LIB_PATH/opbase.
"""

from __future__ import annotations

import os
import re
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
    """-I for the host build: ops-nn's common/inc, if the folder sits in an ops-nn tree, and
    opbase's ATVOSS headers, if opbase is found."""
    kernel_include_dirs: tuple[Path, ...] = ()
    """-I for the kernel build: opbase's ATVOSS headers, if opbase is found."""
    opbase: Path | None = None
    """opbase's root, if found: its ATVOSS tiling sources are built with the op's tiling."""

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
    dirs = ARCH_DIRS.get(soc, DEFAULT_ARCH_DIRS)
    tilings = [p for p in sorted(host.glob("*.cpp")) if "tiling" in p.name]
    for d in dirs:
        tilings += [p for p in sorted((host / d).glob("*.cpp")) if "tiling" in p.name]
    if not tilings:
        where = ", ".join(f"op_host/{d}/" for d in dirs)
        raise CheckError(f"{root}: no tiling source (*tiling*.cpp) in op_host/ or {where} for "
                         f"{soc}")
    base = ops_nn_root(root)
    # ops-nn's common/inc, and its root (tilings include "activation/<op>/op_kernel/...").
    includes = (base / "common" / "inc", base) if base is not None else ()
    opbase = opbase_root(base)
    atvoss = opbase_includes(opbase)
    return Folder(root, soc, defs, tuple(tilings), (*includes, *atvoss), (*atvoss, *includes[1:]),
                  opbase)


ATVOSS_PARTS = ("elewise", "broadcast", "reduce")
"""opbase's ATVOSS tiling libraries: pkg_inc/op_common/atvoss/<part>/ headers, whose
non-template code is in src/op_common/atvoss/<part>/*.cpp."""


def atvoss_sources(folder: Folder) -> tuple[Path, ...]:
    """opbase's src/op_common/atvoss/<part>/*.cpp for each ATVOSS part the op's host files
    include (ops-nn links them from opbase's library)."""
    if folder.opbase is None:
        return ()
    text = folder.host_text()
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


def kernel_file(root: Path, op_name: str, op_file: str | None, soc: str,
                configured: tuple[str, ...]) -> Path:
    """The op_kernel source the build compiles for `soc`."""
    stem = op_file or snake(op_name)
    kernel = root / "op_kernel"
    for candidate in (kernel / f"{stem}.cpp", *(kernel / d / f"{stem}.cpp"
                                                for d in ARCH_DIRS.get(soc, DEFAULT_ARCH_DIRS))):
        if candidate.is_file():
            return candidate
    socs = ", ".join(configured) or "none"
    raise CheckError(f"{root}/op_kernel: no {stem}.cpp, the kernel {op_name}'s definition names "
                     f"for {soc} (its AICore configurations: {socs})")
