// kernel_tiling/kernel_tiling.h - compatibility shim for kernels that include
// the device's tiling header; the CPU model needs nothing from it.
#ifndef ASCENDC_CPU_KERNEL_TILING_H
#define ASCENDC_CPU_KERNEL_TILING_H
#include "../kernel_operator.h"
#endif  // ASCENDC_CPU_KERNEL_TILING_H
