// platform/platform_infos_def.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_PLATFORM_PLATFORM_INFOS_DEF_H
#define HSWC_FWD_PLATFORM_PLATFORM_INFOS_DEF_H
#include "../hswc_host/all.h"
#endif
