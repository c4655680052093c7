// adv_api/pad/broadcast.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_PAD_BROADCAST_H
#define ASCENDC_CPU_ADV_API_PAD_BROADCAST_H
#include "../../kernel_operator.h"
#endif
