// exe_graph/runtime/runtime_attrs.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H
#define HSWC_FWD_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H
#include "../../hswc_host/all.h"
#endif
