"""The CPU model's non-template code compiled once per flag set, and harness builds that link it.

A harness build (g++ ... harness.cpp -o EXE: the model, the harness and one kernel in one
translation unit) spent much of its time compiling the model's and the harness driver's own
functions, which are the same for every kernel (about 1.6 of 4.2 CPU s for the HardSwishGrad
fixture: bench/bench_model_object.py). Those are the ASCENDC_CPU_FN functions
(hswc/checker/ascendc_cpu/ascendc_cpu_fn.h): built once into an object,
ascendc_cpu/model_object.cpp with -DASCENDC_CPU_OBJECT, kept in the build cache
(hswc.checker.build_cache, $HSWC_BUILD_CACHE), a kernel's build compiles harness.cpp with
-DASCENDC_CPU_PREBUILT (those bodies read, not compiled) and links the object.

The object's flags are the harness build's, less what belongs to one kernel or changes no code:
its sources and output, its -I folders and -include files, warning and error-display flags (the
kernel's build still reads and warns on every body), the -O levels (-O0 is the default), and
every -D of a name the model's own preprocessor conditionals never test (the kernel's DTYPE_*,
its tiling struct's HSWC_TILING_STRUCT, ...; the harness's per-kernel HSWC_KERNEL_*, HSWC_GM_*
and HSWC_TILING_* macros are read by harness.cpp only). Assumed: a kernel's forced include
(a tiling struct's header) defines no macro the model tests; the model's own -include
(kernel_operator.h, as the checker forces it) is the same in both.
Its key hashes those flags, the compiler (path, size, modification time) and every file of the
model (and hswc/api_tables.def, which it includes). It is written under a name of its own and
renamed into place, so concurrent builders (pytest's workers) never see half a file, and two
that build the same object both end with a whole one; nothing is locked.

Without the cache, at an optimisation level other than -O0 (an optimised build may inline a
`gnu_inline` body, and a function-local static such as the runtime's would then be a second
copy), or when the object does not build, a build stays one translation unit; the reason goes
to this module's debug log.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

from hswc.checker import build_cache, std_unit

LOG = logging.getLogger(__name__)
MODEL = Path(__file__).resolve().with_name("ascendc_cpu")
"""The C++ CPU model of AscendC and its harness: package data, beside this module."""
HARNESS = MODEL / "harness.cpp"
OBJECT_SOURCE = MODEL / "model_object.cpp"
API_TABLE = MODEL.parent.parent / "api_tables.def"
"""Included by the model (ascendc_cpu_api.h), outside its folder."""
PER_KERNEL = re.compile(r"HSWC_(KERNEL|GM|TILING)_\w*")
"""The harness's per-kernel macros (harness.cpp's header comment): never in the object."""
NO_CODE = ("-I", "-include", "-W", "-fmax-errors", "-fdiagnostics", "-O")
"""Flags that change no code of the object: a kernel's include folders and forced includes,
warnings, how errors are shown, and the -O levels (the last is -O0, the default): the checker's
builds (-O0 -w -fmax-errors=20) and the tests' (-Wall -Wextra -Werror) share one object per
SoC."""
_CONDITIONAL = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif)\b(.*)$", re.M)


def _model_files() -> list[Path]:
    files = sorted(p for p in MODEL.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return [*files, API_TABLE]


@functools.cache
def _tested_names(stamp: tuple[tuple[str, int], ...]) -> frozenset[str]:
    """Every name a preprocessor conditional of the model's files tests (`stamp`: the files and
    their modification times, so that an edited model is read again)."""
    names: set[str] = set()
    for name, _ in stamp:
        text = Path(name).read_text(errors="replace")
        for m in _CONDITIONAL.finditer(text):
            names.update(re.findall(r"[A-Za-z_]\w*", m.group(1)))
    return frozenset(n for n in names if not PER_KERNEL.fullmatch(n))


def _stamp(files: Sequence[Path]) -> tuple[tuple[str, int], ...]:
    return tuple((str(p), p.stat().st_mtime_ns) for p in files)


def object_flags(command: Sequence[str], source: Path = HARNESS) -> list[str] | None:
    """The flags of the model object for the harness build `command` (module docstring), or
    None when `command` is no plain -O0 build of `source` (harness.cpp, or another file that
    includes the model, such as a package's kernel unit test) into an executable."""
    args = list(command[1:])
    if str(source) not in args or "-o" not in args:
        return None
    if any(a in ("-c", "-S", "-E", "-M", "-MM", "-fsyntax-only") for a in args):
        return None
    levels = [a for a in args if a.startswith("-O")]
    if levels and levels[-1] != "-O0":
        return None
    tested = _tested_names(_stamp(_model_files()))
    flags: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in ("-o", "-I", "-include", "-D"):
            if arg == "-D" and i + 1 < len(args) and _macro(args[i + 1]) in tested:
                flags += [arg, args[i + 1]]
            skip = True
        elif arg.startswith("-D"):
            if _macro(arg[2:]) in tested:
                flags.append(arg)
        elif arg.startswith(NO_CODE) or not arg.startswith("-"):
            continue
        else:
            flags.append(arg)
    return flags


def _macro(definition: str) -> str:
    return definition.split("=", 1)[0]


def object_key(cxx: str, flags: Sequence[str]) -> str | None:
    """The cache key of the object built with `flags` (module docstring); None if `cxx` is not
    on PATH."""
    compiler = shutil.which(cxx)
    if compiler is None:
        return None
    digest = hashlib.sha256()
    stat = os.stat(compiler)
    for part in [*flags, compiler, str(stat.st_size), str(stat.st_mtime_ns)]:
        digest.update(part.encode() + b"\0")
    for path in _model_files():
        digest.update(str(path.relative_to(MODEL.parent.parent)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def object_command(cxx: str, flags: Sequence[str], output: Path) -> list[str]:
    return [cxx, *flags, "-w", "-DASCENDC_CPU_OBJECT", f"-I{MODEL}", "-c", str(OBJECT_SOURCE),
            "-o", str(output)]


def model_object(cxx: str, flags: Sequence[str], env: dict[str, str] | None = None
                 ) -> Path | str:
    """The cached object of `flags` (named by its key), built if it is not there yet; or why
    there is none."""
    folder = build_cache.cache_folder()
    if folder is None:
        return f"no build cache (${build_cache.CACHE_VARIABLE} unset)"
    key = object_key(cxx, flags)
    if key is None:
        return f"no compiler '{cxx}'"
    entry = folder / "model" / f"{key}.o"
    if entry.is_file():
        return entry
    return build_cache.build_in_place(
        entry, lambda partial: object_command(cxx, flags, partial), "the model object", env)


def prebuilt(command: Sequence[str], env: dict[str, str] | None = None,
             source: Path = HARNESS) -> list[str]:
    """The harness build `command` (of `source`: harness.cpp, or another file that includes the
    model and defines no ASCENDC_CPU_FN function of its own) as one that links the flag set's
    model object (building the object into the cache first if needed) and reads the standard
    library's headers precompiled (hswc.checker.std_unit), or `command` itself when it cannot
    (the reason in the debug log)."""
    flags = object_flags(command, source)
    if flags is None:
        LOG.debug("one translation unit: not a -O0 build of %s: %s", source.name,
                  " ".join(command))
        return list(command)
    found = model_object(command[0], flags, env)
    if isinstance(found, str):
        LOG.debug("one translation unit: %s", found)
        return list(command)
    header = std_unit.precompiled(command[0], flags, found.stem, env)
    if isinstance(header, str):
        LOG.debug("the standard headers parsed: %s", header)
    first = [] if isinstance(header, str) else ["-include", str(header)]
    at = list(command).index(str(source))
    return [command[0], *first, *command[1:at], "-DASCENDC_CPU_PREBUILT", str(source),
            str(found), *command[at + 1:]]


def link_failed(command: Sequence[str], output: str) -> bool:
    """Whether `command`, a build that linked a model object (prebuilt), failed to link: then
    the caller builds one translation unit instead, which reports the kernel's own missing
    definitions as a build without the object would."""
    if "-DASCENDC_CPU_PREBUILT" not in command or "undefined reference" not in output:
        return False
    LOG.debug("one translation unit: linking the model object failed: %s",
              output.strip().splitlines()[-1:])
    return True
