// adv_api/activation/sigmoid.h - compatibility shim: forwards to the CPU model (kernel_operator.h).
#ifndef ASCENDC_CPU_ADV_API_ACTIVATION_SIGMOID_H
#define ASCENDC_CPU_ADV_API_ACTIVATION_SIGMOID_H
#include "../../kernel_operator.h"
#endif
