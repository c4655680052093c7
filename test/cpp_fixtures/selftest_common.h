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

}  // namespace selftest

#endif  // HSWC_SELFTEST_COMMON_H
