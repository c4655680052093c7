// adv_api/pad/broadcast.h - the CPU model (kernel_operator.h) and its UB Broadcast with a
// BroadcastTiling (ascendc_cpu_broadcast.h, Ascend 950).
#ifndef ASCENDC_CPU_ADV_API_PAD_BROADCAST_H
#define ASCENDC_CPU_ADV_API_PAD_BROADCAST_H
#include "../../kernel_operator.h"
#include "../../ascendc_cpu_broadcast.h"
#endif
