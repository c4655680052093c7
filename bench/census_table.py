"""The census of ops-nn's activation folders: one row per folder from the checker's sweep table.

    python bench/census_table.py [--table bench/check_kernel_ops_nn.md] [--folders FILE]

Reads the table bench/check_kernel_ops_nn.py writes (a row per kernel, SoC and dtype) and
prints a markdown table with one row per op folder: how hswc expresses the op (the named op
or generic the checker compared it with, or why nothing expresses it) and the checker's
verdict per SoC, dtype by dtype. `--folders` names a file listing every folder that should be
there (one per line, e.g. from `git ls-tree -d --name-only HEAD activation/` in ops-nn); a
folder the sweep table lacks is printed as "not swept", so the count of 146 can be checked.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

TABLE = Path(__file__).with_name("check_kernel_ops_nn.md")
SOC_NAMES = {"ascend910b": "A2", "ascend910_93": "A3", "ascend950": "950"}
_MAX_ULP = re.compile(r"max ([0-9.e+]+) ulp")


@dataclass
class Folder:
    """One op folder's rows: its hsg mapping and a verdict per (SoC, dtype)."""

    name: str
    mappings: list[str] = field(default_factory=list)
    verdicts: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def short_verdict(dtype: str, verdict: str) -> str:
    """A verdict cell of the sweep table in a few words."""
    ulp = _MAX_ULP.search(verdict)
    if verdict.startswith("bit-exact"):
        word = "exact"
    elif verdict.startswith("within"):
        word = f"within ({ulp.group(1)} ulp)" if ulp else "within"
    elif verdict.startswith("outside"):
        word = f"outside ({ulp.group(1)} ulp)" if ulp else "outside"
    elif verdict.startswith("differing"):
        word = "differing"
    elif verdict.startswith("rule broken"):
        word = "rule broken"
    elif verdict.startswith("not checkable"):
        reason = verdict.removeprefix("not checkable: ")
        if "does not compile" in reason or "does not build" in reason:
            reason = reason.rsplit("): ", 1)[-1]
        return "not checkable: " + _first_clause(reason)
    elif verdict.startswith("not expressible"):
        return "not expressible: " + _first_clause(verdict.removeprefix("not expressible: "))
    else:
        word = _first_clause(verdict)
    if "rule broken" in verdict and not word.startswith("rule broken"):
        word += ", rule broken"
    return f"{dtype} {word}"


def _first_clause(text: str) -> str:
    text = re.sub(r"/tmp/\S+/ops-nn/|/tmp/\S+?/(?=activation|experimental)", "", text)
    cut = min((i for i in (text.find(";"), text.find(": /")) if i > 0), default=len(text))
    text = text[:cut].strip()
    return text if len(text) <= 140 else text[:137] + "..."


def read_table(path: Path) -> dict[str, Folder]:
    """The sweep table's rows, grouped by folder."""
    folders: dict[str, Folder] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) < 7 or "activation/" not in cells[1]:
            continue
        name, mapping, soc, dtype, verdict = cells[1:6]
        folder = folders.setdefault(name, Folder(name))
        if mapping not in folder.mappings:
            folder.mappings.append(mapping)
        cell = short_verdict(dtype, verdict)
        soc_cells = folder.verdicts[SOC_NAMES.get(soc, soc)]
        if cell not in soc_cells:
            soc_cells.append(cell)
    return folders


def render(folders: dict[str, Folder], expected: list[str]) -> str:
    """The census as markdown, with a count of the folders by how hswc expresses them."""
    names = sorted(set(folders) | set(expected))
    lines = ["| folder | hswc | A2 | A3 | 950 |", "|---|---|---|---|---|"]
    counts: dict[str, int] = defaultdict(int)
    for name in names:
        folder = folders.get(name)
        if folder is None:
            counts["not swept"] += 1
            lines.append(f"| {name} | not swept | | | |")
            continue
        how = "; ".join(folder.mappings)
        if ":" not in name:  # a variant's row (gelu_quant:static) is not a folder of its own
            counts[_kind(how)] += 1
        socs = ["; ".join(folder.verdicts.get(soc, [])) or "-" for soc in ("A2", "A3", "950")]
        lines.append(f"| {name} | {how} | " + " | ".join(socs) + " |")
    summary = ", ".join(f"{kind} {count}" for kind, count in sorted(counts.items()))
    folder_count = sum(":" not in name for name in names)
    return f"{folder_count} folders: {summary}.\n\n" + "\n".join(lines) + "\n"


def _kind(how: str) -> str:
    """How hswc expresses a folder, from its rows' mapping: a named op, a generic of the op's
    README (hswc.checker.opsnn_generics), a generic the checker writes from the definition
    (the reductions of hswc.checker.row_generics, hswc.checker.quantized's GeluQuant), or not
    at all ("- (not expressible)")."""
    if how.startswith("hsg."):
        return "named op"
    if how.startswith("generic"):
        return "generic"
    if how.startswith("-"):
        return "not expressible"
    return "checker's generic"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--table", type=Path, default=TABLE,
                        help="the sweep's table (bench/check_kernel_ops_nn.md)")
    parser.add_argument("--folders", type=Path,
                        help="a file listing every op folder expected, one per line")
    args = parser.parse_args(argv)
    try:
        folders = read_table(args.table)
        expected = ([line.strip().rstrip("/") for line in
                     args.folders.read_text(encoding="utf-8").splitlines()
                     if line.strip() and not line.strip().endswith("/common")
                     and not line.startswith("#")]
                    if args.folders else [])
    except OSError as error:
        print(f"census_table: error: cannot read {error.filename}: {error.strerror}",
              file=sys.stderr)
        return 1
    if not folders:
        print(f"census_table: error: {args.table} has no rows of the sweep", file=sys.stderr)
        return 1
    sys.stdout.write(render(folders, expected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
