// ascendc_cpu_selftest.cpp - unit tests of the AscendC CPU model.
//
//   ascendc_cpu_selftest                       run the semantic tests, print "N passed, M failed"
//   ascendc_cpu_selftest --list-violations     print "<case>\t<API>" for every violation case
//   ascendc_cpu_selftest --violate CASE        run one case; must exit 3 with "ascendc_cpu: <API>: ..."
//   ascendc_cpu_selftest --cast-table IN OUT   f32 values (IN) -> per value 12 uint16: f16 with
//                                              NONE,RINT,FLOOR,CEIL,ROUND,TRUNC,ODD then bf16 with
//                                              RINT,FLOOR,CEIL,ROUND,TRUNC (through Cast)
//   ascendc_cpu_selftest --widen-table OUT     all 65536 f16 then all 65536 bf16 patterns -> f32 bits
//   ascendc_cpu_selftest --int-cast-table IN OUT  f32 values (IN, no NaN) -> per value 10 words: int32
//                                              with RINT,FLOOR,CEIL,ROUND,TRUNC, then the bits read as
//                                              int32 -> f32 with the same modes
//   ascendc_cpu_selftest --arith DT A B OUT    DT = f16|f32; A, B element files of equal length;
//                                              OUT = Mul, Add, Sub, Muls(A, B[0]), Adds(A, B[0]),
//                                              Div, Max, Min, Maxs(A, B[0]), Mins(A, B[0]), Abs(A), Relu(A)
//
// Build (from the repository root):
//   g++ -std=c++17 -Wall -Wextra -Werror -I hswc/checker/ascendc_cpu test/cpp_fixtures/ascendc_cpu_selftest.cpp
//       test/cpp_fixtures/selftest_vector.cpp test/cpp_fixtures/selftest_cast.cpp
//       test/cpp_fixtures/selftest_sync.cpp
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

using selftest::Bits;
using selftest::Core;
using selftest::Fill;
using selftest::ReadAll;
using selftest::WriteAll;
using selftest::Violation;

namespace {

// ---------------------------------------------------------------- semantics

// The conversions are constexpr, as the device's are: kernels (and ATVOSS's MAKE_CONST) declare
// `constexpr half c = half(1.67...)` and `static constexpr T value = 0.0`; same bits as at run time.
constexpr half kSeluAlphaF16 = half(1.6732632423543772848170429916717);
constexpr bfloat16_t kSeluAlphaBf16 = bfloat16_t(1.6732632423543772848170429916717);
struct ConstHalf {
    static constexpr half value = 0.0;
};
static_assert(kSeluAlphaF16.ToBits() == 0x3EB1 && kSeluAlphaBf16.ToBits() == 0x3FD6, "RNE at compile time");
static_assert(half(65520.0).ToBits() == 0x7C00 && half(-0.0).ToBits() == 0x8000, "overflow, signed zero");
static_assert(half(5.960464477539063e-08 / 2).ToBits() == 0 && half(1e-7f).ToBits() == 0x0002, "subnormals");
static_assert(bfloat16_t(1.00390625).ToBits() == 0x3F80 && bfloat16_t(-7).ToBits() == 0xC0E0, "ties, integers");
static_assert(static_cast<float>(half::FromBits(0x0001)) == 5.9604644775390625e-08f, "f16 -> float");
static_assert(static_cast<float>(bfloat16_t::FromBits(0xC040)) == -3.0f && ConstHalf::value.ToBits() == 0, "");
// `__bf16` is bfloat16_t, as on the device (ops-nn kernels dispatch on std::is_same_v<T, __bf16>).
static_assert(std::is_same<__bf16, bfloat16_t>::value, "__bf16 is the model's bfloat16_t");

void TestFloatTypes()
{
    CHECK(half(1.6732632423543772848170429916717).ToBits() == kSeluAlphaF16.ToBits());
    CHECK(bfloat16_t(1.6732632423543772848170429916717).ToBits() == kSeluAlphaBf16.ToBits());
    CHECK(half(1.0f).ToBits() == 0x3C00);
    CHECK(half(65504.0f).ToBits() == 0x7BFF);
    CHECK(half(65520.0f).ToBits() == 0x7C00);           // RNE overflow -> inf
    CHECK(half(65519.0f).ToBits() == 0x7BFF);
    CHECK(half(-0.0f).ToBits() == 0x8000);
    CHECK(half(std::ldexp(1.0f, -24)).ToBits() == 0x0001);  // smallest subnormal
    CHECK(half(std::ldexp(1.0f, -25)).ToBits() == 0x0000);  // tie -> even (0)
    CHECK(half(std::ldexp(1.5f, -25)).ToBits() == 0x0001);
    CHECK(static_cast<float>(half::FromBits(0x0001)) == std::ldexp(1.0f, -24));
    CHECK(static_cast<float>(half::FromBits(0x3555)) == 0.333251953125f);
    CHECK(std::isnan(static_cast<float>(half::FromBits(0x7E00))));
    CHECK(bfloat16_t(1.0f).ToBits() == 0x3F80);
    CHECK(bfloat16_t(1.00390625f).ToBits() == 0x3F80);  // tie -> even
    CHECK(bfloat16_t(1.01171875f).ToBits() == 0x3F82);  // tie -> even (up)
    CHECK(static_cast<float>(bfloat16_t::FromBits(0xC040)) == -3.0f);
}

void TestCompareSelect()
{
    Core core;
    TPipe pipe;
    TBuf<TPosition::VECCALC> aBuf, bBuf, mBuf, dBuf;
    pipe.InitBuffer(aBuf, 256 * 4);
    pipe.InitBuffer(bBuf, 256 * 4);
    pipe.InitBuffer(mBuf, 256);
    pipe.InitBuffer(dBuf, 256 * 4);
    LocalTensor<float> a = aBuf.Get<float>();
    LocalTensor<float> b = bBuf.Get<float>();
    LocalTensor<uint8_t> m = mBuf.Get<uint8_t>();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> av(64), bv(64);
    for (int i = 0; i < 64; ++i) {
        av[i] = static_cast<float>(i % 7) - 3.0f;
        bv[i] = static_cast<float>(i % 5) - 2.0f;
    }
    av[3] = nan;
    bv[10] = nan;
    av[20] = inf;
    av[21] = -inf;
    Fill(a, av);
    Fill(b, bv);
    const CMPMODE modes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};
    for (CMPMODE mode : modes) {
        Duplicate(m.ReinterpretCast<uint32_t>(), 0xFFFFFFFFu, 64);
        Compare(m, a, b, mode, 64);
        bool ok = true;
        for (int i = 0; i < 64; ++i) {
            const bool bit = ((m.GetValue(i / 8) >> (i % 8)) & 1) != 0;
            const double x = av[i], y = bv[i];
            bool want = false;
            switch (mode) {
                case CMPMODE::LT: want = x < y; break;
                case CMPMODE::GT: want = x > y; break;
                case CMPMODE::EQ: want = x == y; break;
                case CMPMODE::LE: want = x <= y; break;
                case CMPMODE::GE: want = x >= y; break;
                case CMPMODE::NE: want = !(x == y); break;
            }
            ok = ok && bit == want;
        }
        CHECK(ok);
        CHECK(m.GetValue(8) == 0xFF);  // bytes past count/8 untouched
    }
    // NaN compares false (ordered modes), true for NE.
    Compare(m, a, b, CMPMODE::GT, 64);
    CHECK(((m.GetValue(0) >> 3) & 1) == 0);
    Compare(m, a, b, CMPMODE::NE, 64);
    CHECK(((m.GetValue(0) >> 3) & 1) == 1);

