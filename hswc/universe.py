"""The xdsl.universe entry point: lets plain `xdsl-opt` load hswc's dialects and passes."""

from xdsl.universe import Universe

from hswc.pipeline import DIALECTS, PASSES

HSWC_UNIVERSE = Universe(
    all_dialects={name: DIALECTS[name] for name in ("hsg", "ascend")},
    all_passes=PASSES,
)
