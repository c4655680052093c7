"""The ops-nn activation ops no named hsg op computes, as the elementwise linalg.generic each
one's README (or docs/aclnn*.md) writes: the reference the sweep checks their kernels against.

Each `Generic` is the op's formula on f32 scalars, one step a line, its inputs named and ordered
as the op's definition (op_host/*_def.cpp) takes them, its attributes at the definition's
defaults (which the sweep also gives the op's tiling). `module_text` writes it as a module of
one function per dtype: f16 and bf16 inputs widened exactly, each f32 result rounded once (an op
of several outputs, PReluGradUpdate's dx and update, is one generic of several results).
Formulas built on exp, log or erf are compared within PyTorch's tolerance (their ops-nn kernels
round otherwise); the others bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

DTYPES = ("f16", "bf16", "f32")


@dataclass(frozen=True)
class Generic:
    name: str
    inputs: tuple[str, ...]
    """The definition's inputs, in its order."""
    body: str
    """f32 arith/math lines on `%<input>` defining each of `results`; `%zero` and `%one` are
    given."""
    formula: str
    """The formula as the README writes it, for the sweep's table."""
    tolerance: str | None = "torch"
    """hswc-check-kernel --tolerance: torch for the transcendental formulas, None for bits."""
    attrs: tuple[tuple[str, str], ...] = ()
    """The definition's attributes and the values the body holds (its defaults)."""
    results: tuple[str, ...] = ("r",)
    """The body's values the op outputs, in the definition's order of outputs."""


SQRT2 = "1.414213562373"
"""FusedBiasLeakyRelu's default scale, as its definition spells it."""

