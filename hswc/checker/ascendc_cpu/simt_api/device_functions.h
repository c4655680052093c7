// simt_api/device_functions.h - the SIMT launch (../ascendc_cpu_simt.h); the device functions
// themselves (__float2float_rn, __float2uint_rz, ...) are not modelled: a kernel calling one does
// not compile (they are not declared).
#include "../ascendc_cpu_simt.h"
