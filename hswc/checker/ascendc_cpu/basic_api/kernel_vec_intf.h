// basic_api/kernel_vec_intf.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_BASIC_API_KERNEL_VEC_INTF_H
#define ASCENDC_CPU_BASIC_API_KERNEL_VEC_INTF_H
#include "../kernel_operator.h"
#endif
