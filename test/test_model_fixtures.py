"""The model fixture set is sound: test/fixtures/torch_models (written by
tools/export_model_fixtures.py with torch-mlir, which this test does not need) holds every
fixture its index lists and nothing else; each file's signature, its npz arrays and the index
agree; the index's op counts and oracle-vs-eager figures are those of the files; and each file
parses with hswc's context, or fails with the parse error listed in KNOWN_PARSE_FAILURES (so
this test says when one parses). hswc's compilation of them is not tested here."""

from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sampling import sampled
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.utils.exceptions import ParseError

from hswc.pipeline import parse_text

FIXTURES = Path(__file__).parent / "fixtures" / "torch_models"
INDEX: dict[str, Any] = json.loads((FIXTURES / "index.json").read_text())
ENTRIES: list[dict[str, Any]] = INDEX["fixtures"]
EXPORTED = [e for e in ENTRIES if e["status"] != "not exported"]
RUN = [e for e in ENTRIES if e["status"] == "ok"]
HELD = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16, "f64": np.uint64,
        "i1": np.bool_, "i8": np.int8, "i32": np.int32, "i64": np.int64}
"""How the npz holds each element type: floats as their raw bits, integers as they are."""
TOLERANCES = {"f32": (1.3e-6, 1e-5), "f16": (1e-3, 1e-5), "bf16": (1.6e-2, 1e-5)}
"""torch.testing.assert_close's default (rtol, atol) by dtype; integers and i1 are exact."""

KNOWN_PARSE_FAILURES: dict[str, tuple[type[BaseException], str]] = {}
"""What hswc's parse gives today, by fixture name pattern: nothing but success. (The two-result
linalg.generic of softmax, log_softmax and amax, linalg.batch_matmul,
linalg.depthwise_conv_2d_nchw_chw and convolutions of f16 or bf16 into an f32 accumulator parse
since hswc.dialects.linalg.)"""

KNOWN_NOT_EXPORTED = {
    "models/mobilenet_stem_backward_*": "'tensor.collapse_shape' op expected reassociation map",
}
"""What torch-mlir 20261001 cannot export: the backward of a depthwise convolution (groups ==
channels; groups 2 exports)."""


def _known(name: str, table: dict[str, Any]) -> Any:
    matches = [v for pattern, v in table.items() if fnmatch.fnmatch(name, pattern)]
    assert len(matches) <= 1, f"{name} matches several patterns"
    return matches[0] if matches else None


def _ids(entries: list[dict[str, Any]]) -> list[str]:
    return [e["name"] for e in entries]


PARSE_SAMPLE = [e for e in EXPORTED if e["dtype"] not in ("f16", "bf16")
                or _known(e["name"], KNOWN_PARSE_FAILURES)]
"""Parsed by the default suite: the f32 and integer files and every known failure (about 5 s);
the other f16 and bf16 files are sweep tests."""


def test_the_set_holds_what_the_issues_name() -> None:
    names = {e["name"] for e in ENTRIES}
    floats = ("f32", "f16", "bf16")
    wanted = [f"models/{what}_{dt}" for dt in floats for what in (
        "mobilenet_v3_small", "mobilenet_conv_bn_hardswish_conv_backward",
        "mobilenet_se_backward", "mobilenet_classifier_backward", "llama_mlp",
        "llama_mlp_backward", "gpt2_mlp", "gpt2_mlp_backward", "bert_mlp", "bert_mlp_backward",
        "attention", "rms_norm", "rms_norm_backward", "layer_norm", "layer_norm_backward")]
    wanted += [f"reductions/{what}_{dt}" for dt in floats for what in (
        "softmax_rows1", "softmax_rows64", "softmax_rows1000", "softmax_3d_dim0",
        "softmax_3d_dim1", "log_softmax_rows64", "softmax_backward_rows64",
        "log_softmax_backward_rows64", "rms_norm_rows64", "layer_norm_rows64", "sum_dims023",
        "mean_3d_rows1000", "amax_rows64", "var_rows64")]
    wanted += [f"gated/{what}_{dt}" for dt in floats for what in (
        "swiglu_chunk", "glu_last", "glu_dim0", "geglu_erf", "geglu_tanh", "quantize_int8",
        "relu_and_mask", "prelu_dynamic")]
    wanted += ["gated/relu_i32", "gated/clamp_i8", "gated/abs_i32"]
    assert not set(wanted) - names
    assert len(names) == len(ENTRIES), "a name appears twice in the index"


