// leaky_grad_optional_def.cpp - a fixture op with an optional input the reference does not take
// (examples/check_kernel/opsnn_tree, test/test_check_kernel_op_dir_forms.py), as ops-nn's
// MishGrad has tanhx beside grad and x: LeakyReluGrad of (dy, x) with `scale`
// .ParamType(OPTIONAL), which hsg.leaky_relu_grad has no counterpart for, so that the check
// leaves it out as the framework does when the caller omits it.
#include "register/op_def_registry.h"

namespace ops {
class LeakyGradOptional : public OpDef {
public:
    explicit LeakyGradOptional(const char* name) : OpDef(name)
    {
        this->Input("dy")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("scale")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.125f);

        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true).ExtendCfgInfo("opFile.value", "leaky_grad_optional_apt");
        this->AICore().AddConfig("ascend950", config);
    }
};
OP_ADD(LeakyGradOptional);
}  // namespace ops
