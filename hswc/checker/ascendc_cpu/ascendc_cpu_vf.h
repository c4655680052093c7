// ascendc_cpu_vf.h - Ascend 950's vector function (VF) scope: VF_CALL, __VEC_SCOPE__ and the
// order LocalMemBar gives a VF's UB accesses.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510. Sources are
// asc-devkit 82b89a15f (bare mirror mirror-cann+asc-devkit); REG is
// docs/zh/api/SIMD-API/基础API/Reg矢量计算/.
//
//   AscendC::VF_CALL<f>(args...)  impl/basic_api/utils/kernel_utils_ceil_oom_que.h:429-435: on
//                           3510 `__VEC_SCOPE__ { funcPtr(args...); }` (the arguments passed as
//                           lvalues, not forwarded); here one VF scope around the call.
//   asc_vf_call<f>(args...) REG/VF调用/asc_vf_call.md:35, 98: the same, one VF scope.
//   __VEC_SCOPE__ { ... }   one VF scope for the block (an `if` with an initialiser, so the block
//                           that follows the macro is its body).
//   LocalMemBar<src, dst>() REG/同步控制/LocalMemBar.md:31: inside one VF the UB pipelines (VEC_STORE,
//                           VEC_LOAD, SCALAR_STORE, SCALAR_LOAD) run apart; dst waits for every
//                           earlier instruction of src. A read and a write (or two writes) of the
//                           same bytes through the same register keep program order (:31, 约束说明
//                           :91); through different registers they need the barrier (:31 "写写场景
//                           同理", the example :95-113: a LoadAlign of what the previous iteration's
//                           StoreAlign wrote, VEC_STORE -> VEC_LOAD). VEC_ALL orders both vector
//                           pipelines (table 2, :61). A store of bytes an earlier load read (WAR) is
//                           not checked: the page's own example (:108-111) loads dst and then stores
//                           dst through another register with no VEC_LOAD -> VEC_STORE barrier, the
//                           stored value computed from the loaded one; the model does not follow
//                           data through registers, so it takes every WAR as ordered (assumed).
//
// The rule, per VF scope (VfAccess, from every MicroAPI register load and store: MicroAccess):
// every UB byte remembers the last vector store of it, with the register that carried it and its
// call site. A load (RAW) or a store (WAW) of a byte stored earlier in the VF, through a different
// register and with no LocalMemBar ordering the two pipelines between them, is a broken rule
// naming both calls (file:line). A load's bytes past the end of the buffer (TQue slot, TBuf) its
// address lies in are not counted: a LoadAlign reads a whole register (256 bytes) whatever the
// mask of the calls that use it, so a short row's load reaches into the next buffer, whose lanes
// the kernel then leaves off (assumed unused: the model does not follow lanes through registers). Nothing is carried from one VF to the next: a VF is one PIPE_V
// instruction stream (REG/概述.md:51) and PIPE_V's order between instructions is the hardware's on
// 3510 (ascendc_cpu_hb.h's header). Assumed: a register is the RegTensor object (a C++ variable:
// the compiler's register allocation is not known); scalar UB accesses inside a VF (a plain
// pointer dereference) are not seen, so the SCALAR_* pairs order nothing here and a missing one
// is not caught. A MicroAPI access outside any VF scope is not checked.
#ifndef ASCENDC_CPU_VF_H
#define ASCENDC_CPU_VF_H

#include "ascendc_cpu_fn.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ascendc_cpu_runtime.h"
#include "ascendc_cpu_site.h"

