"""What the checker reads from a hand-written kernel's sources, before compiling them.

A kernel is a directory (an ops-nn operator root, whose `op_kernel/` is used, or an `op_kernel`
folder itself) or one `.cpp` file. The scan strips comments and finds, as text:

- the entry: `[template <...>] [extern "C"] __global__ __aicore__ void NAME(GM_ADDR ...,
  GM_ADDR workspace, GM_ADDR tiling)`, with its template parameters and its GM arguments; the
  qualifiers may come through object-like macros, as the compiler expands them (ops-nn's
  `KERNEL_API void elu(...)`, common/inc/op_kernel/platform.h defining KERNEL_API as
  `extern "C" __global__ __aicore__`): the macros are those the preprocessed source sees;
- the `DTYPE_*` macros the sources use without defining them (ops-nn's build defines them from
  the operator's dtype; the checker defines each as the element type under test);
- the tiling struct the entry reads (`GET_TILING_DATA_WITH_STRUCT(S, ...)`,
  `REGISTER_TILING_DEFAULT(S)`) and its fields, which the harness then lays out (g++ knows the
  offsets and types; the scan only needs the names).

Everything else about the sources is left to g++.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hswc.checker import time_limits
from hswc.checker.errors import CheckError

SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp")

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_ENTRY = re.compile(
    r"(?:template\s*<(?P<tparams>[^<>]*)>\s*)?"
    r"(?P<quals>(?:(?:extern\s+\"C\"|[A-Za-z_]\w*)\s+)+)"
    r"void\s+(?P<name>\w+)\s*\((?P<params>[^()]*)\)\s*\{")
"""A function returning void; it is an entry when its qualifiers, macros expanded, hold
__global__."""
_QUALIFIERS = frozenset({"extern", '"C"', "__global__", "__aicore__"})
"""Words never expanded as macros (the CPU model defines __global__ and __aicore__ as
nothing)."""
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\(?)[ \t]*(.*)$", re.M)
_UNDEF = re.compile(r"^[ \t]*#[ \t]*undef[ \t]+([A-Za-z_]\w*)", re.M)
_TOKEN = re.compile(r'"[^"]*"|[A-Za-z_]\w*')
_DTYPE = re.compile(r"\b(?:ORIG_)?DTYPE_[A-Z0-9_]+\b")
_DECLARED = re.compile(r"(?:#\s*define|typename|class|\b(?:u?int(?:8|16|32|64)_t|int|bool|auto))"
                       r"\s+((?:ORIG_)?DTYPE_[A-Z0-9_]+)\b")
_GET_TILING_DATA = re.compile(r"\bGET_TILING_DATA\s*\(")
_TILING_USE = re.compile(r"\b(?:GET_TILING_DATA_WITH_STRUCT|GET_TILING_DATA_PTR_WITH_STRUCT|"
                         r"REGISTER_TILING_DEFAULT)\s*\(\s*([A-Za-z_]\w*)")
_ATTRIBUTES = re.compile(r"\[\[[^\]]*\]\]")
_DECL_ATTRIBUTES = (r"(?:(?:__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)|alignas\s*\([^()]*\)|"
                    r"\[\[[^\]]*\]\])\s*)*")
"""`__attribute__((aligned(8)))`, `alignas(8)`, `[[...]]` between `struct` and its name."""


def strip_comments(text: str) -> str:
    return _COMMENTS.sub(" ", text)


@dataclass(frozen=True)
class TemplateParameter:
    name: str
    is_type: bool
    """typename/class T (else a non-type parameter such as uint32_t schMode)."""
    spelling: str


@dataclass(frozen=True)
class Entry:
    """The kernel's `__global__` function."""

    name: str
    source: Path
    template: tuple[TemplateParameter, ...] | None
    """None for a plain function; the parameters of `template <...>` otherwise."""
    gm_arguments: tuple[str, ...]
    """The GM_ADDR arguments before workspace and tiling (inputs, then outputs)."""
    extern_c: bool = False
    """Declared `extern "C"` (macros expanded): what the build's launch looks up by name."""
    gm_only: bool = False
    """It takes its GM tensors only, no workspace or tiling (an asc-devkit `.asc` example's
    entry, hswc.checker.asc_source)."""

    @property
    def template_spelling(self) -> str:
        if self.template is None:
            return "not a template"
        return "template <" + ", ".join(p.spelling for p in self.template) + ">"