GENERICS: dict[str, Generic] = {g.name: g for g in (
    Generic("bnll", ("x",), """
    %ax = math.absf %x : f32
    %nax = arith.negf %ax : f32
    %e = math.exp %nax : f32
    %l = math.log1p %e : f32
    %m = arith.maximumf %x, %zero : f32
    %r = arith.addf %m, %l : f32""", "ln(1 + e^x), as max(x, 0) + log1p(exp(-|x|))"),
    Generic("squared_relu", ("input",), """
    %m = arith.maximumf %input, %zero : f32
    %r = arith.mulf %m, %m : f32""", "max(0, x)^2", tolerance=None),
    Generic("fast_gelu", ("x",), """
    %ax = math.absf %x : f32
    %k = arith.constant -1.702 : f32
    %t = arith.mulf %ax, %k : f32
    %e = math.exp %t : f32
    %d = arith.addf %one, %e : f32
    %q = arith.divf %x, %d : f32
    %h = arith.constant 0.851 : f32
    %s = arith.subf %x, %ax : f32
    %u = arith.mulf %s, %h : f32
    %v = math.exp %u : f32
    %r = arith.mulf %q, %v : f32""", "x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))"),
    Generic("fast_gelu_grad", ("dy", "x"), """
    %k = arith.constant -1.702 : f32
    %t = arith.mulf %x, %k : f32
    %e = math.exp %t : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %sm1 = arith.subf %s, %one : f32
    %p = arith.mulf %sm1, %t : f32
    %q = arith.addf %p, %one : f32
    %w = arith.mulf %q, %s : f32
    %r = arith.mulf %dy, %w : f32""",
            "dy ((s - 1) (-1.702 x) + 1) s, s = 1 / (exp(-1.702 x) + 1)"),
    Generic("fast_gelu_v2_poly", ("x",), """
    %eps = arith.constant 1.0e-12 : f32
    %xe = arith.addf %x, %eps : f32
    %axe = math.absf %xe : f32
    %sgn = arith.divf %xe, %axe : f32
    %c = arith.constant 0.7071 : f32
    %cx = arith.mulf %x, %c : f32
    %acx = math.absf %cx : f32
    %lim = arith.constant 1.769 : f32
    %cl = arith.minimumf %acx, %lim : f32
    %dl = arith.subf %cl, %lim : f32
    %sq = arith.mulf %dl, %dl : f32
    %a = arith.constant -0.1444 : f32
    %pa = arith.mulf %a, %sq : f32
    %half = arith.constant 0.5 : f32
    %p = arith.addf %pa, %half : f32
    %sp = arith.mulf %sgn, %p : f32
    %f = arith.addf %sp, %half : f32
    %r = arith.mulf %x, %f : f32""",
            "x (sgn(x) (-0.1444 (clip(|0.7071 x|, max = 1.769) - 1.769)^2 + 0.5) + 0.5), "
            "sgn(x) = (x + 1e-12) / |x + 1e-12|"),
    Generic("fused_bias_leaky_relu", ("x", "bias"), f"""
    %s = arith.addf %x, %bias : f32
    %neg = arith.constant 0.2 : f32
    %scale = arith.constant {SQRT2} : f32
    %pos = arith.cmpf oge, %s, %zero : f32
    %below = arith.mulf %s, %neg : f32
    %v = arith.select %pos, %s, %below : f32
    %r = arith.mulf %v, %scale : f32""",
            "s = x + bias; s >= 0 ? s scale : s negative_slope scale",
            attrs=(("negative_slope", "0.2"), ("scale", SQRT2))),
    Generic("fused_bias_leaky_relu_grad", ("y_grad", "features"), f"""
    %neg = arith.constant 0.2 : f32
    %scale = arith.constant {SQRT2} : f32
    %pos = arith.cmpf ogt, %features, %zero : f32
    %below = arith.mulf %y_grad, %neg : f32
    %v = arith.select %pos, %y_grad, %below : f32
    %r = arith.mulf %v, %scale : f32""",
            "scale y_grad (features > 0 ? 1 : negative_slope)",
            attrs=(("negative_slope", "0.2"), ("scale", SQRT2))),
    Generic("heaviside", ("input", "values"), """
    %eq = arith.cmpf oeq, %input, %zero : f32
    %gt = arith.cmpf ogt, %input, %zero : f32
    %step = arith.select %gt, %one, %zero : f32
    %r = arith.select %eq, %values, %step : f32""",
            "input < 0: 0; input == 0: values; input > 0: 1 (same shapes)", tolerance=None),
    Generic("prelu", ("x", "weight"), """
    %p = arith.cmpf ogt, %x, %zero : f32
    %m = arith.mulf %x, %weight : f32
    %r = arith.select %p, %x, %m : f32""",
            "x > 0: x; else weight[c] * x, c the channel (x's dim 1) of the element; a weight "
            "of one element applies to every channel", tolerance=None),
    Generic("prelu_grad_update", ("grads", "features", "weights"), """
    %p = arith.cmpf ogt, %features, %zero : f32
    %wg = arith.mulf %weights, %grads : f32
    %dx = arith.select %p, %grads, %wg : f32
    %xg = arith.mulf %features, %grads : f32
    %update = arith.select %p, %zero, %xg : f32""",
            "dx = features > 0 ? grads : weights[c] * grads; update = features > 0 ? 0 : "
            "features * grads; c the channel (features' dim 1) of the element",
            tolerance=None, results=("dx", "update")),
    Generic("softsign_grad", ("gradients", "features"), """
    %a = math.absf %features : f32
    %d = arith.addf %a, %one : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.divf %gradients, %d2 : f32""", "gradients / (1 + |features|)^2"),
    Generic("threshold_step", ("x",), """
    %gt = arith.cmpf ogt, %x, %zero : f32
    %r = arith.select %gt, %one, %zero : f32""",
            "x > threshold ? 1 : 0 (threshold 0)", tolerance=None,
            attrs=(("threshold", "0.0"),)),
    Generic("silu_mul", ("x", "y"), """
    %nx = arith.negf %x : f32
    %e = math.exp %nx : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %x, %d : f32
    %r = arith.mulf %s, %y : f32""", "silu(x) y (same shapes)"),
    Generic("erfinv_giles", ("x",), """
    %omx = arith.subf %one, %x : f32
    %opx = arith.addf %one, %x : f32
    %pr = arith.mulf %omx, %opx : f32
    %lg = math.log %pr : f32
    %w = arith.negf %lg : f32
    %five = arith.constant 5.0 : f32
    %central = arith.cmpf olt, %w, %five : f32
    %c25 = arith.constant 2.5 : f32
    %wa = arith.subf %w, %c25 : f32
    %a8 = arith.constant 2.81022636e-08 : f32
    %a7 = arith.constant 3.43273939e-07 : f32
    %a6 = arith.constant -3.5233877e-06 : f32
    %a5 = arith.constant -4.39150654e-06 : f32
    %a4 = arith.constant 0.00021858087 : f32
    %a3 = arith.constant -0.00125372503 : f32
    %a2 = arith.constant -0.00417768164 : f32
    %a1 = arith.constant 0.246640727 : f32
    %a0 = arith.constant 1.50140941 : f32
    %pa1 = arith.mulf %a8, %wa : f32
    %qa1 = arith.addf %a7, %pa1 : f32
    %pa2 = arith.mulf %qa1, %wa : f32
    %qa2 = arith.addf %a6, %pa2 : f32
    %pa3 = arith.mulf %qa2, %wa : f32
    %qa3 = arith.addf %a5, %pa3 : f32
    %pa4 = arith.mulf %qa3, %wa : f32
    %qa4 = arith.addf %a4, %pa4 : f32
    %pa5 = arith.mulf %qa4, %wa : f32
    %qa5 = arith.addf %a3, %pa5 : f32
    %pa6 = arith.mulf %qa5, %wa : f32
    %qa6 = arith.addf %a2, %pa6 : f32
    %pa7 = arith.mulf %qa6, %wa : f32
    %qa7 = arith.addf %a1, %pa7 : f32
    %pa8 = arith.mulf %qa7, %wa : f32
    %qa8 = arith.addf %a0, %pa8 : f32
    %sw = math.sqrt %w : f32
    %c3 = arith.constant 3.0 : f32
    %wb = arith.subf %sw, %c3 : f32
    %b8 = arith.constant -0.000200214257 : f32
    %b7 = arith.constant 0.000100950558 : f32
    %b6 = arith.constant 0.00134934322 : f32
    %b5 = arith.constant -0.00367342844 : f32
    %b4 = arith.constant 0.00573950773 : f32
    %b3 = arith.constant -0.0076224613 : f32
    %b2 = arith.constant 0.00943887047 : f32
    %b1 = arith.constant 1.00167406 : f32
    %b0 = arith.constant 2.83297682 : f32
    %pb1 = arith.mulf %b8, %wb : f32
    %qb1 = arith.addf %b7, %pb1 : f32
    %pb2 = arith.mulf %qb1, %wb : f32
    %qb2 = arith.addf %b6, %pb2 : f32
    %pb3 = arith.mulf %qb2, %wb : f32
    %qb3 = arith.addf %b5, %pb3 : f32
    %pb4 = arith.mulf %qb3, %wb : f32
    %qb4 = arith.addf %b4, %pb4 : f32
    %pb5 = arith.mulf %qb4, %wb : f32
    %qb5 = arith.addf %b3, %pb5 : f32
    %pb6 = arith.mulf %qb5, %wb : f32
    %qb6 = arith.addf %b2, %pb6 : f32
    %pb7 = arith.mulf %qb6, %wb : f32
    %qb7 = arith.addf %b1, %pb7 : f32
    %pb8 = arith.mulf %qb7, %wb : f32
    %qb8 = arith.addf %b0, %pb8 : f32
    %p = arith.select %central, %qa8, %qb8 : f32
    %px = arith.mulf %p, %x : f32
    %ax = math.absf %x : f32
    %end = arith.cmpf oeq, %ax, %one : f32
    %pole = arith.divf %x, %zero : f32
    %r = arith.select %end, %pole, %px : f32""",
            "erf^-1(x), by Giles' single-precision polynomials (\"Approximating the erfinv "
            "function\", GPU Computing Gems, 2011): w = -log((1 - x)(1 + x)), one polynomial "
            "in w - 2.5 below 5, one in sqrt(w) - 3 above; +-inf at x = +-1 (torch.erfinv's "
            "poles; the tail polynomial's leading coefficient is negative, so Giles' form alone "
            "gives -inf at x = 1)"),
)}
"""By spec name (hswc.checker.sweep maps folders to them)."""

