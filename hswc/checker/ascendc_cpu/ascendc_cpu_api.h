// ascendc_cpu_api.h - which vector call takes which element type on the SoC the model is built for.
//
// Part of the AscendC CPU model (see README.md). The table is hswc's one API
// table, hswc/api_tables.def (hswc.soc_api reads the same file for the
// compiler and the interpreter); this header includes it and takes the column
// of the SoC family: Atlas A2/A3 (dav_c220) by default, Ascend 950 (dav_3510)
// with -DASCENDC_CPU_DAV_3510 (hswc-check-kernel --soc ascend950 passes it).
// For every row `ASCENDC_API(Call, result, ...)` it declares
//   constexpr bool ascendc_cpu::api::CheckCall<T, Form = FormCount>()
// whose static_asserts refuse an element type the SoC's call does not take in that form, and
// a bfloat16_t on an ASCENDC_ROUNDS call (its rounding is documented nowhere, so the model has
// no exact result for it; ASCENDC_ROUNDS_BF16_IN_FLOAT calls round it as documented); it returns whether the model has lanes for T (the ASCENDC_API row's
// types). A type the SoC takes in that form (its ASCENDC_SOC_TYPES row) without lanes here
// returns false: the call compiles and refuses it when it runs (NotModelled). Every
// `ASCENDC_CAST(src, dst, ...)` row becomes ascendc_cpu::api::CastTable<src, dst>::value, the
// bits of the RoundModes that Cast takes on the SoC (ascendc_cpu_vec_cast.h).
#ifndef ASCENDC_CPU_API_H
#define ASCENDC_CPU_API_H

#include <cstdint>
#include <type_traits>

#include "ascendc_cpu_float.h"

#define ASCENDC_EXACT false
#define ASCENDC_ROUNDS true
#define ASCENDC_ROUNDS_BF16_IN_FLOAT false
#define ASCENDC_CPU_EXPAND(...) __VA_ARGS__

#if defined(ASCENDC_CPU_DAV_3510)
#define ASCENDC_CPU_SOC_WORDS "Ascend 950 (dav_3510)"
#define ASCENDC_API(call, rounds, dav_c220, dav_3510) ASCENDC_CPU_API_ROW(call, rounds, dav_3510)
#else
#define ASCENDC_CPU_SOC_WORDS "Atlas A2/A3 (dav_c220)"
#define ASCENDC_API(call, rounds, dav_c220, dav_3510) ASCENDC_CPU_API_ROW(call, rounds, dav_c220)
#endif

#if defined(ASCENDC_CPU_DAV_3510)
#define ASCENDC_SOC_TYPES(call, form, dav_c220, dav_3510) ASCENDC_CPU_SOC_ROW(call, form, dav_3510)
#else
#define ASCENDC_SOC_TYPES(call, form, dav_c220, dav_3510) ASCENDC_CPU_SOC_ROW(call, form, dav_c220)
#endif
#if defined(ASCENDC_CPU_DAV_3510)
#define ASCENDC_CAST(src, dst, dav_c220, dav_3510) ASCENDC_CPU_CAST_ROW(src, dst, dav_3510)
#else
#define ASCENDC_CAST(src, dst, dav_c220, dav_3510) ASCENDC_CPU_CAST_ROW(src, dst, dav_c220)
#endif
#define ASCENDC_COUNT ::ascendc_cpu::api::FormCount
#define ASCENDC_MASK ::ascendc_cpu::api::FormMask

#define ASCENDC_CPU_API_ROW(call, rounds, types)                                                        \
    struct Tag##call;                                                                                    \
    template <typename T, typename Form = FormCount>                                                     \
    constexpr bool Check##call()                                                                         \
    {                                                                                                    \
        constexpr bool modelled = ::ascendc_cpu::api::kIn<T, ASCENDC_CPU_EXPAND types>;                  \
        static_assert(modelled || SocTakes<Tag##call, Form, T>::value,                                   \
            #call " supports " #types " on " ASCENDC_CPU_SOC_WORDS " (hswc/api_tables.def)");            \
        static_assert(!(rounds && std::is_same<T, bfloat16_t>::value),                                  \
            "ascendc_cpu: " #call " is not modelled: its bfloat16_t rounding is not documented");        \
        return modelled;                                                                                 \
    }

#define ASCENDC_CPU_SOC_ROW(call, form, types)                                                          \
    struct Tag##call;                                                                                    \
    template <typename T>                                                                                \
    struct SocTakes<Tag##call, form, T> {                                                                \
        static constexpr bool value = ::ascendc_cpu::api::kIn<T, ASCENDC_CPU_EXPAND types>;              \
    };

#define ASCENDC_CPU_CAST_ROW(src, dst, modes)                                                          \
    template <>                                                                                          \
    struct CastTable<src, dst> {                                                                         \
        static constexpr uint32_t value = ModeBits(ASCENDC_CPU_EXPAND modes);                            \
    };

namespace ascendc_cpu {
namespace api {

/// The RoundModes of an ASCENDC_CAST row, as bits (bit i: RoundMode value i).
enum CastModeBit : uint32_t {
    CAST_NONE = 1u << 0, CAST_RINT = 1u << 1, CAST_FLOOR = 1u << 2, CAST_CEIL = 1u << 3,
    CAST_ROUND = 1u << 4, CAST_TRUNC = 1u << 5, CAST_ODD = 1u << 6,
};

template <typename... Bits>
constexpr uint32_t ModeBits(Bits... bits)
{
    return (0u | ... | static_cast<uint32_t>(bits));
}

/// The RoundModes Cast takes from Src to Dst on the SoC (its ASCENDC_CAST row; 0: no such Cast).
template <typename Src, typename Dst>
struct CastTable {
    static constexpr uint32_t value = 0;
};

template <typename T, typename... Ts>
constexpr bool kIn = (std::is_same<T, Ts>::value || ...);

/// The forms of a call: level 2 (count) and level 0 (mask/repeat).
struct FormCount {};
struct FormMask {};

/// Whether the SoC's `Call` takes T in `Form` (its ASCENDC_SOC_TYPES row; without one, nothing
/// beyond the ASCENDC_API row's types).
template <typename Call, typename Form, typename T>
struct SocTakes {
    static constexpr bool value = false;
};

#include "../../api_tables.def"

}  // namespace api
}  // namespace ascendc_cpu

#undef ASCENDC_API
#undef ASCENDC_SOC_TYPES
#undef ASCENDC_CAST
#undef ASCENDC_CPU_CAST_ROW
#undef ASCENDC_COUNT
#undef ASCENDC_MASK
#undef ASCENDC_CPU_SOC_ROW
#undef ASCENDC_CPU_API_ROW
#undef ASCENDC_CPU_EXPAND
#undef ASCENDC_EXACT
#undef ASCENDC_ROUNDS
#undef ASCENDC_ROUNDS_BF16_IN_FLOAT

#endif  // ASCENDC_CPU_API_H