    // half Compare: 128 elements = 256 bytes.
    LocalTensor<half> ah = aBuf.Get<half>();
    LocalTensor<half> bh = bBuf.Get<half>();
    for (uint32_t i = 0; i < 128; ++i) {
        ah.SetValue(i, half(static_cast<float>(i)));
        bh.SetValue(i, half(64.0f));
    }
    Compare(m, ah, bh, CMPMODE::GE, 128);
    CHECK(m.GetValue(7) == 0x00 && m.GetValue(8) == 0xFF && m.GetValue(15) == 0xFF);

    // CompareScalar: whole repeats (64 f32), count/8 bytes, bytes past them untouched.
    Fill(a, av);  // the half test above overwrote the buffer
    Duplicate(m.ReinterpretCast<uint32_t>(), 0xFFFFFFFFu, 64);
    CompareScalar(m, a, 0.0f, CMPMODE::GE, 64);
    {
        bool ok = true;
        for (int i = 0; i < 64; ++i) {
            const bool bit = ((m.GetValue(i / 8) >> (i % 8)) & 1) != 0;
            ok = ok && bit == (static_cast<double>(av[i]) >= 0.0);  // NaN at 3: false
        }
        CHECK(ok);
        CHECK(((m.GetValue(0) >> 3) & 1) == 0);
        CHECK(m.GetValue(8) == 0xFF);  // untouched
    }
    CompareScalar(m, a, nan, CMPMODE::EQ, 64);
    CHECK(m.GetValue(0) == 0 && m.GetValue(7) == 0);
    Compares(m, a, nan, CMPMODE::NE, 64);
    CHECK(m.GetValue(0) == 0xFF && m.GetValue(7) == 0xFF);

    // Select TENSOR_TENSOR: bit i -> src0[i] else src1[i]; count need not be aligned.
    LocalTensor<float> d = dBuf.Get<float>();
    Duplicate(d, 42.0f, 256);
    for (uint32_t i = 0; i < 32; ++i) {
        m.SetValue(i, static_cast<uint8_t>(0xA5 ^ i));
    }
    for (uint32_t i = 0; i < 256; ++i) {
        a.SetValue(i, static_cast<float>(i));
        b.SetValue(i, -static_cast<float>(i));
    }
    Select(d, m, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 70);
    {
        bool ok = true;
        for (uint32_t i = 0; i < 70; ++i) {
            const bool bit = ((m.GetValue(i / 8) >> (i % 8)) & 1) != 0;
            ok = ok && d.GetValue(i) == (bit ? static_cast<float>(i) : -static_cast<float>(i));
        }
        CHECK(ok);
        CHECK(d.GetValue(70) == 42.0f);  // past count: untouched
    }
    // VSEL_CMPMASK_SPR: the first 64 bits (f32) reused per 256-byte repeat.
    Select(d, m, a, b, SELMODE::VSEL_CMPMASK_SPR, 200);
    {
        bool ok = true;
        for (uint32_t i = 0; i < 200; ++i) {
            const uint32_t k = i % 64;
            const bool bit = ((m.GetValue(k / 8) >> (k % 8)) & 1) != 0;
            ok = ok && d.GetValue(i) == (bit ? static_cast<float>(i) : -static_cast<float>(i));
        }
        CHECK(ok);
    }
    // TENSOR_SCALAR with dst == src0 (full overlap).
    Select(a, m, a, 7.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 100);
    {
        bool ok = true;
        for (uint32_t i = 0; i < 100; ++i) {
            const bool bit = ((m.GetValue(i / 8) >> (i % 8)) & 1) != 0;
            ok = ok && a.GetValue(i) == (bit ? static_cast<float>(i) : 7.5f);
        }
        CHECK(ok);
        CHECK(a.GetValue(100) == 100.0f);
    }
    // half CMPMASK_SPR reuses 128 bits.
    for (uint32_t i = 0; i < 256; ++i) {
        ah.SetValue(i, half(static_cast<float>(i)));
        bh.SetValue(i, half(-1.0f));
    }
    LocalTensor<half> dh = dBuf.Get<half>();
    Select(dh, m, ah, bh, SELMODE::VSEL_CMPMASK_SPR, 256);
    {
        bool ok = true;
        for (uint32_t i = 0; i < 256; ++i) {
            const uint32_t k = i % 128;
            const bool bit = ((m.GetValue(k / 8) >> (k % 8)) & 1) != 0;
            ok = ok && static_cast<float>(dh.GetValue(i)) == (bit ? static_cast<float>(i) : -1.0f);
        }
        CHECK(ok);
    }
}