@dataclass(frozen=True)
class TilingField:
    name: str
    has_default: bool
    """Declared with an initialiser (`int64_t ubFactor = 0;`): it need not be given."""


@dataclass(frozen=True)
class KernelSources:
    """The files of one kernel and what the scan found in them."""

    directory: Path
    """Where the sources are; compiled with -I of it."""
    files: tuple[Path, ...]
    entry: Entry
    dtype_macros: tuple[str, ...]
    tiling_struct_used: str | None
    """The struct the entry's sources name in a GET_TILING_DATA*_WITH_STRUCT or
    REGISTER_TILING_DEFAULT, if exactly one."""
    gets_tiling_data: bool = False
    """The entry's source says `GET_TILING_DATA(d, tiling)`, naming no struct: the struct is the
    one the build generates from the op's tiling-data class."""
    tiling_structs_used: tuple[str, ...] = ()
    """Every struct those name (ops-nn's SoftmaxV2 names one per tiling key)."""

    def text(self) -> str:
        return "\n".join(strip_comments(_read(f)) for f in self.files)

    def own_text(self) -> str:
        """The entry's source and the headers its quoted includes reach below the kernel's own
        folder (an ops-nn kernel's `arch35/x_dag.h`): what the build compiles, not the
        libraries it includes nor other files beside it (another kernel in the same folder)."""
        seen: dict[Path, None] = {}
        todo = [self.entry.source]
        root = (self.directory.parent if self.directory.name == "op_kernel"
                else self.directory).resolve()
        while todo:
            path = todo.pop().resolve()
            if path in seen or not path.is_file():
                continue
            seen[path] = None
            for name in _QUOTED_INCLUDE.findall(_read(path)):
                for base in (path.parent, self.directory):
                    found = (base / name).resolve()
                    if found.is_relative_to(root) and found.is_file():
                        todo.append(found)
                        break
        return "\n".join(strip_comments(_read(f)) for f in seen)


_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise CheckError(f"cannot read '{path}': {error.strerror or error}") from None


def _source_files(directory: Path) -> tuple[Path, ...]:
    return tuple(sorted(p for p in directory.iterdir()
                        if p.is_file() and p.suffix in SOURCE_SUFFIXES))


def locate(kernel: str | Path) -> tuple[Path, tuple[Path, ...], Path | None]:
    """(the source directory, its files, the one source file named, if a file was given)."""
    path = Path(kernel)
    if not path.exists():
        raise CheckError(f"kernel '{kernel}' does not exist (give an op_kernel directory, an "
                         "ops-nn operator directory, or a kernel .cpp file)")
    if path.is_file():
        if path.suffix not in SOURCE_SUFFIXES:
            raise CheckError(f"kernel '{kernel}' is not a C++ source (.cpp, .cc, .h, .hpp)")
        return path.parent, _source_files(path.parent), path
    if (path / "op_kernel").is_dir():
        path = path / "op_kernel"
    files = _source_files(path)
    if not any(f.suffix in (".cpp", ".cc") for f in files):
        raise CheckError(f"kernel directory '{kernel}' holds no .cpp file")
    return path, files, None


