// ascendc_cpu_micro.h - Ascend 950's register-level vector API (AscendC::MicroAPI, alias of
// AscendC::Reg), the part ops-nn's kernels call inside a __VEC_SCOPE__.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510 (the API
// exists on dav_3510 only). Declarations follow asc-devkit include/basic_api/reg_compute/
// (kernel_reg_compute_*_intf.h, kernel_reg_compute_utils.h); the behaviour is the one documented
// in docs/zh/api/SIMD-API/基础API/Reg矢量计算 where it says it, otherwise assumed as stated.
//
// Registers. RegTensor<T, trait> holds VECTOR_REG_WIDTH (VL, 256) bytes of lanes of T per register
// (REG_NUM of them). MaskReg is VL/8 bits, one per register byte (MaskReg.md: a b16 element has 2
// bits, a b32 element 4, "only the lowest is significant"): lane i of a T register is on iff the bit
// of its first byte is. A call that makes a mask for T lanes (UpdateMask, CreateMask, Compare)
// sets or clears all sizeof(T) bits of each lane (assumed: only the lowest is documented).
// MaskMergeMode::ZEROING (the default) sets the lanes that are off to 0, MERGING keeps them.
//
// Calls (all lanes of a register at once; UB accesses are checked as the level-2 calls' are: inside
// the UB, aligned as the docs' tables say, the sync checker on pipe V):
//   UpdateMask<T>(n)        the first min(n, lanes) lanes on, n -= that (saturating at 0)
//   CreateMask<T, pattern>  MaskPattern ALL, VLn (the first n lanes), M3/M4 (every 3rd/4th lane
//                           from 0), H/Q (the first half/quarter), ALLF (none)
//   LoadAlign / DataCopy (UB -> register), LoadDist: DIST_NORM (VL bytes), DIST_UNPACK_B8/B16/B32
//                           (VL/2 bytes, each element followed by a 0 element), DIST_BRC_B8/B16/B32
//                           (one element to every lane), DIST_E2B_B16/B32 (VL/32 elements, each to a
//                           32-byte block); forms: address, address + AddrReg,
//                           PostLiteral::POST_MODE_UPDATE (address += stride elements after)
//   StoreAlign / DataCopy (register -> UB), StoreDist: DIST_NORM(_B8/_B16/_B32) (the lanes on),
//                           DIST_PACK_B16/B32/B64 (the low half of each 2/4/8-byte slot, packed),
//                           DIST_PACK4_B32 (the low byte of each 4-byte slot, packed),
//                           DIST_FIRST_ELEMENT_B8/B16/B32 (lane 0 alone, the mask ignored); a packing store
//                           needs the slots on to be a prefix (the docs say "stored contiguously",
//                           which a prefix makes unambiguous); same three forms as LoadAlign
//   CreateAddrReg<T>(i0, s0, ...)  the offset sum(i_k * s_k) elements
//   Duplicate(reg, s[, mask])       every lane (on) s converted to T
//   Add, Sub, Mul, Div, Max, Min, Adds, Muls, Maxs, Mins: the level-2 calls' lane models
//                           (ascendc_cpu_vec_common.h: one RNE rounding in T, IEEE 754-2019
//                           maximum/minimum) and element types (hswc/api_tables.def), and the
//                           uint16_t / uint32_t lanes the Reg pages add (kRegUnsigned: wrapping);
//                           Div is the basic Div's model (correctly rounded, assumed), on 16- and
//                           32-bit integers truncated (MicroIntDiv, assumed); Div<T, &mode> with
//                           a DivSpecificMode: its 0-ulp algorithms correctly rounded, with flush
//                           to zero where Div.md says so
//   Exp, Ln, Log, Sqrt      the basic calls' models (ascendc_cpu_vec_math.h), the same bits
//   Abs, Neg, Relu          the sign cleared / flipped (half, bfloat16_t, float; Neg also
//                           int16_t/int32_t, wrapping), maximum(x, +0)
//   Axpy(d, s, x, m)        d = x * s + d with one rounding: fused ("Reg矢量计算接口精度标准汇总":
//                           "结果等效于：乘累加采用高精度计算, 同比Fma(x, y, z)"); half, float
//   Compare<T, mode>(m, a, b, mask), Compares / CompareScalar<T, mode>(m, a, s, mask):
//                           m = mask && a <mode> b (NaN: only NE true), the level-2 calls' types
//                           and the 8- to 32-bit integer lanes the Reg pages add (Compare.md and
//                           Compares.md table 3)
//   Select(d, a, b, m)      d = m ? a : b
//   DeInterleave, Interleave  the even / odd lanes of two registers and back (order assumed)
//   And, Or, Xor(d, a, b, m)  bitwise, lane by lane (bool, 8-32-bit integers; 64-bit refused when
//                           run), and the MaskReg forms bit by bit under the mask
//   Cast<T, U, trait>(d, s, mask)  the float results of the Cast page's tables: half/bfloat16_t ->
//                           float (exact), float -> half (CAST_ODD, RINT..TRUNC), float ->
//                           bfloat16_t, half <-> bfloat16_t (RINT..TRUNC), int8_t/uint8_t/int16_t
//                           -> half, int16_t -> float (exact), int32_t/int64_t -> float (RINT..TRUNC),
//                           rounded as ascendc_cpu_vec_cast.h's CastLane (IEEE, NaN kept quiet).
//                           Widening k times: destination lane i is source lane k*i + layout
//                           (RegLayout ZERO..THREE), on iff that source lane is ("mask会按照输入来筛选");
//                           narrowing: source lane i goes to destination lane k*i + layout, every
//                           other destination lane 0 (the docs: "目的操作数中的无效元素均为0").
//                           Float -> int8_t/uint8_t/int16_t/int32_t/int64_t (table 6): NaN -> 0,
//                           +-inf -> the type's extremes, out of range saturated or (not
//                           saturating) its low bits (table 4); saturating under CTRL[60] = 1 iff
//                           CTRL[59] = 0, under CTRL[60] = 0 iff the trait names SAT (table 5).
//                           Float -> hifloat8_t / fp8 (table 7): ascendc_cpu_float8.h's encoders,
//                           the trait's SatMode under CTRL[60] = 0. SatMode::SAT on a half /
//                           bfloat16_t / float result and integer -> integer conversions are
//                           refused (the per-instruction mode, CTRL[60] = 0, is assumed for
//                           NO_SAT); a rounding mode, layout or SatMode outside the pair's row of
//                           the tables is a run-time violation (a SatMode named where the row has
//                           none is recorded and the run goes on: the row has one behaviour).
//   AscendC::CeilDivision(a, b)      (a + b - 1) / b, 0 for b == 0 (kernel_utils_ceil_oom_que.h)
// Each call on a register (a load, a store, a computation; not the mask and address calls) is
// counted for --profile (ascendc_cpu_record.h, RecordRegister: the `R API COUNT` lines).
// Element types outside a call's list fail to compile; a type the SoC's call takes that the model
// has no lanes for (int64_t, ...) compiles and is refused when the call runs (ascendc_cpu_api.h).
// Scalars keep their C++ meaning; __simd_vf__ and __simd_callee__ are nothing on the CPU;
// __VEC_SCOPE__, VF_CALL and asc_vf_call open a VF scope (ascendc_cpu_vf.h).
#ifndef ASCENDC_CPU_MICRO_H
#define ASCENDC_CPU_MICRO_H

#include "ascendc_cpu_fn.h"