_TYPES = {"f16": "f16", "bf16": "bf16", "f32": "f32"}


def _function(g: Generic, dtype: str, rank: int = 1) -> str:
    """The generic's function for `dtype` on tensors of `rank` dims (1, or 2: [rows, L])."""
    t = f"tensor<{'?x' * rank}{dtype}>"
    n, k = len(g.inputs), len(g.results)
    dims = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    parallel = ", ".join(['"parallel"'] * rank)
    wide = dtype != "f32"
    args = ", ".join(f"%{argument(name)}: {t}" for name in g.inputs)
    block = ", ".join(f"%{name}{'_e' if wide else ''}: {dtype}" for name in g.inputs)
    outs = ", ".join(f"%out{i}: {dtype}" for i in range(k))
    types = ", ".join([t] * k) if k == 1 else f"({', '.join([t] * k)})"
    y = "%y" if k == 1 else f"%y:{k}"
    inits = ", ".join(["%init"] * k)
    lines = [f"func.func @{g.name}_{dtype}({args}) -> {types} {{",
             *(f"  %c{i} = arith.constant {i} : index" for i in range(rank)),
             *(f"  %n{i} = tensor.dim %{g.inputs[0]}_in, %c{i} : {t}" for i in range(rank)),
             f"  %init = tensor.empty({', '.join(f'%n{i}' for i in range(rank))}) : {t}",
             f"  {y} = linalg.generic {{indexing_maps = [{', '.join([identity] * (n + k))}], "
             f"iterator_types = [{parallel}]}} ins({', '.join(f'%{i}_in' for i in g.inputs)} "
             f": {', '.join([t] * n)}) outs({inits} : {', '.join([t] * k)}) {{",
             f"  ^bb0({block}, {outs}):"]
    if wide:
        lines += [f"    %{name} = arith.extf %{name}_e : {dtype} to f32" for name in g.inputs]
    lines += ["    %zero = arith.constant 0.0 : f32", "    %one = arith.constant 1.0 : f32"]
    lines += [line for line in g.body.strip("\n").splitlines()]
    if wide:
        lines += [f"    %{r}_n = arith.truncf %{r} : f32 to {dtype}" for r in g.results]
        yielded = ", ".join(f"%{r}_n" for r in g.results)
    else:
        yielded = ", ".join(f"%{r}" for r in g.results)
    lines.append(f"    linalg.yield {yielded} : {', '.join([dtype] * k)}")
    returned = "%y" if k == 1 else ", ".join(f"%y#{i}" for i in range(k))
    lines += [f"  }} -> {types}", f"  func.return {returned} : {', '.join([t] * k)}", "}"]
    return "\n".join(lines)


def argument(name: str) -> str:
    """The module's name of the definition's input `name` (its functions' argument)."""
    return f"{name}_in"


def module_text(name: str, dtypes: tuple[str, ...] = DTYPES, rank: int = 1) -> str:
    """The module of GENERICS[name]: one function per dtype (`@<name>_<dtype>`), on tensors of
    `rank` dims."""
    g = GENERICS[name]
    return "\n\n".join(_function(g, _TYPES[d], rank) for d in dtypes) + "\n"
