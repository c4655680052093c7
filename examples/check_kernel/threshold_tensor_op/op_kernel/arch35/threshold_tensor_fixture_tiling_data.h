// threshold_tensor_fixture_tiling_data.h - the fixture's tiling struct, inside a namespace and
// named by the kernel and the tiling through an alias (as opbase's EleBaseTilingDataV2 is).
#ifndef THRESHOLD_TENSOR_FIXTURE_TILING_DATA_H
#define THRESHOLD_TENSOR_FIXTURE_TILING_DATA_H
#include <cstdint>

namespace checker_fixture {
struct ThresholdTensorFixtureTiling {
    int64_t totalNum;
    int64_t blockFactor;
};
using ThresholdTensorFixtureTilingData = ThresholdTensorFixtureTiling;
}  // namespace checker_fixture
#endif
