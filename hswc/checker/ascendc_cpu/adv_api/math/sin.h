// adv_api/math/sin.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_MATH_SIN_H
#define ASCENDC_CPU_ADV_API_MATH_SIN_H
#include "../../kernel_operator.h"
#endif
