"""What tools/export_model_fixtures.py exports: real model pieces, reductions and gated units.

Each `Spec` builds, for one dtype, a `Case`: a torch module and its inputs (random weights and
values from a seed of the spec's name, so the f32, f16 and bf16 fixtures of a spec share their
values, rounded), exported as a forward graph or, with `backward`, as the backward graph a
training step runs (AOTAutograd). Shapes and widths are small so the committed files stay small.
Needs torch and torchvision (tools/export_model_fixtures.py says which versions).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import torch
import torch.nn.functional as F
import torchvision
from torch import nn
from torchvision.ops.misc import SqueezeExcitation

FLOATS = ("f32", "f16", "bf16")
TORCH_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
                "i32": torch.int32, "i8": torch.int8}
SPECIALS = (0.0, -0.0, math.inf, -math.inf, math.nan, 0.5, -0.5, 3.0, -3.0, 1e-40, -1e-40,
            6e-8, -6e-8, 60000.0, -60000.0)
"""Zeros, infinities, NaN, the hard activations' thresholds, subnormals of f32 / bf16 and of
f16, values near f16's largest: placed among the random values of the elementwise fixtures."""

HALVES = ("f16", "bf16")


def summed_in_dtype(what: str) -> dict[str, str]:
    """The reason a fixture's f16 / bf16 results differ from eager PyTorch's: a sum."""
    return {dt: f"torch-mlir sums {what} in {dt} itself (a linalg.generic reduction with an "
            f"{dt} accumulator); eager PyTorch accumulates in f32 and rounds once"
            for dt in HALVES}


def scalars_in_dtype(scalars: str) -> dict[str, str]:
    return {dt: f"torch-mlir rounds the Python scalars {scalars} to {dt} (arith.truncf from "
            f"f64) and multiplies in {dt}; eager PyTorch multiplies by them in f32 and rounds "
            "once" for dt in HALVES}


GELU_STEPS = {dt: f"torch-mlir's gelu computes x / sqrt(2) (sqrt(2) rounded to {dt}), erf, "
              f"1 + e, * 0.5 and * x each in {dt}, rounding every step; eager PyTorch computes "
              "gelu in f32 and rounds once" for dt in HALVES}
GELU_TANH_CONSTANT = ("torch-mlir's tanh gelu multiplies by 0.797724 (arith.constant "
                      "7.977240e-01) where sqrt(2/pi) is 0.7978846")


def merged(*reasons: dict[str, str]) -> dict[str, str]:
    """Reasons by dtype, joined where several apply."""
    out: dict[str, str] = {}
    for reason in reasons:
        for dtype, text in reason.items():
            out[dtype] = f"{out[dtype]}; {text}" if dtype in out else text
    return out


@dataclass
class Case:
    """A module and the inputs it is exported and run with."""

    module: nn.Module
    inputs: tuple[torch.Tensor, ...]
    backward: bool = False
    """Export the backward graph of a training step on `module` (its forward run with
    gradients on every floating input, then `.backward` of a random tangent) instead."""
    dynamic_shapes: tuple[object, ...] | None = None
    """torch.export's dynamic_shapes for a forward export (one entry per input)."""


@dataclass(frozen=True)
class Spec:
    group: str
    what: str
    description: str
    make: Callable[[torch.dtype, np.random.Generator], Case]
    dtypes: tuple[str, ...] = FLOATS
    expected: dict[str, str] = field(default_factory=dict)
    """Why the oracle and eager PyTorch disagree beyond assert_close's tolerance, by dtype."""

    def name(self, dtype: str) -> str:
        return f"{self.group}/{self.what}_{dtype}"


class Function(nn.Module):
    """A function as a module (torch.export takes modules)."""

    def __init__(self, fn: Callable[..., object]):
        super().__init__()
        self.fn = fn

    def forward(self, *args: torch.Tensor) -> object:
        return self.fn(*args)


def normal(rng: np.random.Generator, shape: tuple[int, ...], dtype: torch.dtype,
           scale: float = 1.0) -> torch.Tensor:
    """Standard normal values times `scale`, drawn in f32 and rounded to the dtype."""
    values = (rng.standard_normal(shape) * scale).astype(np.float32)
    return torch.from_numpy(values).to(dtype)


