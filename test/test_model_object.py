"""hswc.checker.model_object: the CPU model's non-template code built once per flag set, into the
build cache, and the harness builds that link it."""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from hswc.checker import build_cache, model_object
from hswc.checker.model_object import HARNESS, MODEL

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no g++")

FIXTURE = Path(__file__).resolve().parent / "cpp_fixtures" / "hard_swish_grad_fixture.cpp"


def _harness(*flags: str, output: str = "/tmp/k") -> list[str]:
    return ["g++", "-std=c++17", "-Wall", "-Werror", f"-I{MODEL}", "-I/some/op_kernel", *flags,
            f'-DHSWC_KERNEL_SOURCE="{FIXTURE}"', str(HARNESS), "-o", output]


def test_a_kernel_s_own_flags_do_not_change_the_object() -> None:
    """Per-kernel macros, include folders, forced includes and warnings stay out of the object's
    flags; the SoC's define and the rest stay in."""
    plain = model_object.object_flags(_harness())
    assert plain == ["-std=c++17"]
    kernel = model_object.object_flags(_harness(
        "-DHSWC_TILING_STRUCT=LeakyReluTilingData", "-DHSWC_TILING_FIELDS=HSWC_TILING_FIELD(a)",
        "-DHSWC_KERNEL_ENTRY=leaky_relu", "-DHSWC_GM_INPUTS=1", "-DDTYPE_X=half",
        "-include/some/tiling_def.h", "-include", "/other.h", "-D", "ORIG_DTYPE_X=DT_FLOAT16",
        "-Wextra", "-fmax-errors=20", "-O0"))
    assert kernel == ["-std=c++17"]  # the checker's builds share the tests' object
    soc = model_object.object_flags(_harness("-DASCENDC_CPU_DAV_3510", "-g"))
    assert soc == ["-std=c++17", "-DASCENDC_CPU_DAV_3510", "-g"]
    assert model_object.object_key("g++", plain) != model_object.object_key("g++", soc)


def test_only_an_unoptimised_build_of_the_harness_links_the_object() -> None:
    assert model_object.object_flags(_harness("-O2")) is None
    assert model_object.object_flags(_harness("-O2", "-O0")) == ["-std=c++17"]
    assert model_object.object_flags([*_harness()[:-2], "-fsyntax-only"]) is None
    other = ["g++", "-std=c++17", "selftest.cpp", "-o", "/tmp/s"]
    assert model_object.object_flags(other) is None
    assert model_object.prebuilt(other) == other


def test_without_the_cache_a_build_stays_one_unit(monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv(build_cache.CACHE_VARIABLE, raising=False)
    with caplog.at_level(logging.DEBUG, logger=model_object.LOG.name):
        assert model_object.prebuilt(_harness()) == _harness()
    assert "no build cache" in caplog.text


def test_an_object_that_does_not_build_leaves_the_build_one_unit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    broken = tmp_path / "broken.cpp"
    broken.write_text("int f( {\n")
    monkeypatch.setattr(model_object, "OBJECT_SOURCE", broken)
    monkeypatch.setenv(build_cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    with caplog.at_level(logging.DEBUG, logger=model_object.LOG.name):
        assert model_object.prebuilt(_harness()) == _harness()
    assert "the model object does not build" in caplog.text and "broken.cpp" in caplog.text
    assert not list((tmp_path / "cache").rglob("*.o"))  # no partial file left behind


def test_builders_of_the_same_object_at_once_all_end_with_a_whole_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each writes a file of its own and renames it into place: no lock, no half file."""
    small = tmp_path / "small.cpp"
    small.write_text("int answer() { return 42; }\n")
    monkeypatch.setattr(model_object, "OBJECT_SOURCE", small)
    monkeypatch.setenv(build_cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    found: list[Path | str] = []
    threads = [threading.Thread(target=lambda: found.append(
        model_object.model_object("g++", ["-std=c++17"]))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(found)) == 1 and isinstance(found[0], Path)
    assert [p.name for p in (tmp_path / "cache" / "model").iterdir()] == [found[0].name]
    symbols = subprocess.run(["nm", str(found[0])], capture_output=True, text=True, check=True)
    assert "_Z6answerv" in symbols.stdout


def test_a_kernel_linked_with_the_object_runs_as_one_unit_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hard_swish_grad fixture built both ways: the same outputs, byte for byte, and the same
    refusal of a harness usage error; the kernel's build compiles none of the model's own
    functions (BeginBlock is the object's)."""
    import numpy as np

    monkeypatch.setenv(build_cache.CACHE_VARIABLE, str(tmp_path / "cache"))
    single = _harness(output=str(tmp_path / "single"))
    linked = model_object.prebuilt(_harness(output=str(tmp_path / "linked")))
    assert "-DASCENDC_CPU_PREBUILT" in linked and linked[-3].endswith(".o")
    subprocess.run(single, check=True)
    kernel_only = [*linked[:-3], "-c", "-o", str(tmp_path / "k.o")]
    subprocess.run(kernel_only, check=True)  # then linked as `linked` links it
    subprocess.run(["g++", str(tmp_path / "k.o"), linked[-3], "-o", linked[-1]], check=True)
    defined = subprocess.run(["nm", "--defined-only", "-C", str(tmp_path / "k.o")],
                             capture_output=True, text=True, check=True).stdout
    assert "ascendc_cpu::BeginBlock" not in defined and "hswc_harness::Main" not in defined
    rng = np.random.default_rng(7)
    for name in ("grad", "x"):
        rng.standard_normal(4096).astype(np.float16).tofile(tmp_path / f"{name}.bin")
    outputs = []
    for exe in ("single", "linked"):
        run = subprocess.run([str(tmp_path / exe), "--tiling-key", "0", "--block-dim", "2",
                              "--ub-size", "196608", "--tiling", "4096,2048,1024",
                              str(tmp_path / "grad.bin"), str(tmp_path / "x.bin"),
                              str(tmp_path / f"y_{exe}.bin")], capture_output=True, text=True,
                             check=False)
        assert run.returncode == 0, run.stderr
        outputs.append((tmp_path / f"y_{exe}.bin").read_bytes())
        refused = subprocess.run([str(tmp_path / exe), "--tiling-layout"], capture_output=True,
                                 text=True, check=False)
        assert refused.returncode == 2
        assert "--tiling-layout needs a build with HSWC_TILING_STRUCT" in refused.stderr
    assert outputs[0] == outputs[1] and len(outputs[0]) == 8192
