// copy_float8_kernel.cpp - a GM-only kernel copying 256 fp8_e4m3fn_t and 256 fp8_e8m0_t through
// the UB (DataCopy in, DataCopy out), for test/test_check_kernel_float8_gm.py: the checker's
// harness passes 8-bit float GM tensors to a kernel and reads them back bit for bit.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__aicore__ inline void CopyThrough(TPipe& pipe, GM_ADDR in, GM_ADDR out)
{
    GlobalTensor<T> src, dst;
    src.SetGlobalBuffer((__gm__ T*)in, 256);
    dst.SetGlobalBuffer((__gm__ T*)out, 256);
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, 256);
    LocalTensor<T> u = que.AllocTensor<T>();
    DataCopy(u, src, 256);
    que.EnQue(u);
    u = que.DeQue<T>();
    DataCopy(dst, u, 256);
    que.FreeTensor(u);
}

extern "C" __global__ __aicore__ void copy8(GM_ADDR y, GM_ADDR scale, GM_ADDR yOut, GM_ADDR scaleOut)
{
    TPipe pipe;
    CopyThrough<fp8_e4m3fn_t>(pipe, y, yOut);
    pipe.Reset();
    CopyThrough<fp8_e8m0_t>(pipe, scale, scaleOut);
}
