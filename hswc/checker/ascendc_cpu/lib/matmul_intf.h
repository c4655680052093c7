// lib/matmul_intf.h - compatibility shim: elementwise kernels include the
// device's matmul library header without using it; the CPU model has no
// matmul, so this only brings in the kernel API.
#ifndef ASCENDC_CPU_LIB_MATMUL_INTF_H
#define ASCENDC_CPU_LIB_MATMUL_INTF_H
#include "../kernel_operator.h"
#endif  // ASCENDC_CPU_LIB_MATMUL_INTF_H