void TestArith()
{
    Core core;
    TPipe pipe;
    TBuf<TPosition::VECCALC> aBuf, bBuf;
    pipe.InitBuffer(aBuf, 1024);
    pipe.InitBuffer(bBuf, 1024);
    LocalTensor<float> a = aBuf.Get<float>();
    LocalTensor<float> b = bBuf.Get<float>();
    a.SetValue(0, 3.0f);
    a.SetValue(1, -3.0f);
    a.SetValue(2, 2.0f);
    a.SetValue(3, 1e-45f);  // subnormal survives (no flush to zero)
    Muls(b, a, 0.333333343f, 4);
    CHECK(b.GetValue(0) == 1.0f);  // fl32(3 * 0x3EAAAAAB) rounds to exactly 1
    CHECK(Bits(b.GetValue(2)) == 0x3F2AAAABu);  // fl32(2 * 0x3EAAAAAB) = 0.666666686
    Adds(b, b, 0.5f, 4);
    CHECK(b.GetValue(1) == -0.5f);
    CHECK(Bits(b.GetValue(2)) == 0x3F955556u);  // 1.16666675
    CHECK(b.GetValue(3) == 0.5f);
    Muls(b, a, 1.0f, 4);
    CHECK(Bits(b.GetValue(3)) == 1u);
    Mul(b, a, a, 3);
    CHECK(b.GetValue(0) == 9.0f && b.GetValue(1) == 9.0f && b.GetValue(2) == 4.0f);
    Sub(b, a, a, 3);
    CHECK(Bits(b.GetValue(0)) == 0u);
    Add(b, a, a, 3);
    CHECK(b.GetValue(2) == 4.0f);
    // half: computed once, rounded once to half.
    LocalTensor<half> h = aBuf.Get<half>();
    LocalTensor<half> hb = bBuf.Get<half>();
    h.SetValue(0, half(2048.0f));
    Adds(hb, h, half(1.0f), 1);
    CHECK(hb.GetValue(0).ToBits() == half(2048.0f).ToBits());  // 2049 ties to even 2048
    h.SetValue(0, half(2050.0f));
    Adds(hb, h, half(1.0f), 1);
    CHECK(static_cast<float>(hb.GetValue(0)) == 2052.0f);  // 2051 ties to even 2052
    h.SetValue(0, half(65504.0f));
    Muls(hb, h, half(2.0f), 1);
    CHECK(hb.GetValue(0).ToBits() == 0x7C00);
    // int32 wraps.
    LocalTensor<int32_t> ia = aBuf.Get<int32_t>();
    ia.SetValue(0, 0x7FFFFFFF);
    Adds(ia, ia, 1, 1);
    CHECK(ia.GetValue(0) == std::numeric_limits<int32_t>::min());
    // Duplicate leaves elements past count alone.
    Duplicate(a, 1.0f, 64);
    Duplicate(a, 2.0f, 3);
    CHECK(a.GetValue(2) == 2.0f && a.GetValue(3) == 1.0f);
    // count 0 is a no-op.
    Muls(a, a, 5.0f, 0);
    CHECK(a.GetValue(0) == 2.0f);
}

