// tiling_fields.cpp - prints the fields of the kernel's tiling struct from the bytes a tiling
// wrote: `field NAME VALUE` per field, as tiling_harness.cpp's run does.
//
// Linked with tiling_harness.cpp when the kernel's tiling struct is known, built with (-D...):
//   HSWC_TILING_HEADER   "path/to/tiling_data.h", the header declaring the struct,
//   HSWC_TILING_STRUCT / HSWC_TILING_FIELDS  that struct and its fields
//                        ('HSWC_TILING_FIELD(a) HSWC_TILING_FIELD(b) ...').
// A source of its own so that the harness, which is the same for every op, compiles once (and
// this one includes only the few standard headers below and the struct's).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include HSWC_TILING_HEADER

namespace {
template <typename F>
void PrintField(const char* name, const F& value)
{
    using T = std::remove_cv_t<F>;
    if constexpr (std::is_same<T, bool>::value) {
        std::printf("field %s %d\n", name, value ? 1 : 0);
    } else if constexpr (std::is_floating_point<T>::value) {
        std::printf("field %s %.17g\n", name, static_cast<double>(value));
    } else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
        std::printf("field %s %lld\n", name, static_cast<long long>(value));
    } else if constexpr (std::is_integral<T>::value) {
        std::printf("field %s %llu\n", name, static_cast<unsigned long long>(value));
    }
}
}  // namespace

void HswcPrintTilingFields(const void* data, size_t capacity)
{
    HSWC_TILING_STRUCT s{};
    std::memcpy(static_cast<void*>(&s), data, std::min(sizeof s, capacity));
#define HSWC_TILING_FIELD(f) PrintField(#f, s.f);
    HSWC_TILING_FIELDS
#undef HSWC_TILING_FIELD
}
