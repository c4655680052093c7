// ascendc_cpu_micro_gather.h - Ascend 950's MicroAPI index calls (Arange), the gathers and
// scatters between the UB and a register, and the older DataCopy* names of the unaligned loads and
// stores, which opbase's ATVOSS reduce template (atvoss/reduce/reduce_operator.h) and ops-nn's
// arch35 kernels (swi_glu_grad_ub_rearrange.h) call.
//
// Part of the AscendC CPU model (see README.md); only with -DASCENDC_CPU_DAV_3510. Pages cited
// below are under asc-devkit's docs/zh/api/SIMD-API/基础API/Reg矢量计算/ (REG); IMPL is asc-devkit's
// impl/basic_api/reg_compute/.
//
//   Arange<T, order>(dstReg, s)  REG/索引操作/Arange.md:32, 46, 69, 73: lane i = s + i
//                           (INCREASE_ORDER) for int8_t, int16_t, int32_t (wrapping past the type's
//                           end, :73), half, float (s + i rounded to T, ties to even: assumed, the
//                           page gives no rounding); int64_t compiles and is refused when run.
//                           DECREASE_ORDER ("以scalarValue的值为终止值", :32, :56) is defined by a figure
//                           the model could not read: not modelled (a compile error).
//   Gather(dstReg, base, index, mask), its older name DataCopyGather (IMPL/
//                           kernel_reg_compute_datacopy_intf_impl.h:369-377: both call
//                           DataCopyGatherImpl)  REG/Reg数据搬入/离散搬入（Gather）.md:31, 62-63, 70-84,
//                           92-98: lane i (on) = base[index[i]], index in elements; the pairs of
//                           its table 3 (b8 -> b16 zero-extended, :94-98; b64 compiles and is
//                           refused when run); base 32-byte aligned (:92) and every element read
//                           inside the UB (:93) else a broken rule. The lanes off: 0 (assumed; the
//                           page does not say, and vgather2 takes no merge mode).
//   Scatter(base, srcReg, index, mask), DataCopyScatter  REG/Reg数据搬出/离散搬出（Scatter）.md:31, 59-61,
//                           70-82, 90-92: base[index[i]] = lane i for the lanes on; base 32-byte
//                           aligned (:90), two lanes on with one index a broken rule (:92: "必须确保
//                           index值不重复", which element stays unspecified); 8-bit elements (only
//                           the even source lanes, :91) are not modelled, b64 refused when run.
//   UnalignReg, DataCopyUnAlignPre / DataCopyUnAlign / DataCopyUnAlignPost  the older names of
//                           LoadUnAlignPre / LoadUnAlign / StoreUnAlign / StoreUnAlignPost
//                           (IMPL/kernel_reg_compute_datacopy_intf_impl.h:218-305: each pair calls
//                           one Impl); UnalignReg is one register type there
//                           (include/basic_api/reg_compute/kernel_reg_compute_common_intf.h:38), here
//                           both of ascendc_cpu_micro_reduce.h's, so a kernel may load or store
//                           through it.
#ifndef ASCENDC_CPU_MICRO_GATHER_H
#define ASCENDC_CPU_MICRO_GATHER_H

#if defined(ASCENDC_CPU_DAV_3510)

#include <cstdint>
#include <type_traits>

#include "ascendc_cpu_micro.h"
#include "ascendc_cpu_micro_reduce.h"

namespace AscendC {
namespace Reg {

enum class IndexOrder { INCREASE_ORDER, DECREASE_ORDER };

/// The older unaligned register: the load and the store halves of ascendc_cpu_micro_reduce.h.
struct UnalignReg : UnalignRegForStore, UnalignRegForLoad {};

}  // namespace Reg
}  // namespace AscendC

namespace ascendc_cpu {

/// `base` is 32-byte aligned and element k of it (k in elements of E) lies inside the UB.
template <typename E>
inline void MicroIndexedAccess(const char* api, const E* base, uint64_t k, bool write)
{
    const uint64_t off = static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(base) - Arena());
    if (off % kUbBlockBytes != 0) {
        Fail(api, Msg("the base address (UB offset ", off, ") is not 32-byte aligned"));
    }
    if (off + (k + 1) * sizeof(E) > Rt().ubBytes) {
        Fail(api, Msg("index ", k, " reaches past the UB (base at UB offset ", off, ", ", sizeof(E),
            "-byte elements, UB ", Rt().ubBytes, " bytes)"));
    }
    MicroAccess(api, base + k, sizeof(E), write, sizeof(E));
}

}  // namespace ascendc_cpu

