// selftest_vector.cpp - hand-checked tests of Div, Divs, Log (= Ln), Max, Min, Maxs, Mins, Abs,
// Relu, And, Or, Not, int32 Compare, UB -> UB DataCopy and the level-0 (mask/repeat) Compare,
// Compares and Select on Atlas A2/A3 (see selftest_common.h).
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

/// GatherMask, built-in patterns in Normal mode: the docs' example (GatherMask.md: [1 .. 256] of
/// 4-byte elements, pattern 2, 4 repeats -> the even values 2 .. 256 packed, rsvdCnt 128); pattern
/// 3 (k % 4 == 0) of 2 half repeats with a repeat stride of 16 blocks (the second repeat starts
/// at element 256); pattern 7 keeps all.
void TestGatherMask()
{
    Core core;
    Buffers<2> ub(2048);
    LocalTensor<float> src = ub.Get<float>(0), dst = ub.Get<float>(1);
    for (uint32_t i = 0; i < 256; ++i) {
        src.SetValue(i, static_cast<float>(i + 1));
    }
    Duplicate(dst, -1.0f, 256);
    uint64_t kept = 0;
    GatherMask(dst, src, 2, false, 0, {1, 4, 8, 0}, kept);
    CHECK(kept == 128 && dst.GetValue(0) == 2.0f && dst.GetValue(63) == 128.0f && dst.GetValue(127) == 256.0f);
    CHECK(dst.GetValue(128) == -1.0f);
    GatherMask(dst, src, 7, false, 0, {1, 1, 8, 0}, kept);
    CHECK(kept == 64 && dst.GetValue(63) == 64.0f);
    LocalTensor<half> h = ub.Get<half>(0), hd = ub.Get<half>(1);
    for (uint32_t i = 0; i < 512; ++i) {
        h.SetValue(i, static_cast<half>(static_cast<float>(i % 1024)));
    }
    GatherMask(hd, h, 3, false, 0, {1, 2, 16, 0}, kept);
    CHECK(kept == 64 && static_cast<float>(hd.GetValue(0)) == 0.0f && static_cast<float>(hd.GetValue(1)) == 4.0f);
    CHECK(static_cast<float>(hd.GetValue(31)) == 124.0f && static_cast<float>(hd.GetValue(32)) == 256.0f);
}


// ---------------------------------------------------------------- level 0: Compare, Compares, Select

uint8_t Byte(const LocalTensor<uint8_t>& m, uint32_t i) { return m.GetValue(i); }

