// log/log.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_LOG_LOG_H
#define HSWC_FWD_LOG_LOG_H
#include "../hswc_host/all.h"
#endif