def test_index_entries_are_well_formed() -> None:
    for e in ENTRIES:
        assert re.fullmatch(r"(models|reductions|gated)/[a-z0-9_]+_(f32|f16|bf16|i32|i8)",
                            e["name"]), e["name"]
        assert e["name"] == f"{e['group']}/{e['what']}_{e['dtype']}"
        assert e["torch"].startswith("2.") and e["torch_mlir"] and e["description"]
        assert e["status"] in ("ok", "not run", "not exported")
        if e["status"] != "ok":
            assert e["error"].strip(), e["name"]


def test_what_is_not_exported_is_known() -> None:
    for e in ENTRIES:
        reason = _known(e["name"], KNOWN_NOT_EXPORTED)
        if e["status"] == "not exported":
            assert reason is not None and reason in e["error"], (e["name"], e["error"])
            assert not (FIXTURES / f"{e['name']}.mlir").exists()
        else:
            assert reason is None, f"{e['name']} exports now: drop it from KNOWN_NOT_EXPORTED"
    assert not [e for e in ENTRIES if e["status"] == "not run"], "MLIR ran every export"


def test_the_folder_holds_the_index_and_nothing_else() -> None:
    listed = {f"{e['name']}.{ext}" for e in EXPORTED for ext in ("mlir", "npz")}
    present = {str(p.relative_to(FIXTURES)) for p in FIXTURES.rglob("*") if p.is_file()}
    assert present - {"index.json"} == listed
    assert sum((FIXTURES / f).stat().st_size for f in present) < 10_000_000


def _signature(text: str) -> tuple[list[str], list[str]]:
    """The argument and result types of @main, read from its line of the text."""
    line = next(line for line in text.splitlines() if "func.func @main(" in line)
    match = re.search(r"func\.func @main\((.*)\) -> (.*) \{$", line)
    assert match, line
    return re.findall(r"tensor<[^>]*>", match.group(1)), re.findall(r"tensor<[^>]*>",
                                                                     match.group(2))


def _shape_and_type(tensor_type: str) -> tuple[list[int | None], str]:
    *dims, element = tensor_type.removeprefix("tensor<").removesuffix(">").split("x")
    return [None if d == "?" else int(d) for d in dims], element


def _matches(shape: tuple[int, ...], dims: list[int | None]) -> bool:
    return len(shape) == len(dims) and all(
        d is None or d == n for n, d in zip(shape, dims, strict=True))


@pytest.mark.parametrize("entry", EXPORTED, ids=_ids(EXPORTED))
def test_npz_arrays_match_the_signature_and_the_index(entry: dict[str, Any]) -> None:
    text = (FIXTURES / entry["mlir"]).read_text()
    assert len(text.encode()) == entry["bytes"]
    arguments, results = _signature(text)
    data = np.load(FIXTURES / entry["npz"])
    prefixes = ("in", "torch", "out") if entry["status"] == "ok" else ("in", "torch")
    counts = {"in": len(arguments), "torch": len(results), "out": len(results)}
    assert sorted(data.files) == sorted(f"{p}{i}" for p in prefixes for i in range(counts[p]))
    for prefix, types, described in (("in", arguments, entry["inputs"]),
                                     ("torch", results, entry["outputs"]),
                                     ("out", results, entry["outputs"])):
        if prefix not in prefixes:
            continue
        for i, (tensor_type, info) in enumerate(zip(types, described, strict=True)):
            dims, element = _shape_and_type(tensor_type)
            array = data[f"{prefix}{i}"]
            assert _matches(array.shape, dims), (prefix, i, array.shape, tensor_type)
            assert array.dtype == HELD[element], (prefix, i, array.dtype, element)
            assert list(array.shape) == info["shape"] and info["type"] == element