def _template_parameters(spelling: str, macros: dict[str, str] | None = None
                         ) -> tuple[TemplateParameter, ...]:
    """The entry's template parameters; a parameter that is one object-like macro (opbase's
    `template <REDUCE_TPL_PARAM>`, `atvoss/reduce/reduce_tiling_key_decl.h`) expanded to the
    parameters it spells, as the compiler does."""
    params = []
    for part in _expanded_parts(spelling, macros or {}, frozenset()):
        if not part:
            continue
        declaration = part.split("=", 1)[0].strip()
        words = declaration.split()
        if len(words) < 2:
            raise CheckError(f"cannot read the template parameter '{part}' of the entry")
        params.append(TemplateParameter(words[-1], words[0] in ("typename", "class"), part))
    return tuple(params)


def _expanded_parts(spelling: str, macros: dict[str, str], active: frozenset[str]
                    ) -> list[str]:
    parts: list[str] = []
    for part in (p.strip() for p in spelling.split(",")):
        if part in macros and part not in active:
            parts += _expanded_parts(macros[part], macros, active | {part})
        else:
            parts.append(part)
    return parts


def _gm_arguments(name: str, params: str, source: Path, gm_only: bool = False
                  ) -> tuple[str, ...]:
    names = []
    for part in (p.strip() for p in _ATTRIBUTES.sub(" ", params).split(",")):
        words = re.findall(r"\w+", part)
        if words:
            names.append(words[-1])
    if gm_only:
        if not names:
            raise CheckError(f"{source}: entry {name}() takes no GM tensors")
        return tuple(names)
    if len(names) < 3:
        raise CheckError(f"{source}: entry {name}({params.strip()}) does not take "
                         "(GM_ADDR inputs..., GM_ADDR outputs..., GM_ADDR workspace, "
                         "GM_ADDR tiling)")
    return tuple(names[:-2])


def _compiler_step(command: list[str], source: Path) -> subprocess.CompletedProcess[str] | None:
    """g++ reading `source` within the build limit (hswc.checker.time_limits); None when it
    cannot start; a CheckError when it hangs (a source including a FIFO or a device)."""
    from hswc.checker.build import BuildTimedOut, c_locale

    limit = time_limits.build_limit()
    try:
        return time_limits.run(command, limit, c_locale())
    except time_limits.TimedOut:
        raise BuildTimedOut(source, limit, "preprocessing") from None
    except OSError:
        return None


def preprocessed(source: Path, include_dirs: Sequence[Path] = (),
                 defines: Sequence[str] = ()) -> str | None:
    """`source` as the build sees it after its #if/#ifdef/#else (g++ -E -fdirectives-only with
    the CPU model's and the kernel's include directories and `defines`; macros in the code stay
    unexpanded), its own lines only; None when g++ cannot preprocess it (the raw text is used
    then)."""
    from hswc.checker.build import MODEL

    command = ["g++", "-E", "-fdirectives-only", "-std=c++17", f"-I{MODEL}",
               f"-I{source.parent.resolve()}", *(f"-I{d}" for d in include_dirs),
               *(f"-D{d}" for d in defines), str(source)]
    done = _compiler_step(command, source)
    if done is None:
        return None
    if done.returncode != 0:
        errors = [line.strip() for line in done.stderr.splitlines() if "error" in line]
        _PREPROCESS_ERRORS[source] = errors[0] if errors else done.stderr.strip()[:200]
        return None
    _PREPROCESS_ERRORS.pop(source, None)
    _MACROS[source] = object_macros(done.stdout)
    folder = _own_folder(source)
    lines: list[str] = []
    tree: list[str] = []
    reached: set[Path] = set()
    is_own = in_tree = False
    where: dict[str, tuple[bool, Path | None]] = {}  # a marker's file, resolved once
    for line in done.stdout.splitlines():
        m = _LINE_MARKER.match(line)
        if m is not None:
            name = m.group(1)
            if name not in where:
                resolved = Path(name).resolve()
                where[name] = (name == str(source) or Path(name) == source,
                               resolved if resolved.is_relative_to(folder) else None)
            is_own, file = where[name]
            in_tree = file is not None
            if file is not None:
                reached.add(file)
            continue
        if is_own:
            lines.append(line)
        if in_tree:
            tree.append(line)
    _OWN_TREE[source] = "\n".join(tree)
    _REACHED[source] = frozenset(reached)
    return "\n".join(lines)


