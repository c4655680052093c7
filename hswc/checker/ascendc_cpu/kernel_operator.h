// kernel_operator.h - CPU model of the AscendC kernel API subset used by
// hswc's kernels and ops-nn's elementwise kernels (see README.md).
//
// Include this instead of the device header and compile with any C++17
// compiler:  g++ -std=c++17 -I hswc/checker/ascendc_cpu ...
// The model runs one AI vector core at a time (ascendc_cpu::BeginBlock /
// EndBlock, driven by harness.cpp) and turns every rule violation into one
// line "ascendc_cpu: <API>: <rule>" on stderr and exit status 3.
#ifndef ASCENDC_CPU_KERNEL_OPERATOR_H
#define ASCENDC_CPU_KERNEL_OPERATOR_H

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc_cpu_atomic.h"
#include "ascendc_cpu_copy.h"
#include "ascendc_cpu_cores.h"
#include "ascendc_cpu_ctrl.h"
#include "ascendc_cpu_debug.h"
#include "ascendc_cpu_float.h"
#include "ascendc_cpu_macros.h"
#include "ascendc_cpu_pipe.h"
#include "ascendc_cpu_bufpool.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_scalar.h"
#include "ascendc_cpu_scalar_bits.h"
#include "ascendc_cpu_sync.h"
#include "ascendc_cpu_tensor.h"
#include "ascendc_cpu_micro.h"
#include "ascendc_cpu_micro_reduce.h"
#include "ascendc_cpu_micro_reduce_names.h"
#include "ascendc_cpu_micro_mask.h"
#include "ascendc_cpu_micro_gather.h"
#include "ascendc_cpu_micro_bits.h"
#include "ascendc_cpu_micro_int64.h"
#include "ascendc_cpu_vector.h"
#include "ascendc_cpu_adv_reduce.h"

// Function qualifiers of the device compiler: nothing on the CPU.
#ifndef __global__
#define __global__
#endif
/// A kernel for the vector cores only (asc-devkit's .asc examples: `__vector__ __global__`).
#ifndef __vector__
#define __vector__
#endif

/// Kernel parameter type for GM addresses.
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

#endif  // ASCENDC_CPU_KERNEL_OPERATOR_H