void TestCast()
{
    Core core;
    TPipe pipe;
    TBuf<TPosition::VECCALC> fBuf, hBuf;
    pipe.InitBuffer(fBuf, 256);
    pipe.InitBuffer(hBuf, 256);
    LocalTensor<float> f = fBuf.Get<float>();
    LocalTensor<half> h = hBuf.Get<half>();
    LocalTensor<bfloat16_t> bf = hBuf.Get<bfloat16_t>();
    auto toHalf = [&](float v, RoundMode mode) {
        f.SetValue(0, v);
        Cast(h, f, mode, 1);
        return h.GetValue(0).ToBits();
    };
    auto toBf16 = [&](float v, RoundMode mode) {
        f.SetValue(0, v);
        Cast(bf, f, mode, 1);
        return bf.GetValue(0).ToBits();
    };
    CHECK(toHalf(1e6f, RoundMode::CAST_NONE) == 0x7C00);
    CHECK(toHalf(1e6f, RoundMode::CAST_TRUNC) == 0x7BFF);
    CHECK(toHalf(1e6f, RoundMode::CAST_ODD) == 0x7BFF);
    CHECK(toHalf(-1e6f, RoundMode::CAST_FLOOR) == 0xFC00);
    CHECK(toHalf(-1e6f, RoundMode::CAST_CEIL) == 0xFBFF);
    CHECK(toHalf(1e6f, RoundMode::CAST_FLOOR) == 0x7BFF);
    CHECK(toHalf(1e6f, RoundMode::CAST_CEIL) == 0x7C00);
    CHECK(toHalf(std::ldexp(1.0f, -25), RoundMode::CAST_RINT) == 0x0000);
    CHECK(toHalf(std::ldexp(1.0f, -25), RoundMode::CAST_ROUND) == 0x0001);
    CHECK(toHalf(std::ldexp(1.0f, -26), RoundMode::CAST_ODD) == 0x0001);
    CHECK(toHalf(std::ldexp(1.0f, -26), RoundMode::CAST_CEIL) == 0x0001);
    CHECK(toHalf(-std::ldexp(1.0f, -26), RoundMode::CAST_CEIL) == 0x8000);
    CHECK(toHalf(-std::ldexp(1.0f, -26), RoundMode::CAST_FLOOR) == 0x8001);
    CHECK(toHalf(1.0f + std::ldexp(1.0f, -11), RoundMode::CAST_RINT) == 0x3C00);   // tie to even
    CHECK(toHalf(1.0f + std::ldexp(1.0f, -11), RoundMode::CAST_ROUND) == 0x3C01);  // tie away
    CHECK(toHalf(-2.5f, RoundMode::CAST_TRUNC) == 0xC100);
    CHECK(toHalf(-0.0f, RoundMode::CAST_RINT) == 0x8000);
    CHECK((toHalf(std::numeric_limits<float>::quiet_NaN(), RoundMode::CAST_RINT) & 0x7E00) == 0x7E00);
    CHECK(toHalf(-std::numeric_limits<float>::infinity(), RoundMode::CAST_TRUNC) == 0xFC00);
    CHECK(toBf16(1.00390625f, RoundMode::CAST_RINT) == 0x3F80);
    CHECK(toBf16(1.00390625f, RoundMode::CAST_ROUND) == 0x3F81);
    CHECK(toBf16(-1.00390625f, RoundMode::CAST_FLOOR) == 0xBF81);
    CHECK(toBf16(3.4e38f, RoundMode::CAST_RINT) == 0x7F80);
    CHECK(toBf16(3.4e38f, RoundMode::CAST_TRUNC) == 0x7F7F);
    // widening is exact; count limits the elements touched.
    h.SetValue(0, half::FromBits(0x0001));
    h.SetValue(1, half::FromBits(0xFBFF));
    f.SetValue(2, 99.0f);
    Cast(f, h, RoundMode::CAST_NONE, 2);
    CHECK(f.GetValue(0) == std::ldexp(1.0f, -24) && f.GetValue(1) == -65504.0f && f.GetValue(2) == 99.0f);
    bf.SetValue(0, bfloat16_t::FromBits(0xC040));
    Cast(f, bf, RoundMode::CAST_NONE, 1);
    CHECK(f.GetValue(0) == -3.0f);
}

