"""The command-line tools' start-up speedups change nothing but the time.

hswc.tools.dataclass_code_cache: a dataclass defined through the cache is the one defined
without it (signature, annotations, repr, eq, hash, frozenness); the table persists across
processes, so a second process compiles nothing; a damaged table, an unwritable cache folder
and the cache turned off all leave a run as it was; a full table keeps its most recent texts.
hswc.tools.lazy_assembly_formats: the program of every op format of every dialect hswc registers
is the one xDSL parses eagerly, and a broken format still fails with xDSL's definition error.
The patches are process-wide (and importing hswc.tools.hswc_opt, as other tests do, installs
them), so what installs them runs in a subprocess and what compares with xDSL's own parsing
calls it directly.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from xdsl.irdl import IRDLOperation, OpDef
from xdsl.irdl.declarative_assembly_format import FormatProgram
from xdsl.utils.exceptions import ParseError, PyRDLOpDefinitionError

from hswc.pipeline import DIALECTS
from hswc.tools.dataclass_code_cache import dumps, load
from hswc.tools.lazy_assembly_formats import LazyFormatProgram, parse_eagerly

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "hard_swish_grad.mlir"

CLASSES = '''
import dataclasses
from dataclasses import dataclass, field

def define():
    @dataclass(frozen=True)
    class Point:
        x: int
        y: "tuple[int, ...]" = field(default_factory=tuple)
        z: float = 0.5

        def norm(self) -> float:
            return self.x + self.z

    @dataclass(order=True)
    class Ranked:
        rank: int
        name: str = "r"

    return Point, Ranked

def describe(Point, Ranked):
    import inspect
    p = Point(3, (1,))
    try:
        p.x = 4
        frozen = "mutable"
    except dataclasses.FrozenInstanceError:
        frozen = "frozen"
    return [str(inspect.signature(Point.__init__)), repr(Point.__init__.__annotations__),
            repr(p), p == Point(3, (1,)), p == Point(3, (2,)), hash(Point(1)) == hash(Point(1)),
            frozen, Ranked(1) < Ranked(2), repr(sorted([Ranked(2, "b"), Ranked(1, "a")])),
            str(inspect.signature(Ranked.__lt__)), Point.__init__.__code__.co_filename]
'''

SCRIPT = CLASSES + '''
import json, sys
before = describe(*define())
from hswc.tools import dataclass_code_cache as cache
cache.install()
after = describe(*define())
print(json.dumps({"before": before, "after": after, "new": len(cache._new),
                  "routed": getattr(dataclasses, "exec", None) is cache.cached_exec}))
'''


def _python(script: str, cache: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "HSWC_CACHE_DIR"}
    if cache is not None:
        env["HSWC_CACHE_DIR"] = cache
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                          check=False, timeout=120, env=env)


def _report(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    import json

    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return json.loads(result.stdout)


def _table(folder: Path) -> Path:
    tables = list(folder.glob("dataclass-code.*.marshal"))
    assert len(tables) == 1, tables
    return tables[0]


def test_a_cached_dataclass_is_the_uncached_one_and_the_table_persists(tmp_path: Path) -> None:
    first = _report(_python(SCRIPT, str(tmp_path)))
    assert first["routed"] is True
    assert first["after"] == first["before"]
    assert first["new"] > 0  # the two classes' methods were compiled, then saved at exit
    assert "frozen" in first["after"] and "<string>" in first["after"]
    texts = load(_table(tmp_path))
    assert any("def __init__(self,x:_type_x" in text for text in texts)
    second = _report(_python(SCRIPT, str(tmp_path)))
    assert second["after"] == first["before"]
    assert second["new"] == 0  # every text came from the table


def test_a_damaged_table_is_an_empty_one_and_is_rewritten(tmp_path: Path) -> None:
    _report(_python(SCRIPT, str(tmp_path)))
    table = _table(tmp_path)
    table.write_bytes(b"\x00not marshal data")
    result = _report(_python(SCRIPT, str(tmp_path)))
    assert result["after"] == result["before"] and result["new"] > 0
    assert load(table)  # a valid table again


def test_an_unwritable_cache_folder_and_the_cache_turned_off(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would go")
    result = _report(_python(SCRIPT, str(blocker / "hswc")))
    assert result["after"] == result["before"]
    assert blocker.read_text() == "a file where the cache folder would go"
    off = _report(_python(SCRIPT, ""))
    assert off["routed"] is False and off["after"] == off["before"]


def test_a_full_table_keeps_the_most_recent_texts(tmp_path: Path) -> None:
    _report(_python(SCRIPT, str(tmp_path)))
    table = _table(tmp_path)
    stale = "def __create_fn__():\n def f(self): pass\n return f"
    table.write_bytes(dumps({stale: compile(stale, "<string>", "exec"), **load(table)}))
    # Over its limit at exit (room for what the process used and one new text, not for the
    # older stale one): the oldest text not used goes, the new one stays.
    kept = _report(_python(SCRIPT + "\nimport atexit\ncache._new['x'] = "
                           "compile('', '<string>', 'exec')\natexit.register(lambda: setattr("
                           "cache, 'MAX_ENTRIES', len(cache._used | set(cache._new))))\n",
                           str(tmp_path)))
    assert kept["after"] == kept["before"]
    texts = load(table)
    assert stale not in texts and "x" in texts
    assert any("def __init__(self,x:_type_x" in text for text in texts)  # what it used stays


def test_a_table_whose_digest_does_not_match_is_not_read(tmp_path: Path) -> None:
    """marshal.loads is never given bytes the cache did not write: a damaged length in them
    could ask for any amount of memory (b'[' * 8 reads as a list of 1.5e9 items)."""
    _report(_python(SCRIPT, str(tmp_path)))
    table = _table(tmp_path)
    data = table.read_bytes()
    table.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert load(table) == {}
    table.write_bytes(b"[" * 1000)
    assert load(table) == {}


def test_hswc_opt_writes_the_table_and_prints_the_same(tmp_path: Path) -> None:
    tool = "import sys; from hswc.tools.hswc_opt import main; sys.exit(main())"
    args = ("--lower-to-ascend", "-t", "ascendc", str(EXAMPLE))
    off = _python(tool, "", *args)
    cold = _python(tool, str(tmp_path), *args)
    warm = _python(tool, str(tmp_path), *args)
    assert off.returncode == cold.returncode == warm.returncode == 0
    assert off.stderr == cold.stderr == warm.stderr == ""
    assert off.stdout == cold.stdout == warm.stdout
    assert "__aicore__" in off.stdout
    assert len(load(_table(tmp_path))) > 200  # xDSL's and hswc's dataclasses


def test_hswc_opt_imports_neither_numpy_nor_ml_dtypes(tmp_path: Path) -> None:
    """Importing numpy starts OpenBLAS's threads (about 0.15 s of CPU on two cores): the
    compile path from IR to C++ is pure Python."""
    tool = ("import sys; from hswc.tools.hswc_opt import main; code = main(); "
            "print(sorted({'numpy', 'ml_dtypes'} & set(sys.modules)), file=sys.stderr); "
            "sys.exit(code)")
    bundled = REPO / "examples" / "grad_times_scale.mlir"
    for args in (("--lower-to-ascend", "-t", "ascendc", str(EXAMPLE)),
                 ("--lower-to-ascend", str(bundled))):
        run = _python(tool, str(tmp_path), *args)
        assert run.returncode == 0, run.stderr
        assert run.stderr.strip() == "[]", (args, run.stderr)


FULL_COLLECTIONS = """
import contextlib, gc, sys
import xdsl.passes
from hswc.tools import hswc_opt
if sys.argv[1] == "without":
    hswc_opt.parsing = contextlib.nullcontext
