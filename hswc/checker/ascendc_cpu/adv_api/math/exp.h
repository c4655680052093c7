// adv_api/math/exp.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_MATH_EXP_H
#define ASCENDC_CPU_ADV_API_MATH_EXP_H
#include "../../kernel_operator.h"
#endif
