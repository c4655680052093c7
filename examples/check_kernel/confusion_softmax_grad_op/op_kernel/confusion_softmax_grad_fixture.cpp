// confusion_softmax_grad_fixture.cpp - the row-generic fixture's kernel: per row of grad and x
// [rows, L], read by DataCopyPad and widened to f32, s = sum(grad * x) (Mul, ReduceSum) and
// y = grad - s (Adds), rounded once (CAST_RINT). With -DSEEDED_SUM_OF_GRAD it sums grad alone
// (s = sum(grad)), which the checker must report.
#include "kernel_operator.h"
#include "confusion_softmax_grad_fixture_tiling_data.h"

using namespace AscendC;

namespace {

constexpr uint32_t F32_PER_REPEAT = 64;

template <typename T>
class ConfusionSoftmaxGradFixtureKernel {
public:
    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR x, GM_ADDR y,
                                const ConfusionSoftmaxGradFixtureTiling& t)
    {
        length_ = t.length;
        first_ = t.rowsPerCore * GetBlockIdx();
        const int64_t rest = t.rows - first_;
        count_ = rest < t.rowsPerCore ? rest : t.rowsPerCore;
        lanes_ = (length_ + F32_PER_REPEAT - 1) / F32_PER_REPEAT * F32_PER_REPEAT;
        gradGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(grad), t.rows * length_);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.rows * length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.rows * length_);
        pipe_.InitBuffer(gradQue_, 1, lanes_ * sizeof(T));
        pipe_.InitBuffer(xQue_, 1, lanes_ * sizeof(T));
        pipe_.InitBuffer(yQue_, 1, lanes_ * sizeof(T));
        pipe_.InitBuffer(grads_, lanes_ * sizeof(float));
        pipe_.InitBuffer(xs_, lanes_ * sizeof(float));
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

    __aicore__ inline void Widen(const LocalTensor<float>& dst, TQue<QuePosition::VECIN, 1>& que,
                                 const GlobalTensor<T>& src, int64_t row)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(length_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        LocalTensor<T> in = que.template AllocTensor<T>();
        DataCopyPad(in, src[row * length_], params, pad);
        que.EnQue(in);
        in = que.template DeQue<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(dst, in, lanes_);
        } else {
            Cast(dst, in, RoundMode::CAST_NONE, static_cast<uint32_t>(length_));
        }
        PipeBarrier<PIPE_V>();
        que.FreeTensor(in);
    }

    __aicore__ inline void Row(int64_t row)
    {
        const uint32_t n = static_cast<uint32_t>(length_);
        LocalTensor<float> g = grads_.template Get<float>();
        LocalTensor<float> x = xs_.template Get<float>();
        LocalTensor<float> work = work_.template Get<float>();
        LocalTensor<float> result = result_.template Get<float>();
        Widen(g, gradQue_, gradGm_, row);
        Widen(x, xQue_, xGm_, row);
#if defined(SEEDED_SUM_OF_GRAD)
        ReduceSum(result, g, work, n);
#else
        Mul(x, g, x, n);
        PipeBarrier<PIPE_V>();
        ReduceSum(result, x, work, n);
#endif
        const float sum = Scalar(result);
        Adds(g, g, -sum, n);
        PipeBarrier<PIPE_V>();
        LocalTensor<T> out = yQue_.template AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(out, g, lanes_);
        } else {
            Cast(out, g, RoundMode::CAST_RINT, n);
        }
        yQue_.EnQue(out);
        out = yQue_.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(length_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[row * length_], out, params);
        yQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> gradQue_, xQue_;
    TQue<QuePosition::VECOUT, 1> yQue_;
    TBuf<QuePosition::VECCALC> grads_, xs_, work_, result_;
    GlobalTensor<T> gradGm_, xGm_, yGm_;
    int64_t length_ = 0, first_ = 0, count_ = 0;
    uint32_t lanes_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void confusion_softmax_grad_fixture(GM_ADDR grad, GM_ADDR x, GM_ADDR y,
                                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ConfusionSoftmaxGradFixtureTiling, tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        ConfusionSoftmaxGradFixtureKernel<half> op;
        op.Init(grad, x, y, tilingData);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        ConfusionSoftmaxGradFixtureKernel<bfloat16_t> op;
        op.Init(grad, x, y, tilingData);
        op.Process();
    } else {
        ConfusionSoftmaxGradFixtureKernel<float> op;
        op.Init(grad, x, y, tilingData);
        op.Process();
    }
}
