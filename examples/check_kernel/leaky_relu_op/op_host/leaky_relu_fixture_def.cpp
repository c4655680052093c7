// leaky_relu_fixture_def.cpp - the op definition of hswc-check-kernel's op-folder fixture, in
// ops-nn's OpDef style: one input, one output, the slope (with a default) and an attribute the
// tiling never reads; kernels for ascend950 (opFile leaky_relu_fixture_apt) and ascend910b.
#include "register/op_def_registry.h"

namespace ops {
class LeakyReluFixture : public OpDef {
public:
    explicit LeakyReluFixture(const char* name) : OpDef(name)
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
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.25f);
        this->Attr("unread_knob").AttrType(OPTIONAL).Int(0);

        OpAICoreConfig config950;
        config950.DynamicCompileStaticFlag(true).ExtendCfgInfo("opFile.value", "leaky_relu_fixture_apt");
        this->AICore().AddConfig("ascend950", config950);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LeakyReluFixture);
}  // namespace ops
