"""Progress of a long job on a terminal, and the table it ends with.

    with Progress(len(folders), "hswc-check-kernel --sweep") as progress:
        for folder in folders:
            progress.working_on(folder.name)
            rows += check(folder)
            progress.advance()
    print(summary_table(("kernel", "verdict"), rows))

On a terminal (the stream, stderr by default, says isatty() and TERM is not `dumb`) a Progress
keeps one line up to date: `TITLE DONE/TOTAL ELAPSED CURRENT`, redrawn at each call and once a
second between them (a daemon thread, so the elapsed time moves during a long step), cut to the
terminal's width (COLUMNS, else the terminal's own) by dropping the start of CURRENT, and erased
by close() (or the end of the `with`), so that what the job prints next starts on a clean line.
Anywhere else (a pipe, a file, CI's log) it writes nothing: a log holds results, not frames.
`write(line)` prints a message the job has to say meanwhile, above the line on a terminal.

Only the standard library is used: any layer of hswc may report progress.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import TextIO

ERASE = "\r\x1b[K"
"""Back to the line's start, then erase to its end (ECMA-48 EL)."""
DEFAULT_WIDTH = 80
"""The width when neither COLUMNS nor the terminal says one."""


def elapsed_text(seconds: float) -> str:
    """`42s`, `3m05s`, `1h02m`."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole // 60 % 60:02d}m"


def is_terminal(stream: TextIO) -> bool:
    """Whether progress frames belong on `stream`: a terminal that is not a dumb one."""
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # a closed or stream-like object
        return False


class Progress:
    """One updating line on a terminal, nothing elsewhere (see the module docstring)."""

    def __init__(self, total: int, title: str, stream: TextIO | None = None, *,
                 clock: Callable[[], float] = time.monotonic, tick: float | None = 1.0) -> None:
        self.total = total
        self.title = title
        self.done = 0
        self.current = ""
        self._stream = sys.stderr if stream is None else stream
        self._clock = clock
        self._started = clock()
        self.shown = is_terminal(self._stream)
        """Whether frames are drawn (a terminal)."""
        self._drawn = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if self.shown and tick is not None:
            self._ticker = threading.Thread(target=self._tick, args=(tick,), daemon=True,
                                            name="hswc-progress")
            self._ticker.start()

    def working_on(self, current: str) -> None:
        """Name what the job works on now."""
        self.current = current
        self._draw()

    def advance(self, count: int = 1) -> None:
        """Count `count` more items done."""
        self.done += count
        self._draw()

    def write(self, line: str) -> None:
        """Print `line` (a message, not progress): above the progress line on a terminal, as
        it is elsewhere."""
        with self._lock:
            if self._drawn:
                self._stream.write(ERASE)
                self._drawn = False
            self._stream.write(line.rstrip("\n") + "\n")
            self._stream.flush()
        self._draw()

    def line(self) -> str:
        """The progress line as drawn now (without control characters)."""
        head = (f"{self.title} {self.done}/{self.total} "
                f"{elapsed_text(self._clock() - self._started)}")
        room = self._width() - 1 - len(head) - 1  # the last column would wrap on some terminals
        current = self.current
        if len(current) > room:
            current = "..." + current[len(current) - room + 3:] if room > 3 else ""
        return f"{head} {current}".rstrip()

    def close(self) -> None:
        """Stop the ticker and erase the line."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None
        with self._lock:
            if self._drawn:
                self._stream.write(ERASE)
                self._stream.flush()
                self._drawn = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def _draw(self) -> None:
        if not self.shown or self._stop.is_set():
            return
        with self._lock:
            self._stream.write(ERASE + self.line())
            self._stream.flush()
            self._drawn = True

    def _tick(self, every: float) -> None:
        while not self._stop.wait(every):
            self._draw()

    def _width(self) -> int:
        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit() and int(columns) > 0:
            return int(columns)
        try:
            return os.get_terminal_size(self._stream.fileno()).columns or DEFAULT_WIDTH
        except (AttributeError, OSError, ValueError):
            return DEFAULT_WIDTH


def summary_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """`rows` under `header` in columns two spaces apart, each as wide as its widest cell (the
    last one not padded)."""
    lines = [[str(cell) for cell in header], *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(line[i]) for line in lines if i < len(line)) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)).rstrip()
                     for line in lines)
