"""i1 outputs stored packed, 8 elements a byte, the least significant bit first (ops-nn's
DT_UINT1), chosen by `hsg.storage = "bits"` on a function result: every IR level equals numpy's
`x > 0`; hswc-run writes np.packbits(..., bitorder="little"); the tiling keeps every core's
slice on a byte; the emitted C++ on the CPU model (A2 and Ascend 950) writes the same bits as
the interpreter, at odd sizes, over several cores and chunks; bad attributes are refused at
their place."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from cpu_build import (
    ARCH35_UT_FLAGS,
    AUTO_SYNC_OFF,
    Build,
    build,
    build_and_run_unit_tests,
    tiling_bytes,
)

from hswc import runner, soc_api
from hswc.backend.source import kernel_source
from hswc.checker import masks
from hswc.interpreter.errors import RunnerError
from hswc.tools.hswc_emit import main as hswc_emit
from hswc.tools.hswc_opt import main as hswc_opt
from hswc.tools.hswc_run import main as hswc_run

RELU_AND_MASK = """
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_mask(%x: tensor<SHAPExf16>) -> (tensor<SHAPExf16>,
                                                 tensor<SHAPExi1> {hsg.storage = "bits"}) {
  %c0 = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<SHAPExf16>
  %y = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<SHAPExf16>) outs(%e0 : tensor<SHAPExf16>) {
  ^bb0(%in: f16, %o: f16):
    %m = arith.maximumf %in, %c0 : f16
    linalg.yield %m : f16
  } -> tensor<SHAPExf16>
  %e1 = tensor.empty() : tensor<SHAPExi1>
  %mask = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<SHAPExf16>) outs(%e1 : tensor<SHAPExi1>) {
  ^bb0(%in: f16, %o: i1):
    %p = arith.cmpf ogt, %in, %c0 : f16
    linalg.yield %p : i1
  } -> tensor<SHAPExi1>
  func.return %y, %mask : tensor<SHAPExf16>, tensor<SHAPExi1>
}
"""
LEVELS = ("hsg", "linalg", "tiled", "blocked", "ascend")
CORES, UB = 5, 16384


def _text(shape: str, storage: str = "bits") -> str:
    return RELU_AND_MASK.replace("SHAPE", shape).replace('"bits"', f'"{storage}"')


def _x(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    x = (np.random.default_rng(seed).standard_normal(shape) * 4).astype(np.float16)
    x.flat[:4] = [0.0, -0.0, np.inf, np.nan]
    return x


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_gives_the_mask(level: str) -> None:
    x = _x((3, 1001))
    kernel = runner.compile_text(_text("3x1001"), level=level, core_num=CORES, ub_size=UB)
    y, mask = kernel.run(x).outputs
    assert mask.dtype == np.bool_ and mask.shape == x.shape
    with np.errstate(invalid="ignore"):
        assert np.array_equal(mask, x > 0)
        assert np.array_equal(y[1:], np.maximum(x, np.float16(0))[1:])


def test_the_kernel_compares_into_its_output_queue() -> None:
    """The packed output is the Compare's mask in a VECOUT queue, copied out as ceil(cur / 8)
    bytes at byte chunk_offset / 8; no Select, no Cast to int8."""
    text = kernel_source(runner.compile_text(_text("4x64")).module)
    assert "AscendC::GlobalTensor<uint8_t> maskGm;" in text
    assert "maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask + FloorDiv(blockOffset, 8)," in text
    assert "CeilDiv(blockLength, 8));" in text
    assert "pipe.InitBuffer(outputQueueMask, 2, maskBytes);" in text
    assert "AscendC::CompareScalar(maskLocal, " in text
    assert "int64_t packedCopyBytes = CeilDiv(currentNum, 8);" in text
    assert "AscendC::DataCopyPad(maskGm[FloorDiv(chunkOffset, 8)], maskLocal," in text
    assert "CAST_TRUNC" not in text and " int8_t" not in text and "<int8_t>" not in text


@pytest.mark.parametrize(("total", "cores"), [(3003, 5), (9, 4), (1, 3), (8 * 48 + 1, 48)])
def test_every_core_starts_on_a_byte(total: int, cores: int) -> None:
    record = runner.compile_text(_text(f"1x{total}"), core_num=cores, ub_size=UB) \
        .run(_x((1, total))).tilings[0]
    assert record is not None
    assert record["blockFactor"] % 8 == 0 and record["ubFactor"] % 8 == 0
    assert record["usedCoreNum"] * record["blockFactor"] >= total


def test_bytes_storage_is_the_default() -> None:
    text = kernel_source(runner.compile_text(_text("4x64", "bytes")).module)
    assert "GlobalTensor<int8_t> maskGm" in text


def test_hswc_run_writes_the_packed_bytes(tmp_path: Path) -> None:
    x = _x((3, 37), seed=2)
    np.save(tmp_path / "x.npy", x)
    source = tmp_path / "relu_mask.mlir"
    source.write_text(_text("3x37"))
    assert hswc_run([str(source), "--input", str(tmp_path / "x.npy"),
                     "--output", str(tmp_path / "y.npy"), "--output", str(tmp_path / "m.npy"),
                     "--core-num", "3"]) == 0
    got = np.load(tmp_path / "m.npy")
    with np.errstate(invalid="ignore"):
        want = np.packbits((x > 0).reshape(-1), bitorder="little")
    assert got.dtype == np.uint8 and got.shape == (14,)  # ceil(111 / 8); padding bits 0
    assert np.array_equal(got, want)
    assert got[-1] >> 7 == 0


def test_a_bad_storage_is_refused() -> None:
    with pytest.raises(RunnerError, match=re.escape(
            """<input>:3:1: error: 'func.func' gives result 2 hsg.storage = "packed"; it must """
            """be "bits" (8 elements a byte) or "bytes" (one a byte)""")):
        runner.compile_text(_text("4x64", "packed"))


def test_bits_on_a_float_result_is_refused() -> None:
    text = _text("4x64").replace("tensor<4x64xf16>,\n",
                                 'tensor<4x64xf16> {hsg.storage = "bits"},\n', 1)
    with pytest.raises(RunnerError, match=r"only an i1 tensor is stored packed"):
        runner.compile_text(text)


def test_bits_on_a_host_value_is_refused(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "host.mlir"
    source.write_text('func.func @f(%m: tensor<64xi1>) -> (tensor<64xi1> {hsg.storage = "bits"}) '
                      "{\n  func.return %m : tensor<64xi1>\n}\n")
    assert hswc_opt([str(source), "--lower-to-ascend"]) == 1
    assert capsys.readouterr().err == (
        f"{source}:2:3: error: 'func.return' returns result 1, marked hsg.storage = \"bits\", "
        "from an argument: only an elementwise kernel's i1 output is stored packed; return the "
        "generic's result itself, or drop the attribute (one byte per element)\n")


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("packed_cpu_build")
    made = {}
    for soc, flags in (("ascend910b", ()),
                       ("ascend950", tuple(f"-D{d}" for d in soc_api.CPP_DEFINES["dav_3510"]))):
        source = directory / f"relu_mask_{soc}.cpp"
        source.write_text(kernel_source(runner.compile_text(_text("8x1000"), soc=soc).module))
        made[soc] = Build(source, directory / f"relu_mask_{soc}",
                          ("-DHSWC_KERNEL_ENTRY=relu_mask", "-DHSWC_GM_INPUTS=1",
                           "-DHSWC_GM_OUTPUTS=2", *flags))
    build(list(made.values()))
    return {soc: b.output for soc, b in made.items()}


@pytest.mark.parametrize("soc", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("shape", [(3, 1001), (1, 13), (7, 129)])
def test_the_cpu_model_writes_the_same_bits(executables: dict[str, Path], soc: str,
                                           shape: tuple[int, ...], tmp_path: Path) -> None:
    """The kernel built once (static shapes print as a dynamic tiling), launched with the
    interpreter's tiling for each shape: several cores, several chunks, a partial last byte."""
    x = _x(shape, seed=sum(shape))
    text = _text("x".join(map(str, shape)))
    result = runner.compile_text(text, soc=soc, core_num=CORES, ub_size=UB).run(x)
    (record,) = result.tilings
    assert record is not None
    (tmp_path / "tiling.bin").write_bytes(tiling_bytes(record))
    x.tofile(tmp_path / "x.bin")
    packed = -(-x.size // 8)
    command = [str(executables[soc]), "--tiling-key", str(record["tilingKey"]),
               "--block-dim", str(record["usedCoreNum"]), "--ub-size", str(UB),
               "--tiling-file", str(tmp_path / "tiling.bin"), "--input", str(tmp_path / "x.bin"),
               "--output", str(tmp_path / "y.bin"), "--output-bytes", str(x.nbytes),
               "--output", str(tmp_path / "m.bin"), "--output-bytes", str(packed),
               *AUTO_SYNC_OFF]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr
    y = np.fromfile(tmp_path / "y.bin", dtype=np.float16).reshape(shape)
    data = np.fromfile(tmp_path / "m.bin", dtype=np.uint8)
    assert data.size == packed
    mask = np.unpackbits(data, count=x.size, bitorder="little").astype(bool).reshape(shape)
    assert np.array_equal(mask, result.outputs[1])
    assert np.array_equal(y.view(np.uint16), result.outputs[0].view(np.uint16))
    with np.errstate(invalid="ignore"):
        assert np.array_equal(mask, x > 0)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("packed_package")
    source = root / "relu_mask.mlir"
    source.write_text(_text("?x64").replace("%e0 = tensor.empty()", "%e0 = tensor.empty(%n)")
                      .replace("%e1 = tensor.empty()", "%e1 = tensor.empty(%n)")
                      .replace("  %c0 = arith.constant 0.0 : f16\n",
                               "  %c0 = arith.constant 0.0 : f16\n  %i0 = arith.constant 0 : "
                               "index\n  %n = tensor.dim %x, %i0 : tensor<?x64xf16>\n"))
    out = root / "pkg"
    assert hswc_emit([str(source), "--name", "ReluMask", "-o", str(out), "--soc", "ascend910b",
                      "--soc", "ascend950"]) == 0
    return out


def test_the_package_declares_a_uint1_mask(package: Path) -> None:
    definition = (package / "op_host/relu_mask_def.cpp").read_text()
    assert definition.count("ge::DT_UINT1") == 1
    infer = (package / "op_host/relu_mask_infershape.cpp").read_text()
    assert "context->SetOutputDataType(1, ge::DT_UINT1);  // mask" in infer
    api = (package / "op_host/op_api/relu_mask.cpp").read_text()
    assert "AllocTensor(x->GetViewShape(), op::DataType::DT_UINT1)" in api


def test_the_kernel_unit_tests_expect_packed_bytes(package: Path) -> None:
    """The golden mask of the unit test is np.packbits of numpy's x > 0 on its inputs."""
    text = (package / "tests/ut/op_kernel/test_relu_mask.cpp").read_text()
    x = np.array([int(b, 16) for b in re.findall(
        r"0x([0-9a-f]{4}) /\*", re.search(r"std::vector<uint16_t> x = \{(.*?)\};", text)[1])],
        np.uint16).view(np.float16)
    found = re.search(r"std::vector<uint8_t> expected_mask = \{(.*?)\};", text)
    assert found
    got = np.array([int(b, 16) for b in re.findall(r"0x([0-9a-f]{2}) /\*", found[1])], np.uint8)
    with np.errstate(invalid="ignore"):
        assert np.array_equal(got, np.packbits(x > 0, bitorder="little"))
    assert x.size % 8 and "maskResult.resize((x.size() + 7) / 8);" in text


def test_the_kernel_unit_test_passes_on_the_cpu_model(package: Path, tmp_path: Path) -> None:
    """A2, several cores, a partial last byte; a flipped bit fails."""
    ut = package / "tests/ut/op_kernel"
    text = (ut / "test_relu_mask.cpp").read_text()
    broken = re.sub(r"(expected_mask = \{0x)([0-9a-f])",
                    lambda m: m[1] + f"{int(m[2], 16) ^ 1:x}", text, count=1)
    assert broken != text
    flipped = tmp_path / "test_flipped.cpp"
    flipped.write_text(broken.replace('#include "../../../op_kernel/',
                                      f'#include "{package}/op_kernel/'))
    ran = {name: done.stdout for name, done in build_and_run_unit_tests({
        "a2": (ut / "test_relu_mask.cpp", ()),
        "flipped": (flipped, ()),
    }, tmp_path).items()}
    assert ran["a2"].splitlines()[-1] == "1 passed, 0 failed", ran["a2"]
    assert ran["flipped"].splitlines()[-1] == "0 passed, 1 failed"


@pytest.mark.sweep
def test_the_ascend950_kernel_unit_test_passes_on_the_cpu_model(package: Path,
                                                                 tmp_path: Path) -> None:
    (done,) = build_and_run_unit_tests({"950": (
        package / "tests/ut/op_kernel/test_relu_mask_apt.cpp", ARCH35_UT_FLAGS)},
        tmp_path).values()
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed", done.stdout


def test_the_bytes_are_those_the_checker_takes_from_ops_nn_relu_v2(tmp_path: Path) -> None:
    """hswc-run's packed mask is, byte for byte (padding bits 0), what hswc-check-kernel
    expects of ops-nn's ReluV2 `mask` (DT_UINT1: hswc.checker.masks, the rule hsg.threshold
    x > 0), which its sweep finds ops-nn's kernel writes bit for bit."""
    x = _x((5, 29), seed=7)
    np.save(tmp_path / "x.npy", x)
    source = tmp_path / "relu_mask.mlir"
    source.write_text(_text("5x29"))
    assert hswc_run([str(source), "--input", str(tmp_path / "x.npy"), "--output",
                     str(tmp_path / "y.npy"), "--output", str(tmp_path / "m.npy")]) == 0
    relu_v2 = masks.MaskTensor("output", 1, "mask", masks.DT_UINT1, packed=True)
    rule = masks.MASK_RULES["hsg.threshold"]
    want = relu_v2.pack(rule.values(x.reshape(-1), {"threshold": "0"}))
    assert np.array_equal(np.load(tmp_path / "m.npy"), want)