#if defined(ASCENDC_CPU_DAV_3510)

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_hb.h"
#include "ascendc_cpu_unmodelled.h"
#include "ascendc_cpu_vec_cast.h"
#include "ascendc_cpu_vec_cmpsel.h"
#include "ascendc_cpu_vec_common.h"
#include "ascendc_cpu_vec_math.h"
#include "ascendc_cpu_vf.h"  // __VEC_SCOPE__, VF_CALL, asc_vf_call: a VF scope
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif
#ifndef __local_mem__
#define __local_mem__ __ubuf__  // kernel_reg_compute_common_intf.h: MicroAPI's name of UB memory
#endif

namespace AscendC {

constexpr uint32_t VECTOR_REG_WIDTH = 256;

/// VL, the RegTensor width in bytes (docs/zh/api/SIMD-API/基础API/工具接口/系统资源与变量/GetVecLen.md).
constexpr inline uint32_t GetVecLen()
{
    return VECTOR_REG_WIDTH;
}

/// ceil(num1 / num2), 0 for num2 == 0 (asc-devkit impl/basic_api/utils/kernel_utils_ceil_oom_que.h).
constexpr inline int32_t CeilDivision(int32_t num1, int32_t num2)
{
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

enum class ExpAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class LnAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };

namespace Reg {

struct DefaultType {};
struct RegTrait {
    int REG_NUM = 1;
};
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};
enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class LoadDist {
    DIST_NORM,
    DIST_BRC_B8,
    DIST_BRC_B16,
    DIST_BRC_B32,
    DIST_US_B8 = 6,
    DIST_US_B16,
    DIST_DS_B8,
    DIST_DS_B16,
    DIST_BDINTLV,
    DIST_DINTLV_B8,
    DIST_DINTLV_B16,
    DIST_UNPACK_B8,
    DIST_UNPACK_B16,
    DIST_BLK,
    DIST_E2B_B16,
    DIST_E2B_B32,
    DIST_UNPACK_B32,
    DIST_DINTLV_B32,
    DIST_UNPACK4_B8,
    DIST_SPLT4CHN_B8,
    DIST_SPLT2CHN_B8,
    DIST_SPLT2CHN_B16,
};
enum class StoreDist {
    DIST_NORM_B8,
    DIST_NORM_B16,
    DIST_NORM_B32,
    DIST_FIRST_ELEMENT_B8,
    DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32,
    DIST_PACK_B16,
    DIST_PACK_B32,
    DIST_INTLV_B8,
    DIST_INTLV_B16,
    DIST_PACK_B64,
    DIST_INTLV_B32,
    DIST_PACK4_B32,
    DIST_MRG4CHN_B8,
    DIST_MRG2CHN_B8,
    DIST_MRG2CHN_B16,
    DIST_NORM
};

struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
constexpr CastTrait castTrait = {RegLayout::UNKNOWN, SatMode::UNKNOWN, MaskMergeMode::UNKNOWN, RoundMode::UNKNOWN};

/// The algorithm configurations of Exp, Ln and Div (kernel_reg_compute_utils.h, dav_3510's form).
/// The model computes every algorithm with the basic call's one model.
struct ExpSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    ExpAlgo algo = ExpAlgo::INTRINSIC;
};
struct LnSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    LnAlgo algo = LnAlgo::INTRINSIC;
};
struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
    DivAlgo algo = DivAlgo::INTRINSIC;
};

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    using ActualT = T;
    static constexpr RegTrait trait = regTrait;
    static constexpr int REG_NUM = regTrait.REG_NUM;
    static constexpr uint32_t kLanes = VECTOR_REG_WIDTH / sizeof(T) * static_cast<uint32_t>(REG_NUM);
    T lane[kLanes] = {};
};

/// VL/8 predicate bits, bit b for register byte b.
struct MaskReg {
    bool on[VECTOR_REG_WIDTH] = {};
};

/// An offset in elements of T (CreateAddrReg).
struct AddrReg {
    uint64_t offset = 0;
};

}  // namespace Reg

namespace MicroAPI = Reg;

}  // namespace AscendC

namespace ascendc_cpu {

/// The mask bits of one lane of a register of `lanes` lanes (b16: 2, b32: 4; a pair of b64
/// registers, RegTraitNumTwo, is 64 lanes of 4).
constexpr uint32_t MaskBitsPerLane(uint32_t lanes)
{
    return lanes >= AscendC::VECTOR_REG_WIDTH ? 1 : AscendC::VECTOR_REG_WIDTH / lanes;
}

template <typename R>
inline bool LaneOn(const AscendC::Reg::MaskReg& m, uint32_t i)
{
    return m.on[i * MaskBitsPerLane(R::kLanes)];
}

/// Sets (or clears) every bit of lane i of a `lanes`-lane register.
ASCENDC_CPU_FN void SetMaskLane(AscendC::Reg::MaskReg& m, uint32_t lanes, uint32_t i, bool v)
{
    const uint32_t b = MaskBitsPerLane(lanes);
    for (uint32_t k = 0; k < b; ++k) {
        m.on[i * b + k] = v;
    }
}

/// dst.lane[i] = f(i) for the lanes of `m`; the others 0 (ZEROING) or kept (MERGING).
template <AscendC::Reg::MaskMergeMode mode, typename S, typename F>
inline void MicroLanes(S& dst, const AscendC::Reg::MaskReg& m, F f)
{
    using E = typename S::ActualT;
    for (uint32_t i = 0; i < S::kLanes; ++i) {
        if (LaneOn<S>(m, i)) {
            dst.lane[i] = f(i);
        } else if constexpr (mode != AscendC::Reg::MaskMergeMode::MERGING) {
            dst.lane[i] = E();
        }
    }
}

/// A float lane whose value is subnormal as a signed zero (flush to zero, the sign kept).
inline float FlushSubnormal(float v)
{
    return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
}

/// A call the SoC takes on E that the model has no lanes for: refused when it runs.
template <typename E>
[[noreturn]] inline void MicroNotModelled(const char* api)
{
    NotModelledType<E>(api);
}

/// One UB access of a MicroAPI call: [p, p + bytes) inside the UB, aligned to `align` bytes,
/// ordered on pipe V.
ASCENDC_CPU_FN void MicroAccess(const char* api, const void* p, uint64_t bytes, bool write, uint64_t align = kUbBlockBytes)
{
    const uint8_t* base = Arena();
    const uint8_t* q = static_cast<const uint8_t*>(p);
    if (q < base || q + bytes > base + Rt().ubBytes) {
        Fail(api, Msg("the UB address is outside the UB (", bytes, " bytes at offset ",
            static_cast<int64_t>(q - base), ", UB ", Rt().ubBytes, " bytes)"));
    }
    const uint64_t off = static_cast<uint64_t>(q - base);
    if (off % align != 0) {
        Fail(api, Msg("the UB address (offset ", off, ") is not ", align, "-byte aligned"));
    }
    HbAccess(api, write ? "dst" : "src", Pipe::kV, off, bytes, write);
    VfAccess(api, off, bytes, write);
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

// region masks

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
inline MaskReg UpdateMask(uint32_t& count)
{
    constexpr uint32_t lanes = RegTensor<T, regTrait>::kLanes;
    const uint32_t active = count < lanes ? count : lanes;
    MaskReg m;
    for (uint32_t i = 0; i < active; ++i) {
        ascendc_cpu::SetMaskLane(m, lanes, i, true);
    }
    count -= active;
    return m;
}

template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait& regTrait = RegTraitNumOne>
inline MaskReg CreateMask()
{
    constexpr uint32_t lanes = RegTensor<T, regTrait>::kLanes;
    MaskReg m;
    for (uint32_t i = 0; i < lanes; ++i) {
        bool on = false;
        switch (mode) {
            case MaskPattern::ALL: on = true; break;
            case MaskPattern::VL1: on = i < 1; break;
            case MaskPattern::VL2: on = i < 2; break;
            case MaskPattern::VL3: on = i < 3; break;
            case MaskPattern::VL4: on = i < 4; break;
            case MaskPattern::VL8: on = i < 8; break;
            case MaskPattern::VL16: on = i < 16; break;
            case MaskPattern::VL32: on = i < 32; break;
            case MaskPattern::VL64: on = i < 64; break;
            case MaskPattern::VL128: on = i < 128; break;
            case MaskPattern::M3: on = i % 3 == 0; break;
            case MaskPattern::M4: on = i % 4 == 0; break;
            case MaskPattern::H: on = i < lanes / 2; break;
            case MaskPattern::Q: on = i < lanes / 4; break;
            case MaskPattern::ALLF: on = false; break;
        }
        ascendc_cpu::SetMaskLane(m, lanes, i, on);
    }
    return m;
}

// endregion

// region UB <-> register

template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0)
{
    return AddrReg{static_cast<uint64_t>(index0) * stride0};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1)
{
    return AddrReg{static_cast<uint64_t>(index0) * stride0 + static_cast<uint64_t>(index1) * stride1};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1, uint16_t index2,
    uint32_t stride2)
{
    return AddrReg{static_cast<uint64_t>(index0) * stride0 + static_cast<uint64_t>(index1) * stride1 +
        static_cast<uint64_t>(index2) * stride2};
}
template <typename T>
inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1, uint16_t index2,
    uint32_t stride2, uint16_t index3, uint32_t stride3)
{
    return AddrReg{static_cast<uint64_t>(index0) * stride0 + static_cast<uint64_t>(index1) * stride1 +
        static_cast<uint64_t>(index2) * stride2 + static_cast<uint64_t>(index3) * stride3};
}

}  // namespace Reg
}  // namespace AscendC

