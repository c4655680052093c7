"""Export real model pieces with torch-mlir and record what MLIR computes for them.

    # torch 2.14.1, torchvision 0.29.1, torch-mlir 20261001: only this script needs them
    python tools/export_model_fixtures.py [OUT_DIR] [--only 'models/llama*' ...]
    python tools/export_model_fixtures.py --mobilenet-full DIR [--dtype f32] [--classes 10]

For every fixture of tools/model_fixture_set.py (models/: MobileNetV3-Small and three of its
backward blocks, Llama / GPT-2 / BERT MLPs, attention, RMSNorm and LayerNorm; reductions/:
softmax, log_softmax and their backward, the norms, sum, mean, amax, var; gated/: chunked
SwiGLU, GLU, GeGLU, integer relu and clamp, a quantization to int8, two results, PReLU with a
dynamic batch), in f32, f16 and bf16 where the dtype makes sense, it writes to OUT_DIR (default
test/fixtures/torch_models):

- `<group>/<what>_<dtype>.mlir`, exactly as torch-mlir printed it: a forward graph from
  `torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors")`, a backward graph as
  a training step runs it (AOTAutograd with torch-mlir's decomposition table, the backward
  graph captured with the tensors it was called with, its None results dropped) from
  `torch_mlir.fx.stateless_fx_import`;
- `<group>/<what>_<dtype>.npz`: the inputs `in0`, `in1`, ..., the results of MLIR's own CPU
  execution of the file (`out0`, ...: the oracle, tools/mlir_oracle.py) and of eager PyTorch
  (`torch0`, ...: the cross-check); floats as their raw bits (uint32 / uint16, as
  test/fixtures/torch_mlir holds them), integers and i1 (bool) as they are;
- `index.json`: per fixture its name, group, dtype, what it is, the versions, its inputs' and
  results' shapes and element types, the counts of its linalg, tensor and math ops, and the
  oracle against eager PyTorch (max abs, max ulp, within `torch.testing.assert_close`'s default
  tolerances of the dtype, NaN equal to NaN), or why it was not exported or not run (the first
  line of the error).

A disagreement beyond the tolerance is printed in the summary table; those the set expects say
why (Spec.expected), any other, or an expected one that no longer shows, makes the script exit 1
once everything is written. `--mobilenet-full DIR` writes the full-width MobileNetV3-Small
forward (1x3x224x224; weights random) into DIR for benchmarks, and nothing else.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import torch
from mlir_oracle import check_conversions, execute, raw
from model_fixture_set import TORCH_DTYPES, Case, Spec, all_specs, normal

OPS = ("linalg", "tensor", "math")
"""The dialects whose ops the index counts (their region terminators left out)."""
HELD = {torch.float32: np.float32, torch.float16: np.float16, torch.bfloat16: np.uint16,
        torch.float64: np.float64, torch.int8: np.int8, torch.int32: np.int32,
        torch.int64: np.int64, torch.bool: np.bool_}
"""The numpy dtype holding a torch dtype's values (bf16: its bits)."""
ELEMENT_TYPES = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
                 torch.float64: "f64", torch.int8: "i8", torch.int32: "i32",
                 torch.int64: "i64", torch.bool: "i1"}


@dataclass
class Exported:
    """An exported file, the inputs it is run with and eager PyTorch's results."""

    text: str
    inputs: list[torch.Tensor]
    eager: list[torch.Tensor]


def versions() -> dict[str, str]:
    return {"torch": torch.__version__, "torch_mlir": version("torch-mlir"),
            "torchvision": version("torchvision")}


@contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """What MLIR prints on file descriptor 2 inside the block (its diagnostics), as lines."""
    lines: list[str] = []
    with tempfile.TemporaryFile(mode="w+") as sink:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            yield lines
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            lines.extend(sink.read().splitlines())


def first_error_line(error: BaseException, stderr: list[str]) -> str:
    """MLIR's first error diagnostic where it printed one, else the exception's first line."""
    for line in stderr:
        if "error" in line.lower() and "warning" not in line.lower():
            return line.strip()
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def _as_list(result: object) -> list[torch.Tensor]:
    if isinstance(result, torch.Tensor):
        return [result]
    assert isinstance(result, tuple | list)
    return [r for r in result if r is not None]


