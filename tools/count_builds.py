"""The C++ compiler calls of a pytest run, counted per test file.

    python tools/count_builds.py [PYTEST ARGS...]     # e.g. test/test_math_ops.py -n 2

runs pytest (with the given arguments) with a `g++` first on PATH that runs the real one and
logs each call: what it did (a build with -o, -fsyntax-only, or a dependency listing -M / -E),
its seconds, the test that made it ($PYTEST_CURRENT_TEST, which the tests' subprocesses
inherit), and a key of its flags and sources with temporary folders left out. It then prints,
per test file, the builds, the syntax-only compiles, the other calls, the compiler's seconds
(wall time, summed over calls that may run side by side) and how many builds repeat an earlier
one's key (an estimate of what a cache keyed on contents could save: the key reads the sources
on the command line and the headers beside them, not every header they include). The run's
own build cache (hswc.checker.build_cache, test/conftest.py) starts empty, as on CI. pytest's
exit status is this tool's.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

SHIM = '''#!{python}
import hashlib, json, os, re, subprocess, sys, tempfile, time
from pathlib import Path
args = sys.argv[1:]
start = time.monotonic()
code = subprocess.call([{real!r}, *args])
seconds = time.monotonic() - start
kind = "build" if "-o" in args else "other"
for flag, name in (("-fsyntax-only", "syntax"), ("-M", "other"), ("-MM", "other"),
                   ("-E", "other")):
    if flag in args:
        kind = name
temp = re.escape(tempfile.gettempdir())
key = None
if kind != "other":
    digest = hashlib.sha256()
    sources = []
    for i, arg in enumerate(args):
        if i > 0 and args[i - 1] == "-o":
            continue
        if arg.startswith("-DHSWC_KERNEL_SOURCE="):
            sources.append(Path(arg.split("=", 1)[1].strip('"')))
            continue
        if arg.endswith((".cpp", ".cc")):
            sources.append(Path(arg))
        digest.update(re.sub(temp + r"/\\S*/", "", arg).encode() + b"\\0")
    for source in sources:
        beside = sorted(source.parent.glob("*.h")) if source.parent.is_dir() else []
        for path in [source, *beside]:
            digest.update(path.read_bytes() if path.is_file() else b"-")
    key = digest.hexdigest()[:16]
test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0]
with open({log!r}, "a") as log:
    log.write(json.dumps({{"kind": kind, "seconds": seconds, "code": code, "key": key,
                          "test": test}}) + "\\n")
sys.exit(code)
'''


def main() -> int:
    real = shutil.which("g++")
    if real is None:
        print("count_builds: no g++ on PATH", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="hswc-count-builds-") as folder:
        log = Path(folder) / "calls.jsonl"
        shim = Path(folder) / "bin" / "g++"
        shim.parent.mkdir()
        shim.write_text(SHIM.format(python=sys.executable, real=real, log=str(log)))
        shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
        env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}"}
        env.pop("HSWC_BUILD_CACHE", None)
        code = subprocess.call([sys.executable, "-m", "pytest", *sys.argv[1:]], env=env)
        calls = [json.loads(line) for line in log.read_text().splitlines()] \
            if log.exists() else []
    report(calls)
    return code


def report(calls: list[dict[str, object]]) -> None:
    rows: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    seen: set[object] = set()
    for call in calls:
        where = str(call["test"]).split("::")[0] or "(no test)"
        row = rows[where]
        row[str(call["kind"])] += 1
        row["seconds"] += float(call["seconds"])  # type: ignore[arg-type]
        if call["kind"] == "build" and call["key"] is not None:
            if call["key"] in seen:
                row["repeats"] += 1
            seen.add(call["key"])
    print(f"{'builds':>7} {'syntax':>7} {'other':>6} {'repeats':>8} {'g++ s':>8}  test file")
    total: dict[str, float] = defaultdict(float)
    for where, row in sorted(rows.items(), key=lambda item: -item[1]["seconds"]):
        print(f"{row['build']:7.0f} {row['syntax']:7.0f} {row['other']:6.0f} "
              f"{row['repeats']:8.0f} {row['seconds']:8.1f}  {where}")
        for name, value in row.items():
            total[name] += value
    print(f"{total['build']:7.0f} {total['syntax']:7.0f} {total['other']:6.0f} "
          f"{total['repeats']:8.0f} {total['seconds']:8.1f}  all")


if __name__ == "__main__":
    sys.exit(main())