def reaches(source: Path, header: Path) -> bool | None:
    """Whether the build of `source` (as last preprocessed) includes `header`, a file of its own
    folder; None when it could not be preprocessed."""
    found = _REACHED.get(source)
    return None if found is None else header.resolve() in found


def _own_folder(source: Path) -> Path:
    """The kernel's own folder: its op folder (an op_kernel/ source's parent), else its own."""
    for parent in source.resolve().parents:
        if parent.name == "op_kernel":
            return parent.parent
    return source.resolve().parent


_MACROS: dict[Path, dict[str, str]] = {}
"""The object-like macros each preprocessed source sees (its own and its headers')."""
_OWN_TREE: dict[Path, str] = {}
"""A preprocessed source's lines of its own folder's files (`preprocessed`)."""
_REACHED: dict[Path, frozenset[Path]] = {}
"""The files of its own folder a preprocessed source includes (`preprocessed`)."""
_PREPROCESS_ERRORS: dict[Path, str] = {}
"""Why g++ could not preprocess a source (its first error), for the messages."""
_LINE_MARKER = re.compile(r'^# \d+ "([^"]*)"')


def object_macros(text: str) -> dict[str, str]:
    """NAME -> body of the object-like macros `text`'s #define lines leave defined (in order,
    an #undef dropping one); function-like macros are left out."""
    out: dict[str, str] = {}
    events = sorted([(m.start(), m) for m in _DEFINE.finditer(text)]
                    + [(m.start(), m) for m in _UNDEF.finditer(text)], key=lambda e: e[0])
    for _, m in events:
        if m.re is _UNDEF:
            out.pop(m.group(1), None)
        elif not m.group(2):
            out[m.group(1)] = m.group(3).strip()
    return out


def expanded_qualifiers(quals: str, macros: dict[str, str]) -> list[str]:
    """The words of a declaration's qualifiers with object-like macros expanded, as the
    compiler does (rescanned, a macro not expanded inside its own expansion)."""
    def expand(words: list[str], active: frozenset[str]) -> list[str]:
        out: list[str] = []
        for w in words:
            if w in _QUALIFIERS or w not in macros or w in active:
                out.append(w)
            else:
                out += expand(_TOKEN.findall(macros[w]), active | {w})
        return out

    return expand(_TOKEN.findall(quals), frozenset())


def find_entries(files: tuple[Path, ...], include_dirs: Sequence[Path] = (),
                 defines: Sequence[str] = (), gm_only: bool = False) -> list[Entry]:
    """The __global__ entries of the .cpp files, each as the build sees it (see
    `preprocessed`): of `#ifdef DTYPE_X` (the UT entry) `#else` (the device template), the one
    the defines select. `gm_only`: the entries take GM tensors only (Entry.gm_only)."""
    entries = []
    for f in files:
        if f.suffix not in (".cpp", ".cc"):
            continue
        text = preprocessed(f, include_dirs, defines)
        if text is None:
            text = _read(f)
            macros = object_macros(strip_comments(text))
        else:
            macros = _MACROS.get(f, {})
        for m in _ENTRY.finditer(strip_comments(text)):
            quals = expanded_qualifiers(m.group("quals"), macros)
            if "__global__" not in quals:
                continue
            template = None
            if m.group("tparams") is not None:
                template = _template_parameters(m.group("tparams"), macros)
            entries.append(Entry(m.group("name"), f, template,
                                 _gm_arguments(m.group("name"), m.group("params"), f,
                                               gm_only),
                                 '"C"' in quals, gm_only))
    return entries


def _build_entries(entries: list[Entry], named: Sequence[str]) -> list[Entry]:
    """Of several `__global__` functions, those the build launches: the ones named as the op's
    kernel (`named`, in order: an op folder's op type in snake case, its opFile), else the
    `extern "C"` ones; a `__global__` template the entry calls (ops-nn's swish: SwishKernel
    beside swish) is a helper. All of them when that does not single out one name."""
    for name in named:
        chosen = [e for e in entries if e.name == name]
        if chosen:
            return chosen
    external = [e for e in entries if e.extern_c]
    return external if len({e.name for e in external}) == 1 else entries


