// harness.cpp - runs an emitted HardSwishGrad kernel on every core of a launch.
//
// Build (the kernel source is compiled into this translation unit; give
// HSWC_KERNEL_SOURCE as an absolute path, or relative to this folder or to a
// -I directory):
//   g++ -std=c++17 -Wall -Wextra -Werror -I tools/ascendc_cpu
//       -DHSWC_KERNEL_SOURCE='"/abs/path/kernel.cpp"' tools/ascendc_cpu/harness.cpp -o run_kernel
//
// Usage:
//   run_kernel --tiling-key K --block-dim N --ub-size BYTES
//              --tiling TOTAL,BLOCKFACTOR,UBFACTOR [--ub-fill BYTE] [--verbose]
//              grad.bin x.bin y.bin
// grad.bin and x.bin are raw little-endian element files (key 0: f16,
// 1: f32, 2: bf16); y.bin is written. For block idx 0..N-1 the harness
// refills the UB with the garbage byte (default 0xA5) and calls
// hard_swish_grad<K>(grad, x, y, workspace = nullptr, tiling) with the three
// int64 tiling values packed little-endian (24 bytes).
//
// Exit status: 0 ok; 2 usage / file errors (message on stderr);
// 3 kernel rule violation ("ascendc_cpu: <API>: <rule>" on stderr),
// including any byte of y that no core wrote (y.bin is still written).
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "kernel_operator.h"

#ifndef HSWC_KERNEL_SOURCE
#error "compile with -DHSWC_KERNEL_SOURCE='\"path/to/kernel.cpp\"'"
#endif
#include HSWC_KERNEL_SOURCE

namespace hswc_harness {

[[noreturn]] void UsageError(const std::string& msg)
{
    std::fprintf(stderr, "run_kernel: %s\n", msg.c_str());
    std::fprintf(stderr,
        "usage: run_kernel --tiling-key K --block-dim N --ub-size BYTES --tiling TOTAL,BLOCKFACTOR,UBFACTOR "
        "[--ub-fill BYTE] [--verbose] grad.bin x.bin y.bin\n");
    std::exit(2);
}

bool ParseInt(const std::string& s, int64_t& out)
{
    if (s.empty()) {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 0);
    if (errno != 0 || end == nullptr || *end != '\0') {
        return false;
    }
    out = v;
    return true;
}

int64_t IntArg(const std::string& name, const std::string& s, int64_t lo, int64_t hi)
{
    int64_t v = 0;
    if (!ParseInt(s, v) || v < lo || v > hi) {
        UsageError(name + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" +
            s + "'");
    }
    return v;
}

std::vector<uint8_t> ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        UsageError("cannot open '" + path + "'");
    }
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        UsageError("cannot read '" + path + "'");
    }
    return data;
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& data)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) {
        UsageError("cannot create '" + path + "'");
    }
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    if (!out) {
        UsageError("cannot write '" + path + "'");
    }
}

void Launch(int64_t key, GM_ADDR grad, GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    switch (key) {
        case 0: hard_swish_grad<0>(grad, x, y, nullptr, tiling); break;
        case 1: hard_swish_grad<1>(grad, x, y, nullptr, tiling); break;
        case 2: hard_swish_grad<2>(grad, x, y, nullptr, tiling); break;
        default: UsageError("unknown tiling key");
    }
}

