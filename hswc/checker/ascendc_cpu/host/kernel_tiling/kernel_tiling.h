// kernel_tiling/kernel_tiling.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
// CANN's header holds the advanced APIs' tiling structures, which a host tiling fills for the
// kernel; the tilings the checker builds (ops-nn's arch35 softmax_v2's) include it for none of them.
#ifndef HSWC_FWD_KERNEL_TILING_KERNEL_TILING_H
#define HSWC_FWD_KERNEL_TILING_KERNEL_TILING_H
#include "../hswc_host/all.h"
#endif
