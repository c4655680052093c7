// platform/soc_spec.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_PLATFORM_SOC_SPEC_H
#define HSWC_FWD_PLATFORM_SOC_SPEC_H
#include "../hswc_host/all.h"
#endif