def bf16_literal_hooks() -> object:
    """torch-mlir's importer hooks, writing bf16 constants (weights) itself: torch-mlir
    converts them through ml_dtypes, which its venv lacks. The attribute is the one
    torch-mlir writes (`dense_resource<torch_tensor_<shape>_torch.bfloat16>` of the tensor's
    bits, a one-element tensor as `dense<...>`, each tensor once), made from the bits."""
    from torch_mlir import ir
    from torch_mlir.extras.fx_importer import FxImporterHooks

    class Bf16Literals(FxImporterHooks):
        def resolve_literal(self, gni: Any, literal: Any, info: Any) -> Any:
            if not (isinstance(literal, torch.Tensor) and literal.dtype == torch.bfloat16):
                return None
            cc = gni._cc
            mapping = cc._py_attr_tracker.track(literal)
            if mapping.is_empty:
                bits = np.array(literal.view(torch.int16).tolist(), np.int16).view(np.uint16)
                element = ir.BF16Type.get()
                if bits.size == 1:
                    mapping.value = ir.DenseElementsAttr.get(bits, type=element,
                                                             shape=bits.shape)
                else:
                    shape = list(literal.shape)
                    blob = f"torch_tensor_{'_'.join(map(str, shape))}_{literal.dtype}"
                    mapping.value = ir.DenseResourceElementsAttr.get_from_buffer(
                        bits, blob, ir.RankedTensorType.get(shape, element))
            return ir.Operation.create("torch.vtensor.literal",
                                       results=[cc.tensor_to_vtensor_type(literal)],
                                       attributes={"value": mapping.value}).result

    return Bf16Literals()


def export_forward(case: Case) -> Exported:
    from torch_mlir import fx

    module = fx.export_and_import(case.module, *case.inputs, output_type="linalg-on-tensors",
                                  dynamic_shapes=case.dynamic_shapes, hooks=bf16_literal_hooks())
    with torch.no_grad():
        eager = _as_list(case.module(*case.inputs))
    return Exported(str(module), list(case.inputs), eager)


def export_backward(case: Case, rng: np.random.Generator) -> Exported:
    """The backward graph AOTAutograd hands its compiler in a training step of the module,
    with the saved tensors and the tangent it is then called with."""
    from functorch.compile import aot_module, make_boxed_func
    from torch_mlir import fx
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    seen: dict[str, Any] = {}

    def backward_compiler(graph: torch.fx.GraphModule, _: object) -> object:
        def run(args: list[torch.Tensor]) -> object:
            seen["graph"], seen["args"] = graph, [a.detach().clone() for a in args]
            return graph(*args)

        run._boxed_call = True  # type: ignore[attr-defined]
        return run

    compiled = aot_module(case.module, fw_compiler=lambda g, _: make_boxed_func(g.forward),
                          bw_compiler=backward_compiler, decompositions=get_decomposition_table())
    inputs = [x.detach().clone().requires_grad_(x.is_floating_point()) for x in case.inputs]
    output = compiled(*inputs)
    output.backward(normal(rng, tuple(output.shape), output.dtype))
    graph, args = seen["graph"], seen["args"]
    _drop_none_results(graph)
    module = fx.stateless_fx_import(graph, output_type="linalg-on-tensors",
                                    hooks=bf16_literal_hooks())
    with torch.no_grad():
        eager = _as_list(graph(*[a.clone() for a in args]))
    return Exported(str(module), args, eager)


def _drop_none_results(graph: torch.fx.GraphModule) -> None:
    """The graph without its None results (the gradients of inputs that have none, such as
    BatchNorm's running statistics): torch-mlir cannot return a !torch.none from a function."""
    output = next(node for node in graph.graph.nodes if node.op == "output")
    results = output.args[0]
    kept = tuple(r for r in results if r is not None)
    if len(kept) != len(results):
        output.args = (kept,)
        graph.recompile()


