// register/tilingdata_base.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_REGISTER_TILINGDATA_BASE_H
#define HSWC_FWD_REGISTER_TILINGDATA_BASE_H
#include "../hswc_host/all.h"
#endif
