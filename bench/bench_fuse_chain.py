"""hsg-fuse-elementwise on long chains: the pass's time for chains of named ops (HardTanh,
HardSwishGrad, LeakyReLU in turn, each reading the previous result), decomposed first, with the
ratio to the previous length. Linear time gives a ratio equal to the length's.

    python bench/bench_fuse_chain.py [LENGTH ...]     # default 200 1000 4000
"""

from __future__ import annotations

import sys
import time

from xdsl.context import Context
from xdsl.parser import Parser

from hswc.passes.hsg_decompose import HsgDecomposePass
from hswc.passes.hsg_fuse_elementwise import HsgFuseElementwisePass
from hswc.pipeline import DIALECTS

OPS = ("hsg.hardtanh {}", "hsg.hard_swish_grad %g, {}", "hsg.leaky_relu {}")


def chain(length: int) -> str:
    lines = ["func.func @chain(%g: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {"]
    previous = "%x"
    for k in range(length):
        lines.append(f"  %s{k} = " + OPS[k % len(OPS)].format(previous) + " : tensor<?xf16>")
        previous = f"%s{k}"
    lines += [f"  func.return {previous} : tensor<?xf16>", "}"]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    lengths = [int(a) for a in argv[1:]] or [200, 1000, 4000]
    ctx = Context()
    for name, load in DIALECTS.items():
        ctx.register_dialect(name, load)
    print("| chain (named ops) | body ops fused | fusion time | ratio |")
    print("|---|---|---|---|")
    previous: tuple[int, float] | None = None
    for length in lengths:
        module = Parser(ctx, chain(length)).parse_module()
        HsgDecomposePass().apply(ctx, module)
        start = time.perf_counter()
        HsgFuseElementwisePass().apply(ctx, module)
        seconds = time.perf_counter() - start
        generics = [op for op in module.walk() if op.name == "linalg.generic"]
        assert len(generics) == 1
        body = sum(1 for _ in generics[0].regions[0].block.ops) - 1  # type: ignore[attr-defined]
        ratio = "" if previous is None else \
            f"{seconds / previous[1]:.1f}x for {length / previous[0]:.0f}x the ops"
        print(f"| {length} | {body} | {seconds:.2f} s | {ratio} |", flush=True)
        previous = (length, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
