// leaky_host_data_def.cpp - a fixture op whose tiling data class exists only on the host
// (examples/check_kernel/opsnn_tree, test/test_check_kernel_op_dir_forms.py), as ops-nn's
// activation/sigmoid's: the kernel says GET_TILING_DATA and names LeakyHostDataTilingData, which
// only op_host/arch35/leaky_host_data_tiling.h declares (BEGIN_TILING_DATA_DEF,
// REGISTER_TILING_DATA_CLASS); CANN's kernel build generates the kernel's struct from it.
#include "register/op_def_registry.h"

namespace ops {
class LeakyHostData : public OpDef {
public:
    explicit LeakyHostData(const char* name) : OpDef(name)
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
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.25f);

        OpAICoreConfig config;
        config.DynamicCompileStaticFlag(true).ExtendCfgInfo("opFile.value", "leaky_host_data_apt");
        this->AICore().AddConfig("ascend950", config);
    }
};
OP_ADD(LeakyHostData);
}  // namespace ops
