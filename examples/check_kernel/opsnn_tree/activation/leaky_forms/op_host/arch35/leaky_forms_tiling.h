// leaky_forms_tiling.h - the fixture's tiling data in register/tilingdata_base.h's forms: a
// nested tiling-data class (TILING_DATA_FIELD_DEF_STRUCT) and an array whose size is a constant
// (TILING_DATA_FIELD_DEF_ARR), as ops-nn's silu_grad declares its dims. Its bytes are laid out
// as op_kernel/arch35/leaky_forms_tiling_data.h's struct: totalNum, the split {blockFactor,
// ubFactor} at 8, negativeSlope at 24, the flag at 28, dims at 32 (8-aligned), 48 bytes in all.
#ifndef LEAKY_FORMS_TILING_H
#define LEAKY_FORMS_TILING_H
#include "register/tilingdata_base.h"
#include "../op_kernel/arch35/leaky_forms_dag.h"

namespace optiling {

BEGIN_TILING_DATA_DEF(LeakyFormsSplit)
TILING_DATA_FIELD_DEF(int64_t, blockFactor);
TILING_DATA_FIELD_DEF(int64_t, ubFactor);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LeakyFormsTilingData)
TILING_DATA_FIELD_DEF(int64_t, totalNum);
TILING_DATA_FIELD_DEF_STRUCT(LeakyFormsSplit, split);
TILING_DATA_FIELD_DEF(float, negativeSlope);
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF_ARR(int64_t, LeakyFormsDag::MAX_DIMS, dims);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyForms, LeakyFormsTilingData);

}  // namespace optiling
#endif