def _pick_entry(entries: list[Entry], wanted: str | None, where: str,
                named: Sequence[str] = ()) -> Entry:
    if wanted is not None:
        entries = [e for e in entries if e.name == wanted]
        if not entries:
            raise CheckError(f"no __global__ entry '{wanted}' in {where}")
    if not entries:
        raise CheckError(f"no __global__ __aicore__ entry function in {where}")
    if len({e.name for e in entries}) > 1:
        entries = _build_entries(entries, named)
    names = sorted({e.name for e in entries})
    if len(names) > 1:
        raise CheckError(f"{where} has several entries ({', '.join(names)}): name one "
                         "with --entry")
    if len(entries) > 1:
        # One name in several files (ops-nn's relu_v2.cpp and relu_v2_apt.cpp): the file
        # named after the entry is the A2/A3 one.
        by_file = [e for e in entries if e.source.stem == e.name]
        sources = {e.source for e in entries}
        if len(sources) == 1:
            source = entries[0].source
            why = _PREPROCESS_ERRORS.get(source, "")
            raise CheckError(f"{source} defines entry {names[0]} {len(entries)} times (under "
                             "#if/#else?) and the checker could not preprocess it to pick one"
                             + (f": {why}" if why else "") + "; fix that, or give -D/--define "
                             "as the build does")
        if len(by_file) != 1:
            files = ", ".join(str(e.source) for e in entries)
            raise CheckError(f"entry {names[0]} is defined in several files ({files}): give "
                             "the kernel's .cpp file instead of its directory")
        entries = by_file
    return entries[0]


def dtype_macros(text: str) -> tuple[str, ...]:
    """The DTYPE_* and ORIG_DTYPE_* names the sources use but neither #define nor declare
    themselves."""
    declared = set(_DECLARED.findall(text))
    return tuple(sorted(set(_DTYPE.findall(text)) - declared))


def scan(kernel: str | Path, entry: str | None = None, include_dirs: Sequence[Path] = (),
         defines: Sequence[str] = (), kernel_names: Sequence[str] = (),
         gm_only: bool = False) -> KernelSources:
    """The kernel's sources and entry, as the build with `defines` sees them; a CheckError
    naming what is missing or ambiguous. `kernel_names`: the names the build gives the op's
    kernel (see `_build_entries`), which pick the entry among several `__global__` ones."""
    directory, files, named = locate(kernel)
    scanned = (named,) if named is not None else files
    candidates = find_entries(scanned, include_dirs, defines, gm_only)
    unread = [f"{f}: {_PREPROCESS_ERRORS[f]}" for f in scanned if f in _PREPROCESS_ERRORS]
    if not candidates and unread:
        # An entry declared through a macro of a header (KERNEL_API) needs the preprocessor.
        raise CheckError(f"no __global__ __aicore__ entry function in "
                         f"{named if named is not None else directory} (the checker could not "
                         f"preprocess {'; '.join(unread)})")
    chosen = _pick_entry(candidates, entry, str(named if named is not None else directory),
                         kernel_names)
    seen = preprocessed(chosen.source, include_dirs, defines)
    own = strip_comments(seen if seen is not None else _read(chosen.source))
    if seen is not None:  # the entry and the headers of its folder, as the build sees them
        text = strip_comments(_OWN_TREE.get(chosen.source, own))
    else:
        text = "\n".join(own if f == chosen.source else strip_comments(_read(f)) for f in files)
    used = set(_TILING_USE.findall(own))
    # A struct named in a header of the kernel's own folder alone (SwigluGroupQuantGrad's
    # GET_TILING_DATA_WITH_STRUCT in its base class, op_kernel/swiglu_group_quant_grad_base.h:41).
    named = used or set(_TILING_USE.findall(text))
    # ORIG_DTYPE_* are read by #if lines, which preprocessing removes: from the files as written.
    raw = "\n".join(strip_comments(_read(f)) for f in files)
    orig = tuple(m for m in dtype_macros(raw) if m.startswith("ORIG_"))
    return KernelSources(directory, files, chosen,
                         tuple(sorted({*dtype_macros(text), *orig})),
                         next(iter(named)) if len(named) == 1 else None,
                         _GET_TILING_DATA.search(own) is not None, tuple(sorted(used)))