namespace ascendc_cpu {

template <AscendC::Reg::LoadDist dist, typename U, typename T>
inline void MicroLoad(const char* api, U& dstReg, const T* srcAddr)
{
    using AscendC::Reg::LoadDist;
    using E = typename U::ActualT;
    static_assert(sizeof(T) == sizeof(E), "LoadAlign: the address's element type and the register's differ");
    constexpr uint32_t kBytes = sizeof(dstReg.lane);
    uint8_t* reg = reinterpret_cast<uint8_t*>(dstReg.lane);
    if constexpr (dist == LoadDist::DIST_NORM) {
        MicroAccess(api, srcAddr, kBytes, false);
        std::memcpy(reg, static_cast<const void*>(srcAddr), kBytes);
    } else if constexpr (dist == LoadDist::DIST_UNPACK_B8 || dist == LoadDist::DIST_UNPACK_B16 ||
                         dist == LoadDist::DIST_UNPACK_B32) {
        constexpr uint32_t b = dist == LoadDist::DIST_UNPACK_B8 ? 1 : (dist == LoadDist::DIST_UNPACK_B16 ? 2 : 4);
        static_assert(sizeof(E) == b, "LoadAlign: DIST_UNPACK_Bn needs an n-bit element type");
        static_assert(U::REG_NUM == 1, "LoadAlign: DIST_UNPACK_Bn loads one register");
        MicroAccess(api, srcAddr, kBytes / 2, false);
        const uint8_t* src = reinterpret_cast<const uint8_t*>(srcAddr);
        std::memset(reg, 0, kBytes);
        for (uint32_t i = 0; i < kBytes / (2 * b); ++i) {
            std::memcpy(reg + 2 * i * b, src + i * b, b);
        }
    } else if constexpr (dist == LoadDist::DIST_BRC_B8 || dist == LoadDist::DIST_BRC_B16 ||
                         dist == LoadDist::DIST_BRC_B32) {
        constexpr uint32_t b = dist == LoadDist::DIST_BRC_B8 ? 1 : (dist == LoadDist::DIST_BRC_B16 ? 2 : 4);
        static_assert(sizeof(E) == b, "LoadAlign: DIST_BRC_Bn needs an n-bit element type");
        MicroAccess(api, srcAddr, b, false, b);
        for (uint32_t i = 0; i < U::kLanes; ++i) {
            std::memcpy(reg + i * b, static_cast<const void*>(srcAddr), b);
        }
    } else if constexpr (dist == LoadDist::DIST_E2B_B16 || dist == LoadDist::DIST_E2B_B32) {
        // LoadAlign.md table 3: VL / 32 elements, each broadcast to one 32-byte block.
        constexpr uint32_t b = dist == LoadDist::DIST_E2B_B16 ? 2 : 4;
        static_assert(sizeof(E) == b && U::REG_NUM == 1, "LoadAlign: DIST_E2B_Bn loads n-bit elements, one register");
        MicroAccess(api, srcAddr, kBytes / kUbBlockBytes * b, false);
        for (uint32_t i = 0; i < kBytes; i += b) {
            std::memcpy(reg + i, reinterpret_cast<const uint8_t*>(srcAddr) + i / kUbBlockBytes * b, b);
        }
    } else {
        static_assert(kFalse<U>, "ascendc_cpu: this LoadAlign LoadDist is not modelled");
    }
}

template <AscendC::Reg::StoreDist dist, typename U, typename T>
inline void MicroStore(const char* api, T* dstAddr, const U& srcReg, const AscendC::Reg::MaskReg& mask)
{
    using AscendC::Reg::StoreDist;
    using E = typename U::ActualT;
    static_assert(sizeof(T) == sizeof(E), "StoreAlign: the address's element type and the register's differ");
    const uint8_t* reg = reinterpret_cast<const uint8_t*>(srcReg.lane);
    uint8_t* out = reinterpret_cast<uint8_t*>(dstAddr);
    if constexpr (dist == StoreDist::DIST_NORM || dist == StoreDist::DIST_NORM_B8 ||
                  dist == StoreDist::DIST_NORM_B16 || dist == StoreDist::DIST_NORM_B32) {
        static_assert(dist == StoreDist::DIST_NORM || (dist == StoreDist::DIST_NORM_B8 && sizeof(E) == 1) ||
                (dist == StoreDist::DIST_NORM_B16 && sizeof(E) == 2) ||
                (dist == StoreDist::DIST_NORM_B32 && sizeof(E) == 4),
            "StoreAlign: DIST_NORM_Bn needs an n-bit element type");
        uint32_t last = 0;
        for (uint32_t i = 0; i < U::kLanes; ++i) {
            if (LaneOn<U>(mask, i)) {
                last = i + 1;
            }
        }
        if (last == 0) {
            return;
        }
        MicroAccess(api, dstAddr, static_cast<uint64_t>(last) * sizeof(E), true);
        for (uint32_t i = 0; i < last; ++i) {
            if (LaneOn<U>(mask, i)) {
                std::memcpy(out + i * sizeof(E), reg + i * sizeof(E), sizeof(E));
            }
        }
    } else if constexpr (dist == StoreDist::DIST_PACK_B16 || dist == StoreDist::DIST_PACK_B32 ||
                         dist == StoreDist::DIST_PACK_B64 || dist == StoreDist::DIST_PACK4_B32) {
        static_assert(U::REG_NUM == 1, "StoreAlign: the packing stores are modelled for one register");
        constexpr uint32_t slot = dist == StoreDist::DIST_PACK_B16 ? 2 : (dist == StoreDist::DIST_PACK_B64 ? 8 : 4);
        constexpr uint32_t keep = dist == StoreDist::DIST_PACK4_B32 ? 1 : slot / 2;
        uint32_t n = 0;
        while (n < AscendC::VECTOR_REG_WIDTH / slot && mask.on[n * slot]) {
            ++n;
        }
        for (uint32_t i = n; i < AscendC::VECTOR_REG_WIDTH / slot; ++i) {
            if (mask.on[i * slot]) {
                Fail(api, Msg("a packing StoreDist with a mask whose ", slot, "-byte slots on are not a prefix "
                    "(slot ", i, " on after slot ", n, " off): where the slots go is not documented"));
            }
        }
        if (n == 0) {
            return;
        }
        MicroAccess(api, dstAddr, static_cast<uint64_t>(n) * keep, true);
        for (uint32_t i = 0; i < n; ++i) {
            std::memcpy(out + i * keep, reg + i * slot, keep);
        }
    } else if constexpr (dist == StoreDist::DIST_FIRST_ELEMENT_B8 || dist == StoreDist::DIST_FIRST_ELEMENT_B16 ||
                         dist == StoreDist::DIST_FIRST_ELEMENT_B32) {
        // The first element, whatever the mask, at a b-byte aligned address (StoreAlign.md table 3).
        constexpr uint32_t b = dist == StoreDist::DIST_FIRST_ELEMENT_B8 ? 1 :
            (dist == StoreDist::DIST_FIRST_ELEMENT_B16 ? 2 : 4);
        static_assert(sizeof(E) == b, "StoreAlign: DIST_FIRST_ELEMENT_Bn needs an n-bit element type");
        (void)mask;
        MicroAccess(api, dstAddr, b, true, b);
        std::memcpy(out, reg, b);
    } else {
        static_assert(kFalse<U>, "ascendc_cpu: this StoreAlign StoreDist is not modelled");
    }
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg);
    ascendc_cpu::MicroLoad<dist>("MicroAPI::LoadAlign", dstReg, srcAddr);
}

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg);
    ascendc_cpu::MicroLoad<dist>("MicroAPI::LoadAlign", dstReg, srcAddr + offset.offset);
}

