// ascendc_cpu_bufpool.h - TBufPool: a part of the UB a kernel hands out to its queues and
// buffers itself, and rewinds between stages. Ascend 950 only (-DASCENDC_CPU_DAV_3510): its
// implementation is the one modelled.
//
// Part of the AscendC CPU model (see README.md). Sources are asc-devkit 82b89a15f (bare mirror
// mirror-cann+asc-devkit): the docs under docs/zh/api/SIMD-API/基础API/资源管理/ (POOL: TBufPool/)
// and the 3510 implementation impl/basic_api/dav_3510/ (C310: kernel_tpipe_impl_c310.h,
// VEC: kernel_tpipe_impl_c310_vec.h).
//
//   TPipe::InitBufPool(pool, len)   C310:375-418: len rounded up to 32 bytes, taken from the
//                           TPipe's UB where its next buffer would go; the pool starts there.
//                           len 0 is refused (C310:379 asserts len > 0).
//   pool.InitBuffer(que, num, len), pool.InitBuffer(buf, len)   POOL/InitBuffer-56.md; VEC's
//                           InitBuffer: the buffers go back to back from the pool's next free
//                           byte, each len rounded up to 32 bytes, as TPipe::InitBuffer places
//                           them; past the pool's end is refused ("Buffer Init length exceeds
//                           limit of BufPool", kernel_tbufpool_impl.h:93-97 and VEC's).
//   pool.Reset()            VEC:1293-1323: for a UB pool PipeBarrier<PIPE_MTE2>, <PIPE_MTE3> and
//                           <PIPE_V> (each orders its own pipe only), then the pool's next free
//                           byte is its start again: buffers initialised after it reuse the
//                           bytes (POOL/TBufPool简介.md 约束说明 2: the earlier buffers' data is
//                           then invalid). The earlier buffers keep their bytes in the model;
//                           using one after the Reset is not refused (not modelled).
//   TBufPool<pos, bufIDSize = 4>   kernel_tpipe.h:255-260 (kernel_tpipe_base.h:157 the default);
//                           bufIDSize and the pool's mutex ids are not modelled. A UB position only.
// Nested pools (TBufPool::InitBufPool) and a pool sharing another's bytes (InitBufPool's
// shareBuf form) are not modelled: a kernel calling them does not compile.
#ifndef ASCENDC_CPU_BUFPOOL_H
#define ASCENDC_CPU_BUFPOOL_H

#include "ascendc_cpu_fn.h"

#if defined(ASCENDC_CPU_DAV_3510)

#include <cstdint>

#include "ascendc_cpu_pipe.h"
#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_sync.h"
#include "ascendc_cpu_tensor.h"

namespace ascendc_cpu {

/// A pool's bytes: [start, start + len) of the UB, the next free one at `next`.
class BufPoolCore {
public:
    ASCENDC_CPU_FN void Init(uint32_t len)
    {
        if (len_ != 0) {
            Fail("TPipe::InitBufPool", "InitBufPool called twice for the same TBufPool");
        }
        if (len == 0) {
            Fail("TPipe::InitBufPool", "TBufPool needs len >= 1 (got 0; asc-devkit's TPipe::InitBufPool asserts "
                "len > 0: impl/basic_api/dav_3510/kernel_tpipe_impl_c310.h:379)");
        }
        len_ = static_cast<uint32_t>(RoundUp(len, kUbBlockBytes));
        start_ = AllocateUb("TBufPool", 1, len_);
        next_ = start_;
    }

    /// Runs `init` (a TQue's or TBuf's Init) with the pool's next free byte as the UB's.
    template <typename F>
    void Place(F&& init)
    {
        if (len_ == 0) {
            Fail("TBufPool::InitBuffer", "the TBufPool has no bytes (missing TPipe::InitBufPool)");
        }
        Runtime& rt = Rt();
        const uint32_t pipeUsed = rt.ubUsed;
        rt.ubUsed = next_;
        init();
        const uint32_t end = rt.ubUsed;
        rt.ubUsed = pipeUsed;
        if (end > start_ + len_) {
            Fail("TBufPool::InitBuffer", Msg("Buffer Init length exceeds limit of BufPool: the buffers end at UB "
                "byte ", end, " but the ", len_, "-byte pool ends at ", start_ + len_,
                " (impl/basic_api/kernel_tbufpool_impl.h:93-97)"));
        }
        next_ = end;
    }

    ASCENDC_CPU_FN void Reset() { next_ = start_; }

private:
    uint32_t start_ = 0;
    uint32_t len_ = 0;
    uint32_t next_ = 0;
};

}  // namespace ascendc_cpu

namespace AscendC {

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
public:
    static constexpr TPosition poolPos = pos;
    static constexpr bool isTbufPool = true;

    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len)
    {
        static_assert(T::kAscendcCpuIsQueue, "TBufPool::InitBuffer(que, num, len) needs a TQue");
        cpu_.Place([&] { que.cpu_.Init(num, len); });
        return true;
    }
    template <TPosition bufPos>
    bool InitBuffer(TBuf<bufPos>& buf, uint32_t len)
    {
        cpu_.Place([&] { buf.cpu_.Init(len); });
        return true;
    }
    void Reset()
    {
        PipeBarrier<PIPE_MTE2>();
        PipeBarrier<PIPE_MTE3>();
        PipeBarrier<PIPE_V>();
        cpu_.Reset();
    }

    ascendc_cpu::BufPoolCore cpu_;  // model internals
};

}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_BUFPOOL_H