@pytest.mark.parametrize("entry", sampled(EXPORTED, PARSE_SAMPLE, _ids(EXPORTED)))
def test_hswc_parses_the_file_or_fails_as_known(entry: dict[str, Any]) -> None:
    text = (FIXTURES / entry["mlir"]).read_text()
    known = _known(entry["name"], KNOWN_PARSE_FAILURES)
    try:
        module = parse_text(text, entry["mlir"])
    except (ParseError, AssertionError) as error:
        assert known is not None, f"{entry['name']} does not parse: {error}"
        kind, message = known
        assert isinstance(error, kind) and message in str(error), str(error)
        pytest.xfail(f"known parse failure: {kind.__name__} {message}".strip())
    assert known is None, f"{entry['name']} parses now: drop it from KNOWN_PARSE_FAILURES"
    _check_parsed(module, entry, text)


def _check_parsed(module: ModuleOp, entry: dict[str, Any], text: str) -> None:
    """The parsed function's types are the text's, and its ops those the index counts."""
    main = next(op for op in module.walk() if isinstance(op, FuncOp) and op.sym_name.data == "main")
    arguments, results = _signature(text)
    for parsed, written in ((main.function_type.inputs.data, arguments),
                            (main.function_type.outputs.data, results)):
        assert len(parsed) == len(written)
        for t, w in zip(parsed, written, strict=True):
            assert isinstance(t, TensorType)
            dims, element = _shape_and_type(w)
            assert [None if d == DYNAMIC_INDEX else d for d in t.get_shape()] == dims
            assert str(t.element_type) == element
    counts: dict[str, int] = {}
    for op in module.walk():
        dialect = op.name.split(".", 1)[0]
        if dialect in ("linalg", "tensor", "math") and not op.name.endswith(".yield"):
            counts[op.name] = counts.get(op.name, 0) + 1
    assert counts == entry["ops"]


def _ordered(bits: np.ndarray) -> np.ndarray:
    """Float bits as integers in the order of their values (+0 and -0 both 0)."""
    signed = bits.astype(np.int64)
    sign = 1 << (8 * bits.dtype.itemsize - 1)
    return np.where(signed & sign, -(signed & (sign - 1)), signed)


def _values(bits: np.ndarray, element: str) -> np.ndarray:
    if element == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if element in ("f32", "f16", "f64"):
        floats = {"f32": np.float32, "f16": np.float16, "f64": np.float64}[element]
        return bits.view(floats).astype(np.float64)
    return bits.astype(np.float64)


def _versus(oracle: np.ndarray, eager: np.ndarray, element: str) -> dict[str, Any]:
    """The index's figures for one result, computed here from the npz."""
    a, b = _values(oracle, element), _values(eager, element)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    both = ~nan_a & ~nan_b
    with np.errstate(invalid="ignore"):
        diff = np.where(a[both] == b[both], 0.0, np.abs(a[both] - b[both]))
    if element in TOLERANCES:
        ulp = np.abs(_ordered(oracle)[both] - _ordered(eager)[both])
        rtol, atol = TOLERANCES[element]
        with np.errstate(invalid="ignore"):
            within = (a[both] == b[both]) | (np.abs(a[both] - b[both])
                                             <= atol + rtol * np.abs(b[both]))
    else:
        ulp, within = diff, diff == 0
    max_abs = float(diff.max()) if diff.size else 0.0
    return {"close": bool(within.all()) and bool(np.array_equal(nan_a, nan_b)),
            "max_abs": max_abs if np.isfinite(max_abs) else "inf",
            "max_ulp": int(ulp.max()) if ulp.size else 0,
            "nan_mismatches": int((nan_a != nan_b).sum())}


@pytest.mark.parametrize("entry", RUN, ids=_ids(RUN))
def test_the_index_reports_the_oracle_against_eager_as_the_npz_holds_them(
        entry: dict[str, Any]) -> None:
    data = np.load(FIXTURES / entry["npz"])
    for i, output in enumerate(entry["outputs"]):
        recorded = output["oracle_vs_eager"]
        computed = _versus(data[f"out{i}"], data[f"torch{i}"], output["type"])
        for key, value in computed.items():
            assert recorded[key] == pytest.approx(value) if isinstance(value, float) \
                else recorded[key] == value, (i, key, recorded[key], value)
    versus = entry["oracle_vs_eager"]
    assert versus["close"] == all(o["oracle_vs_eager"]["close"] for o in entry["outputs"])
    assert versus["close"] or versus["expected_disagreement"], (
        f"{entry['name']}: the oracle and eager PyTorch disagree and the set does not say why")
