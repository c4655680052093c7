// graph/operator.h - forwards to the CPU model of the tiling context (hswc_host/all.h). ops-nn's
// common/inc/error_util.h includes it for its log macros, which take an op's name; the
// model has no ge::Operator (a graph-building class no tiling calls).
#ifndef HSWC_FWD_GRAPH_OPERATOR_H
#define HSWC_FWD_GRAPH_OPERATOR_H
#include "../hswc_host/all.h"
#endif
