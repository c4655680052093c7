"""The sweep covers ops-nn's activation library: each of the 146 op folders of activation/ and
experimental/activation/ (ops-nn e5c3fa93, listed in test/data) maps to hswc semantics, a named
op with the attributes its definition and docs give it or the generic its README writes, or is
reported with what hswc cannot express yet. The generics agree with their formulas evaluated
independently in float64; a --reference module checks an op folder with the folder's own
tiling."""

from __future__ import annotations

import math
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from hswc import runner
from hswc.checker import sweep as sweep_module
from hswc.checker.check import check
from hswc.checker.errors import CheckError
from hswc.checker.opsnn_generics import GENERICS, module_text
from hswc.checker.options import CheckOptions
from hswc.checker.sweep import (
    BLOCKED,
    UNCHECKABLE,
    Row,
    blocked,
    mapping,
    sweep,
    table,
)
from hswc.reference import compare_tolerance

DATA = Path(__file__).resolve().parent / "data" / "opsnn_activation_folders.txt"
FOLDERS = [line for line in DATA.read_text().splitlines() if line and not line.startswith("#")]
FIXTURE = Path(__file__).resolve().parents[1] / "examples" / "check_kernel" / "leaky_relu_op"
BASE = CheckOptions(kernel=str(FIXTURE), soc="ascend950", core_num=4, ub_size=16384,
                    sizes=(129, 2561), jobs=2, dtypes=("f16", "f32"))


def test_every_folder_of_the_library_maps_or_says_what_blocks_it() -> None:
    assert len(FOLDERS) == 146
    assert sum(f.startswith("activation/") for f in FOLDERS) == 84
    kinds: dict[str, list[str]] = {"named": [], "generic": [], "blocked": []}
    for name in FOLDERS:
        found, reason = mapping(Path(name)), blocked(Path(name))
        assert (found is None) != (reason is None), name  # one or the other
        kind = "blocked" if found is None else \
            "generic" if found[0].startswith("generic ") else "named"
        kinds[kind].append(name)
    # named: 114 (GeGluV2, GeGluGradV2, SituGluGrad, SwigluGroup and ClippedSwigluGrad among
    # them) + the softmax family's 7 folders (ROW_FOLDERS) + gelu_quant (QUANTIZED_FOLDERS) +
    # the 4 reductions of hswc.checker.row_generics (ROW_GENERIC_FOLDERS) + swiglu_group_quant
    # (GROUP_QUANT_FOLDERS) and swiglu_group_quant_grad (GATED_FOLDERS); none blocked
    assert [len(kinds[k]) for k in ("named", "generic", "blocked")] == [128, 18, 0]
    assert "experimental/activation/glu" not in FOLDERS  # blocked names are activation's too
    assert set(BLOCKED) == {f.rsplit("/", 1)[1] for f in kinds["blocked"]}


