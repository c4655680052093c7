"""hsg.relu_mask: ReLU and its mask from one op (ops-nn's ReluV2 / ReluV3). Its golden model
against hand-checked values; every IR level against the golden model in every dtype, the mask
stored a byte per element or packed (np.packbits, LSB first); one kernel writing both; the
emitted C++ on the CPU model (the package's unit test on A2 by default, the kernel at several
sizes on A2 and Ascend 950 under sweep); bad types refused at their place."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from cpu_build import AUTO_SYNC_OFF, Build, build, build_and_run_unit_tests, tiling_bytes

from hswc import runner, soc_api
from hswc.backend.source import kernel_source
from hswc.interpreter.errors import RunnerError
from hswc.reference_relu_mask import relu_mask
from hswc.tools.hswc_emit import main as hswc_emit
from hswc.tools.hswc_run import main as hswc_run

TEXT = """func.func @relu_mask(%x: tensor<SHAPExE>) -> (tensor<SHAPExE>, tensor<SHAPExi1> STORAGE) {
  %y, %mask = hsg.relu_mask %x : tensor<SHAPExE> -> tensor<SHAPExi1>
  func.return %y, %mask : tensor<SHAPExE>, tensor<SHAPExi1>
}
"""
BITS = '{hsg.storage = "bits"}'
DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "i8": np.int8,
          "i16": np.int16, "i32": np.int32, "i64": np.int64}
CORES, UB = 5, 16384


def _text(shape: str, element: str = "f16", storage: str = BITS) -> str:
    return (TEXT.replace("SHAPE", shape).replace("xE>", f"x{element}>")
            .replace("STORAGE", storage))


def _x(shape: tuple[int, ...], element: str, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal(shape) * 40
    if element in ("f16", "bf16", "f32"):
        x.flat[:5] = [0.0, -0.0, np.inf, np.nan, -np.inf]
    return x.astype(DTYPES[element])


def test_the_golden_model_on_hand_checked_values() -> None:
    x = np.array([-1.5, -0.0, 0.0, 2.0, np.nan, np.inf, -np.inf, 1e-45], np.float32)
    y, mask = relu_mask(x)
    want = np.array([0.0, 0.0, 0.0, 2.0, np.nan, np.inf, 0.0, 1e-45], np.float32)
    assert np.array_equal(y, want, equal_nan=True)
    assert not np.signbit(y[:3]).any()  # -0 and the negatives give +0
    assert mask.tolist() == [False, False, False, True, False, True, False, True]
    yi, mi = relu_mask(np.array([-128, -1, 0, 1, 127], np.int8))
    assert yi.tolist() == [0, 0, 0, 1, 127] and yi.dtype == np.int8
    assert mi.tolist() == [False, False, False, True, True]


@pytest.mark.parametrize("element", list(DTYPES))
@pytest.mark.parametrize("storage", [BITS, ""])
def test_every_level_equals_the_golden_model(element: str, storage: str) -> None:
    x = _x((3, 1001), element)
    want_y, want_mask = relu_mask(x)
    text = _text("3x1001", element, storage)
    if element == "i64" and storage:  # no i64 Compare: the generics stay on the host
        with pytest.raises(RunnerError, match=re.escape(
                "<input>:3:3: error: 'func.return' returns result 2, marked hsg.storage = "
                '"bits", from linalg.generic: only an elementwise kernel\'s i1 output')):
            runner.compile_text(text)
        return
    for level in runner.LEVELS:
        kernel = runner.compile_text(text, level=level, core_num=CORES, ub_size=UB)
        y, mask = kernel.run(x).outputs
        assert mask.dtype == np.bool_ and np.array_equal(mask, want_mask), level
        assert y.dtype == x.dtype and np.array_equal(y.view(np.uint8), want_y.view(np.uint8)), \
            level


def test_one_kernel_writes_y_and_the_packed_mask() -> None:
    module = runner.compile_text(_text("4x64")).module
    assert str(module).count("hsg.launch") == 1
    text = kernel_source(module)
    assert "AscendC::GlobalTensor<uint8_t> maskGm;" in text
    assert "AscendC::CompareScalar(maskLocal, " in text


def test_hswc_run_writes_the_packed_mask(tmp_path: Path) -> None:
    x = _x((3, 37), "f32", seed=2)
    np.save(tmp_path / "x.npy", x)
    source = tmp_path / "relu_mask.mlir"
    source.write_text(_text("3x37", "f32"))
    assert hswc_run([str(source), "--input", str(tmp_path / "x.npy"), "--output",
                     str(tmp_path / "y.npy"), "--output", str(tmp_path / "m.npy"),
                     "--core-num", "3"]) == 0
    with np.errstate(invalid="ignore"):
        want = np.packbits((x > 0).reshape(-1), bitorder="little")
    got = np.load(tmp_path / "m.npy")
    assert got.dtype == np.uint8 and got.shape == (14,) and np.array_equal(got, want)


def test_a_byte_mask_is_refused_at_the_op() -> None:
    text = _text("4x64").replace("xi1>", "xui8>").replace(f" {BITS}", "")
    with pytest.raises(RunnerError, match=re.escape(
            "<input>:2:3: error: 'hsg.relu_mask' the mask has element type ui8; it must be i1")):
        runner.compile_text(text)


def test_a_tiling_that_splits_a_byte_between_cores_is_refused() -> None:
    """The tiled module with its tiling's alignment of 8 edited to 4: core 1 would start at
    element 12, inside byte 1 of the packed mask, which two cores would then both write."""
    tiled = str(runner.compile_text(_text("1x44"), level="tiled", core_num=CORES,
                                    ub_size=UB).module)
    assert tiled.count("%c8 = arith.constant 8 : index") == 1
    edited = tiled.replace("%c8 = arith.constant 8 : index", "%c8 = arith.constant 4 : index")
    kernel = runner.compile_text(edited, level="tiled", core_num=CORES, ub_size=UB)
    with pytest.raises(RunnerError, match=re.escape(
            "'hsg.elementwise_slice' writes a packed i1 output from element 12, inside a "
            "byte: a range's first element must be a multiple of 8")):
        kernel.run(_x((1, 44), "f16"))


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("relu_mask_package")
    source = root / "relu_mask.mlir"
    source.write_text(_text("?x64", "f16"))
    out = root / "pkg"
    assert hswc_emit([str(source), "--name", "ReluMask", "-o", str(out), "--soc", "ascend910b",
                      "--soc", "ascend950"]) == 0
    return out


def test_the_package_declares_y_and_a_uint1_mask(package: Path) -> None:
    infer = (package / "op_host/relu_mask_infershape.cpp").read_text()
    assert "context->SetOutputDataType(1, ge::DT_UINT1);  // mask" in infer
    definition = (package / "op_host/relu_mask_def.cpp").read_text()
    assert 'this->Output("y")' in definition and 'this->Output("mask")' in definition


def test_the_package_unit_test_passes_on_the_cpu_model(package: Path, tmp_path: Path) -> None:
    """A2: several cores, a partial last byte, against hswc-run's goldens."""
    (done,) = build_and_run_unit_tests({"a2": (
        package / "tests/ut/op_kernel/test_relu_mask.cpp", ())}, tmp_path).values()
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout


@pytest.mark.sweep
@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("element", ["f16", "bf16", "i32", "i8"])
def test_the_cpu_model_writes_the_golden_y_and_mask(soc: str, element: str,
                                                    tmp_path: Path) -> None:
    """The kernel built once (static shapes print as a dynamic tiling), launched with the
    interpreter's tiling for each shape: several cores and chunks, a partial last byte."""
    flags = tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"]) \
        if soc == "ascend950" else ()
    source = tmp_path / "relu_mask.cpp"
    source.write_text(kernel_source(runner.compile_text(_text("8x1000", element),
                                                        soc=soc).module))
    runs = []
    for shape in [(3, 1001), (1, 13), (7, 129)]:
        x = _x(shape, element, seed=sum(shape))
        result = runner.compile_text(_text("x".join(map(str, shape)), element), soc=soc,
                                     core_num=CORES, ub_size=UB).run(x)
        (record,) = result.tilings
        assert record is not None
        runs.append((shape, x, record))
    keys = ", ".join(sorted({str(record["tilingKey"]) for _, _, record in runs}))
    made = Build(source, tmp_path / "relu_mask", ("-DHSWC_KERNEL_ENTRY=relu_mask",
                                                  "-DHSWC_GM_INPUTS=1", "-DHSWC_GM_OUTPUTS=2",
                                                  f"-DHSWC_TILING_KEYS={keys}", *flags))
    build([made])
    for shape, x, record in runs:
        (tmp_path / "tiling.bin").write_bytes(tiling_bytes(record))
        x.tofile(tmp_path / "x.bin")
        packed = -(-x.size // 8)
        command = [str(made.output), "--tiling-key", str(record["tilingKey"]),
                   "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(UB),
                   "--tiling-file", str(tmp_path / "tiling.bin"),
                   "--input", str(tmp_path / "x.bin"),
                   "--output", str(tmp_path / "y.bin"), "--output-bytes", str(x.nbytes),
                   "--output", str(tmp_path / "m.bin"), "--output-bytes", str(packed),
                   *AUTO_SYNC_OFF]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0 and not done.stderr, done.stderr
        want_y, want_mask = relu_mask(x)
        y = np.fromfile(tmp_path / "y.bin", dtype=x.dtype).reshape(shape)
        data = np.fromfile(tmp_path / "m.bin", dtype=np.uint8)
        mask = np.unpackbits(data, count=x.size, bitorder="little").astype(bool)
        assert np.array_equal(mask.reshape(shape), want_mask)
        assert np.array_equal(y.view(np.uint8), want_y.view(np.uint8))
