// selftest_vector.cpp - hand-checked tests of Div, Divs, Log (= Ln), Max, Min, Maxs, Mins, Abs,
// Relu, And, Or, Not, int32 Compare and UB -> UB DataCopy (see selftest_common.h).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

namespace selftest {
namespace {

const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

uint16_t H(const LocalTensor<half>& t, uint32_t i) { return t.GetValue(i).ToBits(); }

void TestDiv()
{
    Core core;
    Buffers<3> ub(256);
    LocalTensor<float> a = ub.Get<float>(0), b = ub.Get<float>(1), d = ub.Get<float>(2);
    // 1/3 = 0x3EAAAAAB (RNE: 0.0101... rounds up), 2/3 = 0x3F2AAAAB, 1/0 = inf, -1/0 = -inf,
    // 0/0 = NaN, -0/5 = -0, 2^-149 / 2 = 0 (tie to even) and 3*2^-149 / 2 = 2^-148 (tie to even).
    Fill(a, {1.0f, 2.0f, 1.0f, -1.0f, 0.0f, -0.0f, std::ldexp(1.0f, -149), std::ldexp(3.0f, -149), 7.0f, 1e30f});
    Fill(b, {3.0f, 3.0f, 0.0f, 0.0f, 0.0f, 5.0f, 2.0f, 2.0f, 7.0f, 1e-30f});
    d.SetValue(10, 42.0f);
    Div(d, a, b, 10);
    CHECK(Bits(d.GetValue(0)) == 0x3EAAAAABu);
    CHECK(Bits(d.GetValue(1)) == 0x3F2AAAABu);
    CHECK(d.GetValue(2) == kInf && d.GetValue(3) == -kInf && std::isnan(d.GetValue(4)));
    CHECK(Bits(d.GetValue(5)) == 0x80000000u);
    CHECK(Bits(d.GetValue(6)) == 0u);
    CHECK(Bits(d.GetValue(7)) == 2u);
    CHECK(d.GetValue(8) == 1.0f && d.GetValue(9) == kInf);  // 1e60 overflows float
    CHECK(d.GetValue(10) == 42.0f);                         // past count: untouched
    // half: 1/3 = 0x3555, 2^-14 / 1024 = 2^-24 (smallest subnormal, 0x0001), 65504 / 0.5 = inf.
    LocalTensor<half> ah = ub.Get<half>(0), bh = ub.Get<half>(1), dh = ub.Get<half>(2);
    Fill(ah, {half(1.0f), half(std::ldexp(1.0f, -14)), half(65504.0f), half(-6.0f)});
    Fill(bh, {half(3.0f), half(1024.0f), half(0.5f), half(4.0f)});
    Div(dh, ah, bh, 4);
    CHECK(H(dh, 0) == 0x3555 && H(dh, 1) == 0x0001 && H(dh, 2) == 0x7C00 && H(dh, 3) == 0xBE00);
}

/// Divs is Div with one operand a scalar, either one: the same rounding, lane for lane.
void TestDivs()
{
    Core core;
    Buffers<3> ub(256);
    LocalTensor<float> a = ub.Get<float>(0), d = ub.Get<float>(1), e = ub.Get<float>(2);
    Fill(a, {1.0f, 2.0f, 0.0f, -0.0f, std::ldexp(3.0f, -149), kInf, 1e30f, -7.0f});
    Divs(d, a, 3.0f, 8);  // a / 3
    CHECK(Bits(d.GetValue(0)) == 0x3EAAAAABu && Bits(d.GetValue(1)) == 0x3F2AAAABu);
    CHECK(Bits(d.GetValue(2)) == 0u && Bits(d.GetValue(3)) == 0x80000000u && Bits(d.GetValue(4)) == 1u);
    CHECK(d.GetValue(5) == kInf && Bits(d.GetValue(7)) == Bits(-7.0f / 3.0f));
    Divs(e, 1e-30f, a, 8);  // 1e-30 / a
    CHECK(d.GetValue(6) == 1e30f / 3.0f && e.GetValue(2) == kInf && e.GetValue(3) == -kInf);
    CHECK(Bits(e.GetValue(0)) == Bits(1e-30f) && Bits(e.GetValue(5)) == 0u && Bits(e.GetValue(6)) == 0u);
    LocalTensor<half> ah = ub.Get<half>(0), dh = ub.Get<half>(1);
    Fill(ah, {half(1.0f), half(std::ldexp(1.0f, -14)), half(65504.0f), half(-6.0f)});
    Divs(dh, ah, half(3.0f), 4);
    CHECK(H(dh, 0) == 0x3555 && H(dh, 3) == 0xC000);
    Divs(dh, half(1.0f), ah, 4);
    CHECK(H(dh, 0) == 0x3C00 && H(dh, 1) == 0x7400 && H(dh, 3) == 0xB155);  // 1/-6 = -0.16667
}

/// The library's Log is Ln, bit for bit (zero, negatives, inf, NaN, subnormals included).
void TestLogIsLn()
{
    Core core;
    Buffers<3> ub(256);
    LocalTensor<float> a = ub.Get<float>(0), d = ub.Get<float>(1), e = ub.Get<float>(2);
    Fill(a, {1.0f, 2.0f, 0.0f, -0.0f, -1.0f, kInf, kNan, std::ldexp(1.0f, -149), 10.0f, 0.3f, 1e30f, 7.5f});
    Log(d, a, 12);
    Ln(e, a, 12);
    bool same = true;
    for (uint32_t i = 0; i < 12; ++i) {
        same = same && Bits(d.GetValue(i)) == Bits(e.GetValue(i));
    }
    CHECK(same && d.GetValue(0) == 0.0f && d.GetValue(2) == -kInf && std::isnan(d.GetValue(4)));
    LocalTensor<half> ah = ub.Get<half>(0), dh = ub.Get<half>(1), eh = ub.Get<half>(2);
    Fill(ah, {half(1.0f), half(std::ldexp(1.0f, -24)), half(65504.0f), half(-6.0f), half(0.5f), half(3.0f),
        half(0.0f), half(100.0f), half(1.0f), half(1.0f), half(1.0f), half(1.0f), half(1.0f), half(1.0f),
        half(1.0f), half(1.0f)});
    Log(dh, ah, 16);
    Ln(eh, ah, 16);
    same = true;
    for (uint32_t i = 0; i < 16; ++i) {
        same = same && H(dh, i) == H(eh, i);
    }
    CHECK(same);
}

void TestMaxMin()
{
    Core core;
    Buffers<3> ub(256);
    LocalTensor<float> a = ub.Get<float>(0), b = ub.Get<float>(1), d = ub.Get<float>(2);
    Fill(a, {-0.0f, 0.0f, kNan, 1.0f, -kInf, 3.0f, std::ldexp(1.0f, -149), -2.0f});
    Fill(b, {0.0f, -0.0f, 1.0f, kNan, 5.0f, 3.0f, 0.0f, -1.0f});
    Max(d, a, b, 8);
    CHECK(Bits(d.GetValue(0)) == 0u && Bits(d.GetValue(1)) == 0u);  // -0 < +0, either order
    CHECK(std::isnan(d.GetValue(2)) && std::isnan(d.GetValue(3)));   // NaN wins
    CHECK(d.GetValue(4) == 5.0f && d.GetValue(5) == 3.0f && Bits(d.GetValue(6)) == 1u && d.GetValue(7) == -1.0f);
    Min(d, a, b, 8);
    CHECK(Bits(d.GetValue(0)) == 0x80000000u && Bits(d.GetValue(1)) == 0x80000000u);
    CHECK(std::isnan(d.GetValue(2)) && std::isnan(d.GetValue(3)));
    CHECK(d.GetValue(4) == -kInf && Bits(d.GetValue(6)) == 0u && d.GetValue(7) == -2.0f);
    // Scalar forms: Maxs(x, +0) turns -0 into +0, Mins(x, +0) keeps -0; NaN stays NaN.
    Maxs(d, a, 0.0f, 8);
    CHECK(Bits(d.GetValue(0)) == 0u && std::isnan(d.GetValue(2)) && d.GetValue(4) == 0.0f && d.GetValue(7) == 0.0f);
    Mins(d, a, 0.0f, 8);
    CHECK(Bits(d.GetValue(0)) == 0x80000000u && Bits(d.GetValue(1)) == 0u && std::isnan(d.GetValue(2)));
    CHECK(d.GetValue(3) == 0.0f && d.GetValue(4) == -kInf && Bits(d.GetValue(6)) == 0u);
    Mins(d, a, kNan, 2);
    CHECK(std::isnan(d.GetValue(0)) && std::isnan(d.GetValue(1)));
    // half and the integer types.
    LocalTensor<half> ah = ub.Get<half>(0), dh = ub.Get<half>(2);
    Fill(ah, {half::FromBits(0x8000), half(6.5f), half::FromBits(0x7E00), half(-7.0f)});
    Mins(dh, ah, half(6.0f), 4);
    CHECK(H(dh, 0) == 0x8000 && static_cast<float>(dh.GetValue(1)) == 6.0f && (H(dh, 2) & 0x7C00) == 0x7C00 &&
        static_cast<float>(dh.GetValue(3)) == -7.0f);
    LocalTensor<int32_t> ai = ub.Get<int32_t>(0), bi = ub.Get<int32_t>(1), di = ub.Get<int32_t>(2);
    Fill(ai, {-5, 7, std::numeric_limits<int32_t>::min()});
    Fill(bi, {3, -9, 0});
    Max(di, ai, bi, 3);
    CHECK(di.GetValue(0) == 3 && di.GetValue(1) == 7 && di.GetValue(2) == 0);
    Mins(di, ai, int32_t(0), 3);
    CHECK(di.GetValue(0) == -5 && di.GetValue(1) == 0 && di.GetValue(2) == std::numeric_limits<int32_t>::min());
    LocalTensor<int16_t> as = ub.Get<int16_t>(0), ds = ub.Get<int16_t>(2);
    Fill(as, {int16_t(-300), int16_t(300)});
    Maxs(ds, as, int16_t(-1), 2);
    CHECK(ds.GetValue(0) == -1 && ds.GetValue(1) == 300);
}

void TestAbsRelu()
{
    Core core;
    Buffers<2> ub(256);
    LocalTensor<float> a = ub.Get<float>(0), d = ub.Get<float>(1);
    Fill(a, {-0.0f, -kInf, -std::ldexp(1.0f, -149), -2.5f, 3.0f, ascendc_cpu::F32FromBits(0xFFC00001u)});
    Abs(d, a, 6);
    CHECK(Bits(d.GetValue(0)) == 0u && d.GetValue(1) == kInf && Bits(d.GetValue(2)) == 1u);
    CHECK(d.GetValue(3) == 2.5f && d.GetValue(4) == 3.0f && Bits(d.GetValue(5)) == 0x7FC00001u);  // sign bit only
    Relu(d, a, 6);
    CHECK(Bits(d.GetValue(0)) == 0u && d.GetValue(1) == 0.0f && Bits(d.GetValue(2)) == 0u);
    CHECK(d.GetValue(3) == 0.0f && d.GetValue(4) == 3.0f && std::isnan(d.GetValue(5)));
    LocalTensor<half> ah = ub.Get<half>(0), dh = ub.Get<half>(1);
    Fill(ah, {half::FromBits(0x8000), half::FromBits(0xFC00), half::FromBits(0x8001), half(1.5f)});
    Abs(dh, ah, 4);
    CHECK(H(dh, 0) == 0x0000 && H(dh, 1) == 0x7C00 && H(dh, 2) == 0x0001 && H(dh, 3) == 0x3E00);
    Relu(dh, ah, 4);
    CHECK(H(dh, 0) == 0x0000 && H(dh, 1) == 0x0000 && H(dh, 2) == 0x0000 && H(dh, 3) == 0x3E00);
    LocalTensor<int32_t> ai = ub.Get<int32_t>(0), di = ub.Get<int32_t>(1);
    Fill(ai, {-1, 0, 5, std::numeric_limits<int32_t>::min()});
    Relu(di, ai, 4);
    CHECK(di.GetValue(0) == 0 && di.GetValue(1) == 0 && di.GetValue(2) == 5 && di.GetValue(3) == 0);
}

void TestBitwise()
{
    Core core;
    Buffers<3> ub(64);
    LocalTensor<uint16_t> a = ub.Get<uint16_t>(0), b = ub.Get<uint16_t>(1), d = ub.Get<uint16_t>(2);
    Fill(a, std::vector<uint16_t>{0xF0F0, 0x1234, 0xFFFF, 0x0000});
    Fill(b, std::vector<uint16_t>{0x0FF0, 0xFF00, 0x8001, 0x0000});
    d.SetValue(3, 0xAAAA);
    And(d, a, b, 3);
    CHECK(d.GetValue(0) == 0x00F0 && d.GetValue(1) == 0x1200 && d.GetValue(2) == 0x8001 && d.GetValue(3) == 0xAAAA);
    Or(d, a, b, 3);
    CHECK(d.GetValue(0) == 0xFFF0 && d.GetValue(1) == 0xFF34 && d.GetValue(2) == 0xFFFF);
    Not(d, a, 4);
    CHECK(d.GetValue(0) == 0x0F0F && d.GetValue(1) == 0xEDCB && d.GetValue(2) == 0x0000 && d.GetValue(3) == 0xFFFF);
    LocalTensor<int16_t> s = ub.Get<int16_t>(0), t = ub.Get<int16_t>(2);
    s.SetValue(0, int16_t(-1));
    Not(t, s, 1);
    CHECK(t.GetValue(0) == 0);
    And(t, s, s, 1);
    CHECK(t.GetValue(0) == -1);
}

void TestIntCompareAndUbCopy()
{
    Core core;
    Buffers<3> ub(512);
    LocalTensor<int32_t> a = ub.Get<int32_t>(0);
    LocalTensor<uint8_t> m = ub.Get<uint8_t>(1);
    for (uint32_t i = 0; i < 64; ++i) {
        a.SetValue(i, static_cast<int32_t>(i % 3) + 16777216);  // 2^24 + {0,1,2}: not all exact as float
    }
    CompareScalar(m, a, int32_t(16777217), CMPMODE::EQ, 64);
    CHECK(m.GetValue(0) == 0x92 && m.GetValue(1) == 0x24);  // bits 1, 4, 7, 10, 13, ...: exact int compare
    // UB -> UB DataCopy: count elements, and the block form with gaps.
    LocalTensor<float> f = ub.Get<float>(0), g = ub.Get<float>(2);
    for (uint32_t i = 0; i < 128; ++i) {
        f.SetValue(i, static_cast<float>(i));
    }
    Duplicate(g, -1.0f, 128);
    DataCopy(g, f, 16);
    CHECK(g.GetValue(0) == 0.0f && g.GetValue(15) == 15.0f && g.GetValue(16) == -1.0f);
    DataCopy(g, f, DataCopyParams(2, 1, 1, 2));  // 2 blocks of 8 floats; src gap 1 block, dst gap 2
    CHECK(g.GetValue(0) == 0.0f && g.GetValue(7) == 7.0f && g.GetValue(24) == 16.0f && g.GetValue(31) == 23.0f);
    CHECK(g.GetValue(8) == 8.0f);  // from the first copy, untouched
    // Vector work on the copy needs no sync: both are on the V pipe.
    Muls(g, g, 2.0f, 8);
    CHECK(g.GetValue(7) == 14.0f);
}

}  // namespace

void VectorTests()
{
    TestDiv();
    TestDivs();
    TestLogIsLn();
    TestMaxMin();
    TestAbsRelu();
    TestBitwise();
    TestIntCompareAndUbCopy();
}

void AddVectorViolations(Violations& v)
{
    v["and_uint8"] = {"And", [] {
        Buffers<1> ub(64);
        And(ub.Get<uint8_t>(0), ub.Get<uint8_t>(0), ub.Get<uint8_t>(0), 16);  // the device: 16 int16_t lanes
    }};
    v["or_int32"] = {"Or", [] {
        Buffers<1> ub(64);
        Or(ub.Get<int32_t>(0), ub.Get<int32_t>(0), ub.Get<int32_t>(0), 8);
    }};
    v["compare_scalar_partial_repeat"] = {"CompareScalar", [] {
        Buffers<2> ub(1024);
        CompareScalar(ub.Get<uint8_t>(1), ub.Get<float>(0), 0.0f, CMPMODE::LT, 72);  // 288 bytes
    }};
    v["compare_int32_lt"] = {"Compare", [] {
        Buffers<2> ub(256);
        Compare(ub.Get<uint8_t>(1), ub.Get<int32_t>(0), ub.Get<int32_t>(0), CMPMODE::LT, 64);
    }};
    v["ub_copy_unaligned"] = {"DataCopy", [] {
        Buffers<2> ub(64);
        DataCopy(ub.Get<float>(1), ub.Get<float>(0), 7);
    }};
    v["ub_copy_of_copy_in"] = {"DataCopy", [] {
        Buffers<2> ub(32);
        DataCopy(ub.Get<float>(0), EightFloats(), 8);
        DataCopy(ub.Get<float>(1), ub.Get<float>(0), 8);  // V reads what MTE2 wrote, without sync
    }};
    v["div_count_exceeds"] = {"Div", [] {
        Buffers<1> ub(64);
        Div(ub.Get<float>(0), ub.Get<float>(0), ub.Get<float>(0), 17);
    }};
}

}  // namespace selftest