void TestCopies()
{
    Core core;
    std::vector<float> gmIn(16), gmOut(16, -1.0f);
    for (int i = 0; i < 16; ++i) {
        gmIn[i] = static_cast<float>(i + 1);
    }
    ascendc_cpu::RegisterGm(gmIn.data(), gmIn.size() * 4, "in", false);
    ascendc_cpu::RegisterGm(gmOut.data(), gmOut.size() * 4, "out", true);
    GlobalTensor<float> in, out;
    in.SetGlobalBuffer(gmIn.data(), 16);
    out.SetGlobalBuffer(gmOut.data(), 16);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> u = buf.Get<float>();
    Duplicate(u, 0.0f, 64);
    PipeBarrier<PIPE_ALL>();

    // isPad=false, 11 floats: lanes 11..15 = first element of the last 32-byte block (element 8).
    DataCopyParams p(1, 11 * 4, 0, 0);
    DataCopyPad(u, in, p, DataCopyPadParams{false, 0, 0, 0});
    PipeBarrier<PIPE_ALL>();
    CHECK(u.GetValue(10) == 11.0f);
    CHECK(u.GetValue(11) == 9.0f && u.GetValue(15) == 9.0f);
    CHECK(u.GetValue(16) == 0.0f);
    // isPad=true, rightPadding 2, paddingValue = bits of 7.5f; rest of the block padded too.
    DataCopyPad(u, in[1], DataCopyParams(1, 3 * 4, 0, 0), DataCopyPadParams(true, 0, 2, Bits(7.5f)));
    PipeBarrier<PIPE_ALL>();
    CHECK(u.GetValue(0) == 2.0f && u.GetValue(2) == 4.0f);
    CHECK(u.GetValue(3) == 7.5f && u.GetValue(4) == 7.5f && u.GetValue(7) == 7.5f);
    // leftPadding (ext form): 1 element of -2 before the data.
    DataCopyPad(u, in, DataCopyExtParams(1, 4 * 4, 0, 0, 0), DataCopyPadExtParams<float>(true, 1, 0, -2.0f));
    PipeBarrier<PIPE_ALL>();
    CHECK(u.GetValue(0) == -2.0f && u.GetValue(1) == 1.0f && u.GetValue(4) == 4.0f && u.GetValue(5) == -2.0f);
    // Two blocks of 3 floats, GM gap 4 bytes, UB gap 1 block: block 1 at UB byte 64.
    DataCopyPad(u, in, DataCopyParams(2, 12, 4, 1), DataCopyPadParams{false, 0, 0, 0});
    PipeBarrier<PIPE_ALL>();
    CHECK(u.GetValue(0) == 1.0f && u.GetValue(2) == 3.0f && u.GetValue(16) == 5.0f && u.GetValue(18) == 7.0f);

    // UB -> GM writes exactly blockLen bytes.
    for (uint32_t i = 0; i < 16; ++i) {
        u.SetValue(i, 100.0f + static_cast<float>(i));
    }
    DataCopyPad(out[2], u, DataCopyParams(1, 5 * 4, 0, 0));
    CHECK(gmOut[1] == -1.0f && gmOut[2] == 100.0f && gmOut[6] == 104.0f && gmOut[7] == -1.0f);
    // Two blocks out: UB gap 1 block (block 1 read from UB byte 64), GM gap 4 bytes.
    for (uint32_t i = 16; i < 24; ++i) {
        u.SetValue(i, 200.0f + static_cast<float>(i));
    }
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(out, u, DataCopyParams(2, 8, 1, 4));
    CHECK(gmOut[0] == 100.0f && gmOut[1] == 101.0f && gmOut[2] == 100.0f && gmOut[3] == 216.0f &&
        gmOut[4] == 217.0f);

    // Aligned DataCopy both ways.
    PipeBarrier<PIPE_ALL>();
    DataCopy(u, in[8], 8);
    PipeBarrier<PIPE_ALL>();
    CHECK(u.GetValue(0) == 9.0f && u.GetValue(7) == 16.0f);
    DataCopy(out[8], u, 8);
    CHECK(gmOut[8] == 9.0f && gmOut[15] == 16.0f);
    PipeBarrier<PIPE_ALL>();
    DataCopy(u, in, DataCopyParams(2, 1, 0, 1));  // two 32-byte blocks, UB gap one block
    PipeBarrier<PIPE_ALL>();
    CHECK(u.GetValue(0) == 1.0f && u.GetValue(16) == 9.0f);

    // Scalar GM access.
    CHECK(in.GetValue(15) == 16.0f && in[3].GetValue(0) == 4.0f && in[3].GetSize() == 13);
    out.SetValue(0, 5.0f);
    CHECK(gmOut[0] == 5.0f);
}

void TestQueuesAndTensors()
{
    Core core;
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 2, 100);  // rounded up to 128
    pipe.InitBuffer(qout, 1, 64);
    CHECK(ascendc_cpu::Rt().ubUsed == 2 * 128 + 64);
    LocalTensor<float> t0 = qin.AllocTensor<float>();
    CHECK(t0.GetSize() == 32 && t0.GetLength() == 128 && t0.GetPosition() == TPosition::VECIN);
    LocalTensor<float> t1 = qin.AllocTensor<float>();
    CHECK(t1.GetPhyAddr() == t0.GetPhyAddr() + 32);
    CHECK(!qin.HasIdleBuffer());
    qin.EnQue(t0);
    qin.EnQue(t1);
    CHECK(qin.GetTensorCountInQue() == 2 && !qin.VacantInQue());
    LocalTensor<float> d0 = qin.DeQue<float>();
    CHECK(d0.GetPhyAddr() == t0.GetPhyAddr());  // FIFO
    qin.FreeTensor(d0);
    LocalTensor<half> d1 = qin.DeQue<half>();
    CHECK(d1.GetSize() == 64);
    qin.FreeTensor(d1);
    // Round robin: after slot 1 the next allocation is slot 0 again.
    LocalTensor<float> t2 = qin.AllocTensor<float>();
    CHECK(t2.GetPhyAddr() == t0.GetPhyAddr());
    qin.FreeTensor(t2);
    LocalTensor<float> t3 = qin.AllocTensor<float>();
    CHECK(t3.GetPhyAddr() == t1.GetPhyAddr());
    qin.FreeTensor(t3);

    // Views.
    LocalTensor<float> o = qout.AllocTensor<float>();
    LocalTensor<float> sub = o[8];
    CHECK(sub.GetSize() == 8 && sub.GetPhyAddr() == o.GetPhyAddr() + 8);
    LocalTensor<uint8_t> bytes = o.ReinterpretCast<uint8_t>();
    CHECK(bytes.GetSize() == 64);
    o.SetValue(1, 1.5f);
    CHECK(o.GetValue(1) == 1.5f && o(1) == 1.5f);
    o(2) = 2.5f;
    CHECK(o.GetValue(2) == 2.5f);
    o.SetSize(4);
    CHECK(o.GetSize() == 4);
    qout.FreeTensor(o);

    // SetFlag/WaitFlag resolve a GM->UB -> V hazard on a TBuf.
    std::vector<float> g(8, 3.0f);
    GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g.data(), 8);
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 32);
    LocalTensor<float> tv = tb.Get<float>();
    DataCopy(tv, gt, 8);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(tv, tv, 2.0f, 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(gt, tv, 8);
    CHECK(g[7] == 6.0f);
    CHECK(GetBlockIdx() == 0 && GetBlockNum() == 1);
    CHECK(tb.Get<float>(4).GetSize() == 4 && tb.GetWithOffset<float>(2, 0).GetSize() == 2);
}

