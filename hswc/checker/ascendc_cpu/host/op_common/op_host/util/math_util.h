// op_common/op_host/util/math_util.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_OP_COMMON_OP_HOST_UTIL_MATH_UTIL_H
#define HSWC_FWD_OP_COMMON_OP_HOST_UTIL_MATH_UTIL_H
#include "../../../hswc_host/all.h"
#endif
