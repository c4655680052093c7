// adv_api/math/log.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_MATH_LOG_H
#define ASCENDC_CPU_ADV_API_MATH_LOG_H
#include "../../kernel_operator.h"
#endif