struct Tiling3 {
    int64_t a, b, c;
};

void TestTiling()
{
    Core core;
    int64_t raw[3] = {21, 1, 5440};
    uint8_t buf[24];
    std::memcpy(buf, raw, sizeof buf);
    ascendc_cpu::SetTilingBytes(sizeof buf);
    REGISTER_TILING_DEFAULT(Tiling3);
    GET_TILING_DATA_WITH_STRUCT(Tiling3, t, buf);
    CHECK(t.a == 21 && t.b == 1 && t.c == 5440);
}

// ---------------------------------------------------------------- violations

selftest::Violations AllViolations()
{
    selftest::Violations v;
    selftest::AddVectorViolations(v);
    selftest::AddCastViolations(v);
    selftest::AddSyncViolations(v);
    v["ub_overflow"] = {"TPipe::InitBuffer", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 100000);
        pipe.InitBuffer(b, 100000);
    }};
    v["alloc_exhausted"] = {"TQue::AllocTensor", [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 64);
        (void)q.AllocTensor<float>();
        (void)q.AllocTensor<float>();
    }};
    v["deque_empty"] = {"TQue::DeQue", [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 64);
        (void)q.DeQue<float>();
    }};
    v["enque_depth"] = {"TQue::EnQue", [] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 2, 64);
        LocalTensor<float> a = q.AllocTensor<float>();
        LocalTensor<float> b = q.AllocTensor<float>();
        q.EnQue(a);
        q.EnQue(b);
    }};
    v["double_free"] = {"TQue::FreeTensor", [] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 64);
        LocalTensor<float> a = q.AllocTensor<float>();
        q.FreeTensor(a);
        q.FreeTensor(a);
    }};
    v["use_after_free"] = {"Duplicate", [] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 64);
        LocalTensor<float> a = q.AllocTensor<float>();
        q.FreeTensor(a);
        Duplicate(a, 1.0f, 16);
    }};
    v["use_enqueued"] = {"Duplicate", [] {
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 64);
        LocalTensor<float> a = q.AllocTensor<float>();
        q.EnQue(a);
        Duplicate(a, 1.0f, 16);
    }};
    v["compare_not_256"] = {"Compare", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, m;
        pipe.InitBuffer(a, 1024);
        pipe.InitBuffer(m, 256);
        LocalTensor<float> x = a.Get<float>();
        LocalTensor<uint8_t> mask = m.Get<uint8_t>();
        Compare(mask, x, x, CMPMODE::GT, 32);
    }};
    v["datacopy_unaligned"] = {"DataCopy", [] {
        static std::vector<float> g(16);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 16);
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 64);
        LocalTensor<float> x = a.Get<float>();
        DataCopy(x, gt, 7);
    }};
    v["gm_out_of_bound"] = {"DataCopyPad", [] {
        static std::vector<float> g(16);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 10);
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 64);
        LocalTensor<float> x = a.Get<float>();
        DataCopyPad(x, gt[4], DataCopyParams(1, 7 * 4, 0, 0), DataCopyPadParams(false, 0, 0, 0));
    }};
    v["gm_outside_regions"] = {"GlobalTensor::GetValue", [] {
        static std::vector<float> g(8);
        ascendc_cpu::RegisterGm(g.data(), 8 * 4, "g", false);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data());
        (void)gt.GetValue(8);
    }};
    v["gm_write_input"] = {"DataCopyPad", [] {
        static std::vector<float> g(8);
        ascendc_cpu::RegisterGm(g.data(), 8 * 4, "x", false);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 8);
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 64);
        DataCopyPad(gt, a.Get<float>(), DataCopyParams(1, 12, 0, 0));
    }};
    v["cast_bf16_none"] = {"Cast", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 64);
        pipe.InitBuffer(b, 64);
        Cast(b.Get<bfloat16_t>(), a.Get<float>(), RoundMode::CAST_NONE, 8);
    }};
    v["cast_widen_rint"] = {"Cast", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b;
        pipe.InitBuffer(a, 64);
        pipe.InitBuffer(b, 64);
        Cast(a.Get<float>(), b.Get<half>(), RoundMode::CAST_RINT, 8);
    }};
    v["select_mode_mismatch"] = {"Select", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, m;
        pipe.InitBuffer(a, 256);
        pipe.InitBuffer(m, 256);
        LocalTensor<float> x = a.Get<float>();
        Select(x, m.Get<uint8_t>(), x, 1.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 8);
    }};
    v["count_exceeds_tensor"] = {"Muls", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 64);
        LocalTensor<float> x = a.Get<float>();
        Muls(x, x, 2.0f, 17);
    }};
    v["negative_count"] = {"Adds", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 64);
        LocalTensor<float> x = a.Get<float>();
        Adds(x, x, 2.0f, -1);
    }};
    v["unaligned_ub"] = {"Duplicate", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a;
        pipe.InitBuffer(a, 64);
        LocalTensor<float> x = a.Get<float>();
        Duplicate(x[1], 2.0f, 4);
    }};
    v["missing_mte2_v_sync"] = {"Muls", [] {
        static std::vector<float> g(8);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 8);
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 32);
        LocalTensor<float> x = q.AllocTensor<float>();
        DataCopy(x, gt, 8);
        Muls(x, x, 2.0f, 8);
    }};
    v["missing_v_mte3_sync"] = {"DataCopyPad", [] {
        static std::vector<float> g(8);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 8);
        TPipe pipe;
        TQue<TPosition::VECOUT, 1> q;
        pipe.InitBuffer(q, 1, 32);
        LocalTensor<float> y = q.AllocTensor<float>();
        Duplicate(y, 1.0f, 8);
        DataCopyPad(gt, y, DataCopyParams(1, 32, 0, 0));
    }};
    v["vecin_queue_for_output"] = {"DataCopy", [] {
        static std::vector<float> g(8);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 8);
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 32);
        LocalTensor<float> y = q.AllocTensor<float>();
        Duplicate(y, 1.0f, 8);
        q.EnQue(y);
        LocalTensor<float> z = q.DeQue<float>();
        DataCopy(gt, z, 8);  // a VECIN queue syncs MTE2->V, not V->MTE3
    }};
    v["copy_in_over_vector_use"] = {"DataCopy", [] {
        static std::vector<float> g(8);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 8);
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 32);
        LocalTensor<float> x = b.Get<float>();
        Duplicate(x, 1.0f, 8);
        DataCopy(x, gt, 8);
    }};
    v["waitflag_without_setflag"] = {"WaitFlag", [] {
        TPipe pipe;
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    }};
    v["tiling_too_small"] = {"GET_TILING_DATA_WITH_STRUCT", [] {
        static uint8_t buf[24] = {};
        ascendc_cpu::SetTilingBytes(8);  // the launch passed only 8 bytes
        GET_TILING_DATA_WITH_STRUCT(Tiling3, t, buf);
        (void)t;
    }};
    v["two_pipes"] = {"TPipe", [] {
        TPipe a;
        TPipe b;
    }};
    v["padlen_not_multiple"] = {"DataCopyPad", [] {
        static std::vector<float> g(8);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(g.data(), 8);
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 32);
        DataCopyPad(b.Get<float>(), gt, DataCopyParams(1, 6, 0, 0), DataCopyPadParams(false, 0, 0, 0));
    }};
    v["global_unset"] = {"DataCopy", [] {
        GlobalTensor<float> gt;
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 32);
        DataCopy(b.Get<float>(), gt, 8);
    }};
    v["local_index"] = {"LocalTensor::GetValue", [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 32);
        (void)b.Get<float>().GetValue(8);
    }};
    return v;
}

