// ascendc_cpu_vec_cmpsel.h - Compare, CompareScalar / Compares and Select.
//
// Part of the AscendC CPU model (see README.md). Level-2 ("count") forms with
// the signatures of include/basic_api/kernel_operator_vec_cmpsel_intf.h.
// Masks are uint8_t bit masks: element i -> bit i%8 of byte i/8, 1 = true.
// As in the ascend910b implementation (dav_c220 CompareCompute /
// CompareScalarCompute), both compares run count*sizeof(T)/256 whole repeats:
// a count that leaves a partial repeat is a violation here (the device would
// silently leave the tail's mask bits unwritten).
#ifndef ASCENDC_CPU_VEC_CMPSEL_H
#define ASCENDC_CPU_VEC_CMPSEL_H

#include "ascendc_cpu_fn.h"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ascendc_cpu_api.h"
#include "ascendc_cpu_vec_common.h"

namespace ascendc_cpu {

/// src0 OP src1 with IEEE semantics: NaN makes LT/GT/EQ/LE/GE false and NE true.
ASCENDC_CPU_FN bool CompareValues(double a, double b, AscendC::CMPMODE mode)
{
    using AscendC::CMPMODE;
    switch (mode) {
        case CMPMODE::LT: return a < b;
        case CMPMODE::GT: return a > b;
        case CMPMODE::EQ: return a == b;
        case CMPMODE::LE: return a <= b;
        case CMPMODE::GE: return a >= b;
        case CMPMODE::NE: return !(a == b);
    }
    return false;
}

/// The exact value of a compared lane (half, float or an integer of up to 32 bits).
template <typename T>
inline double CompareOperand(const T& v)
{
    if constexpr (std::is_integral<T>::value) {
        return static_cast<double>(v);
    } else {
        return AsDouble(v);
    }
}

/// One compare lane, (a OP b), of every form (level 2 and level 0, tensor or scalar src1).
template <typename T>
inline bool CompareLane(const T& a, const T& b, AscendC::CMPMODE mode)
{
    return CompareValues(CompareOperand(a), CompareOperand(b), mode);
}

/// The modes an element type takes: int32_t compares with CMPMODE::EQ only on Atlas A2/A3
/// (Compare.md / Compares.md: "int32_t（只支持CMPMODE::EQ）"); Ascend 950 lists int32_t for
/// every mode.
template <typename T>
inline void CheckCompareMode(const char* api, AscendC::CMPMODE mode)
{
#if defined(ASCENDC_CPU_DAV_3510)
    (void)api;
    (void)mode;
#else
    if (std::is_same<T, int32_t>::value && mode != AscendC::CMPMODE::EQ) {
        Fail(api, "int32_t operands support CMPMODE::EQ only");
    }
#endif
}

/// One select lane: src0's element where the selection bit is 1, else src1's.
template <typename T>
inline T SelectLane(bool bit, const T& src0, const T& src1)
{
    return bit ? src0 : src1;
}

template <typename T, typename U>
inline void CompareLanes(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0,
    const AscendC::LocalTensor<T>* src1, const T& scalar, AscendC::CMPMODE cmpMode, uint32_t count);

/// Shared body of Compare (src1 a tensor) and CompareScalar (src1 == nullptr); a type the SoC
/// takes and the model has no lanes for (Ascend 950's int8_t, int64_t, ...) compiles and is
/// refused when run.
template <typename T, typename U>
inline void CompareImpl(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0,
    const AscendC::LocalTensor<T>* src1, const T& scalar, AscendC::CMPMODE cmpMode, uint32_t count)
{
    if constexpr (api::CheckCompare<T>()) {
        CompareLanes(api, dst, src0, src1, scalar, cmpMode, count);
    } else {
        NotModelledType<T>(api);
    }
}

template <typename T, typename U>
inline void CompareLanes(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0,
    const AscendC::LocalTensor<T>* src1, const T& scalar, AscendC::CMPMODE cmpMode, uint32_t count)
{
    static_assert(std::is_same<U, uint8_t>::value, "Compare/CompareScalar write a uint8_t mask");
    CheckCompareMode<T>(api, cmpMode);
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
#if defined(ASCENDC_CPU_DAV_3510)
    // Ascend 950 masks the last repeat to `count` lanes (asc-devkit impl/basic_api/dav_3510/
    // kernel_operator_vec_cmp_impl.h, counter mode); the mask bytes written are assumed to be
    // ceil(count / 8), the bits past `count` zero.
    const uint32_t maskBytes = (count + 7) / 8;
#else
    if (bytes % kRepeatBytes != 0) {
        Broken(api, Msg("count ", count, " x ", sizeof(T),
            " bytes is not a multiple of 256 bytes (only whole repeats are compared)"), Msg(api, "/partial"));
        count = static_cast<uint32_t>(bytes / kRepeatBytes * kRepeatBytes / sizeof(T));  // what the device compares
    }
    const uint32_t maskBytes = count / 8;
#endif
    if (count == 0) {
        return;
    }
    CheckUb(api, "src0", src0.cpu_, bytes, Access::kVecRead);
    if (src1 != nullptr) {
        CheckUb(api, "src1", src1->cpu_, bytes, Access::kVecRead);
    }
    CheckUb(api, "dst", dst.cpu_, maskBytes, Access::kVecWrite);
    std::vector<uint8_t> out(maskBytes, 0);
    for (uint32_t i = 0; i < count; ++i) {
        const T a = Load<T>(src0.cpu_.ptr + i * sizeof(T));
        const T b = src1 != nullptr ? Load<T>(src1->cpu_.ptr + i * sizeof(T)) : scalar;
        if (CompareLane(a, b, cmpMode)) {
            out[i / 8] = static_cast<uint8_t>(out[i / 8] | (1u << (i % 8)));
        }
    }
    std::memcpy(dst.cpu_.ptr, out.data(), out.size());
}

ASCENDC_CPU_FN bool MaskBit(const uint8_t* mask, uint64_t i)
{
    return ((mask[i / 8] >> (i % 8)) & 1u) != 0;
}

/// Shared body of the Select overloads; `src1` is null for the scalar form.
template <typename T, typename U>
inline void SelectImpl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& selMask,
    const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1, const T& scalar,
    AscendC::SELMODE selMode, uint32_t count, bool scalarIsSrc0 = false)
{
    api::CheckSelect<T>();
    static_assert(std::is_integral<U>::value && std::is_unsigned<U>::value, "Select mask must be an unsigned type");
    const char* api = "Select";
    using AscendC::SELMODE;
    if (src1 != nullptr && selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Fail(api, "VSEL_TENSOR_SCALAR_MODE needs a scalar src1");
    }
    if (src1 == nullptr && selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        Fail(api, "a scalar src1 needs VSEL_TENSOR_SCALAR_MODE");
    }
    if (count == 0) {
        return;
    }
    const uint32_t perRepeat = kRepeatBytes / sizeof(T);
    const uint64_t maskBits = selMode == SELMODE::VSEL_CMPMASK_SPR ? perRepeat : count;
    const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    CheckUb(api, "selMask", selMask.cpu_, (maskBits + 7) / 8, Access::kVecRead);
    CheckUb(api, "src0", src0.cpu_, bytes, Access::kVecRead);
    if (src1 != nullptr) {
        CheckUb(api, "src1", src1->cpu_, bytes, Access::kVecRead);
    }
    CheckUb(api, "dst", dst.cpu_, bytes, Access::kVecWrite);
    const uint8_t* m = selMask.cpu_.ptr;
    std::vector<T> out(count);
    for (uint32_t i = 0; i < count; ++i) {
        const uint64_t bit = selMode == SELMODE::VSEL_CMPMASK_SPR ? i % perRepeat : i;
        const bool take0 = MaskBit(m, bit);
        const T tensor0 = Load<T>(src0.cpu_.ptr + i * sizeof(T));
        if (scalarIsSrc0) {  // `src0` holds the tensor operand, src1
            out[i] = SelectLane(take0, scalar, tensor0);
        } else {
            out[i] = SelectLane(take0, tensor0, src1 != nullptr ? Load<T>(src1->cpu_.ptr + i * sizeof(T)) : scalar);
        }
    }
    std::memcpy(dst.cpu_.ptr, static_cast<const void*>(out.data()), bytes);
}

}  // namespace ascendc_cpu

