// leaky_ut_variant_tiling_data.h - the fixture's tiling data, shared by its tiling and kernel;
// like many of ops-nn's, it takes int64_t from whatever was included before it.
#ifndef LEAKY_UT_VARIANT_TILING_DATA_H
#define LEAKY_UT_VARIANT_TILING_DATA_H

struct LeakyUtVariantTiling {
    int64_t totalNum;
    int64_t blockFactor;
    int64_t ubFactor;
    float negativeSlope;
};

#endif
