// securec.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_SECUREC_H
#define HSWC_FWD_SECUREC_H
#include "../hswc_host/all.h"
#endif
