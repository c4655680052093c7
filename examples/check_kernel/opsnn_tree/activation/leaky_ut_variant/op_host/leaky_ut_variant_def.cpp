// leaky_ut_variant_def.cpp - a fixture op laid out as ops-nn's activation/hard_swish_grad_v2
// (examples/check_kernel/opsnn_tree, test/test_check_kernel_op_dir_forms.py): op_kernel/ and
// op_kernel/arch35/ each hold a kernel of the same name, op_kernel/CMakeLists.txt says the 950
// one is arch35's; that entry is a UT variant under #ifdef DTYPE_X (GET_TILING_DATA, its
// header leaving the tiling data out for the UT build to define) and a device template under
// #else, which the build launches. LeakyRelu.
#include "register/op_def_registry.h"

namespace ops {
class LeakyUtVariant : public OpDef {
public:
    explicit LeakyUtVariant(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.125f);

        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true);
        this->AICore().AddConfig("ascend910b", config);
        this->AICore().AddConfig("ascend950", config);
    }
};
OP_ADD(LeakyUtVariant);
}  // namespace ops
