// exe_graph/runtime/tiling_parse_context.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H
#define HSWC_FWD_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H
#include "../../hswc_host/all.h"
#endif
