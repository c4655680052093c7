// vec_index_check.cpp - CreateVecIndex (count form) on the CPU model:
//   vec_index_check          prints "ok" when every lane is right, else the first wrong lane
//   vec_index_check --wide   an int16_t index past 32767 (a violation: firstValue out of range)
#include <cmath>
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

int main(int argc, char** argv)
{
    selftest::Core core;
    selftest::Buffers<1> b(256);
    if (argc > 1 && std::strcmp(argv[1], "--wide") == 0) {
        CreateVecIndex(b.Get<int16_t>(0), int16_t{32766}, 4u);  // 32766 + 3 leaves int16_t
        return 0;
    }
    LocalTensor<int32_t> i32 = b.Get<int32_t>(0);
    CreateVecIndex(i32, int32_t{-2}, 5u);  // -2, -1, 0, 1, 2
    for (int i = 0; i < 5; ++i) {
        if (i32.GetValue(i) != i - 2) {
            std::printf("int32 lane %d: %d\n", i, i32.GetValue(i));
            return 1;
        }
    }
    // half lanes are firstValue + i rounded once: 2049 and 2051 are ties (spacing 2 above 2048),
    // to 2048 and 2052 (even); 2050 exact.
    LocalTensor<half> h = b.Get<half>(0);
    CreateVecIndex(h, half(2046.0f), 6u);
    const float want[6] = {2046.0f, 2047.0f, 2048.0f, 2048.0f, 2050.0f, 2052.0f};
    for (int i = 0; i < 6; ++i) {
        if (static_cast<float>(h.GetValue(i)) != want[i]) {
            std::printf("half lane %d: %g\n", i, static_cast<double>(static_cast<float>(h.GetValue(i))));
            return 1;
        }
    }
    LocalTensor<float> f = b.Get<float>(0);
    f.SetValue(3, -1.0f);
    CreateVecIndex(f, 0.5f, 3u);  // 0.5, 1.5, 2.5; lane 3 untouched
    if (f.GetValue(0) != 0.5f || f.GetValue(2) != 2.5f || f.GetValue(3) != -1.0f) {
        std::printf("float lanes: %g %g %g\n", static_cast<double>(f.GetValue(0)),
            static_cast<double>(f.GetValue(2)), static_cast<double>(f.GetValue(3)));
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
