// adv_api/reduce/reduce.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_REDUCE_REDUCE_H
#define ASCENDC_CPU_ADV_API_REDUCE_REDUCE_H
#include "../../kernel_operator.h"
#endif
