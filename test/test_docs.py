"""docs/ cannot drift from the code: every ```sh and ```python block of docs/*.md runs and
prints what it shows (test/doc_blocks.py: one scratch folder per document, its blocks in order;
`# long:` blocks, the benchmarks, under `pytest -m sweep`); every relative link and every
repository path written in backquotes in README.md, docs/*.md and bench/README.md exists;
docs/reference.md lists exactly the passes hswc registers, in pipeline order, with their levels
and options, and exactly each tool's command-line options."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import REPO, Block, blocks, run, scratch_folder, unmatched

from hswc.pipeline import LEVEL_PASSES, PASSES

DOCS = sorted((REPO / "docs").glob("*.md"))
WRITTEN = [REPO / "README.md", *DOCS, REPO / "bench" / "README.md"]
REFERENCE = REPO / "docs" / "reference.md"
TOOLS = ("hswc-opt", "hswc-run", "hswc-emit", "hswc-check-kernel", "hswc-from-torch")


def _param(block: Block) -> object:
    return pytest.param(block, id=block.name,
                        marks=[pytest.mark.sweep] if block.long else [])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Path]:
    """One scratch folder per document, made when its first block runs."""
    return {}


@pytest.mark.parametrize("block", [_param(b) for doc in DOCS for b in blocks(doc)])
def test_docs_block_runs(block: Block, scratch: dict[Path, Path],
                         tmp_path_factory: pytest.TempPathFactory) -> None:
    reason = block.missing_extra()
    if reason is not None:
        pytest.skip(reason)
    if block.document not in scratch:
        scratch[block.document] = scratch_folder(tmp_path_factory.mktemp(block.document.stem))
    failure = run(block, scratch[block.document])
    assert not failure, failure


# region links and paths

def _slug(heading: str) -> str:
    """A heading's anchor, as GitHub makes it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(document: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", document.read_text(), flags=re.S | re.M)
    return {_slug(h) for h in re.findall(r"^#+ (.*)$", text, flags=re.M)}


def _prose(document: Path) -> str:
    """The document without its fenced blocks (commands and their output name scratch files)."""
    return re.sub(r"^```.*?^```", "", document.read_text(), flags=re.S | re.M)


@pytest.mark.parametrize("document", WRITTEN, ids=lambda d: str(d.relative_to(REPO)))
def test_every_relative_link_resolves(document: Path) -> None:
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", _prose(document)):
        if re.match(r"[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists() or not file.is_relative_to(REPO):
            broken.append(f"{target}: no such file in the repository")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{target}: {file.name} has no section '{anchor}'")
    assert not broken, f"{document.name}: {broken}"


_ROOTS = ("hswc/", "test/", "bench/", "examples/", "tools/", "docs/", ".ci/")


@pytest.mark.parametrize("document", WRITTEN, ids=lambda d: str(d.relative_to(REPO)))
def test_every_repository_path_exists(document: Path) -> None:
    """A path in backquotes (`hswc/tiling.py`, `test/test_x.py::test_y`) names a file or
    folder of the repository."""
    missing = []
    for quoted in re.findall(r"`([^`\s]+)`", _prose(document)):
        path = quoted.split("::")[0].rstrip(":,.")
        if not path.startswith(_ROOTS) or re.search(r"[*<>{}]", path):
            continue
        if not (REPO / path).exists():
            missing.append(quoted)
    assert not missing, f"{document.name} names paths the repository lacks: {missing}"


# endregion
# region the reference against the code

def _section(document: Path, title: str) -> str:
    """The text of the `## title` section of `document`, up to the next `## `."""
    text = document.read_text()
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M)
    assert match, f"{document.name} has no section '## {title}'"
    return match.group(1)


def _table_rows(section: str) -> list[list[str]]:
    """The cells of the section's table rows, header and rule left out."""
    rows = [[cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            for line in section.splitlines() if line.startswith("|")]
    return [row for row in rows[2:]]


def test_reference_lists_every_pass_in_order() -> None:
    rows = _table_rows(_section(REFERENCE, "Passes"))
    names = [row[0].strip("`") for row in rows]
    assert names == list(PASSES)
    level_of = {name: level for level, passes in LEVEL_PASSES.items() for name in passes}
    for row in rows:
        name = row[0].strip("`")
        assert row[3].strip("`") == level_of[name], f"{name}: level"
        pass_type = PASSES[name]()
        options = {f.name.replace("_", "-") for f in dataclasses.fields(pass_type)
                   if f.init and f.name != "name"}
        written = set(re.findall(r"`([a-z][a-z0-9-]*)(?:=[^`]*)?`", row[4]))
        assert written == options, f"{name}: options written {sorted(written)}, " \
            f"the pass has {sorted(options)}"


def _options(tool: str) -> set[str]:
    """Every option string a tool's --help lists (`-o`, `--output`), --help's own aside."""
    done = subprocess.run([str(Path(sys.executable).parent / tool), "--help"],
                          capture_output=True, text=True, check=True)
    found: set[str] = set()
    for line in done.stdout.splitlines():
        if re.match(r"  -", line):
            spelled = re.split(r"\s{2,}", line.strip())[0]
            found |= set(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", spelled))
    return found - {"-h", "--help"}


@pytest.mark.parametrize("tool", TOOLS)
def test_reference_lists_each_tools_options(tool: str) -> None:
    rows = _table_rows(_section(REFERENCE, tool))
    written = set()
    for row in rows:
        written |= set(re.findall(r"`(--?[a-zA-Z][\w-]*)", row[0]))
    assert written == _options(tool), \
        f"{tool}: docs/reference.md lists {sorted(written - _options(tool))} it lacks and " \
        f"lacks {sorted(_options(tool) - written)}"


# endregion


# region the block checker itself

def test_shown_lines_must_be_printed_in_order() -> None:
    printed = "first line\n  n=300   blocks=4   bit-exact\nPASS: all 2 runs\n"
    assert unmatched(("n=300 ... bit-exact", "PASS: all 2 runs"), printed) is None
    assert unmatched(("...", "PASS: all ... runs"), printed) is None
    assert unmatched(("PASS: all 2 runs", "first line"), printed) == "first line"
    assert unmatched(("PASS: all 3 runs",), printed) == "PASS: all 3 runs"
    assert unmatched(("n=300",), printed) == "n=300"  # a whole line, not a part of one


def test_a_block_shows_its_trailing_comments_and_the_text_block_after_it(tmp_path: Path) -> None:
    document = tmp_path / "doc.md"
    document.write_text("# t\n\n```sh\n# long: a bench\necho a  # not output\necho b\n# b\n```\n"
                        "\n```text\nc\n```\n\n```python\nprint(1)\n```\n\nprose\n\n```text\nd\n"
                        "```\n")
    found = blocks(document)
    assert [(b.language, b.shown, b.long) for b in found] == [
        ("sh", ("b", "c"), True), ("python", (), False)]

# endregion
