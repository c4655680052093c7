// adv_api/math/erfc.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_MATH_ERFC_H
#define ASCENDC_CPU_ADV_API_MATH_ERFC_H
#include "../../kernel_operator.h"
#endif