template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void LoadAlign(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg);
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "LoadAlign: POST_MODE_NORMAL is not supported");
    ascendc_cpu::MicroLoad<dist>("MicroAPI::LoadAlign", dstReg, srcAddr);
    srcAddr += postUpdateStride;
}

template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &srcReg);
    ascendc_cpu::MicroStore<dist>("MicroAPI::StoreAlign", dstAddr, srcReg, mask);
}

template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void StoreAlign(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &srcReg);
    ascendc_cpu::MicroStore<dist>("MicroAPI::StoreAlign", dstAddr + offset.offset, srcReg, mask);
}

template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void StoreAlign(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &srcReg);
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "StoreAlign: POST_MODE_NORMAL is not supported");
    ascendc_cpu::MicroStore<dist>("MicroAPI::StoreAlign", dstAddr, srcReg, mask);
    dstAddr += postUpdateStride;
}

// DataCopy: the earlier name of LoadAlign / StoreAlign (asc-devkit
// impl/basic_api/reg_compute/kernel_reg_compute_datacopy_intf_impl.h: both call DataCopyImpl).
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void DataCopy(U& dstReg, __ubuf__ T* srcAddr, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg);
    ascendc_cpu::MicroLoad<dist>("MicroAPI::DataCopy", dstReg, srcAddr);
}

template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void DataCopy(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg);
    ascendc_cpu::MicroLoad<dist>("MicroAPI::DataCopy", dstReg, srcAddr + offset.offset);
}

template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U>
inline void DataCopy(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &dstReg);
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "DataCopy: POST_MODE_NORMAL is not supported");
    ascendc_cpu::MicroLoad<dist>("MicroAPI::DataCopy", dstReg, srcAddr);
    srcAddr += postUpdateStride;
}

template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void DataCopy(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &srcReg);
    ascendc_cpu::MicroStore<dist>("MicroAPI::DataCopy", dstAddr, srcReg, mask);
}

template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void DataCopy(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &srcReg);
    ascendc_cpu::MicroStore<dist>("MicroAPI::DataCopy", dstAddr + offset.offset, srcReg, mask);
}

template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U>
inline void DataCopy(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    const ascendc_cpu::VfNote note(site, &srcReg);
    static_assert(postMode == PostLiteral::POST_MODE_UPDATE, "DataCopy: POST_MODE_NORMAL is not supported");
    ascendc_cpu::MicroStore<dist>("MicroAPI::DataCopy", dstAddr, srcReg, mask);
    dstAddr += postUpdateStride;
}

// endregion

// region Duplicate, Select, Compare

template <typename T = DefaultType, typename U, typename S>
inline void Duplicate(S& dstReg, U scalarValue)
{
    ascendc_cpu::RecordRegister("MicroAPI::Duplicate");
    using E = typename S::ActualT;
    for (uint32_t i = 0; i < S::kLanes; ++i) {
        dstReg.lane[i] = static_cast<E>(scalarValue);
    }
}

template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S>
inline void Duplicate(S& dstReg, U scalarValue, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Duplicate");
    using E = typename S::ActualT;
    const E s = static_cast<E>(scalarValue);
    ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t) { return s; });
}

template <typename T = DefaultType, typename U>
inline void Select(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Select");
    for (uint32_t i = 0; i < U::kLanes; ++i) {
        dstReg.lane[i] = ascendc_cpu::LaneOn<U>(mask, i) ? srcReg0.lane[i] : srcReg1.lane[i];
    }
}

template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
inline void Compare(MaskReg& dst, U& srcReg0, U& srcReg1, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Compare");
    using E = typename U::ActualT;
    // Compare.md table 3 also lists the 8- to 32-bit integer lanes (int32_t is the level-2 call's).
    if constexpr (ascendc_cpu::kIsOneOf<E, int8_t, uint8_t, int16_t, uint16_t, uint32_t> ||
                  ascendc_cpu::api::CheckCompare<E>()) {
        MaskReg out;
        for (uint32_t i = 0; i < U::kLanes; ++i) {
            ascendc_cpu::SetMaskLane(out, U::kLanes, i, ascendc_cpu::LaneOn<U>(mask, i) &&
                ascendc_cpu::CompareValues(ascendc_cpu::CompareOperand(srcReg0.lane[i]),
                    ascendc_cpu::CompareOperand(srcReg1.lane[i]), mode));
        }
        dst = out;
    } else {
        ascendc_cpu::MicroNotModelled<E>("MicroAPI::Compare");
    }
}

template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
inline void Compares(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Compares");
    using E = typename U::ActualT;
    // Compares.md table 3 also lists the 8- to 32-bit integer lanes.
    if constexpr (ascendc_cpu::kIsOneOf<E, int8_t, uint8_t, int16_t, uint16_t, uint32_t> ||
                  ascendc_cpu::api::CheckCompareScalar<E>()) {
        const double b = ascendc_cpu::CompareOperand(static_cast<E>(scalarValue));
        MaskReg out;
        for (uint32_t i = 0; i < U::kLanes; ++i) {
            ascendc_cpu::SetMaskLane(out, U::kLanes, i, ascendc_cpu::LaneOn<U>(mask, i) &&
                ascendc_cpu::CompareValues(ascendc_cpu::CompareOperand(srcReg.lane[i]), b, mode));
        }
        dst = out;
    } else {
        ascendc_cpu::MicroNotModelled<E>("MicroAPI::Compares");
    }
}