def with_specials(x: torch.Tensor, rng: np.random.Generator,
                  specials: tuple[float, ...] = SPECIALS) -> torch.Tensor:
    """x with the specials (rounded to its dtype) at random places, at most a quarter of it."""
    flat = x.flatten().clone()
    count = min(len(specials), flat.numel() // 4)
    places = torch.from_numpy(rng.permutation(flat.numel())[:count])
    flat[places] = torch.tensor(specials[:count], dtype=torch.float64).to(x.dtype)
    return flat.reshape(x.shape)


def _seeded(module: nn.Module, rng: np.random.Generator) -> nn.Module:
    """BatchNorm and norm layers given random affine parameters and running statistics, so
    that none of them is the identity."""
    for layer in module.modules():
        if isinstance(layer, nn.BatchNorm2d | nn.LayerNorm):
            size = layer.weight.shape
            layer.weight.data = torch.from_numpy(rng.uniform(0.5, 1.5, size).astype(np.float32))
            layer.bias.data = torch.from_numpy(rng.normal(0, 0.1, size).astype(np.float32))
        if isinstance(layer, nn.BatchNorm2d):
            n = layer.num_features
            layer.running_mean = torch.from_numpy(rng.normal(0, 0.2, n).astype(np.float32))
            layer.running_var = torch.from_numpy(rng.uniform(0.5, 1.5, n).astype(np.float32))
    return module


# region models


@cache
def _mobilenet() -> nn.Module:
    """torchvision's MobileNetV3-Small at width 0.125 with 10 classes, random weights (44k
    parameters: its f32 file is 0.6 MB)."""
    torch.manual_seed(35)
    model = torchvision.models.mobilenet_v3_small(width_mult=0.125, num_classes=10)
    return _seeded(model, np.random.default_rng(35))


def _copy(module: nn.Module, dtype: torch.dtype, train: bool) -> nn.Module:
    return copy.deepcopy(module).to(dtype).train(train)


def _mobilenet_forward(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    return Case(_copy(_mobilenet(), dtype, False), (normal(rng, (1, 3, 32, 32), dtype),))


def _mobilenet_stem(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    model = _mobilenet()
    stem = nn.Sequential(model.features[0], model.features[1].block[0][0])
    return Case(_copy(stem, dtype, True), (normal(rng, (2, 3, 16, 16), dtype),), backward=True)


def _conv_bn_hardswish_conv(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    stem = _mobilenet().features[0]
    torch.manual_seed(351)
    block = nn.Sequential(stem, nn.Conv2d(8, 8, 3, padding=1, bias=False))
    return Case(_copy(block, dtype, True), (normal(rng, (2, 3, 16, 16), dtype),),
                backward=True)


def _squeeze_excitation(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    se = _mobilenet().features[1].block[1]
    assert isinstance(se, SqueezeExcitation)
    return Case(_copy(se, dtype, True), (normal(rng, (2, 8, 4, 4), dtype),), backward=True)


def _classifier(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    head = _mobilenet().classifier  # Linear, Hardswish, Dropout (no-op in eval), Linear
    return Case(_copy(head, dtype, False), (normal(rng, (2, 96), dtype),), backward=True)


class LlamaMLP(nn.Module):
    """Llama's feed-forward block: down(silu(gate(x)) * up(x))."""

    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(F.silu(self.gate(x)) * self.up(x))


class GPT2Conv1D(nn.Module):
    """GPT-2's Conv1D: a linear layer with its weight stored (in, out), run as addmm."""

    def __init__(self, n_in: int, n_out: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_in, n_out) * 0.02)
        self.bias = nn.Parameter(torch.randn(n_out) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.addmm(self.bias, x.reshape(-1, x.shape[-1]), self.weight)
        return out.reshape(*x.shape[:-1], -1)


class GPT2MLP(nn.Module):
    """GPT-2's MLP: c_proj(gelu_new(c_fc(x))), gelu_new written as GPT-2 writes it."""

    def __init__(self, dim: int):
        super().__init__()
        self.c_fc = GPT2Conv1D(dim, 4 * dim)
        self.c_proj = GPT2Conv1D(4 * dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.c_fc(x)
        inner = math.sqrt(2.0 / math.pi) * (h + 0.044715 * torch.pow(h, 3.0))
        return self.c_proj(0.5 * h * (1.0 + torch.tanh(inner)))


class BertMLP(nn.Module):
    """BERT's intermediate and output dense layers with gelu (erf) between them."""

    def __init__(self, dim: int):
        super().__init__()
        self.intermediate = nn.Linear(dim, 4 * dim)
        self.output = nn.Linear(4 * dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.output(F.gelu(self.intermediate(x)))


class Attention(nn.Module):
    """Causal multi-head self-attention: q/k/v projections, softmax(q k^T / sqrt(d) + mask) v,
    output projection."""

    def __init__(self, dim: int, heads: int, length: int):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))
        self.register_buffer("future", torch.ones(length, length).triu(1).bool())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        q, k, v = (p(x).reshape(b, n, self.heads, -1).transpose(1, 2)
                   for p in (self.q, self.k, self.v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)
        scores = scores.masked_fill(self.future, float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.o(out.transpose(1, 2).reshape(b, n, d))


class LlamaRMSNorm(nn.Module):
    """Llama's RMSNorm: in f32, x * rsqrt(mean(x^2) + eps), back to x's dtype, times weight."""

    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(x.dtype)


def _block(factory: Callable[[], nn.Module], seed: int, shape: tuple[int, ...],
           backward: bool) -> Callable[[torch.dtype, np.random.Generator], Case]:
    def make(dtype: torch.dtype, rng: np.random.Generator) -> Case:
        torch.manual_seed(seed)
        module = _seeded(factory(), np.random.default_rng(seed)).to(dtype)
        return Case(module, (normal(rng, shape, dtype),), backward=backward)

    return make


@dataclass(frozen=True)
class Block:
    """A model block exported forward and backward, with what each direction expects."""

    what: str
    description: str
    factory: Callable[[], nn.Module]
    shape: tuple[int, ...]
    forward_expected: dict[str, str] = field(default_factory=dict)
    backward_expected: dict[str, str] = field(default_factory=dict)


GPT2_SCALARS = scalars_in_dtype("0.044715 and sqrt(2/pi)")
BIASES = "the bias gradients over the 8 rows"


def _model_blocks() -> list[Spec]:
    blocks = [
        Block("llama_mlp", "Llama MLP (SwiGLU): down(silu(gate(x)) * up(x)), 32 -> 64 -> 32, "
              "x (2, 4, 32)", lambda: LlamaMLP(32, 64), (2, 4, 32)),
        Block("gpt2_mlp", "GPT-2 MLP: Conv1D (addmm) 32 -> 128, gelu tanh written with "
              "torch.pow(h, 3.0), Conv1D 128 -> 32, x (2, 4, 32)", lambda: GPT2MLP(32),
              (2, 4, 32), forward_expected={"bf16": GPT2_SCALARS["bf16"]},
              backward_expected=merged(summed_in_dtype(BIASES), GPT2_SCALARS)),
        Block("bert_mlp", "BERT MLP: Linear 32 -> 128, gelu (erf), Linear 128 -> 32, "
              "x (2, 4, 32)", lambda: BertMLP(32), (2, 4, 32), forward_expected=GELU_STEPS,
              backward_expected=summed_in_dtype(BIASES)),
        Block("rms_norm", "Llama RMSNorm module over 32 (x.pow(2).mean, rsqrt, in f32), "
              "x (2, 8, 32)", lambda: LlamaRMSNorm(32), (2, 8, 32),
              backward_expected=summed_in_dtype("the weight gradient over the 16 rows")),
        Block("layer_norm", "nn.LayerNorm(32), x (2, 8, 32)", lambda: nn.LayerNorm(32),
              (2, 8, 32)),
    ]
    specs = []
    for i, block in enumerate(blocks):
        specs.append(Spec("models", block.what, block.description + ", forward",
                          _block(block.factory, 360 + i, block.shape, backward=False),
                          expected=block.forward_expected))
        specs.append(Spec("models", f"{block.what}_backward", block.description
                          + ", backward graph of a training step (AOTAutograd)",
                          _block(block.factory, 360 + i, block.shape, backward=True),
                          expected=block.backward_expected))
    return specs


def model_specs() -> list[Spec]:
    backward = ", backward graph of a training step (AOTAutograd, BatchNorm in training mode)"
    return [
        Spec("models", "mobilenet_v3_small",
             "torchvision MobileNetV3-Small forward, eval, width_mult 0.125, 10 classes, "
             "x (1, 3, 32, 32)", _mobilenet_forward),
        Spec("models", "mobilenet_stem_backward",
             "MobileNetV3-Small's stem conv 3x3 s2 -> BatchNorm -> hardswish, then the first "
             "block's depthwise conv 3x3 s2, x (2, 3, 16, 16)" + backward, _mobilenet_stem),
        Spec("models", "mobilenet_conv_bn_hardswish_conv_backward",
             "MobileNetV3-Small's stem conv 3x3 s2 -> BatchNorm -> hardswish, then a dense "
             "conv 3x3 8 -> 8, x (2, 3, 16, 16)" + backward, _conv_bn_hardswish_conv,
             expected={dt: "the stem conv's weight gradient: torch-mlir computes it per sample "
                       "(conv_2d_ngchw_gfchw, f32 accumulator), rounds each sample's to "
                       f"{dt} and sums the two in {dt}; eager PyTorch accumulates in f32 and "
                       "rounds once (the elements that differ most are sums that cancel)"
                       for dt in HALVES}),
        Spec("models", "mobilenet_se_backward",
             "MobileNetV3-Small's first squeeze-excitation block: avgpool, conv 1x1, relu, "
             "conv 1x1, hardsigmoid, scale; x (2, 8, 4, 4)" + backward, _squeeze_excitation,
             expected=summed_in_dtype("the bias gradients over the batch and the scale's "
                                      "gradient over H and W")),
        Spec("models", "mobilenet_classifier_backward",
             "MobileNetV3-Small's classifier head: Linear 96 -> 128, hardswish, dropout "
             "(eval: no-op), Linear 128 -> 10; x (2, 96)" + backward, _classifier),
        *_model_blocks(),
        Spec("models", "attention",
             "causal self-attention block, dim 32, 2 heads: q/k/v Linear, q k^T / sqrt(16) "
             "masked with -inf, softmax, @ v, output Linear; x (2, 8, 32), forward",
             _block(lambda: Attention(32, 2, 8), 370, (2, 8, 32), backward=False)),
    ]


# endregion
# region reductions


def _rows_with_specials(x: torch.Tensor) -> torch.Tensor:
    """Rows of x (over the last dim) given what softmax must survive: some -inf (a mask), a
    large value (exp overflows without the max subtracted), a row all -inf (NaN)."""
    x = x.clone()
    rows = x.reshape(-1, x.shape[-1])
    big = {torch.float16: 60000.0}.get(x.dtype, 1e4)
    if rows.shape[-1] == 1:
        rows[:3, 0] = torch.tensor([-math.inf, math.inf, math.nan]).to(x.dtype)
        return x
    rows[0, ::3] = -math.inf
    if rows.shape[0] > 1:
        rows[1, 5 % rows.shape[-1]] = big
    if rows.shape[0] > 2:
        rows[2] = -math.inf
    return x


def _unary(fn: Callable[[torch.Tensor], object], shape: tuple[int, ...],
           specials: Callable[[torch.Tensor], torch.Tensor] | None = None,
           scale: float = 1.0) -> Callable[[torch.dtype, np.random.Generator], Case]:
    def make(dtype: torch.dtype, rng: np.random.Generator) -> Case:
        x = normal(rng, shape, dtype, scale)
        return Case(Function(fn), (specials(x) if specials else x,))

    return make


def _softmax_backward(log: bool, shape: tuple[int, ...]
                      ) -> Callable[[torch.dtype, np.random.Generator], Case]:
    def make(dtype: torch.dtype, rng: np.random.Generator) -> Case:
        x = normal(rng, shape, dtype, 2.0)
        output = (torch.log_softmax if log else torch.softmax)(x, -1)
        grad = normal(rng, shape, dtype)
        aten = torch.ops.aten
        backward = aten._log_softmax_backward_data if log else aten._softmax_backward_data
        return Case(Function(lambda g, y: backward(g, y, -1, dtype)), (grad, output))

    return make


def _norm(layer: bool, shape: tuple[int, ...]
          ) -> Callable[[torch.dtype, np.random.Generator], Case]:
    def make(dtype: torch.dtype, rng: np.random.Generator) -> Case:
        n = shape[-1]
        x = normal(rng, shape, dtype, 2.0)
        weight = torch.from_numpy(rng.uniform(0.5, 1.5, n).astype(np.float32)).to(dtype)
        if not layer:
            return Case(Function(lambda x, w: F.rms_norm(x, (n,), w, 1e-6)), (x, weight))
        bias = normal(rng, (n,), dtype, 0.1)
        return Case(Function(lambda x, w, b: F.layer_norm(x, (n,), w, b, 1e-5)),
                    (x, weight, bias))

    return make


def reduction_specs() -> list[Spec]:
    softmax_rows = "torch.softmax(x, -1), x {shape}: rows with -inf, one large value, one all -inf"
    return [
        Spec("reductions", "softmax_rows1", "torch.softmax(x, -1), x (8, 1): rows of one "
             "element, among them -inf, inf and NaN",
             _unary(lambda x: torch.softmax(x, -1), (8, 1), _rows_with_specials)),
        Spec("reductions", "softmax_rows64", softmax_rows.format(shape="(4, 64)"),
             _unary(lambda x: torch.softmax(x, -1), (4, 64), _rows_with_specials, 2.0)),
        Spec("reductions", "softmax_rows1000", "torch.softmax(x, -1), x (2, 1000): a row with "
             "-inf, a row with a large value",
             _unary(lambda x: torch.softmax(x, -1), (2, 1000), _rows_with_specials, 2.0)),
        Spec("reductions", "softmax_3d_dim0", "torch.softmax(x, 0), x (3, 4, 16)",
             _unary(lambda x: torch.softmax(x, 0), (3, 4, 16), scale=2.0)),
        Spec("reductions", "softmax_3d_dim1", "torch.softmax(x, 1), x (3, 4, 16)",
             _unary(lambda x: torch.softmax(x, 1), (3, 4, 16), scale=2.0)),
        Spec("reductions", "log_softmax_rows64",
             softmax_rows.format(shape="(4, 64)").replace("softmax", "log_softmax", 1),
             _unary(lambda x: torch.log_softmax(x, -1), (4, 64), _rows_with_specials, 2.0)),
        Spec("reductions", "log_softmax_3d_rows1000", "torch.log_softmax(x, -1), x (2, 2, 1000)",
             _unary(lambda x: torch.log_softmax(x, -1), (2, 2, 1000), scale=2.0)),
        Spec("reductions", "softmax_backward_rows64",
             "torch._softmax_backward_data(grad, y, -1, dtype), y = softmax of x (4, 64)",
             _softmax_backward(False, (4, 64))),
        Spec("reductions", "log_softmax_backward_rows64",
             "torch._log_softmax_backward_data(grad, y, -1, dtype), y = log_softmax of x (4, 64)",
             _softmax_backward(True, (4, 64))),
        Spec("reductions", "rms_norm_rows64", "F.rms_norm(x, (64,), weight, 1e-6), x (4, 64)",
             _norm(False, (4, 64))),
        Spec("reductions", "rms_norm_3d_rows1000",
             "F.rms_norm(x, (1000,), weight, 1e-6), x (2, 2, 1000)", _norm(False, (2, 2, 1000)),
             expected={dt: f"torch-mlir's rms_norm computes x * x, the sum of the 1000 squares, "
                       f"the mean, + eps (1e-6 rounded to {dt}) and rsqrt each in {dt}; eager "
                       "F.rms_norm computes in f32 and rounds once" for dt in HALVES}),
        Spec("reductions", "layer_norm_rows64",
             "F.layer_norm(x, (64,), weight, bias, 1e-5), x (4, 64)", _norm(True, (4, 64))),
        Spec("reductions", "layer_norm_3d_rows1000",
             "F.layer_norm(x, (1000,), weight, bias, 1e-5), x (2, 2, 1000)",
             _norm(True, (2, 2, 1000))),
        Spec("reductions", "sum_dims023", "x.sum(dim=(0, 2, 3)), x (2, 8, 4, 4) (NCHW: a "
             "BatchNorm / bias gradient's sum)",
             _unary(lambda x: x.sum(dim=(0, 2, 3)), (2, 8, 4, 4)),
             expected=summed_in_dtype("the 32 elements of each channel")),
        Spec("reductions", "mean_3d_rows1000", "x.mean(-1), x (2, 2, 1000)",
             _unary(lambda x: x.mean(-1), (2, 2, 1000)),
             expected=summed_in_dtype("each row of 1000")),
        Spec("reductions", "amax_rows64", "x.amax(-1), x (4, 64): rows with -inf, a large "
             "value, all -inf, a NaN",
             _unary(lambda x: x.amax(-1), (4, 64), _amax_specials)),
        Spec("reductions", "var_rows64", "x.var(-1) (unbiased), x (4, 64)",
             _unary(lambda x: x.var(-1), (4, 64), scale=2.0)),
        Spec("reductions", "var_rows1", "x.var(-1) (unbiased) over rows of one element: "
             "0 / 0, NaN, x (4, 1)", _unary(lambda x: x.var(-1), (4, 1))),
    ]


def _amax_specials(x: torch.Tensor) -> torch.Tensor:
    x = _rows_with_specials(x)
    x[3, 7] = math.nan
    return x


# endregion
# region gated


def _halves(fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
            ) -> Callable[[torch.Tensor], torch.Tensor]:
    def gated(x: torch.Tensor) -> torch.Tensor:
        a, b = x.chunk(2, -1)
        return fn(a, b)

    return gated


def _elementwise(fn: Callable[..., object], shape: tuple[int, ...]
                 ) -> Callable[[torch.dtype, np.random.Generator], Case]:
    def make(dtype: torch.dtype, rng: np.random.Generator) -> Case:
        return Case(Function(fn), (with_specials(normal(rng, shape, dtype, 3.0), rng),))

    return make


def _integers(fn: Callable[[torch.Tensor], torch.Tensor], low: int, high: int
              ) -> Callable[[torch.dtype, np.random.Generator], Case]:
    def make(dtype: torch.dtype, rng: np.random.Generator) -> Case:
        x = torch.from_numpy(rng.integers(low, high, (4, 64), endpoint=True)).to(dtype)
        info = torch.iinfo(dtype)
        x.view(-1)[:4] = torch.tensor([info.min, info.max, 0, -1], dtype=dtype)
        return Case(Function(fn), (x,))

    return make


QUANT_SCALE, QUANT_OFFSET = 16.0, 3.0


def _quantize(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    x = normal(rng, (4, 64), dtype, 4.0)
    ties = [(k + 0.5 - QUANT_OFFSET) / QUANT_SCALE for k in range(-6, 6)]
    edges = [(v - QUANT_OFFSET) / QUANT_SCALE for v in (126.5, 127.5, -127.5, -128.5, -129.0)]
    x = with_specials(x, rng, (*ties, *edges, 100.0, -100.0, math.inf, -math.inf, -0.0))

    def quantize(x: torch.Tensor) -> torch.Tensor:
        return torch.round(x * QUANT_SCALE + QUANT_OFFSET).clamp(-128, 127).to(torch.int8)

    return Case(Function(quantize), (x,))


def _quantize_per_channel(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    """Static per-channel quantization: x (2, 16, 8), a scale and an offset per channel (dim 1),
    broadcast; scales from 2 to 40 (never 0), offsets from -8 to 8, ties and clamp edges of
    channel 0 placed in its first elements."""
    x = with_specials(normal(rng, (2, 16, 8), dtype, 4.0), rng,
                      (100.0, -100.0, math.inf, -math.inf, -0.0))
    scale = torch.from_numpy(rng.uniform(2.0, 40.0, 16).astype(np.float32)).to(dtype)
    offset = torch.from_numpy(rng.integers(-8, 8, 16, endpoint=True).astype(np.float32)
                              ).to(dtype)
    s0, o0 = float(scale[0]), float(offset[0])
    edges = [(v - o0) / s0 for v in (0.5, 1.5, -2.5, 126.5, 127.5, -128.5, -129.0)]
    x[0, 0, :len(edges)] = torch.tensor(edges, dtype=torch.float64).to(dtype)

    def quantize(x: torch.Tensor, scale: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        per_channel = (1, -1, 1)
        return torch.round(x * scale.view(per_channel) + offset.view(per_channel)).clamp(
            -128, 127).to(torch.int8)

    return Case(Function(quantize), (x, scale, offset))


def _quantize_dynamic(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    """Dynamic per-row quantization (gelu_quant's dynamic mode without the gelu): the scale of
    each row its largest magnitude / 127, y = round(x / scale) to int8, and the scale per row
    (the row dims only) as a second result. x (4, 64), finite, no row all zeros; row 0 holds
    values whose quotient is a tie (k + 0.5) when its largest magnitude is 127 * 2^-2."""
    x = normal(rng, (4, 64), dtype, 3.0)
    x[0, 0] = 127 * 0.25
    x[0, 1:8] = torch.tensor([0.125, -0.125, 0.375, -0.625, 31.625, -31.625, -0.0])
    x[0, 8:] = x[0, 8:].clamp(-31.0, 31.0)

    def quantize(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        scale = x.abs().amax(-1, keepdim=True) / 127
        return torch.round(x / scale).clamp(-128, 127).to(torch.int8), scale.squeeze(-1)

    return Case(Function(quantize), (x,))


def _gelu_quant_dynamic(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    """ops-nn's GeluQuant in its default mode (quant_mode "dynamic", approximate "none",
    round_mode "rint", activation/gelu_quant/README.md): g = gelu(x) * smooth_scales (per
    column, input_scale), scale = max|g| per row / 127, y = round(g / scale) to int8; y and the
    f32 scale per row. x (8, 96)."""
    x = normal(rng, (8, 96), dtype, 3.0)
    smooth = torch.from_numpy(rng.uniform(0.5, 2.0, 96).astype(np.float32)).to(dtype)

    def gelu_quant(x: torch.Tensor, smooth: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        g = F.gelu(x) * smooth
        scale = g.abs().amax(-1, keepdim=True) / 127
        return torch.round(g / scale).clamp(-128, 127).to(torch.int8), scale.squeeze(-1)

    return Case(Function(gelu_quant), (x, smooth))


def _prelu(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    x = with_specials(normal(rng, (3, 16, 8), dtype, 3.0), rng)
    weight = torch.from_numpy(rng.uniform(0.0, 0.5, 16).astype(np.float32)).to(dtype)
    batch = torch.export.Dim("batch", min=2)
    return Case(Function(F.prelu), (x, weight), dynamic_shapes=(({0: batch}, None),))


def _glu_backward(dtype: torch.dtype, rng: np.random.Generator) -> Case:
    """aten.glu_backward(grad, x, -1): dx of x's shape, both halves (one kernel output)."""
    x = with_specials(normal(rng, (4, 64), dtype, 3.0), rng)
    grad = normal(rng, (4, 32), dtype)
    return Case(Function(lambda g, x: torch.ops.aten.glu_backward(g, x, -1)), (grad, x))


def gated_specs() -> list[Spec]:
    return [
        Spec("gated", "glu_backward", "aten.glu_backward(grad, x, -1), grad (4, 32), x (4, 64) "
             "(f32: torch-mlir's decomposition computes f16 and bf16 in their own type, which "
             "eager does not)", _glu_backward, dtypes=("f32",)),
        Spec("gated", "swiglu_chunk", "a, b = x.chunk(2, -1); F.silu(a) * b, x (4, 64)",
             _elementwise(_halves(lambda a, b: F.silu(a) * b), (4, 64))),
        Spec("gated", "glu_last", "F.glu(x, -1), x (4, 64)",
             _elementwise(lambda x: F.glu(x, -1), (4, 64))),
        Spec("gated", "glu_dim0", "F.glu(x, 0), x (4, 64)",
             _elementwise(lambda x: F.glu(x, 0), (4, 64))),
        Spec("gated", "geglu_erf", "a, b = x.chunk(2, -1); F.gelu(a) * b, x (4, 64)",
             _elementwise(_halves(lambda a, b: F.gelu(a) * b), (4, 64)), expected=GELU_STEPS),
        Spec("gated", "geglu_tanh",
             "a, b = x.chunk(2, -1); F.gelu(a, approximate='tanh') * b, x (4, 64)",
             _elementwise(_halves(lambda a, b: F.gelu(a, approximate="tanh") * b), (4, 64)),
             expected={"f32": GELU_TANH_CONSTANT} | {
                 dt: f"{GELU_TANH_CONSTANT}, and computes every step in {dt}" for dt in HALVES}),
        Spec("gated", "relu", "torch.relu(x), x (4, 64) int32 with its min and max",
             _integers(torch.relu, -1000, 1000), dtypes=("i32",)),
        Spec("gated", "clamp", "torch.clamp(x, -100, 100), x (4, 64) int8 with its min and max",
             _integers(lambda x: torch.clamp(x, -100, 100), -128, 127), dtypes=("i8",)),
        Spec("gated", "clamp_small",
             "torch.clamp(x, -5, 7), x (4, 64) int8 with its min and max",
             _integers(lambda x: torch.clamp(x, -5, 7), -128, 127), dtypes=("i8",)),
        Spec("gated", "where_positive",
             "torch.where(x > 0, x, 0), x (4, 64) int32 with its min and max",
             _integers(lambda x: torch.where(x > 0, x, 0), -(2**31), 2**31 - 1),
             dtypes=("i32",)),
        Spec("gated", "abs",
             "torch.abs(x), x (4, 64) int32 with its min and max (math.absi: the oracle runs it "
             "as select(x < 0, 0 - x, x), tools/mlir_oracle.expand_absi)",
             _integers(torch.abs, -(2**31), 2**31 - 1), dtypes=("i32",)),
        Spec("gated", "quantize_per_channel",
             "torch.round(x * scale + offset).clamp(-128, 127).to(torch.int8), x (2, 16, 8), "
             "scale and offset (16,) per channel (dim 1, broadcast)", _quantize_per_channel),
        Spec("gated", "quantize_int8",
             f"torch.round(x * {QUANT_SCALE} + {QUANT_OFFSET}).clamp(-128, 127).to(torch.int8), "
             "x (4, 64) with ties, clamp edges and infinities", _quantize),
        Spec("gated", "quantize_dynamic",
             "s = x.abs().amax(-1, keepdim=True) / 127; (torch.round(x / s).clamp(-128, 127)"
             ".to(torch.int8), s.squeeze(-1)), x (4, 64) with ties in row 0: two results, int8 "
             "and the f32 scale per row", _quantize_dynamic, dtypes=("f32",)),
        Spec("gated", "gelu_quant_dynamic",
             "ops-nn GeluQuant's dynamic mode: g = F.gelu(x) * smooth (96,); s = "
             "g.abs().amax(-1, keepdim=True) / 127; (torch.round(g / s).clamp(-128, 127)"
             ".to(torch.int8), s.squeeze(-1)), x (8, 96)", _gelu_quant_dynamic,
             dtypes=("f32",)),
        Spec("gated", "relu_and_mask", "(torch.relu(x), x > 0), x (4, 64): two results, "
             "float and bool", _elementwise(lambda x: (torch.relu(x), x > 0), (4, 64))),
        Spec("gated", "prelu_dynamic", "F.prelu(x, weight), x (batch, 16, 8) with batch "
             "dynamic (torch.export.Dim, run with 3), weight per channel (16,)", _prelu),
    ]


# endregion


def all_specs() -> list[Spec]:
    return model_specs() + reduction_specs() + gated_specs()
