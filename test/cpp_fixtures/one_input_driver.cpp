// one_input_driver.cpp - runs a printed kernel of one input on every core of a launch, with its
// tiling struct given as raw bytes (so float fields after the int64 ones reach the kernel).
//
// hswc/checker/ascendc_cpu/harness.cpp passes HardSwishGrad's (grad, x, y) and its three int64 tiling
// values; this driver is the tests' stand-in for kernels it cannot launch yet:
//   g++ -std=c++17 -Wall -Wextra -Werror -I hswc/checker/ascendc_cpu -DHSWC_KERNEL_SOURCE='"k.cpp"'
//       -DHSWC_KERNEL_ENTRY=slope_clip test/cpp_fixtures/one_input_driver.cpp -o run
//   run KEY BLOCK_DIM UB_BYTES tiling.bin x.bin y.bin
// x.bin is read, y.bin written with as many bytes; the kernel entry is called as
// HSWC_KERNEL_ENTRY<KEY>(x, y, workspace = nullptr, tiling) for block idx 0..BLOCK_DIM-1.
// Exit status: 0 ok; 2 usage or file error; 3 kernel rule violation (ascendc_cpu's Fail),
// including bytes of y that no core wrote.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "kernel_operator.h"

#if !defined(HSWC_KERNEL_SOURCE) || !defined(HSWC_KERNEL_ENTRY)
#error "compile with -DHSWC_KERNEL_SOURCE='\"kernel.cpp\"' -DHSWC_KERNEL_ENTRY=<entry>"
#endif
#include HSWC_KERNEL_SOURCE

namespace {

[[noreturn]] void Usage(const std::string& message)
{
    std::fprintf(stderr, "one_input_driver: %s\n", message.c_str());
    std::exit(2);
}

std::vector<uint8_t> Read(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        Usage("cannot open '" + path + "'");
    }
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

long Number(const char* text)
{
    char* end = nullptr;
    const long value = std::strtol(text, &end, 0);
    if (end == text || *end != '\0' || value < 0) {
        Usage(std::string("expected a non-negative integer, got '") + text + "'");
    }
    return value;
}

void Launch(long key, GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    switch (key) {
        case 0: HSWC_KERNEL_ENTRY<0>(x, y, nullptr, tiling); break;
        case 1: HSWC_KERNEL_ENTRY<1>(x, y, nullptr, tiling); break;
        case 2: HSWC_KERNEL_ENTRY<2>(x, y, nullptr, tiling); break;
        default: Usage("the tiling key must be 0, 1 or 2");
    }
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 7) {
        Usage("usage: run KEY BLOCK_DIM UB_BYTES tiling.bin x.bin y.bin");
    }
    const long key = Number(argv[1]);
    const long blockDim = Number(argv[2]);
    const long ubBytes = Number(argv[3]);
    std::vector<uint8_t> tiling = Read(argv[4]);
    std::vector<uint8_t> x = Read(argv[5]);
    std::vector<uint8_t> y(x.size(), 0xA5);

    ascendc_cpu::Configure(static_cast<uint32_t>(ubBytes));
    ascendc_cpu::ClearGm();
    ascendc_cpu::RegisterGm(x.data(), x.size(), "x", false);
    ascendc_cpu::RegisterGm(y.data(), y.size(), "y", true);
    ascendc_cpu::RegisterGm(tiling.data(), tiling.size(), "tiling", false);
    ascendc_cpu::SetTilingBytes(tiling.size());
    for (long block = 0; block < blockDim; ++block) {
        ascendc_cpu::BeginBlock(block, blockDim);
        Launch(key, x.data(), y.data(), tiling.data());
        ascendc_cpu::EndBlock();
    }
    const ascendc_cpu::GmRegion* written = ascendc_cpu::FindGm("y");
    for (size_t i = 0; written != nullptr && i < written->writer.size(); ++i) {
        if (written->writer[i] == 0) {
            ascendc_cpu::Fail("driver", ascendc_cpu::Msg("byte ", i, " of y was never written"));
        }
    }
    std::ofstream out(argv[6], std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(y.data()), static_cast<std::streamsize>(y.size()));
    return out ? 0 : 2;
}
