// tiling/tiling_api.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_TILING_TILING_API_H
#define HSWC_FWD_TILING_TILING_API_H
#include "../hswc_host/all.h"
#endif
