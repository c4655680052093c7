"""The CPU model of AscendC (hswc/checker/ascendc_cpu) checks itself before it checks kernels.

Builds the model's self-test with g++ (-Wall -Wextra -Werror) and requires every assertion to
pass and every modelled hardware-rule violation to end in one `ascendc_cpu:` line and exit 3.
Builds the generic harness with test/cpp_fixtures/elementwise_fixture.cpp (three inputs, two
outputs, its own tiling struct; an untemplated entry dispatching with TILING_KEY_IS and a
templated one instantiated through HSWC_KERNEL_INSTANCES) and compares it with the independent
references of cpu_model_references.py; checks the vector API's lanes against numpy and exact
rationals, the harness's usage errors, and that unmodelled calls fail to compile with their
message. The exhaustive sweep (more shapes, casts, the sanitizer builds) is
test/cpp_fixtures/check_ascendc_cpu.py, run by hand when the model changes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from selftest_checks import assert_violations_are_one_line

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "cpp_fixtures"))
import check_ascendc_cpu as check  # noqa: E402  (a script of cpp_fixtures, not a package)

CXX = shutil.which("g++")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Path]]:
    """The self-test and the two generic-harness builds (plain, -O2, -Werror)."""
    if CXX is None:
        if os.environ.get("CI") == "true":
            pytest.fail("g++ is missing on CI; the C++ tests must run there")
        pytest.skip("no C++ compiler (g++) on this machine: the AscendC CPU model is not built")
    _, selftest, generic = check.build(tmp_path_factory.mktemp("ascendc_cpu"), sanitize=False,
                                       with_hard_swish_grad=False)
    return selftest, generic


def test_selftest_assertions_pass(builds: tuple[Path, dict[str, Path]]) -> None:
    run = subprocess.run([str(builds[0])], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert ", 0 failed" in run.stdout


def test_each_violation_is_one_line_and_exit_3(builds: tuple[Path, dict[str, Path]]) -> None:
    assert_violations_are_one_line(builds[0], 68)


def _marked_line(marker: str) -> int:
    """The line of selftest_sync.cpp that ends in the comment `// marker`."""
    lines = (ROOT / "test" / "cpp_fixtures" / "selftest_sync.cpp").read_text().splitlines()
    return next(k + 1 for k, line in enumerate(lines) if line.rstrip().endswith(f"// {marker}"))


@pytest.mark.parametrize("case,earlier,later,pattern", [
    ("fetched_ids_reused", "@first-fetched-set", "@second-fetched-set",
     r"SetFlag: SetFlag<HardEvent::MTE3_V>\(0\) at \S*selftest_sync.cpp:{later} while "
     r"SetFlag<HardEvent::MTE3_V>\(0\) at \S*selftest_sync.cpp:{earlier} is not yet waited for: "
     r"event id 0 of HardEvent::MTE3_V reused in flight"),
    ("fixed_id_a_queue_holds", "@queue-enque", "@fixed-set",
     r"SetFlag: SetFlag<HardEvent::V_MTE3>\(0\) at \S*selftest_sync.cpp:{later} while "
     r"TQue<VECOUT>::EnQue's SetFlag<HardEvent::V_MTE3>\(0\) at \S*selftest_sync.cpp:{earlier} "
     r"is not yet waited for"),
    ("vector_read_after_write", "@raw-first", "@raw-second",
     r"Adds: read of src \(UB byte \d+\) at \S*selftest_sync.cpp:{later} after Muls at "
     r"\S*selftest_sync.cpp:{earlier} wrote it, with no PipeBarrier<PIPE_V> between the two vector "
     r"calls \(a read-after-write on the V pipe"),
])
def test_the_sync_rules_name_both_calls(builds: tuple[Path, dict[str, Path]], case: str,
                                        earlier: str, later: str, pattern: str) -> None:
    """An event id reused in flight (from FetchEventID twice; a fixed id a queue's EnQue took) and
    a vector read-after-write without PipeBarrier<PIPE_V> under --auto-sync off are reported at
    the earlier call's line and the later one's."""
    run = subprocess.run([str(builds[0]), "--violate", case], capture_output=True, text=True,
                         check=False)
    want = pattern.format(earlier=_marked_line(earlier), later=_marked_line(later))
    assert run.returncode == 3 and re.search(want, run.stderr), run.stderr


def test_running_out_of_event_ids_names_every_holder(builds: tuple[Path, dict[str, Path]]
                                                     ) -> None:
    """The ninth AllocEventID of one HardEvent: QUE_MAX_EVENT is 8 on Atlas A2/A3 and Ascend
    950 (asc-devkit kernel_macros.h); the message lists who holds ids 0 to 7."""
    run = subprocess.run([str(builds[0]), "--violate", "event_ids_exhausted"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 3
    assert re.search(r"AllocEventID: AllocEventID<HardEvent::V_MTE2>\(\) at \S+:\d+ needs an "
                     r"event id of HardEvent::V_MTE2, but all 8 are held", run.stderr), run.stderr
    assert all(f"{k} by AllocEventID<HardEvent::V_MTE2>() at " in run.stderr for k in range(8))


def test_vector_lanes_match_numpy_and_exact_rationals(builds: tuple[Path, dict[str, Path]],
                                                      tmp_path: Path) -> None:
    """Mul ... Relu against numpy / IEEE 754-2019 maximum and minimum, Div against exactly
    rounded rational quotients, Cast float <-> int32 in five modes against numpy rounding."""
    res = check.Results(echo=False)
    rng = np.random.default_rng(3)
    check.check_arith(res, builds[0], tmp_path, rng, 2048)
    check.check_int_casts(res, builds[0], tmp_path, rng, 500)
    assert res.failures == [] and res.passed >= 30


@pytest.mark.parametrize("key,dtype", [(10, np.float32), (20, np.float16)])
@pytest.mark.parametrize("build_name", list(check.GENERIC_BUILDS))
@pytest.mark.parametrize("n,cores,ub_factor", [(1, 1, 64), (1000, 3, 128), (4097, 8, 1024)])
def test_generic_harness_runs_a_three_input_two_output_kernel(
    builds: tuple[Path, dict[str, Path]], tmp_path: Path, build_name: str, key: int,
    dtype: type, n: int, cores: int, ub_factor: int,
) -> None:
    a, b, c = check.elementwise_inputs(np.random.default_rng(n + key), dtype, n)
    run, clamped, scaled = check.run_elementwise(builds[1][build_name], key, a, b, c, cores,
                                                 ub_factor, tmp_path)
    assert run.returncode == 0 and not run.stderr, run.stderr
    want_clamped, want_scaled = check.elementwise_expected(a, b, c, -4.0, 4.0, 1000.0)
    assert len(check.same_bits(0 if dtype == np.float16 else 1, clamped, want_clamped)) == 0
    np.testing.assert_array_equal(scaled, want_scaled)


def test_generic_harness_usage_and_output_errors(builds: tuple[Path, dict[str, Path]],
                                                 tmp_path: Path) -> None:
    """Wrong file counts, tiling forms and keys exit 2; unwritten or too-small outputs exit 3."""
    res = check.Results(echo=False)
    check.check_generic_errors(res, builds[1], tmp_path)
    assert res.failures == [] and res.passed >= 12


def test_unmodelled_calls_and_bf16_arithmetic_fail_to_compile(
        builds: tuple[Path, dict[str, Path]], tmp_path: Path) -> None:
    res = check.Results(echo=False)
    check.check_refusals(res, tmp_path)
    assert res.failures == [] and res.passed == len(check.REFUSED) + 1
