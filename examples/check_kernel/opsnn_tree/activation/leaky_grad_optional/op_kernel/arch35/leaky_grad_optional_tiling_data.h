// leaky_grad_optional_tiling_data.h - the fixture's tiling data, shared by its tiling and kernel.
#ifndef LEAKY_GRAD_OPTIONAL_TILING_DATA_H
#define LEAKY_GRAD_OPTIONAL_TILING_DATA_H
#include <cstdint>

struct LeakyGradOptionalTiling {
    int64_t totalNum;
    int64_t blockFactor;
    int64_t ubFactor;
    float negativeSlope;
    uint32_t absent;  ///< the tiling saw the optional input left out
};

#endif
