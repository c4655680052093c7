"""From PyTorch in one step (hswc.from_torch, hswc-from-torch).

Without the torch extra: the command says which extra to install, in one line; shape specs,
dims and names are parsed and refused by hswc alone. With it (PyTorch and torch-mlir installed;
skipped with the reason elsewhere): a function exported, lowered, checked against eager PyTorch
and packaged; a dynamic dim compiled once and run at another size against eager PyTorch; what
hswc does not lower (a matrix product) named, with the exported file kept; and a function whose
export differs from its eager run caught by --check, with nothing packaged.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from hswc.from_torch.errors import InputSpecError, SourceError
from hswc.from_torch.export import function_name, load_source, op_type
from hswc.from_torch.inputs import DEFAULT_DIM_SIZE, InputSpec, dim_sizes, parse_spec
from hswc.tools.hswc_from_torch import main

MISSING = [m for m in ("torch", "torch_mlir") if importlib.util.find_spec(m) is None]
needs_torch = pytest.mark.skipif(
    bool(MISSING), reason=f"needs the torch extra (pip install 'hswc[torch]'): "
                          f"{', '.join(MISSING)} not installed")

ACT = '''import torch
import torch.nn.functional as F


def hardswish_times(x, y):
    return F.hardswish(x) * y


def with_matmul(x, w):
    return F.hardswish(x @ w)


def differs(x):
    """x + 1 when exported, x when run eagerly."""
    return x + 1 if torch.compiler.is_exporting() else x
'''


# region: without the extra


def test_without_the_extra_the_command_names_it(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    assert main(["act.py:f", "--input-shape", "4x1000:f16", "-o", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("hswc-from-torch: error: torch is not installed: the step from PyTorch needs "
                   "the torch extra (pip install 'hswc[torch]')\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("text", "spec"), [
    ("4x1000:f16", InputSpec((4, 1000), "f16")),
    ("BxN:bf16", InputSpec(("B", "N"), "bf16")),
    ("8xSEQ_LEN:f32", InputSpec((8, "SEQ_LEN"), "f32")),
    (":f32", InputSpec((), "f32")),
])
def test_shape_specs(text: str, spec: InputSpec) -> None:
    assert parse_spec(text) == spec
    assert str(spec) == text


@pytest.mark.parametrize(("text", "message"), [
    ("4x1000", "input shape '4x1000' has no dtype: write SHAPE:DTYPE"),
    ("4x1000:f64", "input shape '4x1000:f64': dtype 'f64' is not one hswc compiles (f16, bf16, "
                   "f32)"),
    ("4xn:f16", "input shape '4xn:f16': 'n' is not a dim: write SHAPE:DTYPE, dims joined by 'x', "
                "each a size or the upper-case name of a dynamic dim"),
    ("4x:f16", "input shape '4x:f16': '' is not a dim"),
    ("4x0:f16", "input shape '4x0:f16': a dim of size 0 has no elements to compile for"),
])
def test_bad_shape_specs_are_named(text: str, message: str) -> None:
    with pytest.raises(InputSpecError) as error:
        parse_spec(text)
    assert str(error.value).startswith(message)


def test_dynamic_dim_sizes() -> None:
    specs = [parse_spec("BxN:f16"), parse_spec("N:f16")]
    assert dim_sizes(specs, {"N": 300}) == {"B": DEFAULT_DIM_SIZE, "N": 300}
    with pytest.raises(InputSpecError, match=r"--dim M: no input shape names that dim \(dims "
                                             r"named: B, N\)"):
        dim_sizes(specs, {"M": 3})
    with pytest.raises(InputSpecError, match=r"--dim N=1: a dynamic dim's example size must be "
                                             r"at least 2"):
        dim_sizes(specs, {"N": 1})


@pytest.mark.parametrize(("argv", "message"), [
    (["act.py:f", "-o", "out"], "give the function's inputs: --input-shape SHAPE:DTYPE"),
    (["act.py:f", "--input-shape", "4:f16", "--name", "Act", "-o", "out"],
     "--name is the package's op type: give --emit too"),
    (["act.py:f", "--input-shape", "4:f16", "--dim", "n=4", "-o", "out"],
     "--dim 'n=4': write NAME=SIZE"),
    (["act.py:f", "--input-shape", "4:f16", "--soc", "nope", "-o", "out"],
     "argument --soc: invalid choice: 'nope'"),
])
def test_usage_errors_are_one_message(argv: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_sources_that_cannot_be_loaded_are_named(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("syntax.py").write_text("def broken(:\n")
    Path("raises.py").write_text("import math\n\nraise ValueError('no model here')\n")
    Path("defines.py").write_text("def act(x):\n    return x\n")
    for source, message in [
            ("act", "'act': name what to export as FILE.py:NAME or package.module:NAME"),
            ("nosuch.py:f", "cannot read 'nosuch.py': no such file"),
            ("syntax.py:broken", "importing 'syntax.py' raised SyntaxError: invalid syntax "
                                 "(syntax.py, line 1)"),
            ("raises.py:f", f"importing 'raises.py' raised ValueError: no model here "
                            f"({tmp_path / 'raises.py'}:3)"),
            ("defines.py:acts", "'defines.py' has no 'acts' (it defines: act)"),
            ("no_such_module:f", "no module 'no_such_module' (give FILE.py:NAME for a file)")]:
        with pytest.raises(SourceError) as error:
            load_source(source)
        assert str(error.value) == message


def test_names() -> None:
    def hardswish_times() -> None: ...

    class MyAct:
        pass

    assert function_name(hardswish_times) == "hardswish_times"
    assert function_name(MyAct()) == "my_act"
    assert function_name(lambda x: x) == "fn"
    assert op_type("hardswish_times") == "HardswishTimes"


# endregion
# region: with the extra


@pytest.fixture
def act(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "act.py").write_text(ACT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@needs_torch
def test_one_step_exports_lowers_checks_and_packages(act: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["act.py:hardswish_times", "--input-shape", "4x1000:f16", "--input-shape",
                 "4x1000:f16", "--check", "--emit", "-o", "out"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("exported hardswish_times (2 inputs: 4x1000 float16, 4x1000 "
                               "float16) -> out/hardswish_times.mlir (")
    assert lines[1] == ("lowered -> out/hardswish_times.ascend.mlir (1 kernel: "
                        "@hardswish_times_kernel_f16)")
    assert lines[2].startswith("--check against eager PyTorch: within assert_close's "
                               "tolerances (float16: rtol 0.001, atol 1e-05): 4000 elements")
    assert lines[3] == "packaged HardswishTimes -> out/hardswish_times"
    exported = (act / "out" / "hardswish_times.mlir").read_text()
    assert "func.func @hardswish_times(%arg0: tensor<4x1000xf16>, %arg1: tensor<4x1000xf16>)" \
        in exported
    assert "ascend.data_copy" in (act / "out" / "hardswish_times.ascend.mlir").read_text()
    kernel = act / "out" / "hardswish_times" / "op_kernel" / "hardswish_times.cpp"
    assert ("__global__ __aicore__ void hardswish_times(GM_ADDR arg0, GM_ADDR arg1, GM_ADDR y, "
            "GM_ADDR workspace, GM_ADDR tiling)") in kernel.read_text()


@needs_torch
def test_a_dynamic_dim_runs_at_other_sizes(tmp_path: Path) -> None:
    import torch  # pyright: ignore[reportMissingImports]
    import torch.nn.functional as F  # pyright: ignore[reportMissingImports]

    from hswc.from_torch import compile

    done = compile(F.hardswish, ["4xN:f16"], dims={"N": 300}, out=tmp_path, check=True)
    assert "tensor<4x?xf16>" in done.exported.read_text()
    assert done.check is not None and done.check[0].elements == 1200
    x = 4 * torch.randn(4, 77, dtype=torch.float32).to(torch.float16)
    torch.testing.assert_close(done(x), F.hardswish(x))  # the same kernel at another size


@needs_torch
def test_what_hswc_does_not_lower_is_named(act: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["act.py:with_matmul", "--input-shape", "4x8:f32", "--input-shape", "8x16:f32",
                 "-o", "out"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("hswc-from-torch: error: hswc did not lower what torch-mlir exported "
                          "(out/with_matmul.mlir, kept to look at):\nout/with_matmul.mlir:")
    assert "error: 'linalg.matmul' is not an elementwise computation hswc compiles" in err
    assert (act / "out" / "with_matmul.mlir").is_file()


@needs_torch
def test_check_catches_an_export_that_differs_from_eager(act: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["act.py:differs", "--input-shape", "4x100:f32", "--check", "--emit", "-o",
                 "out"]) == 1
    out = capsys.readouterr().out
    assert ("--check against eager PyTorch: OUTSIDE assert_close's tolerances (float32: rtol "
            "1.3e-06, atol 1e-05): 400 of 400 elements, 0 equal, largest difference 1;") in out
    assert not (act / "out" / "differs").exists()  # nothing packaged


# endregion
