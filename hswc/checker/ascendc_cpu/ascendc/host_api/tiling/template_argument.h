// CPU model: the tiling-key template-argument declarations (ASCENDC_TPL_ARGS_DECL /
// ASCENDC_TPL_SEL) only choose which schMode instantiations a device build compiles. The CPU
// build instantiates what the harness calls, so they are no-ops here.
#ifndef ASCENDC_CPU_TEMPLATE_ARGUMENT_H
#define ASCENDC_CPU_TEMPLATE_ARGUMENT_H

#define ASCENDC_TPL_ARGS_DECL(...) static_assert(true, "ASCENDC_TPL_ARGS_DECL")
#define ASCENDC_TPL_SEL(...) static_assert(true, "ASCENDC_TPL_SEL")

#endif  // ASCENDC_CPU_TEMPLATE_ARGUMENT_H
