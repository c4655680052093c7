"""Writing a package's files into a folder: all or nothing, and never over a user's files.

- An existing folder that holds anything is refused unless `force`. The manifest,
  `.hswc-package`, lists every file a package wrote with the SHA-256 of what it wrote. With
  `force`, the files of the package replace those of the same name, and the files an earlier
  package wrote there (listed in its manifest) that this one does not write are removed; but
  only files that still hold what hswc-emit wrote. A file that changed since (its hash is not
  the manifest's), that the manifest has no hash for, or that hswc-emit never wrote, is
  neither overwritten nor removed: the whole write is refused, naming the files, unless
  `overwrite_edits` (hswc-emit's --force-overwrite-edits). Nothing else in the folder is
  touched: a user's own files stay. What was replaced and removed is returned, to be listed.
- Every file is first written into a temporary folder next to the target, on the same file
  system, and only then moved into place (a rename: each file is either the old or the new one,
  never half written). A failure before the move leaves the target as it was and removes the
  temporary folder and any parent folder made for it; an error names the folder asked for.
- Everything that could stop the move (a file where a folder must go, a folder where a file
  must go, an edited file) is checked before the first file is moved.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from hswc.output_files import loop_message, symlink_loop

MANIFEST = ".hswc-package"
_MANIFEST_HEAD = ("# Written by hswc-emit: the SHA-256 and path of each file of the package in "
                  "this folder. hswc-emit --force replaces or removes only those of them that "
                  "still hold what it wrote, and nothing else.")


class OutputRefused(Exception):
    """The folder cannot take the package; the message says why and what to do."""


@dataclass
class Written:
    """What write_files did: the files written, and which of them replaced an earlier
    package's (or, with overwrite_edits, an edited file), and the earlier files removed."""

    files: list[Path] = field(default_factory=list)
    replaced: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    edited: list[Path] = field(default_factory=list)
    """Of replaced and removed, those that had changed since hswc-emit wrote them."""


def digest(text: str) -> str:
    """The SHA-256 the manifest records of a file of this text (as written, UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_manifest(directory: Path) -> dict[str, str | None]:
    """The relative paths an earlier package listed, each with the hash it recorded (None in
    a manifest without hashes); {} without a manifest. Entries that would leave the folder
    (absolute, `..`) are ignored: a manifest cannot name a user's other files."""
    path = directory / MANIFEST
    if not path.is_file():
        return {}
    entries: dict[str, str | None] = {}
    for line in path.read_text("utf-8", errors="replace").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        recorded, separator, name = line.partition("  ")
        if not separator or len(recorded) != 64:
            recorded, name = "", line  # a line of an older manifest: a path, no hash
        entry = PurePosixPath(name.strip())
        if not entry.is_absolute() and ".." not in entry.parts and entry.parts != (MANIFEST,):
            entries[str(entry)] = recorded or None
    return entries


def manifest_text(files: Mapping[str, str]) -> str:
    return "\n".join([_MANIFEST_HEAD, *(f"{digest(files[name])}  {name}"
                                         for name in sorted(files))]) + "\n"


def _changed(path: Path, recorded: str | None) -> bool:
    """Whether the file at `path` is not what hswc-emit recorded writing there."""
    if recorded is None:
        return True
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest() != recorded
    except OSError:
        return True


def _plan_force(directory: Path, files: Mapping[str, str], shown: Path,
                overwrite_edits: bool) -> tuple[Written, list[str]]:
    """What --force will replace and remove (and the stale paths to remove); OutputRefused
    naming every file that changed since hswc-emit wrote it, unless `overwrite_edits`."""
    recorded = read_manifest(directory)
    done = Written()
    stale: list[str] = []
    for relative in sorted(files):
        path = directory / relative
        if not path.is_file():
            continue
        if path.read_bytes() == files[relative].encode("utf-8"):
            continue  # already what this package writes: nothing is lost
        done.replaced.append(shown / relative)
        if relative not in recorded or _changed(path, recorded[relative]):
            done.edited.append(shown / relative)
    for relative in sorted(recorded):
        path = directory / relative
        if relative in files or not path.is_file() or path.is_symlink():
            continue
        stale.append(relative)
        done.removed.append(shown / relative)
        if _changed(path, recorded[relative]):
            done.edited.append(shown / relative)
    if done.edited and not overwrite_edits:
        listed = ", ".join(f"'{p}'" for p in done.edited[:8])
        more = f" and {len(done.edited) - 8} more" if len(done.edited) > 8 else ""
        raise OutputRefused(
            f"--force would overwrite or remove {len(done.edited)} file(s) that changed since "
            f"hswc-emit wrote them, or that it did not write: {listed}{more}; nothing was "
            "written. Move them away, or give --force-overwrite-edits to replace them anyway")
    return done, stale


def _check_target(directory: Path, force: bool, shown: Path) -> None:
    loop = symlink_loop(shown)
    if loop is not None:
        raise OutputRefused(f"cannot write the package to '{shown}': {loop_message(loop)}")
    if directory.exists() and not directory.is_dir():
        raise OutputRefused(f"'{shown}' exists and is not a folder")
    holder = next((p for p in directory.parents if p.exists()), None)
    if holder is not None and not holder.is_dir():
        raise OutputRefused(f"cannot write the package to '{shown}': '{holder}' is not a folder")
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


def write_files(files: Mapping[str, str], directory: Path, force: bool = False,
                overwrite_edits: bool = False) -> Written:
    """Write `files` (relative path -> text) as the package in `directory`.

    OutputRefused (nothing written) when the folder holds files and not `force`, a path of
    the package is taken by something that is not a file, or, with `force`, an earlier file
    that changed since it was written would be overwritten or removed and not
    `overwrite_edits`; OutputRefused naming `directory` when the file system refuses.
    """
    target = Path(os.path.abspath(directory))
    _check_target(target, force, directory)
    _check_paths(target, files, directory)
    done, stale = (_plan_force(target, files, Path(directory), overwrite_edits)
                   if target.is_dir() else (Written(), []))
    try:
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
    except OSError as error:
        where = error.filename
        inside = where is not None and ".hswc-" not in Path(str(where)).name \
            and str(where) != str(target)
        detail = f" (at '{where}')" if inside else ""
        raise OutputRefused(f"cannot write the package to '{directory}': "
                            f"{error.strerror or error}{detail}") from None
    done.files = [directory / relative for relative in sorted(files)]
    return done
