// platform/platform_info_def.h - forwards to the CPU model of the tiling context (hswc_host/all.h),
// with the real header's global `using std::vector;` (CANN runtime pkg_inc/platform/
// platform_info_def.h:21), which tilings that write `vector<int64_t>` unqualified rely on
// (ops-nn activation/softmax_grad/op_host/arch35/softmax_grad_tiling.h:232).
#ifndef HSWC_FWD_PLATFORM_PLATFORM_INFO_DEF_H
#define HSWC_FWD_PLATFORM_PLATFORM_INFO_DEF_H
#include <vector>
#include "../hswc_host/all.h"
using std::vector;
#endif