int Main(int argc, char** argv)
{
    int64_t key = -1;
    int64_t blockDim = -1;
    int64_t ubSize = -1;
    int64_t fill = 0xA5;
    bool haveTiling = false;
    bool verbose = false;
    int64_t tilingVals[3] = {0, 0, 0};
    std::vector<std::string> files;

    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                UsageError(a + " needs a value");
            }
            return argv[++i];
        };
        if (a == "--tiling-key") {
            key = IntArg(a, value(), 0, 2);
        } else if (a == "--block-dim") {
            blockDim = IntArg(a, value(), 1, 65535);
        } else if (a == "--ub-size") {
            ubSize = IntArg(a, value(), 32, int64_t{1} << 30);
            if (ubSize % 32 != 0) {
                UsageError("--ub-size must be a multiple of 32");
            }
        } else if (a == "--ub-fill") {
            fill = IntArg(a, value(), 0, 255);
        } else if (a == "--tiling") {
            std::string s = value();
            size_t start = 0;
            for (int k = 0; k < 3; ++k) {
                const size_t comma = s.find(',', start);
                const bool last = k == 2;
                if (last != (comma == std::string::npos)) {
                    UsageError("--tiling expects TOTAL,BLOCKFACTOR,UBFACTOR, got '" + s + "'");
                }
                const std::string part = s.substr(start, last ? std::string::npos : comma - start);
                if (!ParseInt(part, tilingVals[k])) {
                    UsageError("--tiling expects three integers, got '" + s + "'");
                }
                start = comma + 1;
            }
            haveTiling = true;
        } else if (a == "--verbose") {
            verbose = true;
        } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
            UsageError("unknown option " + a);
        } else {
            files.push_back(a);
        }
    }
    if (key < 0 || blockDim < 0 || ubSize < 0 || !haveTiling) {
        UsageError("--tiling-key, --block-dim, --ub-size and --tiling are required");
    }
    if (files.size() != 3) {
        UsageError("expected three files: grad.bin x.bin y.bin");
    }

    const size_t elemSize = key == 1 ? 4 : 2;
    std::vector<uint8_t> grad = ReadFile(files[0]);
    std::vector<uint8_t> x = ReadFile(files[1]);
    if (grad.size() != x.size()) {
        UsageError("grad has " + std::to_string(grad.size()) + " bytes but x has " + std::to_string(x.size()));
    }
    if (grad.size() % elemSize != 0) {
        UsageError("input size " + std::to_string(grad.size()) + " is not a multiple of the element size " +
            std::to_string(elemSize));
    }
    const int64_t elems = static_cast<int64_t>(grad.size() / elemSize);
    if (tilingVals[0] != elems) {
        UsageError("tiling totalNum " + std::to_string(tilingVals[0]) + " does not match the " +
            std::to_string(elems) + " input elements");
    }
    std::vector<uint8_t> y(grad.size(), static_cast<uint8_t>(fill));

    std::vector<uint8_t> tiling(sizeof tilingVals);
    std::memcpy(tiling.data(), tilingVals, sizeof tilingVals);  // little-endian host

    ascendc_cpu::Configure(static_cast<uint32_t>(ubSize), static_cast<uint8_t>(fill));
    ascendc_cpu::ClearGm();
    ascendc_cpu::RegisterGm(grad.data(), grad.size(), "grad", false);
    ascendc_cpu::RegisterGm(x.data(), x.size(), "x", false);
    ascendc_cpu::RegisterGm(y.data(), y.size(), "y", true);
    ascendc_cpu::RegisterGm(tiling.data(), tiling.size(), "tiling", false);
    ascendc_cpu::SetTilingBytes(tiling.size());

    for (int64_t b = 0; b < blockDim; ++b) {
        ascendc_cpu::BeginBlock(b, blockDim);
        Launch(key, grad.data(), x.data(), y.data(), tiling.data());
        if (verbose) {
            std::fprintf(stderr, "run_kernel: block %" PRId64 ": UB used %u of %u bytes [%s]\n", b,
                ascendc_cpu::Rt().ubPeak, ascendc_cpu::Rt().ubBytes, ascendc_cpu::Rt().ubLayout.c_str());
        }
        ascendc_cpu::EndBlock();
    }

    WriteFile(files[2], y);

    const ascendc_cpu::GmRegion* yr = ascendc_cpu::FindGm("y");
    if (yr != nullptr) {
        size_t missing = 0;
        size_t first = 0;
        for (size_t i = 0; i < yr->writer.size(); ++i) {
            if (yr->writer[i] == 0) {
                if (missing == 0) {
                    first = i;
                }
                ++missing;
            }
        }
        if (missing != 0) {
            ascendc_cpu::Fail("harness", ascendc_cpu::Msg(missing, " of ", yr->bytes,
                " bytes of y were never written (first at byte ", first, ")"));
        }
    }
    return 0;
}

}  // namespace hswc_harness

int main(int argc, char** argv)
{
    return hswc_harness::Main(argc, argv);
}
