// ascendc_cpu_micro.h - Ascend 950's register-level vector API (AscendC::MicroAPI, alias of
// AscendC::Reg), the part ops-nn's kernels call inside a __VEC_SCOPE__.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510 (the API
// exists on dav_3510 only). Declarations follow asc-devkit include/basic_api/reg_compute/
// (kernel_reg_compute_*_intf.h); the behaviour is the documented one where the docs say it,
// otherwise assumed as stated:
//   RegTensor<T, trait>   VECTOR_REG_WIDTH (256) bytes of lanes of T per register (REG_NUM of them)
//   MaskReg               one predicate bit per lane
//   UpdateMask<T>(n)      the first min(n, lanes) lanes on, and n -= that (saturating at 0)
//   LoadAlign(reg, p)     every lane from UB p (32-byte aligned); reads the whole register
//   StoreAlign(p, reg, m) the lanes of m to UB p (32-byte aligned); lanes off are not written
//   Duplicate(reg, s)     every lane s (converted to T)
//   Muls(d, s, x, m)      d = s * x rounded to T (RNE) on the lanes of m, 0 on the others
//                         (MaskMergeMode::ZEROING, the default)
//   Compare<T, mode>(m, a, b, mask)  m = mask && a <mode> b
//   Select(d, a, b, m)    d = m ? a : b
// UB accesses are checked as the level-2 calls' are (bounds, alignment, the sync checker on
// pipe V). Scalars keep their C++ meaning; __VEC_SCOPE__, __simd_vf__ and __simd_callee__ are
// nothing on the CPU.
#ifndef ASCENDC_CPU_MICRO_H
#define ASCENDC_CPU_MICRO_H

#if defined(ASCENDC_CPU_DAV_3510)

#include <cstdint>

#include "ascendc_cpu_hb.h"
#include "ascendc_cpu_vec_cmpsel.h"
#include "ascendc_cpu_vec_common.h"

#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__
#endif
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif

namespace AscendC {

constexpr uint32_t VECTOR_REG_WIDTH = 256;

namespace Reg {

struct DefaultType {};
struct RegTrait {
    int REG_NUM = 1;
};
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};
enum class MaskMergeMode { ZEROING, MERGING };
enum class LoadDist { DIST_NORM };
enum class StoreDist { DIST_NORM };

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    using ActualT = T;
    static constexpr int REG_NUM = regTrait.REG_NUM;
    static constexpr uint32_t kLanes = VECTOR_REG_WIDTH / sizeof(T) * static_cast<uint32_t>(REG_NUM);
    T lane[kLanes] = {};
};

struct MaskReg {
    bool on[VECTOR_REG_WIDTH] = {};
};

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
inline MaskReg UpdateMask(uint32_t& count)
{
    constexpr uint32_t lanes = RegTensor<T, regTrait>::kLanes;
    const uint32_t active = count < lanes ? count : lanes;
    MaskReg m;
    for (uint32_t i = 0; i < active; ++i) {
        m.on[i] = true;
    }
    count -= active;
    return m;
}

}  // namespace Reg

namespace MicroAPI = Reg;

}  // namespace AscendC

namespace ascendc_cpu {

/// One register-wide UB access of a MicroAPI call: [p, p + bytes) inside the UB, 32-byte
/// aligned, ordered on pipe V.
inline void MicroAccess(const char* api, const void* p, uint64_t bytes, bool write)
{
    const uint8_t* base = Arena();
    const uint8_t* q = static_cast<const uint8_t*>(p);
    if (q < base || q + bytes > base + Rt().ubBytes) {
        Fail(api, Msg("the UB address is outside the UB (", bytes, " bytes at offset ",
            static_cast<int64_t>(q - base), ", UB ", Rt().ubBytes, " bytes)"));
    }
    const uint64_t off = static_cast<uint64_t>(q - base);
    if (off % kUbBlockBytes != 0) {
        Fail(api, Msg("the UB address (offset ", off, ") is not 32-byte aligned"));
    }
    HbAccess(api, write ? "dst" : "src", Pipe::kV, off, bytes, write);
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr)
{
    using E = typename U::ActualT;
    static_assert(sizeof(T) == sizeof(E), "LoadAlign: the address's element type and the register's differ");
    ascendc_cpu::MicroAccess("MicroAPI::LoadAlign", srcAddr, sizeof(dstReg.lane), false);
    std::memcpy(static_cast<void*>(dstReg.lane), static_cast<const void*>(srcAddr), sizeof(dstReg.lane));
}

template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask)
{
    using E = typename U::ActualT;
    static_assert(sizeof(T) == sizeof(E), "StoreAlign: the address's element type and the register's differ");
    uint32_t last = 0;
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        if (mask.on[i]) {
            last = i + 1;
        }
    }
    if (last == 0) {
        return;
    }
    ascendc_cpu::MicroAccess("MicroAPI::StoreAlign", dstAddr, static_cast<uint64_t>(last) * sizeof(E), true);
    uint8_t* out = reinterpret_cast<uint8_t*>(dstAddr);
    for (uint32_t i = 0; i < last; ++i) {
        if (mask.on[i]) {
            std::memcpy(out + i * sizeof(E), &srcReg.lane[i], sizeof(E));
        }
    }
}

template <typename T = DefaultType, typename U, typename S>
inline void Duplicate(S& dstReg, U scalarValue)
{
    using E = typename S::ActualT;
    for (uint32_t i = 0; i < S::kLanes; ++i) {
        dstReg.lane[i] = static_cast<E>(scalarValue);
    }
}

template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void Muls(S& dstReg, S& srcReg, U scalarValue, MaskReg& mask)
{
    using E = typename S::ActualT;
    const E s = static_cast<E>(scalarValue);
    for (uint32_t i = 0; i < S::kLanes; ++i) {
        if (mask.on[i]) {
            dstReg.lane[i] = ascendc_cpu::ArithMul(srcReg.lane[i], s);
        } else if constexpr (mode == MaskMergeMode::ZEROING) {
            dstReg.lane[i] = E();
        }
    }
}

template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
inline void Compare(MaskReg& dst, U& srcReg0, U& srcReg1, MaskReg& mask)
{
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        dst.on[i] = mask.on[i] && ascendc_cpu::CompareValues(ascendc_cpu::CompareOperand(srcReg0.lane[i]),
            ascendc_cpu::CompareOperand(srcReg1.lane[i]), mode);
    }
}

template <typename T = DefaultType, typename U>
inline void Select(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)
{
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        dstReg.lane[i] = mask.on[i] ? srcReg0.lane[i] : srcReg1.lane[i];
    }
}

}  // namespace Reg
}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_H