def to_numpy(t: torch.Tensor) -> np.ndarray:
    """The tensor's values; bf16 as its bits (uint16)."""
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def from_numpy(a: np.ndarray, dtype: torch.dtype) -> torch.Tensor:
    if dtype == torch.bfloat16:
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a).to(dtype)


def run_oracle(exported: Exported) -> list[torch.Tensor]:
    outputs = [(tuple(e.shape), np.dtype(HELD[e.dtype])) for e in exported.eager]
    results = execute(exported.text, [to_numpy(x) for x in exported.inputs], outputs)
    return [from_numpy(r, e.dtype) for r, e in zip(results, exported.eager, strict=True)]


def stored(t: torch.Tensor) -> np.ndarray:
    """How the npz holds a tensor: floats as raw bits, integers and bools as they are."""
    a = to_numpy(t)
    return raw(a) if t.is_floating_point() else a


def op_counts(text: str) -> dict[str, int]:
    """linalg, tensor and math ops of the file by name (linalg.yield, tensor.yield left out)."""
    import re

    pattern = rf"(?<![\w.#!\"])((?:{'|'.join(OPS)})\.[a-z_0-9]+)\b"
    counts = Counter(m for m in re.findall(pattern, text) if not m.endswith(".yield"))
    return dict(sorted(counts.items()))


# region comparison


def _ordered(t: torch.Tensor) -> np.ndarray:
    """Float bits mapped to integers in the order of the values (-0 and +0 both 0)."""
    bits = raw(to_numpy(t)).astype(np.int64)
    sign = 1 << (8 * t.element_size() - 1)
    magnitude = bits & (sign - 1)
    return np.where(bits & sign, -magnitude, magnitude)


def compare(oracle: torch.Tensor, eager: torch.Tensor) -> dict[str, Any]:
    """The oracle's result against eager PyTorch's: within assert_close's default tolerances
    of the dtype (NaN equal to NaN), bit for bit, max abs difference, max ulp (integers: the
    difference), results where one is NaN and the other not."""
    try:
        torch.testing.assert_close(oracle, eager, equal_nan=True)
        close, mismatch = True, None
    except AssertionError as error:
        close = False
        mismatch = next((line.strip() for line in str(error).splitlines()
                         if line.strip().startswith("Mismatched elements")), str(error))
    if not oracle.is_floating_point():
        diff = (oracle.to(torch.int64) - eager.to(torch.int64)).abs()
        worst = int(diff.max()) if diff.numel() else 0
        return {"close": close, "mismatched": mismatch, "bit_exact": worst == 0,
                "max_abs": worst, "max_ulp": worst, "nan_mismatches": 0}
    a, b = oracle.double().numpy(), eager.double().numpy()
    a_nan, b_nan = np.isnan(a), np.isnan(b)
    both = ~a_nan & ~b_nan
    with np.errstate(invalid="ignore"):
        abs_diff = np.where(a[both] == b[both], 0.0, np.abs(a[both] - b[both]))
    ulps = np.abs(_ordered(oracle)[both] - _ordered(eager)[both])
    same_bits = bool(np.array_equal(raw(to_numpy(oracle))[both], raw(to_numpy(eager))[both]))
    max_abs = float(abs_diff.max()) if abs_diff.size else 0.0
    return {"close": close, "mismatched": mismatch,
            "bit_exact": same_bits and bool(np.array_equal(a_nan, b_nan)),
            "max_abs": max_abs if np.isfinite(max_abs) else "inf",
            "max_ulp": int(ulps.max()) if ulps.size else 0,
            "nan_mismatches": int((a_nan != b_nan).sum())}


def _worst(results: list[dict[str, Any]]) -> dict[str, Any]:
    def number(v: float | str) -> float:
        return float("inf") if v == "inf" else float(v)

    max_abs = max((r["max_abs"] for r in results), key=number, default=0.0)
    return {"close": all(r["close"] for r in results),
            "bit_exact": all(r["bit_exact"] for r in results),
            "max_abs": max_abs,
            "max_ulp": max((r["max_ulp"] for r in results), default=0),
            "nan_mismatches": sum(r["nan_mismatches"] for r in results)}


# endregion
# region one fixture


