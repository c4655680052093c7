// leaky_ut_variant_tiling_data.h - the fixture's tiling data, shared by its tiling and kernel.
#ifndef LEAKY_UT_VARIANT_TILING_DATA_H
#define LEAKY_UT_VARIANT_TILING_DATA_H
#include <cstdint>

struct LeakyUtVariantTiling {
    int64_t totalNum;
    int64_t blockFactor;
    int64_t ubFactor;
    float negativeSlope;
};

#endif
