// bf16_arith_table.cpp - the CPU model's bfloat16_t Add, Sub, Mul and Adds (Ascend 950 build,
// -DASCENDC_CPU_DAV_3510), run on the values of a file.
//
//   bf16_arith_table IN OUT   IN: n bfloat16 src0 values then n src1 values; OUT: four rows of
//                             n results: Add(src0, src1), Sub(src0, src1), Mul(src0, src1),
//                             Adds(src0, src1[0]).
// test_bf16_arith_950.py compares the rows with asc-devkit's documented formula computed in numpy.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: bf16_arith_table IN OUT\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    const std::vector<uint8_t> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const uint32_t n = static_cast<uint32_t>(raw.size() / (2 * sizeof(bfloat16_t)));
    if (n == 0) {
        std::fprintf(stderr, "IN is empty or unreadable\n");
        return 2;
    }
    selftest::Core core(1u << 20);
    TPipe pipe;
    TBuf<TPosition::VECCALC> aBuf, bBuf, dBuf;
    const uint32_t bytes = n * static_cast<uint32_t>(sizeof(bfloat16_t));
    pipe.InitBuffer(aBuf, bytes);
    pipe.InitBuffer(bBuf, bytes);
    pipe.InitBuffer(dBuf, bytes);
    LocalTensor<bfloat16_t> a = aBuf.Get<bfloat16_t>(), b = bBuf.Get<bfloat16_t>(), d = dBuf.Get<bfloat16_t>();
    std::memcpy(static_cast<void*>(a.GetPhyAddr()), raw.data(), bytes);
    std::memcpy(static_cast<void*>(b.GetPhyAddr()), raw.data() + bytes, bytes);
    std::ofstream out(argv[2], std::ios::binary | std::ios::trunc);
    const auto row = [&] { out.write(reinterpret_cast<const char*>(d.GetPhyAddr()), bytes); };
    Add(d, a, b, n);
    row();
    Sub(d, a, b, n);
    row();
    Mul(d, a, b, n);
    row();
    Adds(d, a, b.GetValue(0), n);
    row();
    return out ? 0 : 2;
}