def _struct_body(text: str, name: str) -> str | None:
    """The text between the braces of `struct NAME {...};` (or `class`, or `typedef struct {...}
    NAME;`), braces balanced."""
    patterns = (re.compile(rf"\b(?:struct|class)\s+{_DECL_ATTRIBUTES}{re.escape(name)}\s*"
                           rf"(?:final\s*)?(?::[^{{;]*)?\{{"),
                re.compile(r"\btypedef\s+struct\s*\w*\s*\{"))
    for pattern in patterns:
        for m in pattern.finditer(text):
            depth, start = 1, m.end()
            i = start
            while i < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            if depth:
                continue
            body = text[start:i - 1]
            if pattern is patterns[0] or re.match(rf"\s*{re.escape(name)}\s*;", text[i:]):
                return body
    return None


def struct_namespace(text: str, name: str) -> str:
    """The namespaces enclosing the definition of `struct NAME` in `text` ("Ops::Base::", or ""
    at file scope), so that code outside them can name it."""
    m = re.search(rf"\b(?:struct|class)\s+{_DECL_ATTRIBUTES}{re.escape(name)}\s*"
                  rf"(?:final\s*)?(?::[^{{;]*)?\{{", text) or _alias(text, name)
    if m is None:
        return ""
    stack: list[str | None] = []
    opener = re.compile(r"\bnamespace\s+([\w:]+)\s*\{|\{|\}")
    for token in opener.finditer(text, 0, m.start()):
        if token.group(0) == "}":
            if stack:
                stack.pop()
        else:
            stack.append(token.group(1))
    return "".join(f"{n}::" for n in stack if n)