/// CompareScalar: Compares's other name (kernel_reg_compute_vec_cmpsel_intf_impl.h).
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
inline void CompareScalar(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask)
{
    Compares<T, mode>(dst, srcReg, scalarValue, mask);
}

// endregion

// region arithmetic

}  // namespace Reg
}  // namespace AscendC

namespace ascendc_cpu {

/// uint16_t and uint32_t lanes: the Reg pages list them for Add, Sub (REG/基础算术/Add.md:86,
/// Sub.md:86), Mul (Mul.md:63), Max, Min, Mins (Max.md:63, Min.md:63, Mins.md:63), Adds, Muls, Maxs
/// (Adds.md:64, Muls.md:64, Maxs.md:64), beyond the level-2 calls' table; wrapping integers.
template <typename E>
constexpr bool kRegUnsigned = kIsOneOf<E, uint16_t, uint32_t>;

/// Div on int16_t, uint16_t, int32_t, uint32_t lanes (REG/基础算术/Div.md:68 lists them; the page
/// gives dstReg_i = srcReg0_i / srcReg1_i and no rounding for them; asc-devkit's
/// kernel_reg_compute_vec_binary_impl.h:1485 is the instruction vdiv): the quotient truncated toward
/// zero, as C's / (assumed). A divisor of 0, or the type's minimum over -1, has no documented
/// result: refused when run.
template <AscendC::Reg::MaskMergeMode mode, typename U>
inline void MicroIntDiv(U& dstReg, const U& srcReg0, const U& srcReg1, const AscendC::Reg::MaskReg& mask)
{
    using E = typename U::ActualT;
    static_assert(kIsOneOf<E, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>,
        "MicroAPI::Div supports int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t lanes (Div.md)");
    if constexpr (sizeof(E) == 8) {
        MicroNotModelled<E>("MicroAPI::Div");
    } else {
        MicroLanes<mode>(dstReg, mask, [&](uint32_t i) {
            const E a = srcReg0.lane[i];
            const E b = srcReg1.lane[i];
            if (b == 0 || (std::is_signed<E>::value && b == E(-1) && a == std::numeric_limits<E>::lowest())) {
                Fail("MicroAPI::Div", Msg("lane ", i, ": ", static_cast<int64_t>(a), " / ",
                    static_cast<int64_t>(b), " on integers has no documented result (Div.md; not modelled)"));
            }
            return static_cast<E>(a / b);
        });
    }
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

#define ASCENDC_CPU_MICRO_BINARY(Name, Check, fn)                                                      \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>         \
    inline void Name(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)                                   \
    {                                                                                                    \
        using E = typename U::ActualT;                                                                   \
        ascendc_cpu::RecordRegister("MicroAPI::" #Name);                                                 \
        if constexpr (ascendc_cpu::kRegUnsigned<E>) {                                                    \
            ascendc_cpu::MicroLanes<mode>(dstReg, mask,                                                  \
                [&](uint32_t i) { return fn(srcReg0.lane[i], srcReg1.lane[i]); });                     \
        } else if constexpr (ascendc_cpu::api::Check<E>()) {                                             \
            ascendc_cpu::MicroLanes<mode>(dstReg, mask,                                                  \
                [&](uint32_t i) { return fn(srcReg0.lane[i], srcReg1.lane[i]); });                     \
        } else {                                                                                         \
            ascendc_cpu::MicroNotModelled<E>("MicroAPI::" #Name);                                        \
        }                                                                                                \
    }

#define ASCENDC_CPU_MICRO_SCALAR(Name, Check, fn)                                                      \
    template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S> \
    inline void Name(S& dstReg, S& srcReg, U scalarValue, MaskReg& mask)                                 \
    {                                                                                                    \
        using E = typename S::ActualT;                                                                   \
        ascendc_cpu::RecordRegister("MicroAPI::" #Name);                                                 \
        const E s = static_cast<E>(scalarValue);                                                         \
        if constexpr (ascendc_cpu::kRegUnsigned<E>) {                                                    \
            ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) { return fn(srcReg.lane[i], s); }); \
        } else if constexpr (ascendc_cpu::api::Check<E>()) {                                             \
            ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) { return fn(srcReg.lane[i], s); }); \
        } else {                                                                                         \
            ascendc_cpu::MicroNotModelled<E>("MicroAPI::" #Name);                                        \
        }                                                                                                \
    }

#define ASCENDC_CPU_MICRO_MATH(Name, Check, fn)                                                        \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>                  \
    inline void Name(U& dstReg, U& srcReg, MaskReg& mask)                                                \
    {                                                                                                    \
        using E = typename U::ActualT;                                                                   \
        static_assert(std::is_same<decltype(mode), MaskMergeMode>::value,                                \
            "ascendc_cpu: MicroAPI::" #Name "'s mode is a MaskMergeMode here (C++17)");                  \
        ascendc_cpu::api::Check<E>();                                                                    \
        ascendc_cpu::RecordRegister("MicroAPI::" #Name);                                                 \
        ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) { return fn(srcReg.lane[i]); });  \
    }

ASCENDC_CPU_MICRO_BINARY(Add, CheckAdd, ascendc_cpu::ArithAdd)
ASCENDC_CPU_MICRO_BINARY(Sub, CheckSub, ascendc_cpu::ArithSub)
ASCENDC_CPU_MICRO_BINARY(Mul, CheckMul, ascendc_cpu::ArithMul)
ASCENDC_CPU_MICRO_BINARY(Max, CheckMax, ascendc_cpu::ArithMax)
ASCENDC_CPU_MICRO_BINARY(Min, CheckMin, ascendc_cpu::ArithMin)
ASCENDC_CPU_MICRO_SCALAR(Adds, CheckAdds, ascendc_cpu::ArithAdd)
ASCENDC_CPU_MICRO_SCALAR(Muls, CheckMuls, ascendc_cpu::ArithMul)
ASCENDC_CPU_MICRO_SCALAR(Maxs, CheckMaxs, ascendc_cpu::ArithMax)
ASCENDC_CPU_MICRO_SCALAR(Mins, CheckMins, ascendc_cpu::ArithMin)
ASCENDC_CPU_MICRO_MATH(Exp, CheckExp, ascendc_cpu::MathExp)
ASCENDC_CPU_MICRO_MATH(Ln, CheckLn, ascendc_cpu::MathLn)
ASCENDC_CPU_MICRO_MATH(Log, CheckLn, ascendc_cpu::MathLn)
ASCENDC_CPU_MICRO_MATH(Sqrt, CheckSqrt, ascendc_cpu::MathSqrt)

#undef ASCENDC_CPU_MICRO_BINARY
#undef ASCENDC_CPU_MICRO_SCALAR
#undef ASCENDC_CPU_MICRO_MATH

/// src0 / src1 with the basic Div's model (correctly rounded, assumed; the hardware's instruction
/// is documented within 1 ulp), Div's element types. `mode` is a MaskMergeMode (ZEROING) or a
/// pointer to a DivSpecificMode (REG/基础算术/Div.md, "mode"): precisionMode true, or algo
/// DIFF_COMPENSATION / PRECISION_0ULP_FTZ_TRUE, is documented 0 ulp (correctly rounded) with
/// subnormal inputs and results flushed to zero ("其他模式下Subnormal均被FTZ"; table 8: 1 / a
/// subnormal -5e-39 gives -inf, so an input keeps its sign; a flushed result is assumed to keep its
/// sign too), float only; PRECISION_0ULP_FTZ_FALSE correctly rounded with subnormals kept; the 1-ulp
/// algorithms the basic Div's model.
template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>
inline void Div(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Div");
    using E = typename U::ActualT;
    using M = decltype(mode);
    static_assert(std::is_same<M, MaskMergeMode>::value || std::is_same<M, const DivSpecificMode*>::value,
        "ascendc_cpu: MicroAPI::Div's mode is a MaskMergeMode or a pointer to a DivSpecificMode (Div.md)");
    if constexpr (std::is_integral<E>::value) {
        static_assert(std::is_same<M, MaskMergeMode>::value, "MicroAPI::Div: a DivSpecificMode on integers");
        ascendc_cpu::MicroIntDiv<mode>(dstReg, srcReg0, srcReg1, mask);
    } else if constexpr (!ascendc_cpu::api::CheckDiv<E>()) {
        ascendc_cpu::MicroNotModelled<E>("MicroAPI::Div");
    } else if constexpr (std::is_same<M, MaskMergeMode>::value) {
        ascendc_cpu::MicroLanes<mode>(dstReg, mask,
            [&](uint32_t i) { return ascendc_cpu::ArithDiv(srcReg0.lane[i], srcReg1.lane[i]); });
    } else {
        static_assert(mode->mrgMode == MaskMergeMode::ZEROING, "MicroAPI::Div: MERGING is not supported (Div.md)");
        constexpr bool exact = mode->precisionMode || mode->algo == DivAlgo::DIFF_COMPENSATION ||
            mode->algo == DivAlgo::PRECISION_0ULP_FTZ_TRUE;
        static_assert(!exact || std::is_same<E, float>::value,
            "MicroAPI::Div: the 0-ulp (difference-compensation) algorithm takes float only here (Div.md)");
        ascendc_cpu::MicroLanes<MaskMergeMode::ZEROING>(dstReg, mask, [&](uint32_t i) {
            if constexpr (exact) {
                return ascendc_cpu::FlushSubnormal(ascendc_cpu::ArithDiv(
                    ascendc_cpu::FlushSubnormal(srcReg0.lane[i]), ascendc_cpu::FlushSubnormal(srcReg1.lane[i])));
            } else {
                return ascendc_cpu::ArithDiv(srcReg0.lane[i], srcReg1.lane[i]);
            }
        });
    }
}

/// dstReg = scalarValue * srcReg + dstReg, fused (one rounding: the precision table's "同比Fma");
/// half, float; int64_t/uint64_t (which the docs list) are refused when they run.
template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
inline void Axpy(S& dstReg, S& srcReg, const U scalarValue, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Axpy");
    using E = typename S::ActualT;
    static_assert(ascendc_cpu::kIsOneOf<E, half, float, int64_t, uint64_t>,
        "Axpy supports (half, float, int64_t, uint64_t) on Ascend 950 (MicroAPI Axpy.md)");
    if constexpr (ascendc_cpu::kIsOneOf<E, half, float>) {
        const E s = static_cast<E>(scalarValue);
        ascendc_cpu::MicroLanes<mode>(dstReg, mask,
            [&](uint32_t i) { return ascendc_cpu::FusedMulAdd(s, srcReg.lane[i], dstReg.lane[i]); });
    } else {
        ascendc_cpu::MicroNotModelled<E>("MicroAPI::Axpy");
    }
}

/// |x|: the sign bit cleared (Abs's element types).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void Abs(U& dstReg, U& srcReg, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Abs");
    using E = typename U::ActualT;
    ascendc_cpu::api::CheckAbs<E>();
    ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) {
        E v = srcReg.lane[i];
        uint8_t* b = reinterpret_cast<uint8_t*>(&v);
        b[sizeof(E) - 1] = static_cast<uint8_t>(b[sizeof(E) - 1] & 0x7Fu);
        return v;
    });
}

