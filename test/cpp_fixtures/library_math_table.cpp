// library_math_table.cpp - the CPU model's library Erf and Tanh, run on the values of a file.
//
//   library_math_table DT IN OUT   DT = f16|f32; IN the elements; OUT one row of IN's length per
//                                  call, in this order: Erf(dst, src, count), Erf with a
//                                  sharedTmpBuffer, Tanh(dst, src, count), Tanh with a
//                                  sharedTmpBuffer; built with -DASCENDC_CPU_DAV_3510 two more:
//                                  Erf SUBSECTION_POLYNOMIAL_APPROXIMATION, Tanh
//                                  SUBSECTION_COMPENSATION.
//   library_math_table --small-tmp erf|tanh DT  the call with a sharedTmpBuffer one 32-byte block
//                                  short of the implementation's smallest (Atlas A2/A3): exit 3
// test_ascendc_cpu_library.py compares the rows with its own model of asc-devkit's sequences.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

namespace {

#if defined(ASCENDC_CPU_DAV_3510)
constexpr ErfConfig kSubsection = {ErfAlgo::SUBSECTION_POLYNOMIAL_APPROXIMATION};
constexpr TanhConfig kCompensation = {TanhAlgo::SUBSECTION_COMPENSATION};
#endif

template <typename T>
int Table(const char* inPath, const char* outPath)
{
    const std::vector<uint8_t> raw = selftest::ReadAll(inPath);
    const uint32_t n = static_cast<uint32_t>(raw.size() / sizeof(T));
    if (n == 0) {
        std::fprintf(stderr, "IN is empty or unreadable\n");
        return 2;
    }
    selftest::Core core(4u << 20);
    TPipe pipe;
    TBuf<TPosition::VECCALC> sBuf, dBuf, tBuf;
    const uint32_t bytes = n * static_cast<uint32_t>(sizeof(T));
    pipe.InitBuffer(sBuf, bytes);
    pipe.InitBuffer(dBuf, bytes);
    pipe.InitBuffer(tBuf, 8192);
    LocalTensor<T> s = sBuf.Get<T>(), d = dBuf.Get<T>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    std::memcpy(static_cast<void*>(s.GetPhyAddr()), raw.data(), bytes);
    const std::function<void()> calls[] = {
        [&] { Erf(d, s, n); }, [&] { Erf(d, s, tmp, n); }, [&] { Tanh(d, s, n); }, [&] { Tanh(d, s, tmp, n); },
#if defined(ASCENDC_CPU_DAV_3510)
        [&] { Erf<T, false, kSubsection>(d, s, n); }, [&] { Tanh<T, false, kCompensation>(d, s, n); },
#endif
    };
    std::ofstream out(outPath, std::ios::binary | std::ios::trunc);
    for (const std::function<void()>& call : calls) {
        call();
        out.write(reinterpret_cast<const char*>(d.GetPhyAddr()), bytes);
    }
    return out ? 0 : 2;
}

template <typename T>
int SmallTmp(bool erf)
{
    selftest::Core core;
    TPipe pipe;
    TBuf<TPosition::VECCALC> sBuf, tBuf;
    pipe.InitBuffer(sBuf, 256);
    const uint32_t smallest = erf ? (sizeof(T) == 2 ? 8u : 3u) * 32u * sizeof(T) : (sizeof(T) == 2 ? 2u : 1u) * 128u;
    pipe.InitBuffer(tBuf, smallest - 32);
    LocalTensor<T> s = sBuf.Get<T>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    if (erf) {
        Erf(s, s, tmp, 64);
    } else {
        Tanh(s, s, tmp, 64);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--small-tmp" && argc == 4) {
        const bool erf = std::string(argv[2]) == "erf";
        return std::string(argv[3]) == "f16" ? SmallTmp<half>(erf) : SmallTmp<float>(erf);
    }
    if (argc == 4 && first == "f16") {
        return Table<half>(argv[2], argv[3]);
    }
    if (argc == 4 && first == "f32") {
        return Table<float>(argv[2], argv[3]);
    }
    std::fprintf(stderr, "usage: library_math_table f16|f32 IN OUT | --small-tmp erf|tanh f16|f32\n");
    return 2;
}