def _declarators(statement: str) -> list[TilingField]:
    """The data members one member declaration declares (none for functions, statics, types,
    access specifiers)."""
    statement = re.sub(r"^\s*(?:public|private|protected)\s*:", "", statement).strip()
    if (not statement or "(" in statement or statement.startswith(("static ", "using ",
        "typedef ", "friend ", "struct ", "class ", "enum ", "template"))):
        return []
    # Split declarators on commas outside braces: `int64_t a = 0, b{1};`.
    parts, depth, current = [], 0, ""
    for ch in statement:
        depth += {"{": 1, "}": -1, "[": 1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    fields = []
    for k, part in enumerate(parts):
        m = re.search(r"(\w+)\s*(\[[^\]]*\])?\s*(=.*|\{.*\})?\s*$", part.strip(), re.S)
        if m is None or (k == 0 and len(re.findall(r"\w+", part.split("=")[0])) < 2):
            continue
        fields.append(TilingField(m.group(1), m.group(3) is not None))
    return fields


def included_files(source: Path, include_dirs: Sequence[Path] = ()) -> list[Path]:
    """Every header `source` includes, directly or not, as g++ finds them with the CPU model's
    and `include_dirs` (g++ -M -MG: a missing header is left out, not an error)."""
    from hswc.checker.build import MODEL

    command = ["g++", "-M", "-MG", "-std=c++17", f"-I{MODEL}", f"-I{source.parent.resolve()}",
               *(f"-I{d}" for d in include_dirs), str(source)]
    done = _compiler_step(command, source)
    if done is None:
        return []
    words = done.stdout.replace("\\\n", " ").split()[1:]
    return [Path(w) for w in words if Path(w).suffix in SOURCE_SUFFIXES and Path(w).is_file()
            and not str(Path(w).resolve()).startswith(str(MODEL))]


def struct_search_files(sources: KernelSources, extra_dirs: Sequence[Path] = (),
                        extra_files: Sequence[Path] = ()) -> list[Path]:
    """Where a tiling struct may be declared, in order: the kernel's files, every header its
    entry includes (wherever the includes lead: op_kernel/arch35/, opbase's ATVOSS), every
    header below its directory, the -I directories, the --include headers, and an ops-nn op
    folder's tests/ut headers."""
    below = sorted(p for p in sources.directory.rglob("*")
                   if p.is_file() and p.suffix in SOURCE_SUFFIXES and p not in sources.files)
    found = [*sources.files, *included_files(sources.entry.source, extra_dirs), *below]
    found += [f for d in extra_dirs if d.is_dir() for f in _source_files(d)]
    found += list(extra_files)
    ut = sources.directory.parent / "tests" / "ut"
    if sources.directory.name == "op_kernel" and ut.is_dir():
        found += sorted(p for p in ut.rglob("*.h") if p.is_file())
    return list(dict.fromkeys(found))


def _alias(text: str, name: str) -> re.Match[str] | None:
    """`using NAME = OTHER;` or `typedef OTHER NAME;` (group 1: OTHER, without namespaces)."""
    return (re.search(rf"\busing\s+{re.escape(name)}\s*=\s*(?:typename\s+)?(?:\w+::)*(\w+)\s*;",
                      text)
            or re.search(rf"\btypedef\s+(?:struct\s+)?(?:\w+::)*(\w+)\s+{re.escape(name)}\s*;",
                         text))


def find_struct(sources: KernelSources, struct: str, extra_dirs: Sequence[Path] = (),
                extra_files: Sequence[Path] = ()) -> tuple[tuple[TilingField, ...], Path]:
    """The data members of `struct` and the file that declares it (see struct_search_files);
    a struct named through an alias (`using EleBaseTilingDataV2 = EleBaseTilingData;`) has
    the members of the struct it names, and the alias's file."""
    files = struct_search_files(sources, extra_dirs, extra_files)
    for f in files:
        alias = _alias(strip_comments(_read(f)), struct)
        if alias is not None and alias.group(1) != struct:
            try:
                return find_struct(sources, alias.group(1), extra_dirs, extra_files)[0], f
            except CheckError:
                break
    for f in files:
        fields = declared_fields(f, struct)
        if fields is not None:
            return fields, f
    raise CheckError(f"no tiling struct {struct} in the kernel's sources ({sources.directory} "
                     "and below), its -I directories, its --include headers or the op's "
                     "tests/ut headers")


def declared_fields(path: Path, struct: str) -> tuple[TilingField, ...] | None:
    """The data members of `struct` as `path` declares it, or None when it does not."""
    body = _struct_body(strip_comments(_read(path)), struct)
    if body is None:
        return None
    fields = [f for statement in _flatten(body).split(";") for f in _declarators(statement)]
    if not fields:
        raise CheckError(f"tiling struct {struct} ({path}) has no data members the checker can "
                         "read")
    return tuple(fields)


def tiling_fields(sources: KernelSources, struct: str, extra_dirs: tuple[Path, ...] = (),
                  extra_files: tuple[Path, ...] = ()) -> tuple[TilingField, ...]:
    """The data members of `struct` (see find_struct)."""
    return find_struct(sources, struct, extra_dirs, extra_files)[0]


def _flatten(body: str) -> str:
    """The struct body with the bodies of inline member functions replaced by `;` (so that
    their statements are not read as members); brace initialisers stay."""
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "{" and re.search(r"\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?$",
                                   "".join(out[-64:])):
            depth = 0
            while i < len(body):
                depth += {"{": 1, "}": -1}.get(body[i], 0)
                i += 1
                if depth == 0:
                    break
            out.append(";")
            continue
        out.append(ch)
        i += 1
    return "".join(out)
