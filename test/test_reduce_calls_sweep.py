"""The interpreter and the C++ CPU model bit for bit on many random calls of the reductions,
Brcb and the level-0 binary arithmetic (`sweep`; test_reduce_calls.py samples one case of each
call, dtype and SoC family)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cpu_build import compiler
from reduce_calls import Driver
from test_reduce_calls import agree_on_random_cases

pytestmark = pytest.mark.sweep


@pytest.fixture(scope="module")
def drivers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Driver]:
    return Driver.build_all(tmp_path_factory.mktemp("reduce_calls_sweep"), compiler())


@pytest.mark.parametrize("seed", range(4))
def test_random_calls_agree(seed: int, drivers: dict[str, Driver], tmp_path: Path) -> None:
    """10 random cases of every call, dtype and family per seed: 590 each."""
    assert agree_on_random_cases(drivers, tmp_path, seed=1000 + seed, per_call=10) == 590
