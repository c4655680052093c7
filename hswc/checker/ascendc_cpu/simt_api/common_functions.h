// simt_api/common_functions.h - SIMT is not modelled: see ../ascendc_cpu_simt.h.
#include "../ascendc_cpu_simt.h"
