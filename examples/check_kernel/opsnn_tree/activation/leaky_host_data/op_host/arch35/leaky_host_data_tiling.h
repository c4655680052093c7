// leaky_host_data_tiling.h - the fixture's tiling data, declared on the host only: metadef's
// layout puts totalNum, blockFactor, ubFactor at 0, 8, 16, negativeSlope at 24, flag (2 bytes)
// at 28 and marks (3 int32) at 32, after 2 bytes of padding, and pads the whole to 48 bytes.
// END_TILING_DATA_DEF and REGISTER_TILING_DATA_CLASS without their `;`, as ops-nn's ge_glu_grad_v2
// and hard_swish_grad_v2 write them.
#ifndef LEAKY_HOST_DATA_TILING_H
#define LEAKY_HOST_DATA_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {

BEGIN_TILING_DATA_DEF(LeakyHostDataTilingData)
TILING_DATA_FIELD_DEF(int64_t, totalNum);
TILING_DATA_FIELD_DEF(int64_t, blockFactor);
TILING_DATA_FIELD_DEF(int64_t, ubFactor);
TILING_DATA_FIELD_DEF(float, negativeSlope);
TILING_DATA_FIELD_DEF(uint16_t, flag);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, marks);
END_TILING_DATA_DEF

REGISTER_TILING_DATA_CLASS(LeakyHostData, LeakyHostDataTilingData)

// A class for one tiling key (metadef's OpType_<key> form, as ops-nn's SoftmaxV2 registers
// five): the kernel build generates it too, though this tiling never writes it.
BEGIN_TILING_DATA_DEF(LeakyHostDataKeyTilingData)
TILING_DATA_FIELD_DEF(int64_t, keyOnly);
END_TILING_DATA_DEF

REGISTER_TILING_DATA_CLASS(LeakyHostData_500, LeakyHostDataKeyTilingData)
}  // namespace optiling
#endif
