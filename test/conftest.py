"""Fixtures shared by the package tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from cpu_build import operator_module

from hswc.tools.hswc_emit import main


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package of a module with a kernel for each dtype, written by the hswc-emit command."""
    directory = tmp_path_factory.mktemp("package")
    source = directory / "in.mlir"
    source.write_text(operator_module(("f16", "f32", "bf16")))
    assert main([str(source), "-o", str(directory / "out")]) == 0
    return directory / "out"