def _signature(tensors: list[torch.Tensor]) -> list[dict[str, Any]]:
    return [{"shape": list(t.shape), "type": ELEMENT_TYPES[t.dtype]} for t in tensors]


def _seed(spec: Spec) -> int:
    """The spec's seed: the f32, f16 and bf16 fixtures of a spec share their values."""
    return zlib.crc32(f"{spec.group}/{spec.what}".encode())


def make_fixture(spec: Spec, dtype: str, out_dir: Path) -> dict[str, Any]:
    """Export, run and write one fixture; its index entry."""
    name = spec.name(dtype)
    entry: dict[str, Any] = {"name": name, "group": spec.group, "what": spec.what,
                             "dtype": dtype, "description": spec.description, **versions()}
    rng = np.random.default_rng(_seed(spec))
    torch.manual_seed(_seed(spec))
    case = spec.make(TORCH_DTYPES[dtype], rng)
    entry["graph"] = "backward" if case.backward else "forward"
    failure: Exception | None = None
    with captured_stderr() as stderr:
        try:
            exported = export_backward(case, rng) if case.backward else export_forward(case)
        except Exception as error:  # torch-mlir does not lower every aten op to linalg
            failure = error
    if failure is not None:
        return {**entry, "status": "not exported", "error": first_error_line(failure, stderr)}
    mlir = out_dir / f"{name}.mlir"
    mlir.parent.mkdir(parents=True, exist_ok=True)
    mlir.write_text(exported.text)
    entry.update(mlir=f"{name}.mlir", npz=f"{name}.npz", bytes=len(exported.text.encode()),
                 inputs=_signature(exported.inputs), outputs=_signature(exported.eager),
                 ops=op_counts(exported.text))
    arrays = {f"in{i}": stored(x) for i, x in enumerate(exported.inputs)}
    arrays |= {f"torch{i}": stored(e) for i, e in enumerate(exported.eager)}
    with captured_stderr() as stderr:
        try:
            oracle = run_oracle(exported)
        except Exception as error:  # what MLIR's CPU pipeline cannot compile or run
            failure = error
    if failure is not None:
        np.savez_compressed(out_dir / f"{name}.npz", **arrays)
        return {**entry, "status": "not run", "error": first_error_line(failure, stderr)}
    arrays |= {f"out{i}": stored(o) for i, o in enumerate(oracle)}
    np.savez_compressed(out_dir / f"{name}.npz", **arrays)
    results = [compare(o, e) for o, e in zip(oracle, exported.eager, strict=True)]
    for output, result in zip(entry["outputs"], results, strict=True):
        output["oracle_vs_eager"] = result
    expected = spec.expected.get(dtype)
    return {**entry, "status": "ok",
            "oracle_vs_eager": {**_worst(results), "expected_disagreement": expected}}


# endregion
# region summary


def verdict(entry: dict[str, Any]) -> str:
    if entry["status"] != "ok":
        return f"{entry['status']}: {entry['error']}"
    versus = entry["oracle_vs_eager"]
    expected = versus["expected_disagreement"]
    if versus["close"]:
        return "within tolerance" + (" (STALE: expected to disagree)" if expected else "")
    return f"expected: {expected}" if expected else "UNEXPECTED disagreement"


def _ops_column(ops: dict[str, int]) -> str:
    generic = ops.get("linalg.generic", 0)
    named = [f"{n.split('.', 1)[1]} {c}" for n, c in ops.items()
             if n.startswith("linalg.") and n not in ("linalg.generic", "linalg.index")]
    tensor = sum(c for n, c in ops.items() if n.startswith("tensor."))
    return f"{generic} generic" + "".join(f", {n}" for n in named) + f"; {tensor} tensor"


