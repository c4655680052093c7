// relu_grad_mask_fixture_tiling_data.h - the fixture's tiling data, shared by its tiling and
// kernel.
#ifndef RELU_GRAD_MASK_FIXTURE_TILING_DATA_H
#define RELU_GRAD_MASK_FIXTURE_TILING_DATA_H
#include <cstdint>

struct ReluGradMaskFixtureTiling {
    int64_t totalNum;
    int64_t blockFactor;  ///< a multiple of 256: every core's mask starts at a whole byte
    int64_t ubFactor;     ///< elements per chunk, a multiple of 256
    uint32_t maskSeen;    ///< the tiling saw the mask as DT_UINT1 of the gradients' shape
};

#endif
