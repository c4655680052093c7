"""hswc: an xDSL compiler for HardSwishGrad on Ascend NPUs (Atlas A2/A3)."""
