"""Every command the README shows works as written and prints what it shows: each ```sh block
after the first (the install, and `pytest` itself) runs in one scratch folder holding a copy of
examples/, in order, as test/doc_blocks.py says (its marks: `# needs the torch extra`,
`# long:`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_blocks import REPO, Block, blocks, run, scratch_folder

README = REPO / "README.md"
BLOCKS = blocks(README)


def test_the_readme_starts_with_install_and_test() -> None:
    first = BLOCKS[0].text.strip().splitlines()
    assert first[0] == "pip install -e '.[test]' && hswc-opt --lower-to-ascend " \
        "examples/hard_swish_grad.mlir"
    assert first[1] == "pytest"


def test_the_readme_is_short() -> None:
    """Issue 39: a README a newcomer reads in five minutes; the rest is in docs/."""
    assert len(README.read_text().splitlines()) <= 200


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scratch_folder(tmp_path_factory.mktemp("readme"))


def _param(block: Block) -> object:
    return pytest.param(block, id=str(block.index),
                        marks=[pytest.mark.sweep] if block.long else [])


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS[1:]])
def test_readme_block_runs(block: Block, scratch: Path) -> None:
    reason = block.missing_extra()
    if reason is not None:
        pytest.skip(reason)
    failure = run(block, scratch)
    assert not failure, failure
