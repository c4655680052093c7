"""The models tools/export_host_fixtures.py exports: each a function of the torch dtype giving
the module (or, for a training step, its traced graph) and its example inputs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F
import torchvision
from torch import nn


@dataclass(frozen=True)
class Model:
    name: str
    make: Callable[[Any], Any]
    """torch dtype -> (the module, or a traced training step; its example inputs)."""
    dtypes: tuple[str, ...] = ("f32", "f16", "bf16")


class LlamaMlp(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.gate, self.up = nn.Linear(16, 32, bias=False), nn.Linear(16, 32, bias=False)
        self.down = nn.Linear(32, 16, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(F.silu(self.gate(x)) * self.up(x))


class Attention(nn.Module):
    """Two heads over 16 features: the q, k, v projections, softmax(q k^T / sqrt(8)) v."""

    def __init__(self) -> None:
        super().__init__()
        self.qkv, self.out = nn.Linear(16, 48), nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = (y.view(b, t, 2, d // 2).transpose(1, 2)
                   for y in self.qkv(x).split(d, dim=-1))
        a = torch.softmax(q @ k.transpose(-1, -2) / (d // 2) ** 0.5, dim=-1)
        return self.out((a @ v).transpose(1, 2).reshape(b, t, d))


class Block(nn.Module):
    """conv -> BatchNorm (batch statistics, as in training) -> hardswish -> conv."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(4, 8, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8, track_running_stats=False)
        self.conv2 = nn.Conv2d(8, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv2(F.hardswish(self.bn(self.conv1(x))))


class Fn(nn.Module):
    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, *args: torch.Tensor) -> Any:
        return self.fn(*args)


def mobilenet(dtype: Any) -> Any:
    """MobileNetV3-Small at width 0.1 with random weights and batch-norm statistics."""
    net = torchvision.models.mobilenet_v3_small(width_mult=0.1, num_classes=10).eval()
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    return net.to(dtype), [torch.randn(1, 3, 32, 32)]


def backward_block(dtype: Any) -> Any:
    """Block's training step: the gradients of its parameters for an input and an upstream
    gradient (vjp, traced by make_fx with the core ATen decompositions)."""
    from torch._decomp import core_aten_decompositions
    from torch.fx.experimental.proxy_tensor import make_fx

    block = Block().to(dtype).train()
    names = [n for n, _ in block.named_parameters()]

    def step(*args: torch.Tensor) -> Any:
        x, dy = args[len(names):]

        def forward(*params: torch.Tensor) -> torch.Tensor:
            return torch.func.functional_call(block, dict(zip(names, params, strict=True)),
                                              (x,))
        _, vjp = torch.func.vjp(forward, *args[:len(names)])
        return vjp(dy)

    params = [p.detach() for p in block.parameters()]
    x, dy = torch.randn(2, 4, 8, 8, dtype=dtype), torch.randn(2, 4, 8, 8, dtype=dtype)
    graph = make_fx(step, decomposition_table=core_aten_decompositions())(*params, x, dy)
    return graph, [*params, x, dy]


def layer_norm(dtype: Any) -> Any:
    norm = nn.LayerNorm(16)
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5)
        norm.bias.uniform_(-0.5, 0.5)
    return norm.eval().to(dtype), [torch.randn(4, 16)]


def pooling(x: torch.Tensor) -> torch.Tensor:
    return F.max_pool2d(x, 3, 2, 1) + F.avg_pool2d(x, 2)


def concat_pad(x: torch.Tensor) -> torch.Tensor:
    return torch.cat([F.pad(x, (1, 2)), x.flip(0)[:, :1].expand(2, 3) * 2], 1)


ONE = ("f32",)
MODELS = [
    Model("mobilenet_v3_small", mobilenet),
    Model("llama_mlp", lambda dt: (LlamaMlp().to(dt), [torch.randn(2, 4, 16)])),
    Model("attention", lambda dt: (Attention().to(dt), [torch.randn(1, 4, 16)])),
    Model("softmax", lambda dt: (Fn(lambda x: torch.softmax(x, -1)), [torch.randn(4, 16)])),
    Model("layer_norm", layer_norm),
    Model("conv_bn_hardswish_backward", backward_block),
    Model("max_and_index", lambda dt: (Fn(lambda x: torch.max(x, -1)), [torch.randn(4, 16)])),
    Model("embedding", lambda dt: (nn.Embedding(10, 4).to(dt),
                                   [torch.tensor([[1, 2, 3], [4, 5, 9]])]), ONE),
    Model("concat_pad", lambda dt: (Fn(concat_pad), [torch.randn(2, 3)]), ONE),
    Model("pooling", lambda dt: (Fn(pooling), [torch.randn(1, 3, 8, 8)]), ONE),
]
"""Each model, in f32, f16 and bf16 unless it says otherwise."""
