"""hswc.tools.choice_cache: the default schedules chosen by earlier runs of the tools.

A second run takes the first run's choice without modelling a candidate and writes the same
output as a run with the cache off; the file's entry is what the run uses (a hand-edited one
changes the recorded schedule, so the test can see the file is read); a damaged file, an
out-of-range candidate, choices of other code and an unwritable folder are each as no file:
the choice is modelled again and nothing fails or prints.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_schedule_choice import generic

from hswc import choice_store
from hswc.passes import row_schedule_choice, schedule_choice
from hswc.passes.hsg_tile_on_cores import _body_key, _build_kernel_function
from hswc.passes.schedule_choice import CANDIDATES, choose_schedule
from hswc.platform import get_platform
from hswc.tools import choice_cache
from hswc.tools.choice_cache import FILE_NAME, FileStore
from hswc.vectorizer.plan import KernelPlan

REPO = Path(__file__).resolve().parent.parent
SOURCE = (REPO / "examples" / "leaky_relu_grad.mlir").read_text()


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FileStore]:
    """A FileStore in a fresh folder as schedule_choice's store, its in-process memo empty."""
    found = FileStore(tmp_path / FILE_NAME)
    monkeypatch.setattr(choice_store, "store", found)
    schedule_choice._chosen.clear()
    row_schedule_choice._chosen.clear()
    yield found
    schedule_choice._chosen.clear()
    row_schedule_choice._chosen.clear()


def _choose(op: str = "leaky_relu_grad") -> schedule_choice.Choice:
    ew = generic(op, "f16")
    return choose_schedule(_body_key(ew), lambda: _build_kernel_function("choice_f16", ew),
                           ew.dag, "f16", ew.output_name(), get_platform("ascend910b"), False,
                           None, broadcast=ew.broadcast)


def _no_model(*_: object, **__: object) -> None:
    raise AssertionError("modelled a choice the cache holds")


