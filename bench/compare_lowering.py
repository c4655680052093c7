"""Whether two installs of hswc lower the same files to the same bytes.

    python bench/compare_lowering.py --before VENV_A/bin/hswc-opt --after VENV_B/bin/hswc-opt \
        FILE... [--cache]

Runs `hswc-opt --lower-to-ascend FILE` with each executable and compares stdout, stderr and the
exit status byte for byte. Without `--cache` the tools' cache folder is off (HSWC_CACHE_DIR
empty: every schedule chosen by the cost model); with it, each executable gets a fresh cache
folder of its own and runs each file twice, a first run and one with the choices kept, and
both are compared. Prints one line per file that differs and a summary; exits 1 if any does.
A speed change (bench/bench_partition.py) must leave the output as it was: this is how.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def _run(exe: str, path: Path, cache: str) -> tuple[int, bytes, bytes]:
    env = dict(os.environ, HSWC_CACHE_DIR=cache)
    done = subprocess.run([exe, "--lower-to-ascend", str(path)], capture_output=True,
                          env=env, check=False, timeout=1200)
    return done.returncode, done.stdout, done.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the hswc-opt of the old install")
    parser.add_argument("--after", required=True, help="the hswc-opt of the new install")
    parser.add_argument("--cache", action="store_true",
                        help="a first run and a run with the choices kept, each compared")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    differ = 0
    runs = ("first run", "choices kept") if args.cache else ("cache off",)
    with tempfile.TemporaryDirectory(prefix="hswc-compare-") as tmp:
        caches = {side: str(Path(tmp) / side) if args.cache else ""
                  for side in ("before", "after")}
        for path in args.files:
            for run in runs:
                before = _run(args.before, path, caches["before"])
                after = _run(args.after, path, caches["after"])
                if before != after:
                    differ += 1
                    what = [name for name, a, b in zip(("exit status", "stdout", "stderr"),
                                                       before, after, strict=True) if a != b]
                    print(f"{path} ({run}): {', '.join(what)} differ")
    print(f"{len(args.files)} files, {len(args.files) * len(runs)} runs each side: "
          f"{differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
