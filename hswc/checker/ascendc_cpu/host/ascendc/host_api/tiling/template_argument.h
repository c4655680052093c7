// ascendc/host_api/tiling/template_argument.h - forwards to the CPU model of the tiling context (hswc_host/all.h).
#ifndef HSWC_FWD_ASCENDC_HOST_API_TILING_TEMPLATE_ARGUMENT_H
#define HSWC_FWD_ASCENDC_HOST_API_TILING_TEMPLATE_ARGUMENT_H
#include "../../../hswc_host/all.h"
#endif