namespace AscendC {
namespace Reg {

/// lane i = scalarValue + i (header comment).
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename U, typename S>
inline void Arange(S& dstReg, U scalarValue)
{
    using E = typename S::ActualT;
    const char* api = "MicroAPI::Arange";
    ascendc_cpu::RecordRegister(api);
    static_assert(std::is_same<T, DefaultType>::value || std::is_same<T, E>::value,
        "MicroAPI::Arange: T is not the register's element type");
    static_assert(ascendc_cpu::kIsOneOf<E, int8_t, int16_t, int32_t, half, float, int64_t>,
        "MicroAPI::Arange supports int8_t, int16_t, int32_t, half, float, int64_t (Arange.md)");
    static_assert(order == IndexOrder::INCREASE_ORDER,
        "ascendc_cpu: MicroAPI::Arange's DECREASE_ORDER is not modelled (Arange.md defines it by a figure)");
    if constexpr (sizeof(E) == 8) {
        ascendc_cpu::MicroNotModelled<E>(api);
    } else {
        S out;
        for (uint32_t i = 0; i < S::kLanes; ++i) {
            if constexpr (std::is_integral<E>::value) {
                using W = std::make_unsigned_t<E>;
                out.lane[i] = static_cast<E>(static_cast<W>(static_cast<W>(static_cast<E>(scalarValue)) + i));
            } else {
                out.lane[i] = ascendc_cpu::FromDouble<E>(static_cast<double>(scalarValue) + i);
            }
        }
        dstReg = out;
    }
}

/// dstReg lane i = baseAddr[index lane i] for the lanes on, the others 0 (header comment).
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
inline void Gather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask)
{
    using D = typename T3::ActualT;
    using I = typename T4::ActualT;
    const char* api = "MicroAPI::Gather";
    ascendc_cpu::RecordRegister(api);
    static_assert(std::is_same<T0, DefaultType>::value || std::is_same<T0, D>::value,
        "MicroAPI::Gather: T0 is not the destination register's element type");
    static_assert(std::is_same<T2, DefaultType>::value || std::is_same<T2, I>::value,
        "MicroAPI::Gather: T2 is not the index register's element type");
    static_assert((sizeof(T1) == 1 && sizeof(D) == 2 && std::is_same<I, uint16_t>::value) ||
            (sizeof(T1) == 2 && sizeof(D) == 2 && std::is_same<I, uint16_t>::value) ||
            (sizeof(T1) == 4 && sizeof(D) == 4 && std::is_same<I, uint32_t>::value) ||
            (sizeof(T1) == 8 && sizeof(D) == 8 && ascendc_cpu::kIsOneOf<I, uint32_t, uint64_t>),
        "MicroAPI::Gather takes b8/b16 sources into b16 with uint16_t indices, b32 with uint32_t, b64 with "
        "uint32_t/uint64_t ((Gather).md table 3)");
    if constexpr (sizeof(T1) == 8) {
        ascendc_cpu::MicroNotModelled<D>(api);
    } else {
        static_assert(T3::REG_NUM == 1 && T4::REG_NUM == 1, "ascendc_cpu: MicroAPI::Gather is modelled for one register");
        T3 out;
        for (uint32_t i = 0; i < T3::kLanes; ++i) {
            if (!ascendc_cpu::LaneOn<T3>(mask, i)) {
                continue;
            }
            const uint64_t k = index.lane[i];
            ascendc_cpu::MicroIndexedAccess(api, baseAddr, k, false);
            if constexpr (sizeof(T1) == 1) {
                // The byte in the low 8 bits, the high 8 bits 0 (the page: -40 -> 216).
                const uint16_t v = *reinterpret_cast<const uint8_t*>(baseAddr + k);
                std::memcpy(static_cast<void*>(&out.lane[i]), &v, sizeof v);
            } else {
                std::memcpy(static_cast<void*>(&out.lane[i]), static_cast<const void*>(baseAddr + k), sizeof(D));
            }
        }
        dstReg = out;
    }
}

template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
inline void DataCopyGather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask)
{
    Gather<T0, T1, T2>(dstReg, baseAddr, index, mask);
}

