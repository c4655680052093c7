// graph/utils/type_utils.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_GRAPH_UTILS_TYPE_UTILS_H
#define HSWC_FWD_GRAPH_UTILS_TYPE_UTILS_H
#include "../../hswc_host/all.h"
#endif