full = []
gc.callbacks.append(lambda phase, info: full.append(1)
                    if phase == "stop" and info["generation"] == 2 else None)
before = []
apply = xdsl.passes.PassPipeline.apply
def counted(self, ctx, op):
    before.append(len(full))
    return apply(self, ctx, op)
xdsl.passes.PassPipeline.apply = counted
code = hswc_opt.main(["-p", "hsg-generalize-named", sys.argv[2], "-o", "/dev/null"])
print(before[0])
sys.exit(code)
"""


def test_no_full_collection_walks_the_module_while_it_is_parsed(tmp_path: Path) -> None:
    """hswc.tools.startup.parsing: the module a parse builds lives to the end of the run, so
    no full collection walks it before the first pass; without it CPython makes one at 6,000
    named ops already (more, each longer, the longer the input; at 3,000 since the input's
    verification stopped building a fingerprint per op, none)."""
    ops = "\n".join(f"  %y{i} = hsg.hard_swish %x : tensor<?xf16>" for i in range(10))
    results = ", ".join(f"%y{i}" for i in range(10))
    types = ", ".join(["tensor<?xf16>"] * 10)
    path = tmp_path / "many.mlir"
    path.write_text("".join(
        f"func.func @f{n}(%x: tensor<?xf16>) -> ({types}) {{\n{ops}\n"
        f"  func.return {results} : {types}\n}}\n" for n in range(600)))
    counts = {}
    for mode in ("with", "without"):
        run = _python(FULL_COLLECTIONS, str(tmp_path / "cache"), mode, str(path))
        assert run.returncode == 0, run.stderr
        counts[mode] = int(run.stdout)
    assert counts["with"] == 0
    assert counts["without"] >= 1  # the case the mechanism is for: the test can fail


def _formats() -> list[tuple[str, str, object]]:
    found: list[tuple[str, str, object]] = []
    for factory in DIALECTS.values():
        for op in factory().operations:
            if issubclass(op, IRDLOperation):
                op_def = op.get_irdl_definition()
                if op_def.assembly_format is not None:
                    found.append((op_def.name, op_def.assembly_format, op_def))
    return found


def test_every_lazy_format_is_the_eager_one() -> None:
    formats = _formats()
    names = {name for name, _, _ in formats}
    assert "arith.addf" in names and "ascend.duplicate" in names
    assert any(name.startswith("hsg.") for name in names)
    programs = {}
    for name, text, op_def in formats:
        lazy = LazyFormatProgram(text, op_def)  # type: ignore[arg-type]
        eager = parse_eagerly(text, op_def)  # type: ignore[arg-type]
        assert isinstance(eager, FormatProgram)
        assert lazy.program() == eager, name
        assert lazy.program() is lazy.program()  # parsed once
        assert lazy.stmts == eager.stmts  # and anything else of the program, through it
        programs[name] = eager
    assert programs["arith.addf"] != programs["ascend.duplicate"]  # the check can fail


def test_a_broken_format_fails_at_first_use_with_the_definition_error() -> None:
    class Broken(IRDLOperation):
        name = "test.broken"

    op_def = OpDef.from_pyrdl(Broken)
    with pytest.raises(ParseError):
        parse_eagerly("$nothing attr-dict", op_def)  # what xDSL's definition would fail on
    lazy = LazyFormatProgram("$nothing attr-dict", op_def)
    with pytest.raises(PyRDLOpDefinitionError, match=r"assembly format of test\.broken"):
        lazy.program()
