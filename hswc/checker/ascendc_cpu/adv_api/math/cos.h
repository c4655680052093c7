// adv_api/math/cos.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_MATH_COS_H
#define ASCENDC_CPU_ADV_API_MATH_COS_H
#include "../../kernel_operator.h"
#endif
