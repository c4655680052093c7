// op_host/util/math_util.h - forwards to the CPU model of the tiling context (hswc_host/all.h): the
// spelling of opbase's op_common/op_host/util/math_util.h a tiling reaches through opbase's
// include/op_common (ops-nn's experimental relu_grad_v3), found here first so that opbase's
// header, which defines what the model defines, is not included beside the model's.
#ifndef HSWC_FWD_OP_HOST_UTIL_MATH_UTIL_H
#define HSWC_FWD_OP_HOST_UTIL_MATH_UTIL_H
#include "../../hswc_host/all.h"
#endif
