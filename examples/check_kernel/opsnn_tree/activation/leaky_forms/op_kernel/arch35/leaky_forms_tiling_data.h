// leaky_forms_tiling_data.h - the kernel's view of the fixture's tiling data (the bytes
// op_host/arch35/leaky_forms_tiling.h's classes save).
#ifndef LEAKY_FORMS_TILING_DATA_H
#define LEAKY_FORMS_TILING_DATA_H
#include <cstdint>
#include "leaky_forms_dag.h"

struct LeakyFormsTiling {
    int64_t totalNum;
    int64_t blockFactor;
    int64_t ubFactor;
    float negativeSlope;
    uint8_t flag;
    int64_t dims[LeakyFormsDag::MAX_DIMS];
};

#endif