namespace AscendC {

/// Bit mask of (src0[i] OP src1[i]) for i < count. Rule: count * sizeof(T)
/// must be a multiple of 256 bytes (whole repeats); dst needs count/8 bytes.
/// T: half or float (int32_t: EQ only on Atlas A2/A3, CheckCompareMode). NaN: see CompareValues.
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
    CMPMODE cmpMode, uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CompareImpl("Compare", dst, src0, &src1, T(), cmpMode, count);
}

/// Bit mask of (src0[i] OP src1Scalar), with Compare's rules.
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
    CMPMODE cmpMode, uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CompareImpl<T, U>("CompareScalar", dst, src0, nullptr, src1Scalar, cmpMode, count);
}

/// Newer spelling of CompareScalar.
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
    uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::CompareImpl<T, U>("Compares", dst, src0, nullptr, src1Scalar, cmpMode, count);
}

/// dst[i] = bit ? src0[i] : src1[i]. Modes: VSEL_CMPMASK_SPR (bit i % (256 /
/// sizeof(T)) of selMask, i.e. the first repeat's bits reused for every
/// repeat) or VSEL_TENSOR_TENSOR_MODE (bit i). Any count; dst may be src0.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
    const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::SelectImpl(dst, selMask, src0, &src1, T(), selMode, count);
}

/// dst[i] = bit i ? src0[i] : src1 (scalar); selMode must be
/// VSEL_TENSOR_SCALAR_MODE. Any count; dst may be src0.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
    SELMODE selMode, uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::SelectImpl<T, U>(dst, selMask, src0, nullptr, src1, selMode, count);
}

/// dst[i] = bit i ? src0 (scalar) : src1[i]; the scalar-first form asc-devkit's generic
/// Select takes ("one of src0/src1 should be scalar"), with the scalar form's rules.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, T src0, const LocalTensor<T>& src1,
    SELMODE selMode, uint32_t count, ascendc_cpu::Site site = ascendc_cpu::Site())
{
    ascendc_cpu::CallScope call(site);
    ascendc_cpu::SelectImpl<T, U>(dst, selMask, src1, nullptr, src0, selMode, count, true);
}

}  // namespace AscendC

#endif  // ASCENDC_CPU_VEC_CMPSEL_H
