"""lit configuration of hswc's FileCheck tests: every `.mlir` file under test/lit is a test.

RUN lines use lit's internal shell (pipes, `not`, `%s`, `%t`) and two console scripts of this
install: `hswc-opt` and `filecheck`. New directories (printer/, runner/, ...) need no
configuration of their own; a directory named `Inputs` holds helper files, not tests.
"""

import os
import shutil
import sys

import lit.formats

config.name = "hswc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_source_root
config.excludes = ["Inputs", "Output", "lit.cfg.py"]

# lit starts RUN lines with a clean environment; PATH is what finds the tools. The scripts next
# to the interpreter running lit come first: they belong to the same install, and calling them
# directly skips a version manager's shim (pyenv's costs ~0.1 s per command).
_path = os.environ.get("PATH", "")
_bin = os.path.dirname(sys.executable)
if os.path.exists(os.path.join(_bin, "hswc-opt")):
    _path = _bin + os.pathsep + _path
config.environment["PATH"] = _path
# lit passes no PYTHONPATH of its own accord; a run that points Python at another checkout
# (PYTHONPATH=worktree pytest) must test that checkout's hswc, not the installed one.
if "PYTHONPATH" in os.environ:
    config.environment["PYTHONPATH"] = os.environ["PYTHONPATH"]

for _tool, _hint in (
    ("hswc-opt", "install hswc with `pip install -e '.[test]'`"),
    ("filecheck", "install the test extras with `pip install -e '.[test]'`"),
):
    if shutil.which(_tool, path=_path) is None:
        lit_config.fatal(f"'{_tool}' is not on PATH ({_hint}); the lit tests cannot run")
