// softmax_fixture_def.cpp - the op definition of hswc-check-kernel's softmax op-folder fixture,
// in ops-nn's OpDef style (as activation/softmax_v2's): x and y of one shape, the reduced axes
// a ListInt attribute (default {-1}); a kernel for ascend910b.
#include "register/op_def_registry.h"

namespace ops {
class SoftmaxFixture : public OpDef {
public:
    explicit SoftmaxFixture(const char* name) : OpDef(name)
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
        this->Attr("axes").AttrType(OPTIONAL).ListInt({-1});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SoftmaxFixture);
}  // namespace ops
