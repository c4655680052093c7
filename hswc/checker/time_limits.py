"""The time limits of a check: every command it runs and every tiling call it makes ends.

hswc-check-kernel's `--timeout S` bounds each step that could hang on a hostile input:

- each run of the kernel (hswc.checker.run) and of the op's own C++ tiling, and each call of a
  `--tiling-function` (a Python function that never returns is stopped: `call_within`);
- each compiler command (the dependency listing, the preprocessing, the kernel's and the
  tiling's builds: `run`), under the check's build limit (`--build-timeout`, by default the
  same S). A kernel that `#include`s a FIFO or a device makes g++ wait for ever; it is
  stopped here.

`limits(run=..., build=...)` sets them for a block (a context variable, so that the modules
that run commands need no parameter for it). `run` starts each command in its own process
group and kills the whole group when the limit passes (g++ is a driver: its cc1plus would
outlive a kill of the driver alone).
"""

from __future__ import annotations

import ctypes
import math
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

DEFAULT_TIMEOUT = 300.0
"""Seconds one step may take unless --timeout says otherwise."""
MAX_TIMEOUT = 86400.0
"""The largest --timeout: a day (a step that needs more is a hang)."""

_RUN: ContextVar[float] = ContextVar("run_limit", default=DEFAULT_TIMEOUT)
_BUILD: ContextVar[float] = ContextVar("build_limit", default=DEFAULT_TIMEOUT)


class TimedOut(Exception):
    """A step did not end within its limit (it was stopped)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        super().__init__(f"did not finish within {seconds:g} s")


def seconds(text: str) -> float:
    """A --timeout value: a number of seconds above 0, at most MAX_TIMEOUT; ValueError saying
    so for anything else (nan, inf, 0, -1, 'abc')."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_TIMEOUT:  # false for nan too
        raise ValueError(f"'{text}' is not a number of seconds above 0 and at most "
                         f"{MAX_TIMEOUT:g}")
    return value


@contextmanager
def limits(run: float, build: float | None = None) -> Iterator[None]:
    """The limits of each run and each build (default: `run`) inside the block."""
    tokens = (_RUN.set(run), _BUILD.set(run if build is None else build))
    try:
        yield
    finally:
        _RUN.reset(tokens[0])
        _BUILD.reset(tokens[1])


def run_limit() -> float:
    return _RUN.get()


def build_limit() -> float:
    return _BUILD.get()


def run(command: Sequence[str], limit: float, env: dict[str, str] | None = None,
        merge_output: bool = False) -> subprocess.CompletedProcess[str]:
    """`command` to its end, its output as text; TimedOut (the process group killed) when it
    takes longer than `limit` seconds; OSError when it cannot start."""
    process = start(command, env, merge_output)
    out, err = finish(process, limit)
    return subprocess.CompletedProcess(list(command), process.returncode, out, err)


def start(command: Sequence[str], env: dict[str, str] | None = None,
          merge_output: bool = False) -> subprocess.Popen[str]:
    """`command` started in a process group of its own (for `finish`)."""
    return subprocess.Popen(list(command), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if merge_output else subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True, errors="replace", env=env,
                            start_new_session=True)


def finish(process: subprocess.Popen[str], limit: float) -> tuple[str, str]:
    """What a started process wrote (stdout, stderr), once it ended; TimedOut, its group
    killed, when that takes longer than `limit` seconds."""
    try:
        out, err = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        process.communicate()
        raise TimedOut(limit) from None
    return out or "", err or ""


class _Expired(BaseException):
    """Raised inside a call that ran out of time (a BaseException: the user's function's
    `except Exception` does not swallow it)."""


def call_within(limit: float, function: Callable[..., T], *args: object) -> T:
    """`function(*args)`, stopped with TimedOut when it takes longer than `limit` seconds.
    On the main thread a SIGALRM timer interrupts it (a loop, a sleep); on another thread it
    runs in a thread of its own, which is asked to stop (an exception raised in it at its next
    bytecode) when the limit passes."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return _call_with_alarm(limit, function, *args)
    return _call_in_thread(limit, function, *args)


def _call_with_alarm(limit: float, function: Callable[..., T], *args: object) -> T:
    def expire(signum: int, frame: object) -> None:
        raise _Expired

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return function(*args)
    except _Expired:
        raise TimedOut(limit) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _call_in_thread(limit: float, function: Callable[..., T], *args: object) -> T:
    outcome: list[T] = []
    failure: list[BaseException] = []

    def call() -> None:
        try:
            outcome.append(function(*args))
        except _Expired:
            pass
        except BaseException as error:  # the caller's to report
            failure.append(error)

    worker = threading.Thread(target=call, daemon=True, name="tiling-function")
    worker.start()
    worker.join(limit)
    if worker.is_alive():
        ident = worker.ident
        if ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                       ctypes.py_object(_Expired))
        raise TimedOut(limit)
    if failure:
        raise failure[0]
    return outcome[0]
