// selftest_common.h - what the translation units of the CPU-model self-test share.
//
// The self-test is ascendc_cpu_selftest.cpp (main, tables, the original tests)
// plus selftest_vector.cpp, selftest_cast.cpp and selftest_sync.cpp, compiled
// and linked together (which also checks that the header-only model links
// across translation units).
#ifndef HSWC_SELFTEST_COMMON_H
#define HSWC_SELFTEST_COMMON_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "kernel_operator.h"

namespace selftest {

inline int g_pass = 0;
inline int g_fail = 0;

#define CHECK(cond)                                                               \
    do {                                                                          \
        if (cond) {                                                               \
            ++::selftest::g_pass;                                                 \
        } else {                                                                  \
            ++::selftest::g_fail;                                                 \
            std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                         \
    } while (0)

/// One core with a fresh UB (declare before the TPipe so it outlives it).
struct Core {
    explicit Core(uint32_t ub = 196608)
    {
        ascendc_cpu::Configure(ub);
        ascendc_cpu::ClearGm();
        ascendc_cpu::SetTilingBytes(SIZE_MAX);
        ascendc_cpu::BeginBlock(0, 1);
    }
    ~Core() { ascendc_cpu::EndBlock(); }
};

/// While alive, cores are checked as a kernel built with --cce-auto-sync=off (the harness's
/// --auto-sync off): declare it before the Core.
struct AutoSyncOff {
    AutoSyncOff() { ascendc_cpu::Rt().vOrderChecked = true; }
    ~AutoSyncOff() { ascendc_cpu::Rt().vOrderChecked = false; }
};

/// In a violation case (whose Core main made): the core from here on as under AutoSyncOff.
inline void CheckVectorOrder()
{
    ascendc_cpu::Rt().vOrderChecked = true;
    ascendc_cpu::BeginBlock(0, 1);
}

inline uint32_t Bits(float f) { return ascendc_cpu::F32Bits(f); }

template <typename T>
void Fill(const AscendC::LocalTensor<T>& t, const std::vector<T>& v)
{
    for (size_t i = 0; i < v.size(); ++i) {
        t.SetValue(static_cast<uint32_t>(i), v[i]);
    }
}

/// A TPipe with N VECCALC buffers of `bytes` each (declare after the Core).
template <int N>
struct Buffers {
    explicit Buffers(uint32_t bytes)
    {
        for (AscendC::TBuf<AscendC::TPosition::VECCALC>& b : buf) {
            pipe.InitBuffer(b, bytes);
        }
    }
    template <typename T>
    AscendC::LocalTensor<T> Get(int i)
    {
        return buf[i].template Get<T>();
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf[N];
};

/// A file's bytes; a file that cannot be opened ends the process with exit 2.
inline std::vector<uint8_t> ReadAll(const char* path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot open %s\n", path);
        std::exit(2);
    }
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// `bytes` at `data` written to a file; one that cannot be written ends the process with exit 2.
inline void WriteAll(const char* path, const void* data, size_t bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    if (!out) {
        std::fprintf(stderr, "cannot write %s\n", path);
        std::exit(2);
    }
}

/// Eight floats of GM (static: violation cases end the process inside the kernel).
inline AscendC::GlobalTensor<float> EightFloats()
{
    static std::vector<float> g(8);
    AscendC::GlobalTensor<float> gt;
    gt.SetGlobalBuffer(g.data(), 8);
    return gt;
}

/// A violation case: running it must end the process with exit 3 and one
/// "ascendc_cpu: <api>: ..." line.
struct Violation {
    const char* api;
    std::function<void()> run;
};
using Violations = std::map<std::string, Violation>;

// The other translation units: their semantic tests and violation cases.
void VectorTests();
void AddVectorViolations(Violations& v);
void CastTests();
void AddCastViolations(Violations& v);
void SyncTests();
void AddSyncViolations(Violations& v);

/// LeakyRelu's count form (ascendc_cpu_vec_arith.h), run by both self-tests: x kept where not
/// below zero, else x * s rounded once in T. f32, s = 0.2f: -3 * 0.2f = -0.6000000089... rounds to
/// 0xBF19999A; f16, s = half(0.2) = 0x3266 (0.199951171875): -3 * s = -0.599853515625 is a tie
/// between 1228 and 1229 ulps of 2^-11, so even: -0.599609375 = 0xB8CC. At a zero with a negative
/// scalar the families differ: Atlas A2/A3 keeps it ("src >= 0"), Ascend 950 multiplies it
/// ("srcReg > 0", its register page), -0 * -0.5 = +0.
inline void TestLeakyRelu()
{
    Core core;
    Buffers<4> b(256);
    AscendC::LocalTensor<float> x = b.Get<float>(0), y = b.Get<float>(1);
    Fill(x, std::vector<float>{2.5f, -1.0f, -3.0f, -0.0f, 0.0f, std::numeric_limits<float>::quiet_NaN(),
        -std::numeric_limits<float>::infinity(), 1e-45f});
    AscendC::LeakyRelu(y, x, 0.2f, 8);
    CHECK(y.GetValue(0) == 2.5f && Bits(y.GetValue(1)) == Bits(-0.2f) && Bits(y.GetValue(2)) == 0xBF19999Au);
    CHECK(Bits(y.GetValue(3)) == 0x80000000u && Bits(y.GetValue(4)) == 0u && y.GetValue(5) != y.GetValue(5));
    CHECK(y.GetValue(6) == -std::numeric_limits<float>::infinity() && y.GetValue(7) == 1e-45f);
    AscendC::LeakyRelu(y, x, -0.5f, 5);
    CHECK(y.GetValue(1) == 0.5f && y.GetValue(2) == 1.5f);
#if defined(ASCENDC_CPU_DAV_3510)
    CHECK(Bits(y.GetValue(3)) == 0u && Bits(y.GetValue(4)) == 0x80000000u);
#else
    CHECK(Bits(y.GetValue(3)) == 0x80000000u && Bits(y.GetValue(4)) == 0u);
#endif
    AscendC::LocalTensor<half> h = b.Get<half>(2), hy = b.Get<half>(3);
    h.SetValue(0, half(-3.0f));
    h.SetValue(1, half(7.0f));
    AscendC::LeakyRelu(hy, h, half(0.2f), 2);
    CHECK(hy.GetValue(0).ToBits() == 0xB8CC && static_cast<float>(hy.GetValue(1)) == 7.0f);
}

}  // namespace selftest

#endif  // HSWC_SELFTEST_COMMON_H
