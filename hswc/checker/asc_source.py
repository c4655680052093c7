"""An asc-devkit `.asc` example, exactly as published, made into a kernel source the checker builds.

A `.asc` file holds a kernel and the host program that launches it. The host part is left out,
as the device compiler's host pass would take it: the `acl/acl.h` include, and every function
defined at file scope that is `main`, launches a kernel (`<<<...>>>`) or calls the ACL runtime
(`aclrtMalloc(...)`, `aclInit(...)`, ...). Everything else (the kernel, its classes and
constants, other includes) is kept as it is, line for line, so that the line numbers of g++'s
and the model's messages are the published file's. The entry of such a file takes its GM
tensors only (inputs, then outputs; no workspace, no tiling):
hswc.checker.kernel_source.scan(gm_only=True).
"""

from __future__ import annotations

import re
from pathlib import Path

from hswc.checker.errors import CheckError

SUFFIX = ".asc"
_ACL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]acl/acl\.h[">].*$', re.MULTILINE)
_HOST_CALL = re.compile(r"<<<|\bacl[a-z]*[A-Z]\w*\s*\(")
_FUNCTION_HEAD = re.compile(r"\b(\w+)\s*\([^;{}]*\)\s*(?:const\s*)?(?:noexcept\s*)?$")
_MASK = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def is_asc(kernel: str | Path) -> bool:
    return Path(kernel).suffix == SUFFIX


def _masked(text: str) -> str:
    """The text with comments and literals blanked (same length, newlines kept)."""
    return _MASK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _host_functions(text: str) -> list[tuple[int, int]]:
    """(start, end) of each file-scope function definition that is host code."""
    masked = _masked(text)
    spans = []
    depth, head_start, i = 0, 0, 0
    while i < len(masked):
        c = masked[i]
        if c == "{":
            if depth == 0:
                head = masked[head_start:i]
                end = _closing(masked, i)
                m = _FUNCTION_HEAD.search(head.rstrip())
                if m is not None and (m.group(1) == "main"
                                      or _HOST_CALL.search(masked[i:end]) is not None):
                    spans.append((head_start + len(head) - len(head.lstrip()), end))
                i, head_start = end, end
                continue
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == ";" and depth == 0:
            head_start = i + 1
        elif c == "#" and depth == 0:  # a preprocessor line is no part of a head
            line_end = masked.find("\n", i)
            i = head_start = len(masked) if line_end < 0 else line_end + 1
            continue
        i += 1
    return spans


def _closing(masked: str, brace: int) -> int:
    """One past the `}` that closes the `{` at `brace`."""
    depth = 0
    for k in range(brace, len(masked)):
        if masked[k] == "{":
            depth += 1
        elif masked[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
    raise CheckError("unbalanced braces: a '{' is never closed")


def device_part(text: str) -> str:
    """The `.asc` text without its host code (see the module docstring), each line left out
    replaced by an empty one."""
    text = _ACL_INCLUDE.sub("", text)
    for start, end in reversed(_host_functions(text)):
        text = text[:start] + "\n" * text.count("\n", start, end) + text[end:]
    return text


def device_source(path: Path, workdir: Path) -> Path:
    """Writes the device part of the `.asc` file `path` into `workdir` (as a .cpp of the same
    stem) and returns it; a CheckError if it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise CheckError(f"cannot read '{path}': {error.strerror or error}") from None
    try:
        device = device_part(text)
    except CheckError as error:
        raise CheckError(f"{path}: {error}") from None
    out = workdir / "asc" / f"{path.stem}.cpp"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(device)  # line for line: g++'s line numbers are the published file's
    return out
