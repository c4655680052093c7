"""hswc.progress: one updating line on a terminal, nothing in a pipe, and the summary table.

The frames are checked as a terminal receives them (carriage return, erase to the end of the
line, the text), on a stream that says it is a terminal, with a clock the test moves.
"""

from __future__ import annotations

import io
import threading
import time

import pytest
from fake_terminal import FakeClock, FakeTerminal

from hswc.progress import ERASE, Progress, elapsed_text, summary_table


@pytest.fixture(autouse=True)
def _width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("TERM", "xterm")


def test_a_terminal_gets_one_line_redrawn_then_erased() -> None:
    terminal, clock = FakeTerminal(), FakeClock()
    with Progress(3, "sweep", terminal, clock=clock, tick=None) as progress:
        progress.working_on("activation/relu on ascend910b")
        clock.now += 65
        progress.advance()
        clock.now += 3600
        progress.working_on("activation/elu")
        progress.advance(2)
    assert terminal.getvalue() == (ERASE + "sweep 0/3 0s activation/relu on ascend910b"
                                   + ERASE + "sweep 1/3 1m05s activation/relu on ascend910b"
                                   + ERASE + "sweep 1/3 1h01m activation/elu"
                                   + ERASE + "sweep 3/3 1h01m activation/elu"
                                   + ERASE)
    assert "\n" not in terminal.getvalue()


def test_the_line_fits_the_terminal_keeping_the_end_of_the_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "30")
    progress = Progress(120, "sweep", FakeTerminal(), clock=FakeClock(), tick=None)
    progress.working_on("experimental/activation/hard_swish_grad_v2 on ascend950")
    line = progress.line()
    assert line == "sweep 0/120 0s ...n ascend950"
    assert len(line) == 29  # the last column is left free: some terminals wrap on it
    monkeypatch.setenv("COLUMNS", "12")
    assert progress.line() == "sweep 0/120 0s"  # no room for the name at all


def test_a_pipe_gets_nothing_but_messages() -> None:
    pipe = io.StringIO()
    with Progress(2, "sweep", pipe, clock=FakeClock(), tick=1e-3) as progress:
        assert not progress.shown
        progress.working_on("activation/relu")
        progress.advance()
        progress.write("a note")
        time.sleep(0.01)
    assert pipe.getvalue() == "a note\n"


def test_a_dumb_terminal_gets_no_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    terminal = FakeTerminal()
    with Progress(2, "sweep", terminal, tick=None) as progress:
        progress.advance()
    assert terminal.getvalue() == ""


def test_a_message_goes_above_the_line() -> None:
    terminal = FakeTerminal()
    with Progress(2, "job", terminal, clock=FakeClock(), tick=None) as progress:
        progress.working_on("a")
        progress.write("warning: b\n")
    assert terminal.getvalue() == (ERASE + "job 0/2 0s a" + ERASE + "warning: b\n"
                                   + ERASE + "job 0/2 0s a" + ERASE)


class _Counting(FakeTerminal):
    """A terminal that signals each frame."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = 0
        self.framed = threading.Condition()

    def write(self, text: str) -> int:
        with self.framed:
            self.frames += text.count(ERASE)
            self.framed.notify_all()
        return super().write(text)


def test_the_elapsed_time_moves_between_calls_and_stops_at_close() -> None:
    terminal = _Counting()
    progress = Progress(1, "job", terminal, tick=0.01)
    progress.working_on("a long step")
    with terminal.framed:  # the ticker redraws with no call from the job
        assert terminal.framed.wait_for(lambda: terminal.frames >= 4, timeout=10)
    progress.close()
    closed = terminal.getvalue()
    assert closed.endswith(ERASE)
    time.sleep(0.05)
    assert terminal.getvalue() == closed


@pytest.mark.parametrize(("seconds", "text"), [
    (0, "0s"), (59.9, "59s"), (60, "1m00s"), (65, "1m05s"), (3599, "59m59s"), (3600, "1h00m"),
    (3725, "1h02m"), (90061, "25h01m")])
def test_elapsed_text(seconds: float, text: str) -> None:
    assert elapsed_text(seconds) == text


def test_summary_table_aligns_columns() -> None:
    table = summary_table(("kernel", "soc", "verdict"),
                          [("activation/relu", "ascend910b", "bit-exact (20 runs)"),
                           ("elu", "ascend950", 3)])
    assert table == ("kernel           soc         verdict\n"
                     "activation/relu  ascend910b  bit-exact (20 runs)\n"
                     "elu              ascend950   3")
