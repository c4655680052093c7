// shift_check.cpp - ShiftRight / ShiftLeft (count form) on the CPU model, either SoC family:
//   shift_check          prints "ok" when every lane is right, else the first wrong lane
//   shift_check --wide   shifts an int16_t by 17 (a violation on Atlas A2/A3, 0 / -1 on Ascend 950)
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

int main(int argc, char** argv)
{
    selftest::Core core;
    selftest::Buffers<2> b(256);
    LocalTensor<int16_t> s16 = b.Get<int16_t>(0);
    LocalTensor<int16_t> d16 = b.Get<int16_t>(1);
    const int16_t in[4] = {-32768, -17, 17, 32767};
    for (int i = 0; i < 4; ++i) {
        s16.SetValue(i, in[i]);
    }
    if (argc == 2 && std::string(argv[1]) == "--wide") {
        ShiftRight(d16, s16, int16_t{17}, 4);
        std::printf("%d %d\n", d16.GetValue(0), d16.GetValue(2));
        return 0;
    }
    ShiftRight(d16, s16, int16_t{3}, 4);  // arithmetic: -4096, -3, 2, 4095
    const int16_t want[4] = {-4096, -3, 2, 4095};
    for (int i = 0; i < 4; ++i) {
        if (d16.GetValue(i) != want[i]) {
            std::printf("ShiftRight int16 lane %d: %d\n", i, d16.GetValue(i));
            return 1;
        }
    }
    LocalTensor<uint32_t> u = b.Get<uint32_t>(0);
    LocalTensor<uint32_t> v = b.Get<uint32_t>(1);
    u.SetValue(0, 0xBF800000u);  // -1.0f: the sign bit, as gelu_grad_v2 extracts it
    u.SetValue(1, 0x3F800000u);
    ShiftRight(v, u, 31u, 2);
    if (v.GetValue(0) != 1u || v.GetValue(1) != 0u) {
        std::printf("ShiftRight uint32: %u %u\n", v.GetValue(0), v.GetValue(1));
        return 1;
    }
    ShiftLeft(v, u, 4u, 2);
    if (v.GetValue(0) != 0xF8000000u || v.GetValue(1) != 0xF8000000u) {
        std::printf("ShiftLeft uint32: %x %x\n", v.GetValue(0), v.GetValue(1));
        return 1;
    }
    ShiftRight(v, u, 32u, 2);  // the whole width: 0
    if (v.GetValue(0) != 0u) {
        std::printf("ShiftRight by 32: %u\n", v.GetValue(0));
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
