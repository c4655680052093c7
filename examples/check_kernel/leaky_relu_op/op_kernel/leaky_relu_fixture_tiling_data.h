// leaky_relu_fixture_tiling_data.h - the fixture's tiling struct, declared as ops-nn's are, with
// an alignment attribute between `struct` and its name.
#ifndef LEAKY_RELU_FIXTURE_TILING_DATA_H
#define LEAKY_RELU_FIXTURE_TILING_DATA_H
#include <cstdint>

struct __attribute__((aligned(8))) LeakyReluFixtureTiling {
    int64_t totalNum = 0;
    int64_t blockFactor = 0;
    int64_t ubFactor = 0;  // a multiple of 128
    float negativeSlope = 0.01f;
};

#endif
