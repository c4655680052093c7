// softmax_fixture.cpp - the softmax fixture's kernel: per row of x [rows, L], read by DataCopyPad
// and widened to f32, its maximum m (ReduceMax), exp(x - m) (Adds, Exp), their sum s
// (ReduceSum) and y = exp(x - m) * (1 / s) (Muls), rounded once (CAST_RINT). With
// -DSEEDED_NO_MAX it leaves the maximum out (exp(x) / sum(exp(x)): the same function where
// nothing overflows), which the checker must report where exp(x) overflows.
#include "kernel_operator.h"
#include "softmax_fixture_tiling_data.h"

using namespace AscendC;

namespace {

constexpr uint32_t F32_PER_REPEAT = 64;

template <typename T>
class SoftmaxFixtureKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxFixtureTiling& t)
    {
        length_ = t.length;
        first_ = t.rowsPerCore * GetBlockIdx();
        const int64_t rest = t.rows - first_;
        count_ = rest < t.rowsPerCore ? rest : t.rowsPerCore;
        lanes_ = (length_ + F32_PER_REPEAT - 1) / F32_PER_REPEAT * F32_PER_REPEAT;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.rows * length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.rows * length_);
        pipe_.InitBuffer(xQue_, 1, lanes_ * sizeof(T));
        pipe_.InitBuffer(yQue_, 1, lanes_ * sizeof(T));
        pipe_.InitBuffer(values_, lanes_ * sizeof(float));
        pipe_.InitBuffer(work_, lanes_ * sizeof(float));
        pipe_.InitBuffer(result_, 8 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (int64_t r = 0; r < count_; ++r) {
            Row(first_ + r);
        }
    }

private:
    __aicore__ inline float Scalar(const LocalTensor<float>& at)
    {
        event_t done = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(done);
        WaitFlag<HardEvent::V_S>(done);
        return at.GetValue(0);
    }

    __aicore__ inline void Row(int64_t row)
    {
        const uint32_t n = static_cast<uint32_t>(length_);
        DataCopyExtParams params{1, static_cast<uint32_t>(length_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        LocalTensor<T> in = xQue_.template AllocTensor<T>();
        DataCopyPad(in, xGm_[row * length_], params, pad);
        xQue_.EnQue(in);
        in = xQue_.template DeQue<T>();
        LocalTensor<float> v = values_.template Get<float>();
        LocalTensor<float> work = work_.template Get<float>();
        LocalTensor<float> result = result_.template Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(v, in, lanes_);
        } else {
            Cast(v, in, RoundMode::CAST_NONE, n);
        }
        PipeBarrier<PIPE_V>();
        xQue_.FreeTensor(in);
#if !defined(SEEDED_NO_MAX)
        ReduceMax(result, v, work, n);
        const float most = Scalar(result);
        Adds(v, v, -most, n);
        PipeBarrier<PIPE_V>();
#endif
        Exp(v, v, n);
        PipeBarrier<PIPE_V>();
        ReduceSum(result, v, work, n);
        const float sum = Scalar(result);
        Muls(v, v, 1.0f / sum, n);
        PipeBarrier<PIPE_V>();
        LocalTensor<T> out = yQue_.template AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(out, v, lanes_);
        } else {
            Cast(out, v, RoundMode::CAST_RINT, n);
        }
        yQue_.EnQue(out);
        out = yQue_.template DeQue<T>();
        DataCopyPad(yGm_[row * length_], out, params);
        yQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> xQue_;
    TQue<QuePosition::VECOUT, 1> yQue_;
    TBuf<QuePosition::VECCALC> values_, work_, result_;
    GlobalTensor<T> xGm_, yGm_;
    int64_t length_ = 0, first_ = 0, count_ = 0;
    uint32_t lanes_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void softmax_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(SoftmaxFixtureTiling, tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        SoftmaxFixtureKernel<half> op;
        op.Init(x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        SoftmaxFixtureKernel<bfloat16_t> op;
        op.Init(x, y, tilingData);
        op.Process();
    } else {
        SoftmaxFixtureKernel<float> op;
        op.Init(x, y, tilingData);
        op.Process();
    }
}
