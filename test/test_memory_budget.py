"""Inputs too large for the machine's memory: refused up front by hswc.memory_budget, in each
tool, with the input's size and what would fit; the available figure is lowered through
HSWC_AVAILABLE_MEMORY (or check_fits' parameter), never by allocating."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from hswc import memory_budget
from hswc.memory_budget import (
    AVAILABLE_VARIABLE,
    BASE_BYTES,
    NAMED_OP_BYTES,
    OP_BYTES,
    InputTooLarge,
    check_fits,
    estimated_bytes,
    parse_bytes,
    weighted_ops,
)
from hswc.pipeline import parse_text
from hswc.tools import hswc_emit, hswc_opt, hswc_run

Capsys = pytest.CaptureFixture[str]
TYPE = "tensor<4x5xf16>"


def chain(ops: int) -> str:
    """`ops` named ops, each on the previous result, and a return."""
    lines = [f"func.func @f(%v0: {TYPE}) -> {TYPE} {{"]
    lines += [f"  %v{i + 1} = hsg.hardtanh %v{i} : {TYPE}" for i in range(ops)]
    lines += [f"  func.return %v{ops} : {TYPE}", "}", ""]
    return "\n".join(lines)


def test_the_ops_are_counted_named_and_other() -> None:
    text = chain(3).replace("func.return", f"%e = tensor.empty() : {TYPE}\n  func.return")
    assert weighted_ops(parse_text(text, "c.mlir")) == (3, 2)  # tensor.empty, func.return


def test_the_estimate_is_linear_in_the_ops() -> None:
    assert estimated_bytes(0, 0) == BASE_BYTES
    assert estimated_bytes(1000, 0) - estimated_bytes(0, 0) == 1000 * NAMED_OP_BYTES
    assert estimated_bytes(3, 7) - estimated_bytes(0, 0) == 3 * NAMED_OP_BYTES + 7 * OP_BYTES


@pytest.mark.parametrize("text, expected", [
    ("8589934592", 8589934592), ("8G", 8 * 2**30), ("512m", 512 * 2**20), ("1.5G", 3 * 2**29),
    ("64K", 65536), (" 2T ", 2 * 2**40), ("0", 0)])
def test_sizes_are_read_with_their_suffix(text: str, expected: int) -> None:
    assert parse_bytes(text) == expected


@pytest.mark.parametrize("text", ["", "G", "x", "-1", "inf", "nan", "8GB", "1e400"])
def test_a_size_that_is_no_number_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_bytes(text)


def test_an_input_over_the_budget_is_refused_with_its_size_and_what_fits() -> None:
    module = parse_text(chain(2000), "big.mlir")
    need = estimated_bytes(2000, 1)
    check_fits(module, (need, "test"))  # exactly enough: lowered
    with pytest.raises(InputTooLarge) as refused:
        check_fits(module, (need - 1, "test"))
    message = str(refused.value)
    assert message.startswith("big.mlir: error: the input is too large to lower in this "
                              "machine's memory: 2001 ops (2000 named), an estimated ")
    assert "available (test): about 2000 of its 2001 ops would fit; split it" in message
    assert AVAILABLE_VARIABLE in message


def test_the_machine_figure_is_read_when_the_variable_is_unset(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(AVAILABLE_VARIABLE, raising=False)
    found = memory_budget.available_bytes()
    if Path("/proc/meminfo").exists():
        assert found is not None and found[0] > 0
    monkeypatch.setenv(AVAILABLE_VARIABLE, "3G")
    assert memory_budget.available_bytes() == (3 * 2**30, AVAILABLE_VARIABLE)


Tool = Callable[[Sequence[str] | None], int]


def _arguments(tool: str, source: Path, tmp_path: Path) -> list[str]:
    if tool == "hswc-emit":
        return [str(source), "-o", str(tmp_path / "package"), "--name", "Chain"]
    if tool == "hswc-run":
        x = tmp_path / "x.npy"
        np.save(x, np.zeros((4, 5), np.float16))
        return [str(source), "--input", str(x), "--output", str(tmp_path / "y.npy")]
    return [str(source), "--lower-to-ascend", "-o", str(tmp_path / "out.mlir")]


@pytest.mark.parametrize("tool, main", [("hswc-opt", hswc_opt.main), ("hswc-run", hswc_run.main),
                                        ("hswc-emit", hswc_emit.main)])
def test_each_tool_refuses_before_lowering_and_writes_nothing(
        tool: str, main: Tool, tmp_path: Path, capsys: Capsys,
        monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "c.mlir"
    source.write_text(chain(3))
    need = estimated_bytes(3, 1)
    monkeypatch.setenv(AVAILABLE_VARIABLE, str(need - 1))
    code = main(_arguments(tool, source, tmp_path))
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.count("error:") == 1 and "Traceback" not in err, err
    assert f"{source}: error: the input is too large to lower in this machine's memory: " \
           "4 ops (3 named)" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["c.mlir"] + (["x.npy"] if tool == "hswc-run" else []))
    monkeypatch.setenv(AVAILABLE_VARIABLE, str(need))  # enough: the same run succeeds
    assert main(_arguments(tool, source, tmp_path)) == 0, capsys.readouterr().err


def test_a_malformed_figure_is_one_message(tmp_path: Path, capsys: Capsys,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "c.mlir"
    source.write_text(chain(1))
    monkeypatch.setenv(AVAILABLE_VARIABLE, "lots")
    assert hswc_opt.main([str(source), "--lower-to-ascend"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == (f"hswc-opt: error: {AVAILABLE_VARIABLE}='lots' is not a number of "
                           "bytes (write e.g. 8589934592 or 8G)")


def test_printing_without_lowering_is_not_refused(tmp_path: Path, capsys: Capsys,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "c.mlir"
    source.write_text(chain(2))
    monkeypatch.setenv(AVAILABLE_VARIABLE, "1")
    assert hswc_opt.main([str(source)]) == 0
    assert "hsg.hardtanh" in capsys.readouterr().out
