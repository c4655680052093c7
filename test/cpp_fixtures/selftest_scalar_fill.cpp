// selftest_scalar_fill.cpp - unit tests of the device compiler's scalar bit builtins (clz, bcnt1,
// bcnt0: ascendc_cpu_scalar_bits.h, both SoCs) and, built with -DASCENDC_CPU_DAV_3510, of
// Ascend 950's Duplicate from a tensor's first element (ascendc_cpu_vec_fill_tensor.h) and the
// unqualified Reduce / Move / ReduceType an arch35 kernel writes under `using namespace AscendC`
// (ascendc_cpu_micro_reduce.h). Expected values are computed by hand from the pages cited there.
//
//   selftest_scalar_fill GROUP          run one group's checks, print "N passed, M failed"
//   selftest_scalar_fill --violate CASE run one violation case; must exit 3 with one line
//
// Build (from the repository root; add -DASCENDC_CPU_DAV_3510 for Ascend 950):
//   g++ -std=c++17 -Wall -Wextra -Werror -I hswc/checker/ascendc_cpu
//       test/cpp_fixtures/selftest_scalar_fill.cpp
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "kernel_operator.h"
#include "selftest_common.h"
#include "selftest_main.h"

using selftest::Core;

namespace {

/// clz, bcnt1 and bcnt0 as a kernel calls them: unqualified, at global scope (softmax_grad_ext's
/// FindNearestPower2 and GetCacheID, op_kernel/arch35/softmax_grad_ext_base.h:86, :93).
void TestScalarBits()
{
    CHECK(clz(0x0fffffffffffffffULL) == 4);   // asc_clz.md's example
    CHECK(clz(0x0100000000000020ULL) == 7);   // CountLeadingZero.md:42
    CHECK(clz(0x000000000000FFFFULL) == 48);  // CountLeadingZero.md:77-78
    CHECK(clz(0) == 64);                      // CountLeadingZero.md:37 "输入为0时返回64"
    CHECK(clz(1) == 63);
    CHECK(clz(~0ULL) == 0);
    const int64_t num = 1000 - 1;  // FindNearestPower2(1000): 1 << (63 - clz(999)) = 512
    CHECK((int64_t{1} << (63 - clz(num))) == 512);
    CHECK(bcnt1(33) == 2);  // asc_popc.md's example
    CHECK(bcnt1(0) == 0);
    CHECK(bcnt1(~0ULL) == 64);
    CHECK(bcnt0(33) == 62);
    CHECK(bcnt0(0) == 64);
    // GetCacheID(idx) = bcnt1(idx ^ (idx + 1)) - 1: the trailing ones of idx
    CHECK(bcnt1(0 ^ 1) - 1 == 0);
    CHECK(bcnt1(7 ^ 8) - 1 == 3);
    CHECK(bcnt1(11 ^ 12) - 1 == 2);
}

#if defined(ASCENDC_CPU_DAV_3510)

/// Duplicate(dst, src, count): src[0] into count elements, the rest of dst kept; dst may be src.
void TestDuplicateFromTensor()
{
    Core core;
    selftest::Buffers<2> b(512);
    AscendC::LocalTensor<float> src = b.buf[0].Get<float>();
    AscendC::LocalTensor<float> dst = b.buf[1].Get<float>();
    for (uint32_t i = 0; i < 128; ++i) {
        src.SetValue(i, static_cast<float>(i) + 0.5f);
        dst.SetValue(i, -1.0f);
    }
    AscendC::Duplicate<float>(dst, src, 70);
    CHECK(dst.GetValue(0) == 0.5f && dst.GetValue(69) == 0.5f && dst.GetValue(70) == -1.0f);
    AscendC::Duplicate(dst, src[8], 3);  // src[8] is 8.5: from an offset tensor too
    CHECK(dst.GetValue(0) == 8.5f && dst.GetValue(2) == 8.5f && dst.GetValue(3) == 0.5f);
    AscendC::Duplicate<float>(src, src, 128);  // in place: src[0] read first
    CHECK(src.GetValue(0) == 0.5f && src.GetValue(127) == 0.5f);
    AscendC::Duplicate<float>(dst, src, 0);  // count 0: nothing written
    CHECK(dst.GetValue(0) == 8.5f);
    AscendC::LocalTensor<half> h = b.buf[0].Get<half>();
    h.SetValue(0, half(-2.0f));
    AscendC::LocalTensor<half> hd = b.buf[1].Get<half>();
    AscendC::Duplicate<half>(hd, h, 256);
    CHECK(static_cast<float>(hd.GetValue(255)) == -2.0f);
}

}  // namespace

namespace kernel_like {
using namespace AscendC;

/// Reduce and Move called unqualified, as softmax_grad_ext_base.h:123, :144-145 does in a namespace
/// that only says `using namespace AscendC`: a 70-element row, the last 6 folded onto the first.
float RowSum(const float* row)
{
    MicroAPI::RegTensor<float> a, b, c;
    for (uint32_t i = 0; i < 64; ++i) {
        a.lane[i] = row[i];
        b.lane[i] = i < 6 ? row[64 + i] : 0.0f;
    }
    uint32_t rest = 6;
    MicroAPI::MaskReg tail = MicroAPI::UpdateMask<float>(rest);
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();
    Add<float, MicroAPI::MaskMergeMode::ZEROING>(c, a, b, tail);
    Move<float, MicroAPI::MaskMergeMode::MERGING>(a, c, tail);
    Reduce<ReduceType::SUM>(b, a, all);
    return b.lane[0];
}
}  // namespace kernel_like

namespace {

void TestUnqualifiedReduceMove()
{
    float row[70];
    for (int i = 0; i < 70; ++i) {
        row[i] = static_cast<float>(i);  // 0 + 1 + ... + 69 = 2415, exact in float
    }
    CHECK(kernel_like::RowSum(row) == 2415.0f);
    CHECK(static_cast<int>(AscendC::ReduceType::SUM) == static_cast<int>(AscendC::MicroAPI::ReduceType::SUM));
}

selftest::Violations AllViolations()
{
    selftest::Violations v;
    v["duplicate_tensor_dst_short"] = {"Duplicate", [] {
        Core core;
        selftest::Buffers<2> b(256);
        AscendC::Duplicate<float>(b.buf[1].Get<float>(), b.buf[0].Get<float>(), 65);  // 260 bytes
    }};
    v["duplicate_tensor_src_unaligned"] = {"Duplicate", [] {
        Core core;
        selftest::Buffers<2> b(256);
        AscendC::Duplicate<float>(b.buf[1].Get<float>(), b.buf[0].Get<float>()[1], 8);
    }};
    return v;
}

#else

selftest::Violations AllViolations() { return {}; }

#endif  // ASCENDC_CPU_DAV_3510

}  // namespace

int main(int argc, char** argv)
{
    const selftest::Groups groups = {
        {"bits", TestScalarBits},
#if defined(ASCENDC_CPU_DAV_3510)
        {"fill", TestDuplicateFromTensor},
        {"lookup", TestUnqualifiedReduceMove},
#endif
    };
    return selftest::RunSelftest(argc, argv, "selftest_scalar_fill", groups, AllViolations);
}
