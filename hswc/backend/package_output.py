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
  must go, an edited file, a folder of the package that is a symbolic link) is checked before
  the first file is moved. The move itself is all or nothing: each file it replaces or removes
  is first renamed aside into the temporary folder, and should any rename fail (a folder that
  cannot be written), every file already moved is put back as it was, so the folder holds the
  old package or the new one, never a mix of the two.
- A path is never followed through a symbolic link below the folder: an earlier package's file
  reached through one (`extra/ -> elsewhere`) is kept, not removed, and said so; a package file
  that would be written through one refuses the write.
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
    kept: list[tuple[Path, Path]] = field(default_factory=list)
    """Earlier package files not removed because their path goes through a symbolic link:
    (the file, the link)."""


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
        link = _linked_folder(directory, relative)
        if relative in files or link is not None or not path.is_file() or path.is_symlink():
            if relative not in files and link is not None:
                done.kept.append((shown / relative, shown / link))
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


def _linked_folder(directory: Path, relative: str) -> PurePosixPath | None:
    """The first folder on the way from `directory` to `relative` that is a symbolic link,
    None when there is none."""
    for parent in reversed(PurePosixPath(relative).parents):
        if parent != PurePosixPath(".") and (directory / parent).is_symlink():
            return parent
    return None


def _check_paths(directory: Path, files: Mapping[str, str], shown: Path) -> None:
    """Every file can go where it belongs: no folder in its place, no file in its folder's,
    no symbolic link on the way."""
    for relative in sorted(files):
        link = _linked_folder(directory, relative)
        if link is not None:
            raise OutputRefused(f"'{shown / link}' is a symbolic link; the package writes "
                                f"'{shown / relative}' below it, and hswc-emit writes no file "
                                "through a link: make it a folder, or name another -o")
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


class _Swap:
    """The package's files moved into `directory` as one change: each file replaced or removed
    is first renamed aside (into `aside`, a folder inside the temporary one); `undo` puts every
    file back as it was."""

    def __init__(self, directory: Path, aside: Path, shown: Path):
        self.directory = directory
        self.aside = aside
        self.shown = shown
        self.set_aside: list[str] = []
        self.placed: list[str] = []
        self.made: list[Path] = []

    def _folder_for(self, path: Path) -> None:
        missing = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
        for folder in reversed(missing):
            folder.mkdir()
            self.made.append(folder)

    def _set_aside(self, relative: str) -> None:
        target = self.directory / relative
        if not target.exists() and not target.is_symlink():
            return
        (self.aside / relative).parent.mkdir(parents=True, exist_ok=True)
        os.rename(target, self.aside / relative)
        self.set_aside.append(relative)

    def place(self, staged: Path, relative: str) -> None:
        """`staged` as the file `relative` of the folder, the file there set aside."""
        try:
            self._set_aside(relative)
            target = self.directory / relative
            self._folder_for(target)
            os.rename(staged, target)
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.shown / relative)) from None
        self.placed.append(relative)

    def remove(self, relative: str) -> None:
        """An earlier package's file, set aside (deleted with the temporary folder)."""
        try:
            self._set_aside(relative)
        except OSError as error:
            raise OSError(error.errno, error.strerror, str(self.shown / relative)) from None

    def undo(self) -> None:
        """Every file as it was before the first move (best effort: each step is a rename
        back, within the folders the move itself just used)."""
        for relative in reversed(self.placed):
            try:
                os.unlink(self.directory / relative)
            except OSError:
                pass
        for relative in reversed(self.set_aside):
            try:
                os.rename(self.aside / relative, self.directory / relative)
            except OSError:
                pass
        for folder in reversed(self.made):
            try:
                folder.rmdir()
            except OSError:
                pass

    def prune(self, stale: list[str]) -> None:
        """The folders the removed files leave empty below the folder (those holding someone
        else's files stay)."""
        folders = {p for relative in stale for p in PurePosixPath(relative).parents
                   if p != PurePosixPath(".")}
        for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
            try:
                (self.directory / folder).rmdir()
            except OSError:
                pass


class _Unchanged(OSError):
    """The move failed and was undone: the folder holds what it held before."""


def _move_into(staging: Path, directory: Path, files: Mapping[str, str],
               stale: list[str], shown: Path) -> None:
    """Rename each staged file over its target (the manifest last) and remove the stale
    files, all or nothing (`_Swap`): _Unchanged when a rename failed and every file is back."""
    swap = _Swap(directory, staging / ".hswc-replaced", shown)
    try:
        for relative in [*sorted(files), MANIFEST]:
            swap.place(staging / relative, relative)
        for relative in stale:
            swap.remove(relative)
    except OSError as error:
        swap.undo()
        raise _Unchanged(error.errno, error.strerror, error.filename) from None
    except BaseException:
        swap.undo()
        raise
    swap.prune(stale)


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
                    _move_into(staging, target, files, stale, Path(directory))
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except OSError as error:
        where = error.filename
        inside = where is not None and ".hswc-" not in Path(str(where)).name \
            and str(where) != str(target)
        detail = f" (at '{where}')" if inside else ""
        undone = f"; nothing in '{directory}' was changed" if isinstance(error, _Unchanged) \
            else ""
        raise OutputRefused(f"cannot write the package to '{directory}': "
                            f"{error.strerror or error}{detail}{undone}") from None
    done.files = [directory / relative for relative in sorted(files)]
    return done
