// simt_api/common_functions.h - asc_vf_call of a SIMT VF over a dim3 of threads, and the threads'
// built-in indices: ../ascendc_cpu_simt.h.
#include "../ascendc_cpu_simt.h"
