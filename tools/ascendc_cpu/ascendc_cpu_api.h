// ascendc_cpu_api.h - which vector call takes which element type on the SoC the model is built for.
//
// Part of the AscendC CPU model (see README.md). The table is hswc's one API
// table, hswc/api_tables.def (hswc.soc_api reads the same file for the
// compiler and the interpreter); this header includes it and takes the column
// of the SoC family: Atlas A2/A3 (dav_c220) by default, Ascend 950 (dav_3510)
// with -DASCENDC_CPU_DAV_3510 (hswc-check-kernel --soc ascend950 passes it).
// For every row `ASCENDC_API(Call, result, ...)` it declares
//   ascendc_cpu::api::CheckCall<T>()
// whose static_asserts refuse an element type the SoC's call does not take, and
// a bfloat16_t on a call that rounds (its rounding is documented nowhere, so the
// model has no exact result for it).
#ifndef ASCENDC_CPU_API_H
#define ASCENDC_CPU_API_H

#include <type_traits>

#include "ascendc_cpu_float.h"

#define ASCENDC_EXACT false
#define ASCENDC_ROUNDS true
#define ASCENDC_CPU_EXPAND(...) __VA_ARGS__

#if defined(ASCENDC_CPU_DAV_3510)
#define ASCENDC_CPU_SOC_WORDS "Ascend 950 (dav_3510)"
#define ASCENDC_API(call, rounds, dav_c220, dav_3510) ASCENDC_CPU_API_ROW(call, rounds, dav_3510)
#else
#define ASCENDC_CPU_SOC_WORDS "Atlas A2/A3 (dav_c220)"
#define ASCENDC_API(call, rounds, dav_c220, dav_3510) ASCENDC_CPU_API_ROW(call, rounds, dav_c220)
#endif

#define ASCENDC_CPU_API_ROW(call, rounds, types)                                                        \
    template <typename T>                                                                                \
    constexpr void Check##call()                                                                         \
    {                                                                                                    \
        static_assert(::ascendc_cpu::api::kIn<T, ASCENDC_CPU_EXPAND types>,                             \
            #call " supports " #types " on " ASCENDC_CPU_SOC_WORDS " (hswc/api_tables.def)");            \
        static_assert(!(rounds && std::is_same<T, bfloat16_t>::value),                                  \
            "ascendc_cpu: " #call " is not modelled: its bfloat16_t rounding is not documented");        \
    }

namespace ascendc_cpu {
namespace api {

template <typename T, typename... Ts>
constexpr bool kIn = (std::is_same<T, Ts>::value || ...);

#include "../../hswc/api_tables.def"

}  // namespace api
}  // namespace ascendc_cpu

#undef ASCENDC_API
#undef ASCENDC_CPU_API_ROW
#undef ASCENDC_CPU_EXPAND
#undef ASCENDC_EXACT
#undef ASCENDC_ROUNDS

#endif  // ASCENDC_CPU_API_H
