// util/platform_util.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_UTIL_PLATFORM_UTIL_H
#define HSWC_FWD_UTIL_PLATFORM_UTIL_H
#include "../hswc_host/all.h"
#endif
