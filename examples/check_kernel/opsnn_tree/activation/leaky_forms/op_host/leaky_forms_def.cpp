// leaky_forms_def.cpp - the definition of a fixture op written with the forms ops-nn's op
// folders use (examples/check_kernel/opsnn_tree, test/test_check_kernel_op_dir_forms.py): the
// class is named LeakyFormsDef, so OP_ADD registers the definition as LeakyFormsDef, while the
// binary configuration (op_host/config/ascend950/leaky_forms_binary.json) and the tiling name
// the op LeakyForms, as ops-nn's experimental/activation/elu does with EluDef and Elu.
#include "register/op_def_registry.h"

namespace ops {
class LeakyFormsDef : public OpDef {
public:
    explicit LeakyFormsDef(const char* name) : OpDef(name)
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
        config.DynamicCompileStaticFlag(true).ExtendCfgInfo("opFile.value", "leaky_forms_apt");
        this->AICore().AddConfig("ascend950", config);
    }
};
OP_ADD(LeakyFormsDef);
}  // namespace ops
