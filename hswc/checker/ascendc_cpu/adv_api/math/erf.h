// adv_api/math/erf.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_MATH_ERF_H
#define ASCENDC_CPU_ADV_API_MATH_ERF_H
#include "../../kernel_operator.h"
#endif
