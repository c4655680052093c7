// leaky_host_data_tiling_data.h - another kernel's struct of the same name (as ops-nn's
// experimental/activation/sigmoid has its A2 kernel's SigmoidTilingData beside the Ascend 950
// kernel that takes the generated one): leaky_host_data_apt.cpp does not include it, and the
// checker must not read its fields for that kernel.
#ifndef LEAKY_HOST_DATA_TILING_DATA_H
#define LEAKY_HOST_DATA_TILING_DATA_H
#include <cstdint>

struct LeakyHostDataTilingData {
    uint32_t smallCoreDataNum;
    uint32_t bigCoreDataNum;
};

#endif