def test_a_saved_choice_is_taken_without_modelling(store: FileStore,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    first = _choose()
    store.save()
    table = json.loads(store.path.read_text())
    assert table["code"] == choice_cache.code_state()
    assert list(table["choices"].values()) == [[CANDIDATES.index(first.schedule), first.time]]
    schedule_choice._chosen.clear()
    later = FileStore(store.path)  # another process's store
    monkeypatch.setattr(choice_store, "store", later)
    monkeypatch.setattr(schedule_choice, "modelled_times", _no_model)
    assert _choose() == first
    assert not later.new  # nothing new to save


@pytest.mark.parametrize("damage", [
    b"\x00 not json", b"[1, 2]", b'{"code": "CODE", "choices": [1]}',
    b'{"code": "CODE", "choices": {"KEY": [99, 1.0]}}',
    b'{"code": "CODE", "choices": {"KEY": ["0", 1.0]}}',
    b'{"code": "another state of the code", "choices": {"KEY": [1, 1.0]}}',
], ids=["not-json", "not-a-table", "choices-not-a-table", "no-such-candidate",
        "index-not-a-number", "other-code"])
def test_a_damaged_or_stale_file_is_modelled_again_and_rewritten(
        store: FileStore, damage: bytes) -> None:
    expected = _choose()
    store.save()  # the journal merged into the file and removed, as at a run's end
    schedule_choice._chosen.clear()
    key = next(iter(store.choices))
    text = damage.replace(b"CODE", choice_cache.code_state().encode()).replace(
        b"KEY", key.encode())
    store.path.write_bytes(text)
    fresh = FileStore(store.path)
    choice_store.store = fresh  # the fixture restores it
    assert _choose() == expected
    assert fresh.new  # modelled again, so saved again
    fresh.save()
    assert choice_cache.load(store.path, choice_cache.code_state())[key] == (
        CANDIDATES.index(expected.schedule), expected.time)


def test_an_unwritable_folder_is_left_alone(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    store = FileStore(blocker / FILE_NAME)
    monkeypatch.setattr(choice_store, "store", store)
    schedule_choice._chosen.clear()
    try:
        _choose()
        store.save()  # no error: the next run models it again
    finally:
        schedule_choice._chosen.clear()
    assert store.new and blocker.read_text() == "not a folder"


def _opt(tmp_path: Path, cache: str) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "input.mlir"
    source.write_text(SOURCE)
    env = dict(os.environ, HSWC_CACHE_DIR=cache)
    return subprocess.run([sys.executable, "-m", "hswc.tools.hswc_opt", "--lower-to-ascend",
                           str(source)], capture_output=True, text=True, check=False,
                          timeout=300, env=env)


def test_runs_with_the_cache_write_what_a_run_without_it_writes(tmp_path: Path) -> None:
    off = _opt(tmp_path, "")
    folder = tmp_path / "cache"
    first, second = _opt(tmp_path, str(folder)), _opt(tmp_path, str(folder))
    for run in (off, first, second):
        assert (run.returncode, run.stderr) == (0, "")
    assert first.stdout == second.stdout == off.stdout
    table = json.loads((folder / FILE_NAME).read_text())
    ((key, (index, _)),) = table["choices"].items()
    assert f'options = "{CANDIDATES[index].describe()}"' in off.stdout

    # The file is what the run uses: a hand-edited entry (still a valid schedule, the same
    # bits) is the recorded schedule.
    other = next(i for i, c in enumerate(CANDIDATES) if not c.double_buffer)
    table["choices"][key] = [other, 1e-3]
    (folder / FILE_NAME).write_text(json.dumps(table))
    edited = _opt(tmp_path, str(folder))
    assert edited.returncode == 0
    assert f'options = "{CANDIDATES[other].describe()}"' in edited.stdout



SOFTMAX = """func.func @f(%x: tensor<64x900xf32>) -> tensor<64x900xf32> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<64x900xf32>
  return %y : tensor<64x900xf32>
}
"""

LAYER_NORM = """func.func @f(%x: tensor<4x6000xf32>, %w: tensor<6000xf32>, %b: tensor<6000xf32>)
    -> tensor<4x6000xf32> {
  %y = hsg.layer_norm %x, %w, %b {epsilon = 1.0e-05 : f32} : tensor<4x6000xf32>, \
tensor<6000xf32>, tensor<6000xf32>
  return %y : tensor<4x6000xf32>
}
"""


def _row_choice(store: FileStore, text: str) -> tuple[str, str, int]:
    """The lowered module, the store's one key and its candidate's index."""
    from hswc.runner import compile_text

    lowered = str(compile_text(text, level="ascend").module)
    store.save()
    ((key, (index, _)),) = json.loads(store.path.read_text())["choices"].items()
    return lowered, key, index


def _edit(store: FileStore, key: str, index: int) -> None:
    table = json.loads(store.path.read_text())
    table["choices"][key][0] = index
    store.path.write_text(json.dumps(table))
    row_schedule_choice._chosen.clear()
    choice_store.store = FileStore(store.path)  # the fixture restores it


def test_a_row_kernels_saved_choice_is_taken_without_modelling(
        store: FileStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row kernel's choice (hswc.passes.row_schedule_choice) is kept as an elementwise
    kernel's is: another process's store gives the same kernel without building a candidate,
    and the file's entry is what the run uses (a hand-edited one, still a candidate the row
    lowering takes, is the recorded schedule)."""
    from hswc.runner import compile_text

    first, key, index = _row_choice(store, SOFTMAX)
    assert index in (0, 1)  # whole rows: online or in passes is one kernel, the first taken
    chosen = row_schedule_choice.CANDIDATES[index].schedule
    assert f'options = "{chosen.describe()}' in first
    _edit(store, key, index)
    with monkeypatch.context() as patch:
        patch.setattr(row_schedule_choice, "lowered_kernel", _no_model)
        assert str(compile_text(SOFTMAX, level="ascend").module) == first
    _edit(store, key, 1 - index)
    other = row_schedule_choice.CANDIDATES[1 - index].schedule
    assert f'options = "{other.describe()}' in str(compile_text(SOFTMAX, level="ascend").module)


def test_a_row_kernels_saved_choice_that_does_not_fit_is_modelled_again(
        store: FileStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry naming a candidate that no longer passes the checks before modelling is not
    taken: the choice is modelled again, as the first. (Since rows too long for a chunk are cut
    in segments, every candidate of a 6000-f32 LayerNorm fits the UB; the check here refuses
    the fast preset as a changed platform or lowering would.)"""
    from hswc.runner import compile_text

    first, key, index = _row_choice(store, LAYER_NORM)
    assert row_schedule_choice.CANDIDATES[index].schedule.describe() == "reference"
    fast = row_schedule_choice.CANDIDATES[0].schedule.describe()
    checked = row_schedule_choice._plan_if_taken
    monkeypatch.setattr(row_schedule_choice, "_plan_if_taken",
                        lambda candidate, *rest: None if candidate.schedule.describe() == fast
                        else checked(candidate, *rest))
    _edit(store, key, 0)  # the fast preset
    assert str(compile_text(LAYER_NORM, level="ascend").module) == first
    assert choice_store.store.new  # type: ignore[union-attr]  # modelled again


LONG_SOFTMAX = """func.func @f(%x: tensor<4x20000xf32>) -> tensor<4x20000xf32> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<4x20000xf32>
  return %y : tensor<4x20000xf32>
}
"""
"""Rows longer than a chunk holds on any SoC: in segments, softmax's sum online or in a pass
of its own (hswc.passes.row_schedule_choice)."""


def _modelled(monkeypatch: pytest.MonkeyPatch, penalty: Callable[[bool], float] | None = None
              ) -> list[tuple[bool, float]]:
    """Each candidate the row choice models: (whether it sums online, its modelled seconds),
    those seconds times `penalty(online)` when given (a constrained model)."""
    seen: list[tuple[bool, float]] = []
    modelled = schedule_choice.modelled_time

    def wrapped(kernel: object, plan: KernelPlan, *rest: object) -> float:
        assert plan.rows is not None
        seconds = modelled(kernel, plan, *rest) * (1.0 if penalty is None  # type: ignore[arg-type]
                                                    else penalty(plan.rows.online))
        seen.append((plan.rows.online, seconds))
        return seconds

    monkeypatch.setattr(schedule_choice, "modelled_time", wrapped)
    return seen


def _sums_online(lowered: str) -> bool:
    (rows,) = {line[line.index("hsg.rows = {"):].split("}")[0] for line in lowered.splitlines()
               if "hsg.rows = {" in line and "func.func" in line}
    assert "segment = " in rows, rows
    return rows.endswith(", online")


def test_online_and_in_passes_are_both_modelled_and_the_cheaper_taken(
        store: FileStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Softmax over rows in segments: the choice models each schedule summing online and in
    passes, and takes the cheapest (on Atlas A2 the model prefers online for these rows:
    f32 rows of 20,000 read once less, 5.8 against 6.9 us per launch with the fast schedule)."""
    from hswc.runner import compile_text

    seen = _modelled(monkeypatch)
    lowered = str(compile_text(LONG_SOFTMAX, level="ascend").module)
    assert {online for online, _ in seen} == {True, False}
    assert _sums_online(lowered) == min(seen, key=lambda c: c[1])[0]


@pytest.mark.parametrize("online", [True, False])
def test_the_row_choice_follows_the_model_and_is_kept_byte_identical(
        store: FileStore, monkeypatch: pytest.MonkeyPatch, online: bool) -> None:
    """A model constrained to prefer one way (the other's times doubled) gives that way; the
    store records it (its index names the way: in passes from CANDIDATES[2] on), and another
    process taking the kept choice, modelling nothing, writes byte-identical IR."""
    from hswc.runner import compile_text

    seen = _modelled(monkeypatch, lambda way: 1.0 if way == online else 2.0)
    first, key, index = _row_choice(store, LONG_SOFTMAX)
    assert seen and _sums_online(first) == online
    assert row_schedule_choice.CANDIDATES[index].online == online
    _edit(store, key, index)
    monkeypatch.setattr(row_schedule_choice, "lowered_kernel", _no_model)
    assert str(compile_text(LONG_SOFTMAX, level="ascend").module) == first


# Processes running at once share their choices through the journal (hswc.tools.choice_cache).

DRIVER = """
import sys
from pathlib import Path
from hswc.tools.choice_cache import FileStore
store = FileStore(Path(sys.argv[1]))
for line in sys.stdin:
    command, *args = line.split()
    if command == "record":
        store.record(args[0], int(args[1]), float(args[2]))
    elif command == "many":
        for n in range(int(args[1])):
            store.record(f"{args[0]}{n}", n % 8, n / 4)
    elif command == "save":
        store.save()
    print(store.lookup(args[0]) if command == "lookup" else "done", flush=True)
"""
"""A process keeping a FileStore, told what to do a line at a time on its standard input."""


class _Process:
    def __init__(self, path: Path):
        self.process = subprocess.Popen([sys.executable, "-c", DRIVER, str(path)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def reply(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def ask(self, command: str) -> str:
        self.send(command)
        return self.reply()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=60) == 0


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def test_processes_running_at_once_take_each_others_choices_as_they_are_made(
        tmp_path: Path) -> None:
    """A choice one process records is found by another at once, before either saves; a save
    merges the journal into the file and removes it, and a process that had read the old
    journal still finds what was appended after its last read (in the file) and what is
    appended to a new journal."""
    path = tmp_path / FILE_NAME
    first, second = _Process(path), _Process(path)
    try:
        assert first.ask("record alpha 3 0.5") == "done"
        assert second.ask("lookup alpha") == "(3, 0.5)"
        assert second.ask("record beta 1 0.25") == "done"
        assert first.ask("lookup beta") == "(1, 0.25)"
        assert first.ask("lookup gamma") == "None"
        assert not path.exists()  # shared through the journal alone
        assert first.ask("record delta 2 1.5") == "done"
        assert first.ask("save") == "done"
        assert not path.with_name(choice_cache.JOURNAL_NAME).exists()
        saved = json.loads(path.read_text())["choices"]
        assert saved == {_digest("alpha"): [3, 0.5], _digest("beta"): [1, 0.25],
                         _digest("delta"): [2, 1.5]}
        assert second.ask("lookup delta") == "(2, 1.5)"  # from the file
        third = _Process(path)
        try:
            assert third.ask("record epsilon 0 2.0") == "done"  # a new journal
            assert second.ask("lookup epsilon") == "(0, 2.0)"
            assert third.ask("lookup alpha") == "(3, 0.5)"
        finally:
            third.close()
    finally:
        first.close()
        second.close()


def test_two_processes_appending_at_once_lose_and_damage_no_line(tmp_path: Path) -> None:
    """Two processes recording 300 choices each at the same time: a third store finds all 600
    in the journal, whose every line is whole."""
    path = tmp_path / FILE_NAME
    writers = [_Process(path), _Process(path)]
    try:
        for prefix, writer in zip("ab", writers, strict=True):
            writer.send(f"many {prefix} 300")
        assert [writer.reply() for writer in writers] == ["done", "done"]
    finally:
        for writer in writers:
            writer.close()
    reader = FileStore(path)
    for prefix in "ab":
        for n in range(300):
            assert reader.lookup(f"{prefix}{n}") == (n % 8, n / 4)
    lines = path.with_name(choice_cache.JOURNAL_NAME).read_bytes().split(b"\n")
    assert lines[0].startswith(choice_cache.JOURNAL_HEADER) and lines[-1] == b""
    assert len(choice_cache.journal_entries(b"\n".join(lines[1:]), reader._loaded())) == 600


def test_a_journal_s_damaged_lines_and_other_code_s_are_left_out(tmp_path: Path) -> None:
    """A damaged line, a line of another state of the code and a line not yet ended are no
    choice; the lines around them are, and the unended line once it is ended."""
    path = tmp_path / FILE_NAME
    code = choice_cache.code_state()
    journal = path.with_name(choice_cache.JOURNAL_NAME)
    journal.write_bytes(
        choice_cache.JOURNAL_HEADER + b"0" * 32 + b"\n"
        + f"{code} {_digest('good')} 2 0.5\n".encode()
        + f"{code} {_digest('bad')} two 0.5\n{code} {_digest('bad')}\n".encode()
        + f"{'0' * 64} {_digest('other')} 2 0.5\n".encode()
        + f"{code} {_digest('after')} 4 1e-06\n".encode()
        + f"{code} {_digest('unended')} 5 ".encode())
    store = FileStore(path)
    assert store.lookup("good") == (2, 0.5) and store.lookup("after") == (4, 1e-06)
    assert store.lookup("bad") is None and store.lookup("other") is None
    assert store.lookup("unended") is None
    with journal.open("ab") as out:
        out.write(b"0.75\n")
    assert store.lookup("unended") == (5, 0.75)


def test_a_choice_another_process_made_is_taken_before_it_saves(
        store: FileStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The schedule choice itself: a store that read nothing of the file (there is none yet)
    takes another store's choice from the journal without modelling a candidate."""
    first = _choose()
    assert not store.path.exists()
    schedule_choice._chosen.clear()
    other = FileStore(store.path)  # another process's store
    monkeypatch.setattr(choice_store, "store", other)
    monkeypatch.setattr(schedule_choice, "modelled_times", _no_model)
    assert _choose() == first
    assert not other.new
