"""Platform facts: the one place that knows what an Ascend SoC has.

Passes, the interpreter, the printer and the benchmarks read these; none of them
spells a core count or a UB size of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

UB_BLOCK_BYTES = 32
"""The unified buffer's block: UB addresses and DataCopy lengths are multiples of it."""

VECTOR_REPEAT_BYTES = 256
"""One vector instruction repeat handles 256 bytes (64 f32 or 128 f16/bf16 lanes)."""

SELECT_TMP_BYTES = 8 * 1024
"""UB that Select's tensor-scalar and tensor-tensor modes need as temporary space."""


@dataclass(frozen=True)
class Platform:
    """One Ascend SoC as the host tiling sees it."""

    name: str
    core_num: int
    """Vector (AIV) cores: GetCoreNumAiv()."""
    ub_size: int
    """Unified buffer bytes per AIV core: GetCoreMemSize(UB)."""
    supports_bf16: bool = True

    def with_overrides(self, core_num: int | None = None, ub_size: int | None = None) -> Platform:
        """The same SoC with the core count or UB size replaced (None keeps the SoC's)."""
        return Platform(
            self.name,
            self.core_num if core_num is None else core_num,
            self.ub_size if ub_size is None else ub_size,
            self.supports_bf16,
        )


PLATFORMS: dict[str, Platform] = {
    # Atlas A2 training series (910B1/B2): 24 AI cores, 48 AIV cores.
    "ascend910b": Platform("ascend910b", core_num=48, ub_size=196608),
    # Atlas A3 series.
    "ascend910_93": Platform("ascend910_93", core_num=48, ub_size=196608),
}

DEFAULT_SOC = "ascend910b"


def get_platform(name: str) -> Platform:
    """The named SoC; a ValueError that lists the known names otherwise."""
    try:
        return PLATFORMS[name]
    except KeyError:
        known = ", ".join(sorted(PLATFORMS))
        raise ValueError(f"unknown SoC '{name}' (known: {known})") from None