/// baseAddr[index lane i] = srcReg lane i for the lanes on (header comment).
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
inline void Scatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask)
{
    using E = typename S::ActualT;
    using I = typename V::ActualT;
    const char* api = "MicroAPI::Scatter";
    ascendc_cpu::RecordRegister(api);
    static_assert(std::is_same<U, DefaultType>::value || std::is_same<U, I>::value,
        "MicroAPI::Scatter: U is not the index register's element type");
    static_assert(std::is_same<T, DefaultType>::value || sizeof(T) == sizeof(E),
        "MicroAPI::Scatter: the address's element type and the register's differ");
    static_assert(sizeof(E) != 1, "ascendc_cpu: MicroAPI::Scatter of 8-bit elements is not modelled");
    static_assert((sizeof(E) == 2 && std::is_same<I, uint16_t>::value) ||
            (sizeof(E) == 4 && std::is_same<I, uint32_t>::value) ||
            (sizeof(E) == 8 && ascendc_cpu::kIsOneOf<I, uint32_t, uint64_t>),
        "MicroAPI::Scatter takes b16 with uint16_t indices, b32 with uint32_t, b64 with uint32_t/uint64_t "
        "((Scatter).md table 3)");
    if constexpr (sizeof(E) == 8) {
        ascendc_cpu::MicroNotModelled<E>(api);
    } else {
        static_assert(S::REG_NUM == 1 && V::REG_NUM == 1, "ascendc_cpu: MicroAPI::Scatter is modelled for one register");
        E* base = reinterpret_cast<E*>(baseAddr);
        for (uint32_t i = 0; i < S::kLanes; ++i) {
            if (!ascendc_cpu::LaneOn<S>(mask, i)) {
                continue;
            }
            for (uint32_t j = 0; j < i; ++j) {
                if (ascendc_cpu::LaneOn<S>(mask, j) && index.lane[j] == index.lane[i]) {
                    ascendc_cpu::Fail(api, ascendc_cpu::Msg("lanes ", j, " and ", i, " both write index ",
                        static_cast<uint64_t>(index.lane[i]), ": which one the UB keeps is unspecified "
                        "((Scatter).md: index values must be unique)"));
                }
            }
        }
        for (uint32_t i = 0; i < S::kLanes; ++i) {
            if (ascendc_cpu::LaneOn<S>(mask, i)) {
                const uint64_t k = index.lane[i];
                ascendc_cpu::MicroIndexedAccess(api, base, k, true);
                base[k] = srcReg.lane[i];
            }
        }
    }
}

template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
inline void DataCopyScatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask)
{
    Scatter<T, U>(baseAddr, srcReg, index, mask);
}

template <typename T>
inline void DataCopyUnAlignPre(UnalignReg& ureg, __ubuf__ T* srcAddr)
{
    LoadUnAlignPre(static_cast<UnalignRegForLoad&>(ureg), srcAddr);
}

template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
inline void DataCopyUnAlign(U& dstReg, UnalignReg& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride)
{
    LoadUnAlign<T, postMode>(dstReg, static_cast<UnalignRegForLoad&>(ureg), srcAddr, postUpdateStride);
}

template <typename T = DefaultType, typename U>
inline void DataCopyUnAlign(U& dstReg, UnalignReg& ureg, __ubuf__ T* srcAddr)
{
    LoadUnAlign<T>(dstReg, static_cast<UnalignRegForLoad&>(ureg), srcAddr);
}

template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
inline void DataCopyUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignReg& ureg, uint32_t postUpdateStride)
{
    StoreUnAlign<T, postMode>(dstAddr, srcReg, static_cast<UnalignRegForStore&>(ureg), postUpdateStride);
}

template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
inline void DataCopyUnAlignPost(__ubuf__ T*& dstAddr, UnalignReg& ureg, int32_t postUpdateStride)
{
    StoreUnAlignPost<T, postMode>(dstAddr, static_cast<UnalignRegForStore&>(ureg), postUpdateStride);
}

}  // namespace Reg
}  // namespace AscendC

#endif  // ASCENDC_CPU_DAV_3510

#endif  // ASCENDC_CPU_MICRO_GATHER_H