/// -x: the sign bit flipped on floating lanes (the precision table: "符号位取反"), two's
/// complement (wrapping) on int16_t/int32_t.
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void Neg(U& dstReg, U& srcReg, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Neg");
    using E = typename U::ActualT;
    static_assert(ascendc_cpu::kIsOneOf<E, half, bfloat16_t, float, int16_t, int32_t>,
        "ascendc_cpu: MicroAPI::Neg is modelled for half, bfloat16_t, float, int16_t, int32_t");
    ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) {
        E v = srcReg.lane[i];
        if constexpr (std::is_integral<E>::value) {
            return static_cast<E>(0u - static_cast<uint32_t>(v));
        } else {
            uint8_t* b = reinterpret_cast<uint8_t*>(&v);
            b[sizeof(E) - 1] = static_cast<uint8_t>(b[sizeof(E) - 1] ^ 0x80u);
            return v;
        }
    });
}

/// Bitwise And / Or / Xor of two registers, lane by lane (Reg矢量计算/逻辑计算/And.md, Or.md,
/// Xor.md: "按位求或" ...; bool, int8_t..uint64_t); a kernel reinterprets float registers as
/// integer ones to combine halves (ops-nn's glu: two half-filled Cast results Or-ed). 64-bit
/// lanes compile and are refused when they run (no lanes modelled). Only ZEROING is documented.
#define ASCENDC_CPU_MICRO_BITWISE(Name, expr)                                                      \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>  \
    inline void Name(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)                          \
    {                                                                                            \
        ascendc_cpu::RecordRegister("MicroAPI::" #Name);                                         \
        using E = typename U::ActualT;                                                           \
        static_assert(ascendc_cpu::kIsOneOf<E, bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, \
                          uint32_t, int64_t, uint64_t>,                                          \
            "ascendc_cpu: MicroAPI::" #Name " takes bool and the integer types (" #Name ".md)");  \
        static_assert(mode == MaskMergeMode::ZEROING,                                            \
            "ascendc_cpu: MicroAPI::" #Name "'s MERGING mode is not supported (" #Name ".md)");    \
        if constexpr (sizeof(E) == 8) {                                                          \
            ascendc_cpu::MicroNotModelled<E>("MicroAPI::" #Name);                                \
        } else {                                                                                 \
            ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) {                        \
                const E a = srcReg0.lane[i];                                                     \
                const E b = srcReg1.lane[i];                                                     \
                return static_cast<E>(expr);                                                     \
            });                                                                                  \
        }                                                                                        \
    }                                                                                            \
    /** The MaskReg form: dst bit = mask bit && (src0 bit <op> src1 bit), every VL/8 bit. */    \
    inline void Name(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask)                 \
    {                                                                                            \
        for (uint32_t k = 0; k < VECTOR_REG_WIDTH; ++k) {                                       \
            const bool a = src0.on[k];                                                           \
            const bool b = src1.on[k];                                                           \
            dst.on[k] = mask.on[k] && static_cast<bool>(expr);                                   \
        }                                                                                        \
    }

ASCENDC_CPU_MICRO_BITWISE(And, a & b)
ASCENDC_CPU_MICRO_BITWISE(Or, a | b)
ASCENDC_CPU_MICRO_BITWISE(Xor, a ^ b)

#undef ASCENDC_CPU_MICRO_BITWISE

/// DeInterleave / Interleave of two registers (Reg矢量计算/数据重排/DeInterleave.md,
/// Interleave.md; every element type; b64 only as RegTraitNumTwo). The pages define the order by
/// a figure this model could not read (a Git LFS object in asc-devkit); assumed, as the callers
/// read it: DeInterleave takes srcReg0 then srcReg1 as one sequence of 2N lanes and puts its
/// even lanes in dstReg0, its odd lanes in dstReg1 (ops-nn's glu splits a, b pairs of a last dim
/// of 2 so, glu_common.h ComputeSigmoidAndMulWithDeInterleave); Interleave is its inverse
/// (dstReg0 = s0[0], s1[0], s0[1], s1[1], ... the first N, dstReg1 the rest). The sources may be
/// the destinations (the pages allow it): both are read before either is written.
template <typename T = DefaultType, typename U>
inline void DeInterleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1)
{
    ascendc_cpu::RecordRegister("MicroAPI::DeInterleave");
    constexpr uint32_t n = U::kLanes;
    const U a = srcReg0;
    const U b = srcReg1;
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t even = 2 * i;
        const uint32_t odd = 2 * i + 1;
        dstReg0.lane[i] = even < n ? a.lane[even] : b.lane[even - n];
        dstReg1.lane[i] = odd < n ? a.lane[odd] : b.lane[odd - n];
    }
}

