"""Fixtures shared by the package tests, and the run's C++ build cache."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from cpu_build import operator_module
from file_order import file_seconds, longest_first

from hswc.checker.build_cache import CACHE_VARIABLE
from hswc.tools.hswc_emit import main

_OWN_CACHE = "_hswc_own_build_cache"


def pytest_configure(config: pytest.Config) -> None:
    """One C++ build cache for the whole run (hswc.checker.build_cache), shared by the xdist
    workers through the environment they inherit, made here unless the caller gave one: the
    checker tests' builds of the same fixture op folder compile once."""
    if os.environ.get(CACHE_VARIABLE) or hasattr(config, "workerinput"):
        return
    folder = tempfile.mkdtemp(prefix="hswc-build-cache-")
    os.environ[CACHE_VARIABLE] = folder
    setattr(config, _OWN_CACHE, folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = getattr(config, _OWN_CACHE, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(CACHE_VARIABLE, None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest test files first, each file's tests together and in order (file_order.py):
    xdist's workers then finish together."""
    items[:] = longest_first(items, file_seconds())


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package of a module with a kernel for each dtype, written by the hswc-emit command."""
    directory = tmp_path_factory.mktemp("package")
    source = directory / "in.mlir"
    source.write_text(operator_module(("f16", "f32", "bf16")))
    assert main([str(source), "-o", str(directory / "out")]) == 0
    return directory / "out"