def print_summary(entries: list[dict[str, Any]]) -> int:
    """The table; the number of entries that make the run fail."""
    failures = 0
    print(f"\n{'fixture':<54} {'ops':<58} {'max abs':>10} {'ulp':>6}  verdict")
    for entry in entries:
        text = verdict(entry)
        failures += "UNEXPECTED" in text or "STALE" in text
        if entry["status"] != "ok":
            print(f"{entry['name']:<54} {'-':<58} {'-':>10} {'-':>6}  {text}")
            continue
        versus = entry["oracle_vs_eager"]
        max_abs = versus["max_abs"]
        shown = max_abs if isinstance(max_abs, str) else f"{max_abs:.3g}"
        nan = f" ({versus['nan_mismatches']} NaN vs number)" if versus["nan_mismatches"] else ""
        print(f"{entry['name']:<54} {_ops_column(entry['ops']):<58} {shown:>10} "
              f"{versus['max_ulp']:>6}  {text}{nan}")
    return failures


# endregion


def export_set(out_dir: Path, only: list[str]) -> int:
    check_conversions()
    index_path = out_dir / "index.json"
    kept: dict[str, dict[str, Any]] = {}
    if only and index_path.exists():
        kept = {e["name"]: e for e in json.loads(index_path.read_text())["fixtures"]}
    entries = []
    start = time.perf_counter()
    for spec in all_specs():
        for dtype in spec.dtypes:
            name = spec.name(dtype)
            if only and not any(fnmatch.fnmatch(name, p) for p in only):
                if name in kept:
                    entries.append(kept[name])
                continue
            began = time.perf_counter()
            entries.append(make_fixture(spec, dtype, out_dir))
            print(f"{name}: {entries[-1]['status']} ({time.perf_counter() - began:.1f} s)",
                  flush=True)
    index = {"generated_by": "tools/export_model_fixtures.py", **versions(),
             "fixtures": entries}
    index_path.write_text(json.dumps(index, indent=1) + "\n")
    failures = print_summary(entries)
    size = sum(p.stat().st_size for p in out_dir.rglob("*") if p.is_file())
    print(f"\n{len(entries)} fixtures, {size / 1e6:.2f} MB in {out_dir}, "
          f"{time.perf_counter() - start:.0f} s")
    if failures:
        print(f"{failures} disagreement(s) the set does not expect, or expected ones that no "
              "longer show: see UNEXPECTED / STALE above", file=sys.stderr)
    return 1 if failures else 0


def export_full_mobilenet(out_dir: Path, dtype: str, classes: int) -> int:
    """The full-width MobileNetV3-Small forward (random weights), for benchmarks."""
    import torchvision
    from torch_mlir import fx

    torch.manual_seed(35)
    model = torchvision.models.mobilenet_v3_small(num_classes=classes).eval()
    model = model.to(TORCH_DTYPES[dtype])
    x = torch.zeros(1, 3, 224, 224, dtype=TORCH_DTYPES[dtype])
    text = str(fx.export_and_import(model, x, output_type="linalg-on-tensors"))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"mobilenet_v3_small_full_{dtype}.mlir"
    path.write_text(text)
    print(f"{path}: {len(text.encode()) / 1e6:.1f} MB")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("out_dir", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[1] / "test" / "fixtures"
                        / "torch_models")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="export only the fixtures whose name matches (keeping the "
                        "index's other entries)")
    parser.add_argument("--mobilenet-full", type=Path, metavar="DIR",
                        help="write the full-width MobileNetV3-Small forward into DIR instead")
    parser.add_argument("--dtype", choices=("f32", "f16", "bf16"),
                        help="with --mobilenet-full: its element type (f32)")
    parser.add_argument("--classes", type=int,
                        help="with --mobilenet-full: the classifier's classes (10)")
    args = parser.parse_args(argv[1:])
    if args.mobilenet_full is not None:
        if args.only:
            parser.error("--only exports fixtures; --mobilenet-full exports no fixture")
        return export_full_mobilenet(args.mobilenet_full, args.dtype or "f32",
                                     10 if args.classes is None else args.classes)
    if args.dtype or args.classes is not None:
        parser.error("--dtype and --classes go with --mobilenet-full")
    known = {spec.name(d) for spec in all_specs() for d in spec.dtypes}
    unmatched = [p for p in args.only if not fnmatch.filter(known, p)]
    if unmatched:
        parser.error(f"--only {unmatched[0]!r} matches no fixture")
    return export_set(args.out_dir, args.only)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