namespace ascendc_cpu {

/// One vector store of a VF: where, which register, which call.
struct VfAccessRecord {
    Site site;
    const void* reg;
    const char* api;
    uint32_t seq;
};

/// The VF being run: its accesses and, per UB byte, the last store (an index + 1 into
/// `accesses`, valid when the byte's generation is this VF's).
struct VfState {
    int depth = 0;
    uint32_t generation = 0;
    uint32_t seq = 0;
    uint32_t storeToLoad = 0;   ///< seq of the last barrier making VEC_LOAD wait for VEC_STORE
    uint32_t storeToStore = 0;  ///< VEC_STORE waits for VEC_STORE
    std::vector<VfAccessRecord> accesses;
    std::vector<uint32_t> byteGeneration;
    std::vector<uint32_t> lastStore;
    Site noteSite{nullptr, 0};  ///< the call being modelled (VfNote), else no site
    const void* noteReg = nullptr;
};

ASCENDC_CPU_FN VfState& Vf()
{
    static VfState state;
    return state;
}

/// A VF scope (VF_CALL, asc_vf_call, __VEC_SCOPE__); a nested one belongs to the outer one.
class VfScope {
public:
    ASCENDC_CPU_FN VfScope()
    {
        VfState& vf = Vf();
        if (vf.depth++ == 0) {
            ++vf.generation;
            vf.seq = 0;
            vf.storeToLoad = vf.storeToStore = 0;
            vf.accesses.clear();
        }
    }
    ASCENDC_CPU_FN ~VfScope() { --Vf().depth; }
    VfScope(const VfScope&) = delete;
    VfScope& operator=(const VfScope&) = delete;
    /// For `if (VfScope s; s)`: always true.
    ASCENDC_CPU_FN explicit operator bool() const { return true; }
};

/// The kernel's register load or store being modelled: its site and register, for VfAccess.
class VfNote {
public:
    ASCENDC_CPU_FN VfNote(const Site& site, const void* reg)
    {
        Vf().noteSite = site;
        Vf().noteReg = reg;
    }
    ASCENDC_CPU_FN ~VfNote()
    {
        Vf().noteSite = Site(nullptr, 0);
        Vf().noteReg = nullptr;
    }
    VfNote(const VfNote&) = delete;
    VfNote& operator=(const VfNote&) = delete;
};

/// LocalMemBar: which of the three vector orders the barrier gives (see the header comment).
ASCENDC_CPU_FN void VfBarrier(bool storeToLoad, bool storeToStore)
{
    VfState& vf = Vf();
    if (vf.depth == 0) {
        return;
    }
    const uint32_t now = ++vf.seq;
    if (storeToLoad) {
        vf.storeToLoad = now;
    }
    if (storeToStore) {
        vf.storeToStore = now;
    }
}

ASCENDC_CPU_FN std::string VfWhere(const Site& s)
{
    return s.file == nullptr ? std::string("?") : Where(s);
}

/// The broken rule: `now` (a load or store) after the store `earlier` of the same UB byte `b`.
ASCENDC_CPU_FN void VfReport(const VfAccessRecord& now, bool write, const VfAccessRecord& earlier, uint64_t b)
{
    const char* dst = write ? "VEC_STORE" : "VEC_LOAD";
    const char* kind = write ? "write-after-write" : "read-after-write";
    Defer(now.api, Msg(write ? "store" : "load", " (UB byte ", b, ") at ", VfWhere(now.site), " after ",
              earlier.api, " at ", VfWhere(earlier.site), " stored it through another register in the same "
              "vector function, with no LocalMemBar<MemType::VEC_STORE, MemType::", dst, "> between them (a ",
              kind, " between a VF's UB pipelines: LocalMemBar.md)"),
        Msg("vfbar/", now.api, "/", VfWhere(now.site), "/", VfWhere(earlier.site)));
}

/// Of a load's bytes [off, off + bytes), those inside the TQue slot or TBuf its first byte lies in
/// (the longest such part where buffers overlap: a TBufPool reused after its Reset); all of them
/// where no buffer holds it.
ASCENDC_CPU_FN uint64_t BufferPart(uint64_t off, uint64_t bytes)
{
    uint64_t end = 0;
    for (const BufferRecord* r : Rt().records) {
        if (r->offset <= off && off < static_cast<uint64_t>(r->offset) + r->length) {
            end = std::max<uint64_t>(end, static_cast<uint64_t>(r->offset) + r->length);
        }
    }
    return end == 0 ? bytes : std::min(bytes, end - off);
}

/// One UB access (bytes [off, off + bytes) of the arena) of a MicroAPI register load or store.
ASCENDC_CPU_FN void VfAccess(const char* api, uint64_t off, uint64_t bytes, bool write)
{
    VfState& vf = Vf();
    if (vf.depth == 0 || bytes == 0) {
        return;
    }
    const uint64_t ub = Rt().ubBytes;
    if (vf.byteGeneration.size() < ub) {
        vf.byteGeneration.assign(ub, 0);
        vf.lastStore.assign(ub, 0);
    }
    if (off + bytes > ub) {
        return;  // outside the UB: MicroAccess reports it
    }
    if (!write) {
        bytes = BufferPart(off, bytes);
    }
    const VfAccessRecord me{vf.noteSite, vf.noteReg, api, ++vf.seq};
    const uint32_t barrier = write ? vf.storeToStore : vf.storeToLoad;
    bool reported = false;
    for (uint64_t b = off; b < off + bytes; ++b) {
        if (vf.byteGeneration[b] != vf.generation) {
            vf.byteGeneration[b] = vf.generation;
            vf.lastStore[b] = 0;
        }
        if (!reported && vf.lastStore[b] != 0) {
            const VfAccessRecord& st = vf.accesses[vf.lastStore[b] - 1];
            if (st.seq > barrier && (st.reg == nullptr || st.reg != me.reg)) {
                VfReport(me, write, st, b);
                reported = true;
            }
        }
    }
    if (write) {
        vf.accesses.push_back(me);
        std::fill(vf.lastStore.begin() + static_cast<std::ptrdiff_t>(off),
            vf.lastStore.begin() + static_cast<std::ptrdiff_t>(off + bytes),
            static_cast<uint32_t>(vf.accesses.size()));
    }
}

}  // namespace ascendc_cpu

/// One VF scope for the block that follows (see the header comment).
#define __VEC_SCOPE__ if (::ascendc_cpu::VfScope ascendc_cpu_vf_scope_{}; ascendc_cpu_vf_scope_)

/// asc-devkit's asc_vf_call (REG/VF调用/asc_vf_call.md): the VF, in one VF scope.
template <auto funcPtr, typename... Args>
inline void asc_vf_call(Args&&... args)
{
    ::ascendc_cpu::VfScope scope;
    funcPtr(args...);
}

namespace AscendC {

/// VF_CALL (kernel_utils_ceil_oom_que.h:429-435): the VF, in one VF scope.
template <auto funcPtr, typename... Args>
inline void VF_CALL(Args&&... args)
{
    ::ascendc_cpu::VfScope scope;
    funcPtr(args...);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VF_H
