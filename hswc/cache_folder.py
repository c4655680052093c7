"""Where hswc keeps what it computes once per machine (compiled dataclass methods, schedule
choices): $HSWC_CACHE_DIR, else $XDG_CACHE_HOME/hswc, else ~/.cache/hswc; HSWC_CACHE_DIR set
to the empty string turns every cache off."""

from __future__ import annotations

import os
from pathlib import Path


def cache_folder() -> Path | None:
    """The cache folder, or None when caching is off."""
    folder = os.environ.get("HSWC_CACHE_DIR")
    if folder is None:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        folder = str(Path(base) / "hswc")
    return Path(folder) if folder else None
