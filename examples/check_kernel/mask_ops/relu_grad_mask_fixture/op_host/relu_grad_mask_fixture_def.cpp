// relu_grad_mask_fixture_def.cpp - a fixture op with a mask input, as ops-nn's ReluGradV2 has
// (for test/test_check_kernel_masks.py): backprops = mask ? gradients : 0, the mask DT_UINT1
// (one bit per element, packed 8 to a byte) standing for x > 0. Ascend 950 only.
#include "register/op_def_registry.h"

namespace ops {
class ReluGradMaskFixture : public OpDef {
public:
    explicit ReluGradMaskFixture(const char* name) : OpDef(name)
    {
        this->Input("gradients")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_UINT1, ge::DT_UINT1, ge::DT_UINT1})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("backprops")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true);
        this->AICore().AddConfig("ascend950", config);
    }
};
OP_ADD(ReluGradMaskFixture);
}  // namespace ops
