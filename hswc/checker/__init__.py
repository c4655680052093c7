"""hswc-check-kernel: a hand-written AscendC kernel run against hswc's semantics, bit for bit.

The sources compile unchanged against hswc/checker/ascendc_cpu, the C++ CPU model of AscendC; every
run launches the kernel on each core with the given tiling, on generated or given inputs, and
its outputs are compared bit for bit with the reference (a named op's golden model, or a
module run by hswc's interpreter); every hardware rule the model saw broken is reported with
its AscendC call.

| module | job |
|---|---|
| `kernel_source` | finds the entry, its template and GM arguments, DTYPE_* macros, tiling fields |
| `expected` | the reference: `--op hsg.<op>` or `--reference FILE.mlir`, and its thresholds |
| `tiling_values` | fixed values and the tiling function; the struct's layout and bytes |
| `sizes` | the sizes around the tiling's tail and core boundaries |
| `inputs` | every f16/bf16 bit pattern, f32 around the thresholds, special values |
| `build` | the g++ builds of the harness, one per dtype; compile errors summarised |
| `run` | one run of the harness; its outputs, violations, crash or hang |
| `rules` | the model's violation lines, by kind of rule |
| `report` | per dtype and size, the first differences in hex, the rules, the verdict |
| `check` | `CheckOptions` -> `plan` -> `build_plans` -> `run_plan` -> `CheckReport` |
"""
