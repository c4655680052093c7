"""bench/census_table.py: the sweep table condensed to one row per op folder."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import census_table  # noqa: E402

# ruff: noqa: E501  (the sweep table's rows are long lines, as the table writes them)

SWEEP = """\
| kernel | hsg op | SoC | dtype | verdict | --auto-sync off |
|---|---|---|---|---|---|
| activation/elu | hsg.elu | ascend950 | f16 | within PyTorch's tolerance (9 runs, max 0 ulp) | - |
| activation/elu | hsg.elu | ascend950 | f32 | within PyTorch's tolerance (12 runs, max 3 ulp) | - |
| activation/relu | hsg.relu | ascend910b | f16 | bit-exact (9 runs); rule broken (GM out of bounds) | ordered |
| activation/relu | hsg.relu | ascend950 | - | not checkable: the kernel /tmp/x/ops-nn/activation/relu/op_kernel/relu.cpp does not compile against hswc/checker/ascendc_cpu (for f16): the kernel calls SIMT, which the CPU model refuses | - |
| activation/softmax_v2 | - (not expressible) | ascend950 | - | not expressible: a reduction along a dim: the checker compares elementwise computations only | - |
"""


def test_one_row_per_folder_with_each_socs_verdicts(tmp_path: Path) -> None:
    table = tmp_path / "sweep.md"
    table.write_text(SWEEP, encoding="utf-8")
    listing = tmp_path / "folders.txt"
    listing.write_text("activation/common\nactivation/elu\nactivation/relu\n"
                       "activation/softmax_v2\nactivation/swish\n", encoding="utf-8")
    out = census_table.render(census_table.read_table(table),
                              ["activation/elu", "activation/relu", "activation/softmax_v2",
                               "activation/swish"])
    assert out.startswith("4 folders: named op 2, not expressible 1, not swept 1.")
    rows = {line.split(" | ")[0][2:]: line for line in out.splitlines()
            if line.startswith("| activation/")}
    assert rows["activation/elu"] == (
        "| activation/elu | hsg.elu | - | - | f16 within (0 ulp); f32 within (3 ulp) |")
    assert rows["activation/relu"] == (
        "| activation/relu | hsg.relu | f16 exact, rule broken | - | not checkable: the kernel "
        "calls SIMT, which the CPU model refuses |")
    assert "not expressible: a reduction along a dim" in rows["activation/softmax_v2"]
    assert rows["activation/swish"] == "| activation/swish | not swept | | | |"


def test_unreadable_table_is_one_message(tmp_path: Path, capsys) -> None:
    assert census_table.main(["--table", str(tmp_path / "missing.md")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("census_table: error: cannot read") and "missing.md" in err


def test_comments_variants_and_the_checkers_generics_are_counted_apart(tmp_path: Path,
                                                                      capsys) -> None:
    """A `#` line of the folder list is no folder; a variant's row (gelu_quant:static) is no
    folder of its own; a reduction the checker writes as generics is its own kind."""
    table = tmp_path / "sweep.md"
    table.write_text(SWEEP + (
        "| activation/gelu_quant | gelu_quant | ascend910b | f16 | differing (3 runs) | - |\n"
        "| activation/gelu_quant:static | gelu_quant quant_mode=static | ascend910b | f16 | "
        "bit-exact (3 runs) | - |\n"), encoding="utf-8")
    listing = tmp_path / "folders.txt"
    listing.write_text("# the folders of ops-nn\nactivation/elu\nactivation/gelu_quant\n",
                       encoding="utf-8")
    assert census_table.main(["--table", str(table), "--folders", str(listing)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "4 folders: checker's generic 1, named op 2, not expressible 1."
