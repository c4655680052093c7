// workspace_fixture.cpp - a kernel that passes x through its workspace, for hswc-check-kernel's
// tests of GetUserWorkspace: one core copies x into the user's workspace, then the workspace
// into y, element by element (GlobalTensor GetValue/SetValue), so y = x exactly when the
// workspace holds totalNum elements; the tiling function asks for it (`workspace`).
#include "kernel_operator.h"

using namespace AscendC;

struct WorkspaceFixtureTiling {
    int64_t totalNum = 0;
};

template <typename T>
__global__ __aicore__ void workspace_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(WorkspaceFixtureTiling, tilingData, tiling);
    GM_ADDR user = GetUserWorkspace(workspace);
    const uint64_t n = static_cast<uint64_t>(tilingData.totalNum);
    GlobalTensor<T> xGm;
    GlobalTensor<T> wsGm;
    GlobalTensor<T> yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    wsGm.SetGlobalBuffer((__gm__ T*)user, n);
    yGm.SetGlobalBuffer((__gm__ T*)y, n);
    for (uint64_t i = 0; i < n; ++i) {
        wsGm.SetValue(i, xGm.GetValue(i));
    }
    for (uint64_t i = 0; i < n; ++i) {
        yGm.SetValue(i, wsGm.GetValue(i));
    }
}
