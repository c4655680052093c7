// fatrelu_mul_fixture_tiling_data.h - the gated fixture's tiling struct.
#ifndef FATRELU_MUL_FIXTURE_TILING_DATA_H
#define FATRELU_MUL_FIXTURE_TILING_DATA_H
#include <cstdint>

struct __attribute__((aligned(8))) FatreluMulFixtureTiling {
    int64_t rows = 0;
    int64_t half = 0;
    int64_t rowsPerCore = 0;
    int64_t groupNum = -1;
};

#endif