@pytest.mark.parametrize(("name", "expected"), [
    ("activation/elu_grad", ("hsg.elu_grad", {"is_result": "true"})),  # from the output
    ("activation/elu_grad_v2", ("hsg.elu_grad", {})),  # its own is_result, default false
    ("activation/selu_grad", ("hsg.elu_grad", {"alpha": "1.6732632423543772",
                                               "scale": "1.0507009873554805",
                                               "is_result": "true"})),
    ("activation/swish_grad", ("hsg.silu_grad", {})),  # scale: the definition's default
    ("activation/shrink", ("hsg.softshrink", {})),  # lambd and bias: the definition's
    ("experimental/activation/celu", ("hsg.celu", {})),  # its kernel's alpha3 * 3 shows
    ("activation/threshold", ("generic threshold_step", {})),
    ("activation/fast_gelu_v2", ("generic fast_gelu", {})),
    ("experimental/activation/fast_gelu_v2", ("generic fast_gelu_v2_poly", {})),
    ("activation/glu", ("hsg.glu", {})),  # x of [rows, 2H] (hswc.checker.halves)
    ("activation/swi_glu_grad", ("hsg.swi_glu_grad", {})),
    ("activation/fatrelu_mul", ("hsg.fatrelu_mul", {})),
    ("activation/clipped_swiglu", ("hsg.clipped_swiglu", {})),  # group_index left out
    ("activation/swiglu_group", ("hsg.swiglu_group", {})),  # weight, group_index left out
    ("experimental/activation/swiglu_clamp", ("hsg.swiglu_clamp", {})),
    ("activation/softmax_grad_ext", ("softmax_grad_ext", {})),  # hswc.checker.row_generics
    ("activation/p_relu_grad_reduce", ("p_relu_grad_reduce", {})),
    ("activation/ge_glu_v2", ("hsg.ge_glu_v2", {})),  # two outputs, y and gelu
    ("activation/ge_glu_grad_v2", ("hsg.ge_glu_grad_v2", {})),  # dy, x and gelu
    ("activation/situ_glu_grad", ("hsg.situ_glu_grad", {})),
    ("activation/clipped_swiglu_grad", ("hsg.clipped_swiglu_grad", {})),  # dy and x
    ("activation/p_relu_grad_update", ("generic prelu_grad_update", {})),  # dx and update
    ("activation/swiglu_group_quant", ("hsg.swiglu_group_quant", {})),  # hswc.checker.group_quant
    ("activation/swiglu_group_quant_grad", ("hsg.swiglu_group_quant_grad", {})),  # no weight
])
def test_folders_map_to_named_ops_with_their_attributes_or_generics(
        name: str, expected: tuple[str, dict[str, str]]) -> None:
    found = mapping(Path(name))
    assert found is not None and found[:2] == expected


WHY = "what blocks it"


def test_blocked_folders_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mechanism (no folder of the library is blocked now): a folder in BLOCKED maps to
    nothing and says why."""
    monkeypatch.setattr(sweep_module, "BLOCKED", {"made_up_op": WHY})
    name = "activation/made_up_op"
    assert mapping(Path(name)) is None and blocked(Path(name)) == WHY


def _folder(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "activation" / name
    (folder / "op_kernel").mkdir(parents=True)
    (folder / "op_host").mkdir()
    (folder / "op_host" / f"{name}_def.cpp").write_text(
        'this->AICore().AddConfig("ascend910b", c);\nthis->AICore().AddConfig("ascend950", c);\n')


def test_a_blocked_folder_is_a_row_on_each_configured_soc(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep_module, "BLOCKED", {"made_up_op": WHY})
    _folder(tmp_path, "made_up_op")
    rows = sweep(tmp_path, replace(BASE, kernel=""), None)
    why = f"not expressible: {WHY}"
    assert rows == [Row("activation/made_up_op", "ascend910b", "-", why),
                    Row("activation/made_up_op", "ascend950", "-", why)]
    assert table(rows).splitlines()[-1] == "2 rows: not expressible 2"


def test_an_uncheckable_folder_says_why_on_each_configured_soc(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mechanism (no folder of the library is uncheckable now): a folder in UNCHECKABLE is
    a row per configured SoC, `not checkable: why`, without a run."""
    monkeypatch.setattr(sweep_module, "UNCHECKABLE", {"made_up_op": ("hsg.made_up", WHY)})
    _folder(tmp_path, "made_up_op")
    rows = sweep(tmp_path, replace(BASE, kernel=""), None)
    why = f"not checkable: {WHY}"
    assert rows == [Row("activation/made_up_op", "ascend910b", "-", why),
                    Row("activation/made_up_op", "ascend950", "-", why)]


def test_swiglu_group_quant_grad_is_checked_without_its_optional_weight() -> None:
    """It maps to its gated op, no longer UNCHECKABLE: the CPU model has the Subs its kernel
    calls (op_kernel/swiglu_group_quant_grad.h:252), and the checker leaves out grad_weight, an
    optional output (hswc.checker.op_dir.OpDir.absent_outputs)."""
    assert not UNCHECKABLE
    found = mapping(Path("activation/swiglu_group_quant_grad"))
    assert found is not None and found[0] == "hsg.swiglu_group_quant_grad"
    model = Path(runner.__file__).resolve().parent / "checker" / "ascendc_cpu"
    assert re.search(r"inline void Subs\(", (model / "ascendc_cpu_vec_arith.h").read_text())


