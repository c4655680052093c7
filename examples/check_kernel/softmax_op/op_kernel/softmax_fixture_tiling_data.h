// softmax_fixture_tiling_data.h - the softmax fixture's tiling struct.
#ifndef SOFTMAX_FIXTURE_TILING_DATA_H
#define SOFTMAX_FIXTURE_TILING_DATA_H
#include <cstdint>

struct __attribute__((aligned(8))) SoftmaxFixtureTiling {
    int64_t rows = 0;
    int64_t length = 0;
    int64_t rowsPerCore = 0;
};

#endif
