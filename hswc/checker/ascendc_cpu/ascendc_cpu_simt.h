// ascendc_cpu_simt.h - SIMT programming (asc-devkit's simt_api/: __simt_vf__ functions launched
// with asc_vf_call over threads) is not modelled: the CPU model runs the SIMD API only.
//
// Part of the AscendC CPU model (see README.md). Every simt_api/ header a kernel may include
// (asc_simt.h, common_functions.h, math_functions.h, device_*.h) includes this one, so such a
// kernel fails to compile with one line naming the reason,
//   ascendc_cpu: SIMT is not modelled: ...
// instead of a missing header. The SIMT function qualifiers are defined empty so that the kernel's
// declarations parse and that line leads the errors.
#ifndef ASCENDC_CPU_SIMT_H
#define ASCENDC_CPU_SIMT_H

#ifndef __simt_vf__
#define __simt_vf__
#endif
#ifndef __simt_callee__
#define __simt_callee__
#endif
#ifndef __launch_bounds__
#define __launch_bounds__(...)
#endif

static_assert(sizeof(char) == 0,
    "ascendc_cpu: SIMT is not modelled: SIMT kernels (simt_api/, __simt_vf__ functions) are not modelled; "
    "the CPU model runs the SIMD API only");

#endif  // ASCENDC_CPU_SIMT_H
