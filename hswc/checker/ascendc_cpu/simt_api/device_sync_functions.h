// simt_api/device_sync_functions.h - not modelled: the model runs a SIMT VF's threads one after another
// (../ascendc_cpu_simt.h), which is the hardware's result only for threads that share no data;
// these functions are how threads share it.
#include "../ascendc_cpu_simt.h"

static_assert(sizeof(char) == 0,
    "ascendc_cpu: SIMT is not modelled: simt_api/device_sync_functions.h (threads that share data) is not modelled; "
    "the CPU model runs a SIMT VF's threads one after another");
