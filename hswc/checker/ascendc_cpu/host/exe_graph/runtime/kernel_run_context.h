// exe_graph/runtime/kernel_run_context.h - forwards to the CPU model of the tiling context
// (hswc_host/all.h). metadef's header declares KernelRunContext, which the tilings checked so far
// include without using (ops-nn's swi_glu_grad_tiling_regbase.cpp, linked with swi_glu's); a
// tiling that uses it does not compile, naming it.
#ifndef HSWC_FWD_EXE_GRAPH_RUNTIME_KERNEL_RUN_CONTEXT_H
#define HSWC_FWD_EXE_GRAPH_RUNTIME_KERNEL_RUN_CONTEXT_H
#include "../../hswc_host/all.h"
#endif
