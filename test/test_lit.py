"""Runs the whole lit + FileCheck suite under test/lit, so that `pytest` covers it too.

lit discovers every `.mlir` file below test/lit (directories added later included); this test
fails with lit's own report when any of them fails, or when lit ran fewer files than exist.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

LIT_DIR = Path(__file__).resolve().parent / "lit"
EXCLUDED_DIRS = {"Inputs", "Output"}
"""Directory names lit.cfg.py excludes: helper inputs and lit's own scratch files."""

LIT_MAIN = "import sys; from lit.main import main; sys.argv[0] = 'lit'; main()"
"""lit has no `python -m lit`; this runs its entry point under the current interpreter."""


def lit_test_files() -> list[Path]:
    return sorted(
        p for p in LIT_DIR.rglob("*.mlir")
        if not EXCLUDED_DIRS.intersection(p.relative_to(LIT_DIR).parts[:-1])
    )


def test_lit_suite() -> None:
    files = lit_test_files()
    assert files, f"no .mlir tests under {LIT_DIR}"
    result = subprocess.run(
        [sys.executable, "-c", LIT_MAIN, "-v", str(LIT_DIR)],
        capture_output=True, text=True, timeout=900, check=False,
    )
    report = f"{result.stdout}\n{result.stderr}"
    assert result.returncode == 0, f"lit failed (exit {result.returncode}):\n{report}"
    discovered = re.search(r"Total Discovered Tests: (\d+)", result.stdout)
    assert discovered is not None, f"no lit summary:\n{report}"
    assert int(discovered.group(1)) == len(files), (
        f"lit ran {discovered.group(1)} tests but test/lit holds {len(files)} .mlir files:\n"
        f"{report}"
    )