def test_silu_mul_is_a_generic_on_rows() -> None:
    """experimental/activation/silu_mul's tiling takes 2 dims or more, its last even (ops-nn's
    silu_mul_tiling.cpp): the sweep gives its generic as a module of [rows, L] tensors with
    every input of halves' kind "x"; that module is silu(x) * y elementwise."""
    o = sweep_module.folder_options(Path("experimental/activation/silu_mul"), BASE, "ascend910b",
                                    "generic silu_mul", {}, Path(tempfile.mkdtemp()))
    assert dict(o.halves) == {"x_in": "x", "y_in": "x"}
    assert o.reference is not None and "tensor<?x?xf32>" in Path(o.reference).read_text()
    kernel = runner.compile_text(module_text("silu_mul", ("f32",), rank=2), level="linalg",
                                 function="silu_mul_f32")
    x = np.array([[0.0, 1.0, -2.0, 3.0], [4.0, -1.0, 0.5, 2.0]], np.float32)
    y = np.full_like(x, 2.0)
    got = np.asarray(kernel.run(x, y).outputs[0])
    assert got.shape == (2, 4)
    assert compare_tolerance(got.reshape(-1), (x * _sig(x) * y).reshape(-1)).equal


LEAKY = """func.func @leaky_{t}(%x: tensor<?x{t}>) -> tensor<?x{t}> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x{t}>
  %init = tensor.empty(%n) : tensor<?x{t}>
  %y = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%x : tensor<?x{t}>) outs(%init : tensor<?x{t}>) {{
  ^bb0(%e: {t}, %o: {t}):
    %xf = {widen}
    %zero = arith.constant 0.0 : f32
    %slope = arith.constant {slope} : f32
    %pos = arith.cmpf ogt, %xf, %zero : f32
    %s = arith.mulf %xf, %slope : f32
    %r = arith.select %pos, %xf, %s : f32
    %rn = {narrow}
    linalg.yield %rn : {t}
  }} -> tensor<?x{t}>
  func.return %y : tensor<?x{t}>
}}
"""


def _leaky_module(slope: float) -> str:
    return "\n".join(LEAKY.format(
        t=t, slope=slope,
        widen="arith.extf %e : f16 to f32" if t == "f16" else "arith.addf %e, %e : f32",
        narrow="arith.truncf %r : f32 to f16" if t == "f16" else "arith.addf %r, %r : f32")
        .replace("%xf = arith.addf %e, %e : f32", "%xf = arith.maximumf %e, %e : f32")
        .replace("%rn = arith.addf %r, %r : f32", "%rn = arith.maximumf %r, %r : f32")
        for t in ("f16", "f32"))


@pytest.mark.parametrize(("slope", "passes"), [(0.25, True), (0.5, False)])
def test_an_op_folder_is_checked_against_a_reference_module_with_its_own_tiling(
        tmp_path: Path, slope: float, passes: bool) -> None:
    """The fixture's LeakyRelu (its definition's slope 0.25, which its tiling passes the
    kernel): a module computing slope 0.25 matches it, one computing 0.5 does not."""
    path = tmp_path / "leaky.mlir"
    path.write_text(_leaky_module(slope))
    report = check(replace(BASE, reference=str(path), attrs={"negative_slope": "0.25"}))
    assert report.passed == passes
    assert any("LeakyReluFixture's own" in n or "own" in n for n in report.notes)


def test_an_attribute_the_definition_lacks_is_refused_with_a_reference_module(
        tmp_path: Path) -> None:
    path = tmp_path / "leaky.mlir"
    path.write_text(_leaky_module(0.25))
    with pytest.raises(CheckError, match=r"--attr slope: .* has no such attribute"):
        check(replace(BASE, reference=str(path), attrs={"slope": "0.25"}))