template <typename T = DefaultType, typename U>
inline void Interleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1)
{
    ascendc_cpu::RecordRegister("MicroAPI::Interleave");
    constexpr uint32_t n = U::kLanes;
    const U a = srcReg0;
    const U b = srcReg1;
    for (uint32_t k = 0; k < 2 * n; ++k) {
        const auto v = (k % 2 == 0) ? a.lane[k / 2] : b.lane[k / 2];
        (k < n ? dstReg0.lane[k] : dstReg1.lane[k - n]) = v;
    }
}

/// maximum(x, +0) (Relu's element types).
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U>
inline void Relu(U& dstReg, U& srcReg, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Relu");
    using E = typename U::ActualT;
    ascendc_cpu::api::CheckRelu<E>();
    ascendc_cpu::MicroLanes<mode>(dstReg, mask, [&](uint32_t i) { return ascendc_cpu::ArithMax(srcReg.lane[i], E(0)); });
}

// endregion

}  // namespace Reg
}  // namespace AscendC

namespace ascendc_cpu {

/// How a MicroAPI Cast row treats its trait's SatMode.
enum class MicroSat {
    kUnknown,  ///< the table names SatMode::UNKNOWN
    kNamed,    ///< the table names NO_SAT and SAT
    kIgnored,  ///< no row in the tables; asc-devkit's implementation reads no SatMode for the pair
};

/// The RoundModes, RegLayouts and SatModes a MicroAPI Cast from U to T takes (the Cast page's
/// tables 6-9: Cast.md:164-236); kModes 0: the pair is not modelled.
struct MicroCastRow {
    uint32_t modes;     ///< bit i: RoundMode i; bit 15: RoundMode::UNKNOWN
    uint32_t layouts;   ///< bit i: RegLayout i; bit 4: RegLayout::UNKNOWN
    MicroSat sat;
};

constexpr uint32_t kMicroUnknownMode = 1u << 15;
constexpr uint32_t kMicroRintToTrunc = 0x3Eu;
constexpr uint32_t kLayoutSame = 1u << 4;
constexpr uint32_t kLayouts2 = 0x3u;
constexpr uint32_t kLayouts4 = 0xFu;

template <typename T, typename U>
constexpr MicroCastRow MicroCastModes()
{
    using std::is_same;
    constexpr MicroSat unknown = MicroSat::kUnknown;
    constexpr MicroSat named = MicroSat::kNamed;
    if constexpr (is_same<T, float>::value && is_same<U, half>::value) {
        // Cast.md:92 lists half -> float, tables 7-9 give it no row; kernel_reg_compute_vec_vconv_impl.h
        // (dav_3510, its `layoutMerge` pairs) passes neither the trait's SatMode nor its RoundMode on.
        return {kMicroUnknownMode, kLayouts2, MicroSat::kIgnored};
    } else if constexpr (is_same<T, float>::value && is_same<U, bfloat16_t>::value) {
        return {kMicroUnknownMode, kLayouts2, unknown};
    } else if constexpr (is_same<T, half>::value && is_same<U, float>::value) {
        return {kMicroRintToTrunc | (1u << 6), kLayouts2, named};
    } else if constexpr (is_same<T, bfloat16_t>::value && is_same<U, float>::value) {
        return {kMicroRintToTrunc, kLayouts2, named};
    } else if constexpr (is_same<T, bfloat16_t>::value && is_same<U, half>::value) {
        return {kMicroRintToTrunc, kLayoutSame, unknown};
    } else if constexpr (is_same<T, half>::value && is_same<U, bfloat16_t>::value) {
        return {kMicroRintToTrunc, kLayoutSame, named};
    } else if constexpr (is_same<T, half>::value && kIsOneOf<U, int8_t, uint8_t>) {
        return {kMicroUnknownMode, kLayouts2, unknown};
    } else if constexpr (is_same<T, half>::value && is_same<U, int16_t>::value) {
        return {kMicroRintToTrunc, kLayoutSame, unknown};
    } else if constexpr (is_same<T, float>::value && is_same<U, int16_t>::value) {
        return {kMicroUnknownMode, kLayouts2, unknown};
    } else if constexpr (is_same<T, float>::value && is_same<U, int32_t>::value) {
        return {kMicroRintToTrunc, kLayoutSame, unknown};
    } else if constexpr (is_same<T, float>::value && is_same<U, int64_t>::value) {
        return {kMicroRintToTrunc, kLayouts2, unknown};
    } else if constexpr (kIsOneOf<T, int8_t, uint8_t> && is_same<U, half>::value) {  // table 6
        return {kMicroRintToTrunc, kLayouts2, named};
    } else if constexpr (is_same<T, int16_t>::value && is_same<U, half>::value) {
        return {kMicroRintToTrunc, kLayoutSame, named};
    } else if constexpr (is_same<T, int32_t>::value && is_same<U, half>::value) {
        return {kMicroRintToTrunc, kLayouts2, unknown};
    } else if constexpr (is_same<T, int32_t>::value && is_same<U, bfloat16_t>::value) {
        return {kMicroRintToTrunc, kLayouts2, named};
    } else if constexpr (is_same<T, int16_t>::value && is_same<U, float>::value) {
        return {kMicroRintToTrunc, kLayouts2, named};
    } else if constexpr (is_same<T, int32_t>::value && is_same<U, float>::value) {
        return {kMicroRintToTrunc, kLayoutSame, named};
    } else if constexpr (is_same<T, int64_t>::value && is_same<U, float>::value) {
        return {kMicroRintToTrunc, kLayouts2, named};
    } else if constexpr (is_same<T, hifloat8_t>::value && is_same<U, half>::value) {  // table 7
        return {(1u << static_cast<uint32_t>(AscendC::RoundMode::CAST_ROUND)) |
                    (1u << static_cast<uint32_t>(AscendC::RoundMode::CAST_HYBRID)), kLayouts2, named};
    } else if constexpr (is_same<T, hifloat8_t>::value && is_same<U, float>::value) {
        return {(1u << static_cast<uint32_t>(AscendC::RoundMode::CAST_ROUND)) |
                    (1u << static_cast<uint32_t>(AscendC::RoundMode::CAST_HYBRID)), kLayouts4, named};
    } else if constexpr (kIsOneOf<T, fp8_e4m3fn_t, fp8_e5m2_t> && is_same<U, float>::value) {
        return {1u << static_cast<uint32_t>(AscendC::RoundMode::CAST_RINT), kLayouts4, named};
    } else {
        return {0, 0, MicroSat::kUnknown};
    }
}

/// Whether a Reg Cast to an integer saturates (Cast.md table 5, :150-157): under CTRL[60] = 1 the
/// global mode, CTRL[59] = 0 saturating; under CTRL[60] = 0 the trait's SatMode (`sat`: 1 SAT,
/// 0 NO_SAT, -1 UNKNOWN: a pair whose two modes give the same results, taken as saturating).
inline bool RegIntSaturates(int sat)
{
    const uint64_t ctrl = Rt().ctrl;
    if (((ctrl >> kCtrlGlobalSat) & 1u) != 0) {
        return ((ctrl >> kCtrlIntNoSat) & 1u) == 0;
    }
    return sat != 0;
}

/// One lane of a Reg Cast from a float to the integer T (Cast.md table 4, :139-140): NaN gives 0
/// in both modes, +-inf the type's largest / smallest value; a value out of range saturates to
/// them, or, not saturating, keeps its low bits ("截断为目标格式的数据宽度（保留最低有效位）", half
/// 257 -> uint8_t 1).
template <typename T>
inline T RegFloatToIntLane(double x, Rounding r, bool saturate)
{
    constexpr int64_t lo = static_cast<int64_t>(std::numeric_limits<T>::min());
    constexpr int64_t hi = static_cast<int64_t>(std::numeric_limits<T>::max());
    if (x != x) {
        return T(0);
    }
    if (std::isinf(x)) {
        return static_cast<T>(x < 0 ? lo : hi);
    }
    const double y = RoundToIntegral(x, r);
    if (y >= static_cast<double>(lo) && y < static_cast<double>(hi) + 1.0) {
        return static_cast<T>(static_cast<int64_t>(y));
    }
    if (saturate) {
        return static_cast<T>(y < 0 ? lo : hi);
    }
    const double wrap = std::ldexp(1.0, 8 * static_cast<int>(sizeof(T)));
    double m = std::fmod(y, wrap);  // exact
    if (m < 0) {
        m += wrap;
    }
    return static_cast<T>(static_cast<uint64_t>(m));
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

/// Precision conversion from U lanes to T lanes (see the header comment).
template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait, typename S,
    typename V>
inline void Cast(S& dstReg, V& srcReg, MaskReg& mask)
{
    ascendc_cpu::RecordRegister("MicroAPI::Cast");
    using DT = typename S::ActualT;
    using ST = typename V::ActualT;
    static_assert(std::is_same<T, DefaultType>::value || std::is_same<T, DT>::value,
        "MicroAPI::Cast: T is not the destination register's type");
    static_assert(std::is_same<U, DefaultType>::value || std::is_same<U, ST>::value,
        "MicroAPI::Cast: U is not the source register's type");
    constexpr ascendc_cpu::MicroCastRow row = ascendc_cpu::MicroCastModes<DT, ST>();
    static_assert(row.modes != 0,
        "ascendc_cpu: MicroAPI::Cast is modelled for the Cast tables' float results, their float -> integer "
        "rows (table 6, int4x2_t aside) and the 8-bit floats of table 7; this pair is none of them");
    static_assert(S::REG_NUM == 1 && V::REG_NUM == 1, "ascendc_cpu: MicroAPI::Cast is modelled for one register");
    const char* api = "MicroAPI::Cast";
    const uint32_t modeBit = trait.roundMode == RoundMode::UNKNOWN ? 15u : static_cast<uint32_t>(trait.roundMode);
    if (modeBit > 15 || ((row.modes >> modeBit) & 1u) == 0) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg(ascendc_cpu::TypeName<ST>(), " -> ", ascendc_cpu::TypeName<DT>(),
            " does not take RoundMode ", ascendc_cpu::RoundModeName(trait.roundMode), " (the Cast page's tables)"));
    }
    const uint32_t layoutBit = trait.layoutMode == RegLayout::UNKNOWN ? 4u : static_cast<uint32_t>(trait.layoutMode);
    if (((row.layouts >> layoutBit) & 1u) == 0) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg(ascendc_cpu::TypeName<ST>(), " -> ", ascendc_cpu::TypeName<DT>(),
            " does not take RegLayout ", static_cast<int>(trait.layoutMode), " (the Cast page's tables)"));
    }
    constexpr bool kToInteger = std::is_integral<DT>::value;
    constexpr bool kToFloat8 = ascendc_cpu::kIsFloat8<DT>;
    if (trait.satMode == SatMode::SAT && !kToInteger && !kToFloat8 && row.sat != ascendc_cpu::MicroSat::kIgnored) {
        ascendc_cpu::Fail(api, "SatMode::SAT to half, bfloat16_t or float is not modelled (whether it applies "
                               "depends on the CTRL register)");
    }
    if (row.sat == ascendc_cpu::MicroSat::kNamed && trait.satMode == SatMode::UNKNOWN) {
        ascendc_cpu::Fail(api, ascendc_cpu::Msg(ascendc_cpu::TypeName<ST>(), " -> ", ascendc_cpu::TypeName<DT>(),
            " names SatMode::NO_SAT or SAT (the Cast page's tables)"));
    }
    if (row.sat == ascendc_cpu::MicroSat::kUnknown && trait.satMode != SatMode::UNKNOWN) {
        // The row has one behaviour (no saturation choice): a named mode breaks the table, and the
        // lanes are still the row's (asc-devkit's implementation passes no SatMode for the widening
        // pairs, kernel_reg_compute_vec_vconv_impl.h), so the run goes on.
        ascendc_cpu::Broken(api, ascendc_cpu::Msg(ascendc_cpu::TypeName<ST>(), " -> ", ascendc_cpu::TypeName<DT>(),
            " takes SatMode::UNKNOWN (the Cast page's tables)"),
            ascendc_cpu::Msg("MicroAPI::Cast/sat/", ascendc_cpu::TypeName<ST>(), "/", ascendc_cpu::TypeName<DT>()));
    }
    [[maybe_unused]] const int satArg = trait.satMode == SatMode::UNKNOWN ? -1 : static_cast<int>(trait.satMode);
    const ascendc_cpu::Rounding r = ascendc_cpu::ToRounding(trait.roundMode);
    const uint32_t layout = layoutBit == 4u ? 0u : layoutBit;
    auto lane = [&](const ST& v, uint32_t i) -> DT {
        if constexpr (kToFloat8) {
            return ascendc_cpu::Float8Lane<DT, ST>(v, trait.roundMode, ascendc_cpu::Float8Saturation(api, satArg));
        } else if constexpr (kToInteger) {
            (void)i;
            return ascendc_cpu::RegFloatToIntLane<DT>(static_cast<double>(static_cast<float>(v)), r,
                ascendc_cpu::RegIntSaturates(satArg));
        } else {
            return ascendc_cpu::CastLane<DT, ST>(v, r, i);
        }
    };
    S out;
    if constexpr (sizeof(DT) > sizeof(ST)) {
        constexpr uint32_t k = sizeof(DT) / sizeof(ST);
        for (uint32_t i = 0; i < S::kLanes; ++i) {
            const uint32_t j = k * i + layout;
            out.lane[i] = ascendc_cpu::LaneOn<V>(mask, j) ? lane(srcReg.lane[j], i) : DT();
        }
    } else {
        constexpr uint32_t k = sizeof(ST) / sizeof(DT);
        for (uint32_t i = 0; i < V::kLanes; ++i) {
            out.lane[k * i + layout] = ascendc_cpu::LaneOn<V>(mask, i) ? lane(srcReg.lane[i], i) : DT();
        }
    }
    if constexpr (trait.mrgMode == MaskMergeMode::MERGING) {
        static_assert(ascendc_cpu::kFalse<S>, "ascendc_cpu: MicroAPI::Cast takes MaskMergeMode::ZEROING only");
    }
    dstReg = out;
}

}  // namespace Reg
}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_H
