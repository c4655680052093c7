"""The runnable blocks of a Markdown document, as test/test_readme.py and test/test_docs.py run
them.

- A ```sh block is a script: it runs with `bash -e -o pipefail` in a scratch folder holding a
  copy of examples/ and bench/, one folder per document, the document's blocks in order (so
  later blocks see the files earlier ones wrote). A ```python block runs there too, with
  `python`.
- What a block shows it prints is checked: the comment lines that end a ```sh block (`# ...`
  after its last command), and the lines of a ```text block that follows a ```sh or ```python
  block directly. Each shown line must be a line the block printed (stdout and stderr
  together), in the order shown, other lines may come between; `...` in a shown line stands
  for any text, and a shown line of only `...` says that lines were left out.
- A block's first comment lines may mark it: `# needs the torch extra` runs only where
  PyTorch and torch-mlir are installed (a skip saying so elsewhere); `# long:` (a benchmark, a
  sweep) runs only under `pytest -m sweep`, as the suite's other long tests do.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TORCH_EXTRA = "# needs the torch extra"
LONG = "# long:"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*\n?", flags=re.S | re.M)


@dataclass(frozen=True)
class Block:
    """A runnable block of a document: its language, its text, what it shows it prints."""

    document: Path
    index: int
    language: str
    text: str
    shown: tuple[str, ...]

    @property
    def marks(self) -> list[str]:
        """The leading comment lines of the block."""
        lines = self.text.splitlines()
        return [line for line in lines[:next((i for i, line in enumerate(lines)
                                               if not line.startswith("#")), len(lines))]]

    @property
    def long(self) -> bool:
        return any(line.startswith(LONG) for line in self.marks)

    def missing_extra(self) -> str | None:
        """Why the block cannot run here (an extra it needs is not installed), or None."""
        if not any(line.startswith(TORCH_EXTRA) for line in self.marks):
            return None
        missing = [m for m in ("torch", "torch_mlir") if importlib.util.find_spec(m) is None]
        if not missing:
            return None
        return (f"needs the torch extra (pip install 'hswc[torch]'): {', '.join(missing)} "
                "not installed")

    @property
    def name(self) -> str:
        return f"{self.document.relative_to(REPO)}:{self.index}"


def _trailing_comments(text: str) -> tuple[str, ...]:
    """The comment lines after a script's last command, without their '# '."""
    lines = text.rstrip("\n").splitlines()
    start = len(lines)
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    if start == 0:  # only comments: marks, not output
        return ()
    return tuple(line[2:] if line.startswith("# ") else line[1:] for line in lines[start:])


def blocks(document: Path) -> list[Block]:
    """The ```sh and ```python blocks of `document`, in order, with what each shows."""
    source = document.read_text()
    fences = list(_FENCE.finditer(source))
    found: list[Block] = []
    for i, fence in enumerate(fences):
        language, text = fence.group(1), fence.group(2)
        if language not in ("sh", "python"):
            continue
        shown = _trailing_comments(text) if language == "sh" else ()
        after = fences[i + 1] if i + 1 < len(fences) else None
        if after is not None and after.group(1) == "text" \
                and source[fence.end():after.start()].strip() == "":
            shown += tuple(after.group(2).splitlines())
        found.append(Block(document, len(found), language, text, shown))
    return found


def _pattern(line: str) -> re.Pattern[str]:
    parts = re.split(r"\s*\.\.\.\s*", line.strip())
    return re.compile(".*".join(re.escape(part) for part in parts))


def unmatched(shown: tuple[str, ...], printed: str) -> str | None:
    """The first shown line that is not printed (after the lines before it), or None."""
    lines = [line.strip() for line in printed.splitlines()]
    at = 0
    for line in shown:
        if line.strip() == "...":
            continue
        pattern = _pattern(line)
        while at < len(lines) and not pattern.fullmatch(lines[at]):
            at += 1
        if at == len(lines):
            return line
        at += 1
    return None


def scratch_folder(root: Path) -> Path:
    """A folder for one document's blocks, holding a copy of examples/ and bench/ (the
    benchmarks are run from a checkout, as `python bench/x.py`)."""
    for folder in ("examples", "bench"):
        shutil.copytree(REPO / folder, root / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return root


def run(block: Block, folder: Path) -> str:
    """Run `block` in `folder`; a message saying what went wrong, or '' when it did as shown."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    if block.language == "sh":
        command = ["bash", "-e", "-o", "pipefail", "-c", block.text]
    else:
        command = [sys.executable, "-c", block.text]
    done = subprocess.run(command, cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=1800, check=False)
    where = f"{block.name} ({block.language} block):\n{block.text}\nprinted:\n{done.stdout}"
    if done.returncode != 0:
        return f"exit status {done.returncode} from {where}"
    if "Traceback" in done.stdout:
        return f"a traceback from {where}"
    missing = unmatched(block.shown, done.stdout)
    if missing is not None:
        return f"the line {missing!r} it shows was not printed by {where}"
    return ""
