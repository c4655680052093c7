// bf16_arith_table.cpp - the CPU model's bfloat16_t Add, Sub, Mul, Adds and Muls (Ascend 950 build,
// -DASCENDC_CPU_DAV_3510), run on the values of a file.
//
//   bf16_arith_table IN OUT   IN: n bfloat16 src0 values then n src1 values; OUT: five rows of
//                             n results: Add(src0, src1), Sub(src0, src1), Mul(src0, src1),
//                             Adds(src0, src1[0]), Muls(src0, src1[1]).
// test_bf16_arith_950.py compares the rows with asc-devkit's documented formula computed in numpy.
#include <cstdio>
#include <cstring>
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
    const std::vector<uint8_t> raw = selftest::ReadAll(argv[1]);
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
    std::vector<uint8_t> rows;
    const auto row = [&] {
        const uint8_t* at = reinterpret_cast<const uint8_t*>(d.GetPhyAddr());
        rows.insert(rows.end(), at, at + bytes);
    };
    Add(d, a, b, n);
    row();
    Sub(d, a, b, n);
    row();
    Mul(d, a, b, n);
    row();
    Adds(d, a, b.GetValue(0), n);
    row();
    Muls(d, a, b.GetValue(1), n);
    row();
    selftest::WriteAll(argv[2], rows.data(), rows.size());
    return 0;
}
