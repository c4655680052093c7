// relu_mask_fixture_def.cpp - a fixture op with a mask output, as ops-nn's ReluV2 has (for
// test/test_check_kernel_masks.py): y = relu(x) and mask, DT_UINT1 (one bit per element, packed
// 8 to a byte), bit i = x_i > 0. Ascend 950 only.
#include "register/op_def_registry.h"

namespace ops {
class ReluMaskFixture : public OpDef {
public:
    explicit ReluMaskFixture(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_UINT1, ge::DT_UINT1, ge::DT_UINT1})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true);
        this->AICore().AddConfig("ascend950", config);
    }
};
OP_ADD(ReluMaskFixture);
}  // namespace ops
