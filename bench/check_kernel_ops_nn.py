"""The table of issues 22 and 23's closing notes: hswc-check-kernel on ops-nn's own activation
kernels of hswc's ops, each from its op folder alone (kernel x SoC x dtype: bit-exact /
differing / rule broken / not checkable and why), as markdown with ops-nn's and opbase's commits.

    python bench/check_kernel_ops_nn.py OPS_NN_DIR [--out bench/check_kernel_ops_nn.md]
        [--max-size N] [--table SWEEP_OUTPUT]

It runs `hswc-check-kernel --sweep` on OPS_NN_DIR's activation/ and experimental/activation/
(heavy: each kernel is built and run on the CPU model, one at a time; run it with nice), or,
with --table, formats the table a sweep already printed. opbase is found as ops-nn's build
finds it (an ops-base checkout two levels above OPS_NN_DIR, $CANN_3RD_LIB_PATH/opbase or
$OPBASE_SOURCE_PATH). The commits come from `git rev-parse HEAD` in each checkout, or
--commit / --opbase-commit when the checkouts are exports without .git.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("activation", "experimental/activation")


def _commit(path: Path | None, given: str | None) -> str:
    if given:
        return given
    if path is None:
        return "unknown"
    done = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else "unknown (not a git checkout)"


def _rows_from_table(text: str) -> list[tuple[str, str, str, str]]:
    """The sweep's printed table (`kernel  soc  dtype  verdict`, up to the blank line before its
    counts) back into rows."""
    rows = []
    for line in text.splitlines()[1:]:
        if not line.strip():
            break
        words = line.split(None, 3)
        if len(words) == 4:
            rows.append((words[0], words[1], words[2], words[3]))
    return rows


def _rows_from_progress(text: str) -> list[tuple[str, str, str, str]]:
    """The progress lines sweeps printed on stderr before hswc.progress (`[k/N] NAME on SOC:
    how`, then `    DTYPE: verdict`) into rows: the verdicts of such a sweep stopped before its
    table. (Sweeps now print nothing in a pipe until their table.)"""
    rows, kernel, soc = [], "", ""
    for line in text.splitlines():
        if line.startswith("[") and " on " in line:
            head = line.split("] ", 1)[1]
            kernel, _, rest = head.partition(" on ")
            soc = rest.split(":", 1)[0]
        elif line.startswith("    ") and ": " in line and kernel:
            dtype, _, verdict = line.strip().partition(": ")
            rows.append((kernel, soc, dtype, verdict))
    return rows


def _sweep(ops_nn: Path, max_size: int) -> list[tuple[str, str, str, str]]:
    """Both parts swept at once (two processes: the machines here have two cores)."""
    running = []
    for part in PARTS:
        root = ops_nn / part
        if root.is_dir():
            running.append((part, subprocess.Popen(
                [sys.executable, "-m", "hswc.tools.hswc_check_kernel", "--sweep", str(root),
                 "--max-size", str(max_size)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True)))
    rows = []
    for part, process in running:
        out, err = process.communicate()
        sys.stderr.write(err)
        rows += [(f"{part}/{k}", s, d, v) for k, s, d, v in _rows_from_table(out)]
    return rows


def _maps_to(ops_nn: Path, kernel: str) -> str:
    from hswc.checker.sweep import mapping

    found = mapping(ops_nn / kernel)
    if found is None:
        return "-"
    op, attrs, _ = found
    return op + "".join(f" {k}={v}" for k, v in attrs.items())


def markdown(rows: list[tuple[str, str, str, str]], ops_nn: Path, ops_nn_commit: str,
             opbase_commit: str) -> str:
    from hswc.checker.sweep import verdict_kind

    counts = Counter(verdict_kind(v) for *_, v in rows)
    lines = [
        "# hswc-check-kernel on ops-nn's activation kernels",
        "",
        f"ops-nn commit `{ops_nn_commit}`, opbase commit `{opbase_commit}`. Produced by "
        "`bench/check_kernel_ops_nn.py`; each kernel checked from its op folder alone "
        "(`hswc-check-kernel --sweep`: the op's own tiling, --record-rules, NaN x left out "
        "for the piecewise-linear family as FAMILY.md says). The family is compared bit for "
        "bit; the exponential activations within PyTorch's tolerance of the exact function.",
        "",
        "Rows by verdict (a row is a kernel, SoC and dtype; one can be differing and rule "
        "broken at once, counted by the first): "
        + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) + ".",
        "",
        "| kernel | hsg op | SoC | dtype | verdict |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {k} | {_maps_to(ops_nn, k)} | {s} | {d} | {v.replace('|', '/')} |"
              for k, s, d, v in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ops_nn", type=Path)
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "check_kernel_ops_nn.md")
    p.add_argument("--max-size", type=int, default=1 << 16)
    p.add_argument("--table", action="append", default=[],
                   help="a sweep's printed table: FILE (a sweep of OPS_NN itself) or PART=FILE "
                        "(a sweep of OPS_NN/PART); repeat for several")
    p.add_argument("--progress", action="append", default=[],
                   help="the progress lines (stderr) of a sweep from before hswc.progress, "
                        "FILE or PART=FILE, for a sweep stopped before its table")
    p.add_argument("--commit", help="ops-nn's commit (default: git rev-parse in OPS_NN)")
    p.add_argument("--opbase-commit", help="opbase's commit (default: git rev-parse there)")
    args = p.parse_args(argv)
    from hswc.checker.op_folder import opbase_root

    if args.table or args.progress:
        rows = []
        for items, read in ((args.table, _rows_from_table), (args.progress, _rows_from_progress)):
            for item in items:
                part, _, file = item.rpartition("=")
                rows += [(f"{part}/{k}" if part else k, s, d, v)
                         for k, s, d, v in read(Path(file).read_text())]
    else:
        rows = _sweep(args.ops_nn, args.max_size)
    text = markdown(rows, args.ops_nn, _commit(args.ops_nn, args.commit),
                    _commit(opbase_root(args.ops_nn.resolve()), args.opbase_commit))
    args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
