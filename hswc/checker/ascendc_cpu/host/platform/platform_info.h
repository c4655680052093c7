// platform/platform_info.h - forwards to the CPU model of the tiling context (hswc_host/all.h);
// it includes platform_info_def.h, as the real header does (CANN runtime pkg_inc/platform/
// platform_info.h:18).
#ifndef HSWC_FWD_PLATFORM_PLATFORM_INFO_H
#define HSWC_FWD_PLATFORM_PLATFORM_INFO_H
#include "../hswc_host/all.h"
#include "platform_info_def.h"
#endif