/// Compares on float, 2 repeats with srcBlkStride 2 / srcRepStride 16: repeat r, lane k reads
/// element r * 128 + (k / 8) * 16 + k % 8 (the other elements, -1, are never read). GT 0: NaN,
/// -0, +0 and -inf false, +inf and the smallest subnormal true. Atlas A2/A3 ignores the mask
/// (Compares.md: reserved): mask 64, mask 37 and a bitwise mask give the same 16 bytes.
void TestLevel0Compares()
{
    Core core;
    Buffers<2> ub(2048);
    LocalTensor<float> x = ub.Get<float>(0);
    LocalTensor<uint8_t> m = ub.Get<uint8_t>(1);
    for (uint32_t i = 0; i < 512; ++i) {
        x.SetValue(i, ((i % 128) / 8) % 2 == 0 ? 1.0f : -1.0f);  // read blocks 1, skipped blocks -1
    }
    x.SetValue(3, kNan);                         // repeat 0, lane 3
    x.SetValue(17, -0.0f);                       // repeat 0, block 1 (elements 16..23), lane 9
    x.SetValue(33, kInf);                        // repeat 0, block 2, lane 17
    x.SetValue(130, -kInf);                      // repeat 1, lane 2
    x.SetValue(146, 0.0f);                       // repeat 1, lane 10
    x.SetValue(150, std::ldexp(1.0f, -149));     // repeat 1, lane 14
    const uint8_t want[16] = {0xF7, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                              0xFB, 0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const uint64_t bitwise[2] = {0x1, 0};
    for (int form = 0; form < 4; ++form) {
        for (uint32_t i = 0; i < 32; ++i) {
            m.SetValue(i, 0xA5);
        }
        if (form == 0) {
            Compares(m, x, 0.0f, CMPMODE::GT, uint64_t{64}, 2, UnaryRepeatParams{1, 2, 8, 16});
        } else if (form == 1) {
            Compares(m, x, 0.0f, CMPMODE::GT, uint64_t{37}, 2, UnaryRepeatParams{1, 2, 8, 16});
        } else if (form == 2) {
            Compares(m, x, 0.0f, CMPMODE::GT, bitwise, 2, UnaryRepeatParams{1, 2, 8, 16});
        } else {
            CompareScalar<float, uint8_t, false>(m, x, 0.0f, CMPMODE::GT, uint64_t{5}, 2,
                UnaryRepeatParams{1, 2, 8, 16});  // isSetMask = false: the mask is not used anyway
        }
        bool same = true;
        for (uint32_t i = 0; i < 16; ++i) {
            same = same && Byte(m, i) == want[i];
        }
        CHECK(same);
        CHECK(Byte(m, 16) == 0xA5);  // 2 repeats x 8 bytes, the rest untouched
    }
    // NE against a NaN scalar is true everywhere; EQ false everywhere (one repeat, 8 bytes).
    Compares(m, x, kNan, CMPMODE::NE, uint64_t{64}, 1, UnaryRepeatParams{});
    CHECK(Byte(m, 0) == 0xFF && Byte(m, 7) == 0xFF && Byte(m, 8) == 0xFB);
    Compares(m, x, kNan, CMPMODE::EQ, uint64_t{64}, 1, UnaryRepeatParams{});
    CHECK(Byte(m, 0) == 0 && Byte(m, 7) == 0 && Byte(m, 8) == 0xFB);
    // repeatTime 0: a NOP.
    Compares(m, x, 0.0f, CMPMODE::LT, uint64_t{64}, 0, UnaryRepeatParams{});
    CHECK(Byte(m, 0) == 0 && Byte(m, 8) == 0xFB);
    // int32_t: EQ, exactly (2^24 + 1 is not a float).
    LocalTensor<int32_t> xi = ub.Get<int32_t>(0);
    for (uint32_t i = 0; i < 64; ++i) {
        xi.SetValue(i, i == 9 ? 16777217 : 16777216);
    }
    Compares(m, xi, int32_t(16777217), CMPMODE::EQ, uint64_t{64}, 1, UnaryRepeatParams{});
    CHECK(Byte(m, 0) == 0 && Byte(m, 1) == 0x02 && Byte(m, 7) == 0);
}

/// Compare on half, 2 repeats: src1BlkStride 0 and src1RepStride 0 make every repeat compare
/// against src1's first block (16 halves, -0 but a NaN at 5). LE: +0 <= -0 true, x <= NaN
/// false, so each 16 lanes give 0xDF 0xFF; repeat 1, lane 2 holds 1 (> -0): byte 16 0xDB.
void TestLevel0Compare()
{
    Core core;
    Buffers<3> ub(1024);
    LocalTensor<half> a = ub.Get<half>(0), b = ub.Get<half>(1);
    LocalTensor<uint8_t> m = ub.Get<uint8_t>(2);
    for (uint32_t i = 0; i < 512; ++i) {
        a.SetValue(i, half(0.0f));
        b.SetValue(i, half::FromBits(i < 16 ? 0x8000 : 0x7E00));  // past block 0: NaN, never read
    }
    a.SetValue(1, half(-1.0f));
    a.SetValue(130, half(1.0f));
    b.SetValue(5, half::FromBits(0x7E00));
    for (uint32_t i = 0; i < 64; ++i) {
        m.SetValue(i, 0xA5);
    }
    Compare(m, a, b, CMPMODE::LE, uint64_t{128}, 2, BinaryRepeatParams{1, 1, 0, 8, 8, 0});
    bool same = true;
    for (uint32_t i = 0; i < 32; ++i) {
        const uint8_t want = i == 16 ? 0xDB : (i % 2 == 0 ? 0xDF : 0xFF);
        same = same && Byte(m, i) == want;
    }
    CHECK(same);
    CHECK(Byte(m, 32) == 0xA5);
    // int8_t dst, the bitwise mask (ignored): the same bits.
    uint64_t bits[2] = {1, 1};
    Compare(m.ReinterpretCast<int8_t>(), a, b, CMPMODE::LE, bits, 1, BinaryRepeatParams{1, 1, 0, 8, 8, 0});
    CHECK(Byte(m, 0) == 0xDF && Byte(m, 15) == 0xFF);
}

/// Select VSEL_TENSOR_SCALAR_MODE on float, mask 37, 3 repeats, dstRepStride 16: repeat r,
/// lane k < 37 writes dst[r * 128 + k] from src0[r * 64 + k] (bit 1) or the scalar -0 (bit 0);
/// selMask's bits are consumed 64 per repeat (bytes 0x0F, then 0xF0, then 0xAA). Every other
/// element of dst keeps its 42.
void TestLevel0SelectScalar()
{
    Core core;
    Buffers<3> ub(2048);
    LocalTensor<float> dst = ub.Get<float>(0), src = ub.Get<float>(1);
    LocalTensor<uint8_t> sel = ub.Get<uint8_t>(2);
    for (uint32_t i = 0; i < 512; ++i) {
        dst.SetValue(i, 42.0f);
        src.SetValue(i, static_cast<float>(i));
    }
    for (uint32_t i = 0; i < 24; ++i) {
        sel.SetValue(i, i < 8 ? 0x0F : (i < 16 ? 0xF0 : 0xAA));
    }
    Select(dst, sel, src, -0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{37}, 3,
        BinaryRepeatParams{1, 1, 1, 16, 8, 8});
    bool same = true;
    for (uint32_t i = 0; i < 512; ++i) {
        const uint32_t r = i / 128, k = i % 128;
        uint32_t want = Bits(42.0f);
        if (r < 3 && k < 37) {
            const bool bit = r == 0 ? k % 8 < 4 : (r == 1 ? k % 8 >= 4 : k % 2 == 1);
            want = bit ? Bits(static_cast<float>(r * 64 + k)) : 0x80000000u;
        }
        same = same && Bits(dst.GetValue(i)) == want;
    }
    CHECK(same);
    CHECK(Bits(dst.GetValue(4)) == 0x80000000u && dst.GetValue(3) == 3.0f && dst.GetValue(37) == 42.0f);
    CHECK(dst.GetValue(128 + 4) == 68.0f && dst.GetValue(256 + 5) == 133.0f);
    // Mask 0 and repeatTime 0: NOPs.
    Select(dst, sel, src, 7.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{0}, 3, BinaryRepeatParams{});
    Select(dst, sel, src, 7.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{64}, 0, BinaryRepeatParams{});
    CHECK(dst.GetValue(0) == 0.0f && dst.GetValue(37) == 42.0f && dst.GetValue(132) == 68.0f);
    // dst == src0, same strides: full overlap, allowed; NaN passes through untouched.
    src.SetValue(1, kNan);
    Select(src, sel, src, 7.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{64}, 1, BinaryRepeatParams{});
    CHECK(src.GetValue(0) == 0.0f && std::isnan(src.GetValue(1)) && src.GetValue(4) == 7.0f);
    CHECK(src.GetValue(64) == 64.0f);
}

/// Select VSEL_TENSOR_TENSOR_MODE on half, bitwise mask {bit 0 | bit 63, bit 0 | bit 63}:
/// lanes 0, 63, 64, 127 of 2 repeats. src1BlkStride 2 / src1RepStride 16: lane k of repeat r is
/// src1[r * 256 + (k / 16) * 32 + k % 16]. selMask: repeat 0 all 1 but lane 63; repeat 1 all 0
/// but lane 0.
void TestLevel0SelectTensor()
{
    Core core;
    Buffers<4> ub(1024);
    LocalTensor<half> dst = ub.Get<half>(0), a = ub.Get<half>(1), b = ub.Get<half>(2);
    LocalTensor<uint8_t> sel = ub.Get<uint8_t>(3);
    for (uint32_t i = 0; i < 512; ++i) {
        dst.SetValue(i, half(7.0f));
        a.SetValue(i, half(static_cast<float>(i)));
        b.SetValue(i, half(-static_cast<float>(i)));
    }
    for (uint32_t i = 0; i < 32; ++i) {
        sel.SetValue(i, i < 16 ? (i == 7 ? 0x7F : 0xFF) : (i == 16 ? 0x01 : 0x00));
    }
    uint64_t bits[2] = {0x8000000000000001u, 0x8000000000000001u};
    Select(dst, sel, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, bits, 2, BinaryRepeatParams{1, 1, 2, 8, 8, 16});
    auto f = [&](uint32_t i) { return static_cast<float>(dst.GetValue(i)); };
    CHECK(f(0) == 0.0f && f(63) == -111.0f && f(64) == 64.0f && f(127) == 127.0f);
    CHECK(f(128) == 128.0f && f(128 + 63) == -367.0f && f(128 + 64) == -384.0f && f(128 + 127) == -495.0f);
    bool kept = true;
    for (uint32_t i = 0; i < 512; ++i) {
        const uint32_t k = i % 128;
        if (i >= 256 || (k != 0 && k != 63 && k != 64 && k != 127)) {
            kept = kept && f(i) == 7.0f;
        }
    }
    CHECK(kept);
    // VSEL_CMPMASK_SPR: the first 128 bits serve every repeat (repeat 1 lane 63 -> src1 again).
    Select(dst, sel, a, b, SELMODE::VSEL_CMPMASK_SPR, bits, 2, BinaryRepeatParams{1, 1, 2, 8, 8, 16});
    CHECK(f(128) == 128.0f && f(128 + 63) == -367.0f && f(128 + 64) == 192.0f && f(128 + 127) == 255.0f);
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
    TestGatherMask();
    TestLevel0Compares();
    TestLevel0Compare();
    TestLevel0SelectScalar();
    TestLevel0SelectTensor();
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
    v["gather_mask_counter_mode"] = {"GatherMask", [] {
        Buffers<2> ub(256);
        uint64_t kept = 0;
        GatherMask(ub.Get<float>(1), ub.Get<float>(0), 1, true, 64, {1, 1, 8, 0}, kept);
    }};
    v["gather_mask_past_src"] = {"GatherMask", [] {
        Buffers<2> ub(256);  // 2 repeats of 64 floats read 512 bytes
        uint64_t kept = 0;
        GatherMask(ub.Get<float>(1), ub.Get<float>(0), 1, false, 0, {1, 2, 8, 0}, kept);
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
    v["level0_select_past_tensor"] = {"Select", [] {
        Buffers<3> ub(256);  // 2 repeats of 64 floats need 512 bytes
        Select(ub.Get<float>(0), ub.Get<uint8_t>(2), ub.Get<float>(1), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE,
            uint64_t{64}, 2, BinaryRepeatParams{});
    }};
    v["level0_compares_past_ub"] = {"Compares", [] {
        Buffers<2> ub(256);  // repeat 254 starts 254 * 255 blocks (~2 MB) in
        Compares(ub.Get<uint8_t>(1), ub.Get<float>(0), 0.0f, CMPMODE::GT, uint64_t{64}, 255,
            UnaryRepeatParams{1, 1, 8, 255});
    }};
    v["level0_select_mask_65"] = {"Select", [] {
        Buffers<3> ub(256);
        Select(ub.Get<float>(0), ub.Get<uint8_t>(2), ub.Get<float>(1), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE,
            uint64_t{65}, 1, BinaryRepeatParams{});
    }};
    v["level0_select_mask_high_word"] = {"Select", [] {
        Buffers<3> ub(256);
        uint64_t bits[2] = {~uint64_t{0}, 1};  // float: only mask[0] has lanes
        Select(ub.Get<float>(0), ub.Get<uint8_t>(2), ub.Get<float>(1), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE,
            bits, 1, BinaryRepeatParams{});
    }};
    v["level0_select_dst_blk_stride_0"] = {"Select", [] {
        Buffers<3> ub(256);
        Select(ub.Get<float>(0), ub.Get<uint8_t>(2), ub.Get<float>(1), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE,
            uint64_t{64}, 1, BinaryRepeatParams{0, 1, 1, 8, 8, 8});
    }};
    v["level0_select_scalar_src1_strides"] = {"Select", [] {
        Buffers<3> ub(256);  // A2/A3 reads selMask through src1's strides: only 1 / 8 modelled
        Select(ub.Get<float>(0), ub.Get<uint8_t>(2), ub.Get<float>(1), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE,
            uint64_t{64}, 1, BinaryRepeatParams{1, 1, 2, 8, 8, 8});
    }};
    v["level0_select_partial_overlap"] = {"Select", [] {
        Buffers<3> ub(1024);  // dst = src0 one block further on: lane k writes what lane k + 8 reads
        const LocalTensor<float> a = ub.Get<float>(0);
        Select(a, ub.Get<uint8_t>(2), a[8], 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{64}, 1,
            BinaryRepeatParams{});
    }};
    v["level0_select_reads_earlier_dst"] = {"Select", [] {
        Buffers<3> ub(1024);  // repeat 1 reads src0 where repeat 0 wrote dst
        const LocalTensor<float> a = ub.Get<float>(0);
        Select(a[64], ub.Get<uint8_t>(2), a, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{64}, 2,
            BinaryRepeatParams{});
    }};
    v["level0_select_dst_over_selmask"] = {"Select", [] {
        Buffers<2> ub(256);  // dst written over the selection bits it reads
        Select(ub.Get<float>(0), ub.Get<uint8_t>(0), ub.Get<float>(1), 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE,
            uint64_t{64}, 1, BinaryRepeatParams{});
    }};
    v["level0_compare_dst_rep_stride"] = {"Compare", [] {
        Buffers<3> ub(1024);  // where dstRepStride 4 puts repeat 1's bits is not documented
        Compare(ub.Get<uint8_t>(2), ub.Get<float>(0), ub.Get<float>(1), CMPMODE::LT, uint64_t{64}, 2,
            BinaryRepeatParams{1, 1, 1, 4, 8, 8});
    }};
    v["level0_compare_mask_over_src"] = {"Compare", [] {
        Buffers<2> ub(1024);  // the bit mask written over src0's first bytes
        Compare(ub.Get<uint8_t>(0), ub.Get<float>(0), ub.Get<float>(1), CMPMODE::LT, uint64_t{64}, 1,
            BinaryRepeatParams{});
    }};
    v["level0_compares_int32_gt"] = {"Compares", [] {
        Buffers<2> ub(256);
        Compares(ub.Get<uint8_t>(1), ub.Get<int32_t>(0), int32_t(0), CMPMODE::GT, uint64_t{64}, 1,
            UnaryRepeatParams{});
    }};
    v["level0_select_mode_mismatch"] = {"Select", [] {
        Buffers<3> ub(256);
        Select(ub.Get<float>(0), ub.Get<uint8_t>(2), ub.Get<float>(1), ub.Get<float>(1),
            SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{64}, 1, BinaryRepeatParams{});
    }};
    v["div_count_exceeds"] = {"Div", [] {
        Buffers<1> ub(64);
        Div(ub.Get<float>(0), ub.Get<float>(0), ub.Get<float>(0), 17);
    }};
}

}  // namespace selftest
