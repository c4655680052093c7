// sigmoid_table.cpp - the CPU model's library Sigmoid, run on the values of a file.
//
//   sigmoid_table DT IN OUT     DT = f16|f32; IN the elements; OUT one row of IN's length per
//                               form, in this order: Sigmoid(dst, src, count), with a
//                               sharedTmpBuffer and a count, with a sharedTmpBuffer, (dst, src).
//   sigmoid_table --rule R DT   one call that breaks a documented rule (R = small-tmp: a
//                               sharedTmpBuffer of 224 bytes; in-place: dst = src; tmp-on-src:
//                               the sharedTmpBuffer over src): exit 3 with the rule named
// test_ascendc_cpu_sigmoid.py compares the rows with its own model of asc-devkit's sequence.
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
    pipe.InitBuffer(tBuf, 256);
    LocalTensor<T> s = sBuf.Get<T>(), d = dBuf.Get<T>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    std::memcpy(static_cast<void*>(s.GetPhyAddr()), raw.data(), bytes);
    const std::function<void()> calls[] = {
        [&] { Sigmoid(d, s, n); }, [&] { Sigmoid(d, s, tmp, n); }, [&] { Sigmoid(d, s, tmp); },
        [&] { Sigmoid(d, s); },
    };
    std::ofstream out(outPath, std::ios::binary | std::ios::trunc);
    for (const std::function<void()>& call : calls) {
        std::memset(static_cast<void*>(d.GetPhyAddr()), 0xFF, bytes);
        call();
        out.write(reinterpret_cast<const char*>(d.GetPhyAddr()), bytes);
    }
    return out ? 0 : 2;
}

template <typename T>
int Rule(const std::string& rule)
{
    selftest::Core core;
    TPipe pipe;
    TBuf<TPosition::VECCALC> sBuf, dBuf, tBuf;
    pipe.InitBuffer(sBuf, 512);
    pipe.InitBuffer(dBuf, 512);
    pipe.InitBuffer(tBuf, rule == "small-tmp" ? 224 : 256);
    LocalTensor<T> s = sBuf.Get<T>(), d = dBuf.Get<T>();
    LocalTensor<uint8_t> tmp = tBuf.Get<uint8_t>();
    if (rule == "small-tmp") {
        Sigmoid(d, s, tmp, 64);
    } else if (rule == "in-place") {
        Sigmoid(s, s, tmp, 64);
    } else if (rule == "tmp-on-src") {
        Sigmoid(d, s, sBuf.Get<uint8_t>(), 64);
    } else {
        std::fprintf(stderr, "unknown rule %s\n", rule.c_str());
        return 2;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--rule" && argc == 4) {
        return std::string(argv[3]) == "f16" ? Rule<half>(argv[2]) : Rule<float>(argv[2]);
    }
    if (argc == 4 && first == "f16") {
        return Table<half>(argv[2], argv[3]);
    }
    if (argc == 4 && first == "f32") {
        return Table<float>(argv[2], argv[3]);
    }
    std::fprintf(stderr, "usage: sigmoid_table f16|f32 IN OUT | --rule small-tmp|in-place|tmp-on-src f16|f32\n");
    return 2;
}
