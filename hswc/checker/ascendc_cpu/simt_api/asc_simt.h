// simt_api/asc_simt.h - the SIMT API of Ascend 950 as the CPU model has it (../ascendc_cpu_simt.h):
// what asc-devkit's include/simt_api/asc_simt.h includes.
#include "common_functions.h"
#include "math_functions.h"
#include "device_functions.h"