// ---------------------------------------------------------------- tables

int CastTable(const char* inPath, const char* outPath)
{
    std::vector<uint8_t> raw = ReadAll(inPath);
    const size_t n = raw.size() / 4;
    std::vector<uint16_t> out;
    out.reserve(n * 12);
    const RoundMode halfModes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
        RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};
    const RoundMode bfModes[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
    const uint32_t chunk = 4096;
    Core core;
    TPipe pipe;
    TBuf<TPosition::VECCALC> fBuf, hBuf;
    pipe.InitBuffer(fBuf, chunk * 4);
    pipe.InitBuffer(hBuf, chunk * 2);
    LocalTensor<float> f = fBuf.Get<float>();
    LocalTensor<half> h = hBuf.Get<half>();
    LocalTensor<bfloat16_t> b = hBuf.Get<bfloat16_t>();
    std::vector<uint16_t> tmp(static_cast<size_t>(chunk) * 12);
    for (size_t start = 0; start < n; start += chunk) {
        const uint32_t cnt = static_cast<uint32_t>(std::min<size_t>(chunk, n - start));
        std::memcpy(f.GetPhyAddr(), raw.data() + start * 4, cnt * 4);
        int col = 0;
        for (RoundMode m : halfModes) {
            Cast(h, f, m, cnt);
            for (uint32_t i = 0; i < cnt; ++i) {
                tmp[i * 12 + col] = h.GetValue(i).ToBits();
            }
            ++col;
        }
        for (RoundMode m : bfModes) {
            Cast(b, f, m, cnt);
            for (uint32_t i = 0; i < cnt; ++i) {
                tmp[i * 12 + col] = b.GetValue(i).ToBits();
            }
            ++col;
        }
        out.insert(out.end(), tmp.begin(), tmp.begin() + static_cast<std::ptrdiff_t>(cnt) * 12);
    }
    WriteAll(outPath, out.data(), out.size() * 2);
    return 0;
}

int WidenTable(const char* outPath)
{
    Core core(1u << 20);
    TPipe pipe;
    TBuf<TPosition::VECCALC> fBuf, hBuf;
    pipe.InitBuffer(fBuf, 65536 * 4);  // 256 KiB: needs a bigger UB
    pipe.InitBuffer(hBuf, 65536 * 2);
    LocalTensor<float> f = fBuf.Get<float>();
    LocalTensor<uint16_t> raw = hBuf.Get<uint16_t>();
    std::vector<uint32_t> out;
    for (int kind = 0; kind < 2; ++kind) {
        for (uint32_t i = 0; i < 65536; ++i) {
            raw.SetValue(i, static_cast<uint16_t>(i));
        }
        if (kind == 0) {
            Cast(f, raw.ReinterpretCast<half>(), RoundMode::CAST_NONE, 65536);
        } else {
            Cast(f, raw.ReinterpretCast<bfloat16_t>(), RoundMode::CAST_NONE, 65536);
        }
        for (uint32_t i = 0; i < 65536; ++i) {
            out.push_back(Bits(f.GetValue(i)));
        }
    }
    WriteAll(outPath, out.data(), out.size() * 4);
    return 0;
}

