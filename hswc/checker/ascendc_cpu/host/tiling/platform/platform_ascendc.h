// tiling/platform/platform_ascendc.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_TILING_PLATFORM_PLATFORM_ASCENDC_H
#define HSWC_FWD_TILING_PLATFORM_PLATFORM_ASCENDC_H
#include "../../hswc_host/all.h"
#endif
