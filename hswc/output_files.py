"""Writing output files only once they are complete: a temporary file next to the target,
renamed over it.

Every file a tool writes (hswc-opt -o, hswc-run --output / --tiling-json / --profile TRACE, the
package hswc-emit writes) goes through here, after the work that produces it has succeeded. A
reader of the target sees the old file or the new one, never a part; a run that fails or dies
leaves the old file as it was; `hswc-opt f.mlir -o f.mlir` works, since the input is read
before anything is written.

- The temporary file is `.NAME.XXXX.tmp` in the target's directory (a rename is atomic only
  within one file system), created without following links; the final file gets the mode the
  old one had, or the usual `0666 & ~umask`.
- A target that is a link to a regular file replaces the file it points to (the link stays).
- A target that exists and is not a regular file (/dev/null, /dev/full, a FIFO) is written in
  place: there is nothing to rename over, and renaming onto a device would replace the device.
- A directory, an empty path or a missing parent directory is refused; so is any write error,
  with the reason (`OutputError`, whose message names the path; a symbolic link loop on the
  way is named as such, at the link).

`write_files` writes a set of files: all temporaries first (where a full disk or a permission
shows), then the renames, so a failure before the renames changes no target.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import BinaryIO

Content = str | bytes | Callable[[BinaryIO], None]
"""Text (written as UTF-8), bytes, or a function that writes to an open binary file."""


class OutputError(Exception):
    """An output that cannot be written; the message names the path and the reason."""

    def __init__(self, path: str | Path, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"cannot write '{path}': {reason}")


def _failed(path: str | Path, error: OSError) -> OutputError:
    if error.errno == errno.ELOOP:
        loop = symlink_loop(path)
        if loop is not None:
            return OutputError(path, loop_message(loop))
    return OutputError(path, error.strerror or str(error))


def symlink_loop(path: str | Path) -> str | None:
    """The first part of `path` (as spelled, from its start) that is a symbolic link whose
    links lead back to themselves, never to a file or folder; None when there is none."""
    parts = Path(path).parts
    for k in range(1, len(parts) + 1):
        prefix = os.path.join(*parts[:k])
        try:
            if not stat.S_ISLNK(os.lstat(prefix).st_mode):
                continue
            os.stat(prefix)
        except OSError as error:
            if error.errno == errno.ELOOP:
                return prefix
            return None  # a missing part: nothing further to follow
    return None


def loop_message(link: str) -> str:
    return (f"'{link}' is a symbolic link loop (its links lead back to themselves, never to a "
            "file or folder)")


def write_file(path: str | Path, content: Content) -> None:
    """Write one file (see the module docstring)."""
    write_files({path: content})


def write_files(files: Mapping[str | Path, Content], make_parents: bool = False) -> None:
    """Write several files, each complete before any target changes (see the module
    docstring); `make_parents` creates missing directories (removed again on failure)."""
    staged: list[tuple[str, str, str | Path]] = []
    created: list[Path] = []
    done = False
    try:
        for path, content in files.items():
            target = _target(path, make_parents, created)
            if target is None:  # a device or FIFO: written in place, nothing to rename
                _write_in_place(path, content)
            else:
                staged.append((_stage(path, target, content), target, path))
        while staged:
            temporary, target, path = staged[0]
            try:
                os.replace(temporary, target)
            except OSError as error:
                raise _failed(path, error) from None
            staged.pop(0)
        done = True
    finally:
        for temporary, _, _ in staged:
            _remove(temporary)
        if not done:
            for directory in reversed(created):
                _remove_dir(directory)


def _target(path: str | Path, make_parents: bool, created: list[Path]) -> str | None:
    """The regular file to rename onto, or None for a device / FIFO to write in place."""
    if str(path) == "":
        raise OutputError(path, "the path is empty")
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise _failed(path, error) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(path, "it is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        return None
    parent = Path(real).parent
    if not parent.is_dir():
        if not make_parents:
            raise OutputError(path, f"there is no directory '{Path(path).parent}'")
        missing = [p for p in (parent, *parent.parents) if not p.exists()]
        try:
            for directory in reversed(missing):
                directory.mkdir()
                created.append(directory)
        except OSError as error:
            raise _failed(path, error) from None
    return real


def _stage(path: str | Path, target: str, content: Content) -> str:
    """Write `content` to a fresh temporary file beside `target`; its name."""
    directory, name = os.path.split(target)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        reason = error.strerror or str(error)
        raise OutputError(path, f"cannot create a file in '{directory}': {reason}") from None
    try:
        with os.fdopen(fd, "wb") as stream:
            _write(stream, content)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _mode_for(target))
    except BaseException as error:
        _remove(temporary)
        if isinstance(error, OSError):
            raise _failed(path, error) from None
        raise
    return temporary


def _write_in_place(path: str | Path, content: Content) -> None:
    try:
        with open(path, "wb") as stream:
            _write(stream, content)
    except OSError as error:
        raise _failed(path, error) from None


def _write(stream: BinaryIO, content: Content) -> None:
    if isinstance(content, str):
        stream.write(content.encode("utf-8"))
    elif isinstance(content, bytes):
        stream.write(content)
    else:
        content(stream)


def _mode_for(target: str) -> int:
    """The old file's permissions, or what open() would give a new file."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _remove_dir(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass
