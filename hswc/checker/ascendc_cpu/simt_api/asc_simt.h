// simt_api/asc_simt.h - SIMT is not modelled: see ../ascendc_cpu_simt.h.
#include "../ascendc_cpu_simt.h"
