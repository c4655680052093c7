// confusion_softmax_grad_fixture_tiling_data.h - the row-generic fixture's tiling struct.
#ifndef CONFUSION_SOFTMAX_GRAD_FIXTURE_TILING_DATA_H
#define CONFUSION_SOFTMAX_GRAD_FIXTURE_TILING_DATA_H
#include <cstdint>

struct __attribute__((aligned(8))) ConfusionSoftmaxGradFixtureTiling {
    int64_t rows = 0;
    int64_t length = 0;
    int64_t rowsPerCore = 0;
};

#endif
