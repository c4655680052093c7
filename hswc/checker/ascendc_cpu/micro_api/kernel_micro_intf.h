// micro_api/kernel_micro_intf.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_MICRO_API_KERNEL_MICRO_INTF_H
#define ASCENDC_CPU_MICRO_API_KERNEL_MICRO_INTF_H
#include "../kernel_operator.h"
#endif
