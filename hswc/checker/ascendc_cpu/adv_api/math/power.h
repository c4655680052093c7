// adv_api/math/power.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_MATH_POWER_H
#define ASCENDC_CPU_ADV_API_MATH_POWER_H
#include "../../kernel_operator.h"
#endif
