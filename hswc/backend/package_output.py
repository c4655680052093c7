"""Writing a package's files into a folder: all or nothing, and never over a user's files.

- An existing folder that holds anything is refused unless `force`; with `force`, the files of
  the package replace those of the same name, and the files an earlier package wrote there
  (listed in its manifest, `.hswc-package`) that this one does not write are removed. Nothing
  else in the folder is touched: a user's own files stay.
- Every file is first written into a temporary folder next to the target, on the same file
  system, and only then moved into place (a rename: each file is either the old or the new one,
  never half written). A failure before the move leaves the target as it was and removes the
  temporary folder and any parent folder made for it.
- Everything that could stop the move (a file where a folder must go, a folder where a file
  must go) is checked before the first file is moved.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

MANIFEST = ".hswc-package"
_MANIFEST_HEAD = ("# Written by hswc-emit: the files of the package in this folder. hswc-emit "
                  "--force removes those of them it no longer writes, and nothing else.")


class OutputRefused(Exception):
    """The folder cannot take the package; the message says why and what to do."""


def read_manifest(directory: Path) -> list[str]:
    """The relative paths an earlier package listed; [] without a manifest. Entries that would
    leave the folder (absolute, `..`) are ignored: a manifest cannot name a user's other files."""
    path = directory / MANIFEST
    if not path.is_file():
        return []
    entries = []
    for line in path.read_text("utf-8", errors="replace").splitlines():
        entry = PurePosixPath(line.strip())
        if line.strip() and not line.startswith("#") and not entry.is_absolute() \
                and ".." not in entry.parts and entry.parts != (MANIFEST,):
            entries.append(str(entry))
    return entries


def manifest_text(files: Mapping[str, str]) -> str:
    return "\n".join([_MANIFEST_HEAD, *sorted(files)]) + "\n"


def _check_target(directory: Path, force: bool, shown: Path) -> None:
    if directory.exists() and not directory.is_dir():
        raise OutputRefused(f"'{shown}' exists and is not a folder")
    if directory.is_dir() and not force:
        held = sorted(entry.name for entry in directory.iterdir())
        if held:
            held_text = ", ".join(held[:3]) + (", ..." if len(held) > 3 else "")
            raise OutputRefused(
                f"'{shown}' already holds files ({held_text}); give --force to replace the "
                "package there (files hswc-emit did not write are kept), or name a new folder")


def _check_paths(directory: Path, files: Mapping[str, str], shown: Path) -> None:
    """Every file can go where it belongs: no folder in its place, no file in its folder's."""
    for relative in sorted(files):
        if (directory / relative).is_dir() and not (directory / relative).is_symlink():
            raise OutputRefused(f"'{shown / relative}' is a folder; the package writes a file "
                                "there")
        for parent in PurePosixPath(relative).parents:
            holder = directory / parent
            if parent != PurePosixPath(".") and holder.exists() and not holder.is_dir():
                raise OutputRefused(f"'{shown / parent}' is not a folder; the package needs "
                                    "one there")


@contextmanager
def _parents_made(directory: Path) -> Iterator[None]:
    """Make the missing parent folders of `directory`; remove them again on failure."""
    made = [p for p in reversed(directory.parents) if not p.exists()]
    for parent in made:
        parent.mkdir()
    try:
        yield
    except BaseException:
        for parent in reversed(made):
            try:
                parent.rmdir()
            except OSError:
                pass
        raise


def _write_all(staging: Path, files: Mapping[str, str]) -> None:
    for relative, text in files.items():
        path = staging / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (staging / MANIFEST).write_text(manifest_text(files), encoding="utf-8")


def _remove_stale(directory: Path, stale: list[str]) -> None:
    """Remove an earlier package's files (regular files only), then the folders they leave
    empty below `directory`."""
    folders: set[Path] = set()
    for relative in stale:
        path = directory / relative
        if path.is_file() and not path.is_symlink():
            path.unlink()
            folders.update(p for p in path.relative_to(directory).parents if p != Path("."))
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        try:
            (directory / folder).rmdir()
        except OSError:
            pass  # not empty: it holds someone else's files


def _move_into(staging: Path, directory: Path, files: Mapping[str, str]) -> None:
    """Rename each staged file over its target (the manifest last)."""
    for relative in [*sorted(files), MANIFEST]:
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / relative, target)


def _staging_folder(directory: Path) -> Path:
    """An empty folder next to `directory`, with the permissions a new folder gets."""
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.hswc-", dir=directory.parent))
    umask = os.umask(0)
    os.umask(umask)
    staging.chmod(0o777 & ~umask)
    return staging


def write_files(files: Mapping[str, str], directory: Path, force: bool = False) -> list[Path]:
    """Write `files` (relative path -> text) as the package in `directory`; the paths written.

    OutputRefused (nothing written) when the folder holds files and not `force`, or a path of
    the package is taken by something that is not a file; OSError as the file system says.
    """
    target = Path(os.path.abspath(directory))
    _check_target(target, force, directory)
    _check_paths(target, files, directory)
    stale = [p for p in read_manifest(target) if p not in files] if target.is_dir() else []
    with _parents_made(target):
        staging = _staging_folder(target)
        try:
            _write_all(staging, files)
            if not target.exists() or (not target.is_symlink() and not any(target.iterdir())):
                os.replace(staging, target)  # the whole folder at once
            else:
                _move_into(staging, target, files)
                _remove_stale(target, stale)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return [directory / relative for relative in sorted(files)]
