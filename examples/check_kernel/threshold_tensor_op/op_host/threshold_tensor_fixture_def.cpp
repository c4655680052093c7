// threshold_tensor_fixture_def.cpp - an op definition in ops-nn's OpDef style whose attributes
// come as one-element tensors of x's dtype, as ThresholdV2's threshold and value do: inputs x,
// threshold, value; output y; a kernel for ascend950 only.
#include "register/op_def_registry.h"

namespace ops {
class ThresholdTensorFixture : public OpDef {
public:
    explicit ThresholdTensorFixture(const char* name) : OpDef(name)
    {
        for (const char* input : {"x", "threshold", "value"}) {
            this->Input(input)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND})
                .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        OpAICoreConfig config950;
        config950.DynamicCompileStaticFlag(true);
        this->AICore().AddConfig("ascend950", config950);
    }
};
OP_ADD(ThresholdTensorFixture);
}  // namespace ops
