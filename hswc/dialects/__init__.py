"""The dialects hswc defines: `hsg` (the operator) and `ascend` (the AscendC model)."""