template <typename T>
int ArithTable(const char* aPath, const char* bPath, const char* outPath)
{
    std::vector<uint8_t> ra = ReadAll(aPath), rb = ReadAll(bPath);
    const uint32_t n = static_cast<uint32_t>(ra.size() / sizeof(T));
    if (rb.size() != ra.size() || n == 0) {
        std::fprintf(stderr, "A and B must be non-empty and of equal size\n");
        return 2;
    }
    Core core(4u << 20);
    TPipe pipe;
    TBuf<TPosition::VECCALC> aBuf, bBuf, dBuf;
    const uint32_t bytes = n * static_cast<uint32_t>(sizeof(T));
    pipe.InitBuffer(aBuf, bytes);
    pipe.InitBuffer(bBuf, bytes);
    pipe.InitBuffer(dBuf, bytes);
    LocalTensor<T> a = aBuf.Get<T>(), b = bBuf.Get<T>(), d = dBuf.Get<T>();
    std::memcpy(static_cast<void*>(a.GetPhyAddr()), ra.data(), bytes);
    std::memcpy(static_cast<void*>(b.GetPhyAddr()), rb.data(), bytes);
    const int32_t cnt = static_cast<int32_t>(n);
    const T s = b.GetValue(0);
    // The rows of OUT, in order.
    const std::function<void()> ops[] = {
        [&] { Mul(d, a, b, cnt); }, [&] { Add(d, a, b, cnt); }, [&] { Sub(d, a, b, cnt); },
        [&] { Muls(d, a, s, cnt); }, [&] { Adds(d, a, s, cnt); }, [&] { Div(d, a, b, cnt); },
        [&] { Max(d, a, b, cnt); }, [&] { Min(d, a, b, cnt); }, [&] { Maxs(d, a, s, cnt); },
        [&] { Mins(d, a, s, cnt); }, [&] { Abs(d, a, cnt); }, [&] { Relu(d, a, cnt); },
    };
    std::vector<uint8_t> out;
    for (const std::function<void()>& op : ops) {
        op();
        const uint8_t* p = reinterpret_cast<const uint8_t*>(d.GetPhyAddr());
        out.insert(out.end(), p, p + bytes);
    }
    WriteAll(outPath, out.data(), out.size());
    return 0;
}

/// f32 values (IN, no NaN) -> int32 with RINT, FLOOR, CEIL, ROUND, TRUNC; then
/// the same bits read as int32 -> f32 with those modes (OUT: 10 words per value).
int IntCastTable(const char* inPath, const char* outPath)
{
    std::vector<uint8_t> raw = ReadAll(inPath);
    const uint32_t n = static_cast<uint32_t>(raw.size() / 4);
    const RoundMode modes[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
    Core core(4u << 20);
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst;
    pipe.InitBuffer(src, n * 4);
    pipe.InitBuffer(dst, n * 4);
    std::memcpy(static_cast<void*>(src.Get<float>().GetPhyAddr()), raw.data(), n * 4);
    std::vector<uint32_t> out(static_cast<size_t>(n) * 10);
    for (int dir = 0; dir < 2; ++dir) {
        for (int m = 0; m < 5; ++m) {
            if (dir == 0) {
                Cast(dst.Get<int32_t>(), src.Get<float>(), modes[m], n);
            } else {
                Cast(dst.Get<float>(), src.Get<int32_t>(), modes[m], n);
            }
            const uint32_t* d = reinterpret_cast<const uint32_t*>(dst.Get<uint32_t>().GetPhyAddr());
            for (uint32_t i = 0; i < n; ++i) {
                out[static_cast<size_t>(i) * 10 + dir * 5 + m] = d[i];
            }
        }
    }
    WriteAll(outPath, out.data(), out.size() * 4);
    return 0;
}

int RunTests()
{
    TestFloatTypes();
    TestCompareSelect();
    TestArith();
    selftest::TestLeakyRelu();
    TestCast();
    TestCopies();
    TestQueuesAndTensors();
    TestTiling();
    selftest::VectorTests();
    selftest::CastTests();
    selftest::SyncTests();
    std::printf("%d passed, %d failed\n", selftest::g_pass, selftest::g_fail);
    return selftest::g_fail == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode.empty()) {
        return RunTests();
    }
    if (mode == "--list-violations") {
        for (const auto& kv : AllViolations()) {
            std::printf("%s\t%s\n", kv.first.c_str(), kv.second.api);
        }
        return 0;
    }
    if (mode == "--violate" && argc == 3) {
        const auto all = AllViolations();
        const auto it = all.find(argv[2]);
        if (it == all.end()) {
            std::fprintf(stderr, "unknown violation case %s\n", argv[2]);
            return 2;
        }
        Core core;
        it->second.run();
        std::fprintf(stderr, "case %s did not fail\n", argv[2]);
        return 1;
    }
    if (mode == "--cast-table" && argc == 4) {
        return CastTable(argv[2], argv[3]);
    }
    if (mode == "--widen-table" && argc == 3) {
        return WidenTable(argv[2]);
    }
    if (mode == "--int-cast-table" && argc == 4) {
        return IntCastTable(argv[2], argv[3]);
    }
    if (mode == "--arith" && argc == 6) {
        const std::string dt = argv[2];
        if (dt == "f16") {
            return ArithTable<half>(argv[3], argv[4], argv[5]);
        }
        if (dt == "f32") {
            return ArithTable<float>(argv[3], argv[4], argv[5]);
        }
    }
    std::fprintf(stderr, "bad arguments (see the header of ascendc_cpu_selftest.cpp)\n");
    return 2;
}