def _erfinv64(x: np.ndarray) -> np.ndarray:
    """erf^-1 by Newton's method on math.erf, from a coarse start (independent of Giles)."""
    y = np.sign(x) * np.sqrt(-np.log1p(-x * x))
    for _ in range(60):
        y = y - (np.array([math.erf(v) for v in y]) - x) * math.sqrt(math.pi) / 2 * np.exp(y * y)
    return y


def _sig(v: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-v))


FORMULAS = {
    "bnll": lambda x: np.log1p(np.exp(x)),
    "squared_relu": lambda x: np.maximum(x, 0) ** 2,
    "fast_gelu": lambda x: x * _sig(1.702 * x),
    "fast_gelu_grad": lambda dy, x: dy * (_sig(1.702 * x) + 1.702 * x * _sig(1.702 * x)
                                          * (1 - _sig(1.702 * x))),
    "fast_gelu_v2_poly": lambda x: x * (np.where(x >= 0, 1, -1) * (
        -0.1444 * (np.minimum(np.abs(0.7071 * x), 1.769) - 1.769) ** 2 + 0.5) + 0.5),
    "fused_bias_leaky_relu": lambda x, b: np.where(x + b >= 0, x + b, 0.2 * (x + b))
    * math.sqrt(2),
    "fused_bias_leaky_relu_grad": lambda g, f: np.where(f > 0, g, 0.2 * g) * math.sqrt(2),
    "heaviside": lambda x, v: np.where(x == 0, v, np.where(x > 0, 1.0, 0.0)),
    "prelu": lambda x, w: np.where(x > 0, x, x * w),
    "prelu_grad_update": lambda g, x, w: (np.where(x > 0, g, w * g), np.where(x > 0, 0.0, x * g)),
    "softsign_grad": lambda g, f: g / (1 + np.abs(f)) ** 2,
    "threshold_step": lambda x: np.where(x > 0, 1.0, 0.0),
    "silu_mul": lambda x, y: x * _sig(x) * y,
    "erfinv_giles": _erfinv64,
}


@pytest.mark.parametrize("name", sorted(GENERICS))
def test_each_generic_is_its_formula(name: str) -> None:
    """Run by hswc's interpreter (linalg level, f32), each generic is within PyTorch's
    tolerance of its README formula evaluated in float64 (and the exact ones equal it)."""
    g = GENERICS[name]
    rng = np.random.default_rng(len(name))
    scale = 0.999 if name == "erfinv_giles" else 6.0
    args = [rng.uniform(-scale, scale, 3000).astype(np.float32) for _ in g.inputs]
    args[0][:4] = [0.0, -0.0, 0.5, -0.5]
    kernel = runner.compile_text(module_text(name, ("f32",)), level="linalg",
                                 function=f"{name}_f32")
    outputs = kernel.run(*args).outputs
    wanted = FORMULAS[name](*[a.astype(np.float64) for a in args])
    wanted = wanted if isinstance(wanted, tuple) else (wanted,)
    assert len(outputs) == len(wanted) == len(g.results)
    for got_k, want_k in zip(outputs, wanted, strict=True):
        got = np.asarray(got_k).reshape(-1)
        want = np.asarray(want_k).astype(np.float32)
        if g.tolerance is None:
            assert np.array_equal(got, want)
        else:
            assert compare_tolerance(got, want).equal, compare_tolerance(got, want).summary()


def test_erfinv_giles_has_erfinvs_poles_and_nan_beyond() -> None:
    """erf^-1(+-1) = +-inf (torch.erfinv's; Giles' tail polynomial alone gives -inf at x = 1, its
    leading coefficient negative), NaN for |x| > 1 and for NaN, +-0 kept."""
    kernel = runner.compile_text(module_text("erfinv_giles", ("f32",)), level="linalg",
                                 function="erfinv_giles_f32")
    x = np.array([1.0, -1.0, 1.5, -2.0, np.nan, 0.0, -0.0, np.inf], np.float32)
    got = np.asarray(kernel.run(x).outputs[0]).reshape(-1)
    assert got[0] == np.inf and got[1] == -np.inf
    assert np.isnan(got[2:5]).all() and np.isnan(got[7])
    assert got[5] == 0 and not np.signbit(got[5]) and got[6] == 0 and np.signbit(got[6])
