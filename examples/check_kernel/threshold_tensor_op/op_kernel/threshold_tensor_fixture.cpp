// threshold_tensor_fixture.cpp - the fixture's Ascend 950 kernel: y = x <= threshold ? value : x
// (PyTorch's threshold), threshold and value read from one-element GM tensors. Written the
// way opbase's ATVOSS schedules are: static UB tensors at fixed addresses, pipes ordered by
// Mutex Lock/Unlock, the compute in MicroAPI registers. -DFIXTURE_NO_VECTOR_LOCK drops the
// vector pipe's locks (the seeded mistake: V then races MTE2 and MTE3).
#include "kernel_operator.h"
#include "arch35/threshold_tensor_fixture_tiling_data.h"

using namespace AscendC;
using namespace checker_fixture;

namespace {
constexpr uint32_t TILE = 4096;

template <typename T>
__aicore__ inline void Compute(__ubuf__ T* x, __ubuf__ T* y, T threshold, T value, uint32_t count)
{
    constexpr uint32_t lanes = VECTOR_REG_WIDTH / sizeof(T);
    const uint16_t loops = static_cast<uint16_t>((count + lanes - 1) / lanes);
    MicroAPI::RegTensor<T> in, out, th, val;
    MicroAPI::MaskReg mask, below;
    __VEC_SCOPE__
    {
        MicroAPI::Duplicate(th, threshold);
        MicroAPI::Duplicate(val, value);
        for (uint16_t i = 0; i < loops; ++i) {
            mask = MicroAPI::UpdateMask<T>(count);
            MicroAPI::LoadAlign(in, x + i * lanes);
            MicroAPI::Compare<T, CMPMODE::LE>(below, in, th, mask);
            MicroAPI::Select(out, val, in, below);
            MicroAPI::StoreAlign(y + i * lanes, out, mask);
        }
    }
}

template <typename T>
__aicore__ inline void Run(GM_ADDR xAddr, GM_ADDR thAddr, GM_ADDR valueAddr, GM_ADDR yAddr,
                           const ThresholdTensorFixtureTilingData& tiling)
{
    const int64_t start = GetBlockIdx() * tiling.blockFactor;
    const int64_t end = start + tiling.blockFactor < tiling.totalNum ? start + tiling.blockFactor : tiling.totalNum;
    GlobalTensor<T> x, th, value, y;
    x.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(xAddr), tiling.totalNum);
    y.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(yAddr), tiling.totalNum);
    th.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(thAddr), 1);
    value.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(valueAddr), 1);
    const T threshold = th.GetValue(0);
    const T replacement = value.GetValue(0);
    LocalTensor<T> in(TPosition::VECIN, 0, TILE);
    LocalTensor<T> out(TPosition::VECOUT, TILE * sizeof(T), TILE);
    for (int64_t offset = start; offset < end; offset += TILE) {
        const uint32_t n = static_cast<uint32_t>(end - offset < TILE ? end - offset : TILE);
        Mutex::Lock<PIPE_MTE2>(0);
        DataCopyPad(in, x[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        Mutex::Unlock<PIPE_MTE2>(0);
#ifndef FIXTURE_NO_VECTOR_LOCK
        Mutex::Lock<PIPE_V>(0);
        Mutex::Lock<PIPE_V>(1);
#endif
        Compute<T>(reinterpret_cast<__ubuf__ T*>(in.GetPhyAddr()), reinterpret_cast<__ubuf__ T*>(out.GetPhyAddr()),
                   threshold, replacement, n);
#ifndef FIXTURE_NO_VECTOR_LOCK
        Mutex::Unlock<PIPE_V>(1);
        Mutex::Unlock<PIPE_V>(0);
#endif
        Mutex::Lock<PIPE_MTE3>(1);
        DataCopyPad(y[offset], out, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        Mutex::Unlock<PIPE_MTE3>(1);
    }
}
}  // namespace

extern "C" __global__ __aicore__ void threshold_tensor_fixture(GM_ADDR x, GM_ADDR threshold, GM_ADDR value,
                                                               GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ThresholdTensorFixtureTilingData, tilingData, tiling);
    Run<DTYPE_X>(x, threshold, value, y, tilingData);
}
