"""Every command the README shows works as written: each ```sh block after the first (the
install, and `pytest` itself) runs with bash -e in one scratch folder holding a copy of
examples/, in order, so later blocks see the files earlier ones wrote. A block that starts with
`# needs the torch extra` runs only where PyTorch and torch-mlir are installed (a skip saying
so elsewhere); no later block may need what it writes."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
BLOCKS = re.findall(r"^```sh\n(.*?)^```", README.read_text(), flags=re.S | re.M)


def test_the_readme_starts_with_install_and_test() -> None:
    first = BLOCKS[0].strip().splitlines()
    assert first[0].startswith("pip install -e '.[test]' && hswc-opt --lower-to-ascend examples/")
    assert first[1] == "pytest"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO / "examples", folder / "examples")
    return folder


TORCH_EXTRA = "# needs the torch extra"


def missing_extra(block: str) -> str | None:
    """Why the block cannot run here (an extra it needs is not installed), or None."""
    if not block.startswith(TORCH_EXTRA):
        return None
    missing = [m for m in ("torch", "torch_mlir") if importlib.util.find_spec(m) is None]
    if not missing:
        return None
    return f"needs the torch extra (pip install 'hswc[torch]'): {', '.join(missing)} not installed"


@pytest.mark.parametrize("index", range(1, len(BLOCKS)))
def test_readme_block_runs(index: int, scratch: Path) -> None:
    reason = missing_extra(BLOCKS[index])
    if reason is not None:
        pytest.skip(reason)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", BLOCKS[index]], cwd=scratch,
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"README block {index}:\n{BLOCKS[index]}\n{done.stderr}"
    assert "Traceback" not in done.stderr
