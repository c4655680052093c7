// platform/platform_info.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_PLATFORM_PLATFORM_INFO_H
#define HSWC_FWD_PLATFORM_PLATFORM_INFO_H
#include "../hswc_host/all.h"
#endif
