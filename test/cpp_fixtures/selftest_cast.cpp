// selftest_cast.cpp - hand-checked tests of the integer and float -> float Casts
// and the scalar conversions (see selftest_common.h). The expected values are
// the examples of the Cast precision-conversion documentation where it has
// one, and hand-rounded values otherwise.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

namespace selftest {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const RoundMode kModes[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
    RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};

/// One Cast of one value from U to T with `mode`, through two UB buffers.
template <typename T, typename U>
T CastOne(U v, RoundMode mode)
{
    Buffers<2> ub(64);
    ub.Get<U>(0).SetValue(0, v);
    Cast(ub.Get<T>(1), ub.Get<U>(0), mode, 1);
    return ub.Get<T>(1).GetValue(0);
}

/// The results of the five modes RINT, FLOOR, CEIL, ROUND, TRUNC.
template <typename T, typename U>
std::vector<T> AllModes(U v)
{
    std::vector<T> r;
    for (RoundMode m : kModes) {
        r.push_back(CastOne<T, U>(v, m));
    }
    return r;
}

template <typename T>
bool Same(const std::vector<T>& got, const std::vector<T>& want)
{
    return got == want;
}

void TestFloatToInteger()
{
    Core core;
    // Documented examples: half -> int32 of -1.5; float -> int32 of 2^22 + 0.5;
    // bf16 -> int32 of 2^6 + 0.5; half -> int16 / int8 of 2^7 - 0.5 (int8 saturates).
    CHECK(Same(AllModes<int32_t>(half(-1.5f)), {-2, -2, -1, -2, -1}));
    CHECK(Same(AllModes<int32_t>(4194304.5f), {4194304, 4194304, 4194305, 4194305, 4194304}));
    CHECK(Same(AllModes<int32_t>(bfloat16_t(64.5f)), {64, 64, 65, 65, 64}));
    CHECK(Same(AllModes<int16_t>(half(127.5f)), {128, 127, 128, 128, 127}));
    CHECK(Same(AllModes<int8_t>(half(127.5f)), {127, 127, 127, 127, 127}));
    CHECK(Same(AllModes<uint8_t>(half(1.75f)), {2, 1, 2, 2, 1}));
    CHECK(Same(AllModes<int64_t>(4194304.5f), {4194304, 4194304, 4194305, 4194305, 4194304}));
    // Ties: RINT to even, ROUND away from zero; negative zero gives 0.
    CHECK(Same(AllModes<int32_t>(-2.5f), {-2, -3, -2, -3, -2}));
    CHECK(Same(AllModes<int32_t>(0.5f), {0, 0, 1, 1, 0}));
    CHECK(Same(AllModes<int32_t>(-0.0f), {0, 0, 0, 0, 0}));
    // Saturation (the documented default overflow mode), also for infinities.
    CHECK(Same(AllModes<int32_t>(3e9f), std::vector<int32_t>(5, 2147483647)));
    CHECK(Same(AllModes<int32_t>(-kInf), std::vector<int32_t>(5, -2147483647 - 1)));
    CHECK(Same(AllModes<int16_t>(4194304.5f), std::vector<int16_t>(5, 32767)));
    CHECK(Same(AllModes<int64_t>(1e30f), std::vector<int64_t>(5, std::numeric_limits<int64_t>::max())));
    CHECK(CastOne<int8_t>(half(-200.0f), RoundMode::CAST_NONE) == -128);
    CHECK(CastOne<uint8_t>(half(300.0f), RoundMode::CAST_TRUNC) == 255);
    CHECK(CastOne<int8_t>(half(2.5f), RoundMode::CAST_NONE) == 2);  // CAST_NONE rounds as CAST_RINT
}

void TestIntegerToFloat()
{
    Core core;
    // Documented: int32 -> float of 2^25 + 3 and int16 -> half of 2^12 + 2.
    const std::vector<float> f = AllModes<float>(int32_t(33554435));
    CHECK(f[0] == 33554436.0f && f[1] == 33554432.0f && f[2] == 33554436.0f && f[3] == 33554436.0f &&
        f[4] == 33554432.0f);
    const std::vector<half> h = AllModes<half>(int16_t(4098));
    CHECK(static_cast<float>(h[0]) == 4096.0f && static_cast<float>(h[1]) == 4096.0f &&
        static_cast<float>(h[2]) == 4100.0f && static_cast<float>(h[3]) == 4100.0f &&
        static_cast<float>(h[4]) == 4096.0f);
    CHECK(CastOne<float>(int32_t(-33554435), RoundMode::CAST_FLOOR) == -33554436.0f);
    CHECK(CastOne<float>(int32_t(-33554435), RoundMode::CAST_NONE) == -33554436.0f);
    // int64 beyond 2^53 is rounded exactly: 2^60 + 1 -> RINT 2^60, CEIL 2^60 + 2^37.
    const int64_t big = (int64_t{1} << 60) + 1;
    CHECK(CastOne<float>(big, RoundMode::CAST_RINT) == std::ldexp(1.0f, 60));
    CHECK(CastOne<float>(big, RoundMode::CAST_CEIL) == std::ldexp(1.0f, 60) + std::ldexp(1.0f, 37));
    CHECK(CastOne<float>(std::numeric_limits<int64_t>::min(), RoundMode::CAST_TRUNC) == -std::ldexp(1.0f, 63));
    // Exact widenings.
    CHECK(static_cast<float>(CastOne<half>(int8_t(-128), RoundMode::CAST_NONE)) == -128.0f);
    CHECK(static_cast<float>(CastOne<half>(uint8_t(255), RoundMode::CAST_NONE)) == 255.0f);
    CHECK(CastOne<float>(int16_t(-32768), RoundMode::CAST_NONE) == -32768.0f);
    CHECK(CastOne<int64_t>(int32_t(-7), RoundMode::CAST_NONE) == -7);
    // Integer narrowings saturate.
    CHECK(CastOne<int16_t>(int32_t(2147483647), RoundMode::CAST_NONE) == 32767);
    CHECK(CastOne<int16_t>(int32_t(-40000), RoundMode::CAST_NONE) == -32768);
    CHECK(CastOne<int32_t>(int64_t{1} << 40, RoundMode::CAST_NONE) == 2147483647);
}

void TestFloatToFloat()
{
    Core core;
    // float -> float rounds to an integral value (documented: 0.5 -> 0, 0, 1, 1, 0).
    const std::vector<float> r = AllModes<float>(0.5f);
    CHECK(r[0] == 0.0f && r[1] == 0.0f && r[2] == 1.0f && r[3] == 1.0f && r[4] == 0.0f);
    const std::vector<float> n = AllModes<float>(-0.5f);
    CHECK(Bits(n[0]) == 0x80000000u && n[1] == -1.0f && Bits(n[2]) == 0x80000000u && n[3] == -1.0f &&
        Bits(n[4]) == 0x80000000u);  // the sign of zero is kept
    CHECK(CastOne<float>(1.5f, RoundMode::CAST_RINT) == 2.0f && CastOne<float>(2.5f, RoundMode::CAST_RINT) == 2.0f);
    CHECK(CastOne<float>(16777215.0f, RoundMode::CAST_FLOOR) == 16777215.0f);
    CHECK(CastOne<float>(-kInf, RoundMode::CAST_CEIL) == -kInf);
}

void TestScalarConversions()
{
    CHECK(ToFloat(bfloat16_t::FromBits(0xC040)) == -3.0f);
    CHECK(ToBfloat16(1.00390625f).ToBits() == 0x3F80);  // tie to even
    CHECK(ToBfloat16(1.01171875f).ToBits() == 0x3F82);
    CHECK(Cast(std::numeric_limits<float>::quiet_NaN()).ToBits() == 0x7FFF);  // every NaN -> 0x7FFF
    CHECK(Cast(-kInf).ToBits() == 0xFF80);
    CHECK(Cast(3.4e38f).ToBits() == 0x7F80);  // rounds up past the largest bf16
}

}  // namespace

void CastTests()
{
    TestFloatToInteger();
    TestIntegerToFloat();
    TestFloatToFloat();
    TestScalarConversions();
}

void AddCastViolations(Violations& v)
{
    v["cast_nan_to_int"] = {"Cast", [] { (void)CastOne<int32_t>(std::nanf(""), RoundMode::CAST_RINT); }};
    v["cast_negative_to_uint8"] = {"Cast", [] { (void)CastOne<uint8_t>(half(-1.0f), RoundMode::CAST_TRUNC); }};
    v["cast_half_int32_none"] = {"Cast", [] { (void)CastOne<int32_t>(half(1.0f), RoundMode::CAST_NONE); }};
    v["cast_int32_float_odd"] = {"Cast", [] { (void)CastOne<float>(int32_t(1), RoundMode::CAST_ODD); }};
}

}  // namespace selftest
