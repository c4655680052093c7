// selftest_950_index.cpp - unit tests of the CPU model's MicroAPI mask logic, Copy, Arange, the
// register gathers and scatters, the older DataCopy* names and the Reg calls' unsigned and
// integer-division lanes (ascendc_cpu_micro_mask.h, ascendc_cpu_micro_gather.h,
// ascendc_cpu_micro.h), against values worked out by hand from the pages each header cites.
//
//   selftest_950_index GROUP            run one group's checks, print "N passed, M failed"
//   selftest_950_index --violate CASE   run one violation case; must exit 3 with "ascendc_cpu: <API>: ..."
//   selftest_950_index --list-violations
//
// Build (from the repository root):
//   g++ -std=c++17 -Wall -Wextra -Werror -DASCENDC_CPU_DAV_3510 -I hswc/checker/ascendc_cpu
//       test/cpp_fixtures/selftest_950_index.cpp
#include <cstdint>

#include "kernel_operator.h"
#include "selftest_common.h"
#include "selftest_main.h"

using namespace AscendC;

using selftest::Core;

namespace {

/// MaskNot / Not, MaskXor, MaskAnd, MaskOr, MaskMov on b32 lanes; Copy (MERGING) and its
/// maskless form.
void TestMaskLogic()
{
    Core core;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
    uint32_t five = 5;
    MicroAPI::MaskReg first5 = MicroAPI::UpdateMask<float>(five);
    uint32_t eight = 8;
    MicroAPI::MaskReg first8 = MicroAPI::UpdateMask<float>(eight);
    MicroAPI::MaskReg m;
    // Not under every lane: lanes 5.. on, 0..4 off.
    MicroAPI::MaskNot(m, first5, all);
    CHECK(!ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 4) &&
          ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 5) &&
          ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 63));
    // Not under the first 8 lanes: lanes 5, 6, 7 on; 8.. off (the bits the mask leaves off: 0).
    MicroAPI::Not(m, first5, first8);
    int on = 0;
    for (uint32_t i = 0; i < 64; ++i) {
        on += ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, i) ? 1 : 0;
    }
    CHECK(on == 3 && ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 7));
    // Xor of the first 5 and the first 8 lanes: lanes 5..7 (opbase's padding mask, reduce_operator.h:671).
    MicroAPI::MaskXor(m, first5, first8, all);
    on = 0;
    for (uint32_t i = 0; i < 64; ++i) {
        on += ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, i) ? 1 : 0;
    }
    CHECK(on == 3 && !ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 4) &&
          ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 5));
    MicroAPI::MaskAnd(m, first5, first8, all);
    CHECK(ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 4) &&
          !ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 5));
    MicroAPI::MaskOr(m, first5, first8, all);
    CHECK(ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 7) &&
          !ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 8));
    MicroAPI::MaskMov(m, first8, first5);
    CHECK(ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 4) &&
          !ascendc_cpu::LaneOn<MicroAPI::RegTensor<float>>(m, 5));
    // Copy keeps the lanes the mask leaves off (MERGING).
    MicroAPI::RegTensor<float> a, d;
    MicroAPI::Duplicate(a, 2.5f);
    MicroAPI::Duplicate(d, -1.0f);
    MicroAPI::Copy(d, a, first5);
    CHECK(d.lane[0] == 2.5f && d.lane[4] == 2.5f && d.lane[5] == -1.0f && d.lane[63] == -1.0f);
    MicroAPI::Copy(d, a);
    CHECK(d.lane[63] == 2.5f);
}

/// Arange: s + i on every lane, integers wrapping (Arange.md:73), floats s + i.
void TestArange()
{
    Core core;
    MicroAPI::RegTensor<int32_t> i32;
    MicroAPI::Arange(i32, 0);
    CHECK(i32.lane[0] == 0 && i32.lane[1] == 1 && i32.lane[63] == 63);
    MicroAPI::Arange(i32, -10);
    CHECK(i32.lane[0] == -10 && i32.lane[10] == 0 && i32.lane[63] == 53);
    MicroAPI::RegTensor<int16_t> i16;
    MicroAPI::Arange(i16, int16_t{32700});
    CHECK(i16.lane[67] == 32767 && i16.lane[68] == -32768 && i16.lane[127] == -32709);
    MicroAPI::RegTensor<int8_t> i8;
    MicroAPI::Arange(i8, int8_t{120});
    CHECK(i8.lane[7] == 127 && i8.lane[8] == -128 && i8.lane[255] == 119);
    MicroAPI::RegTensor<float> f;
    MicroAPI::Arange(f, 0.5f);
    CHECK(f.lane[0] == 0.5f && f.lane[63] == 63.5f);
    MicroAPI::RegTensor<half> h;
    MicroAPI::Arange(h, half(2048.0f));
    // 2048 + 1 = 2049 is not a half: ties to even gives 2048; 2048 + 3 = 2051 gives 2052.
    CHECK(static_cast<float>(h.lane[1]) == 2048.0f && static_cast<float>(h.lane[3]) == 2052.0f &&
          static_cast<float>(h.lane[2]) == 2050.0f);
}

/// Gather / DataCopyGather from the UB by element index; Scatter / DataCopyScatter back.
void TestGatherScatter()
{
    Core core;
    selftest::Buffers<3> b(1024);
    LocalTensor<float> src = b.Get<float>(0);
    for (uint32_t i = 0; i < 256; ++i) {
        src.SetValue(i, static_cast<float>(i) * 10.0f);
    }
    auto* base = reinterpret_cast<__ubuf__ float*>(src.GetPhyAddr());
    MicroAPI::RegTensor<uint32_t> idx;
    for (uint32_t i = 0; i < 64; ++i) {
        idx.lane[i] = (i * 7) % 256;  // repeats are allowed in a gather
    }
    idx.lane[1] = 3;
    idx.lane[2] = 3;
    uint32_t n = 40;
    MicroAPI::MaskReg m40 = MicroAPI::UpdateMask<float>(n);
    MicroAPI::RegTensor<float> g;
    MicroAPI::Duplicate(g, 1.0f);
    MicroAPI::Gather(g, base, idx, m40);
    CHECK(g.lane[0] == 0.0f && g.lane[1] == 30.0f && g.lane[2] == 30.0f && g.lane[39] == 170.0f);
    CHECK(g.lane[40] == 0.0f);  // the lanes off: 0 (assumed)
    MicroAPI::DataCopyGather(g, base, idx, m40);
    CHECK(g.lane[3] == 210.0f);
    // b8 into b16: the byte zero-extended (the page: -40 -> 216).
    LocalTensor<int8_t> bytes = b.Get<int8_t>(1);
    bytes.SetValue(5, int8_t{-40});
    bytes.SetValue(6, int8_t{40});
    MicroAPI::RegTensor<int16_t> w;
    MicroAPI::RegTensor<uint16_t> i16;
    i16.lane[0] = 5;
    i16.lane[1] = 6;
    MicroAPI::MaskReg two = MicroAPI::CreateMask<int16_t, MicroAPI::MaskPattern::VL2>();
    MicroAPI::Gather(w, reinterpret_cast<__ubuf__ int8_t*>(bytes.GetPhyAddr()), i16, two);
    CHECK(w.lane[0] == 216 && w.lane[1] == 40 && w.lane[2] == 0);
    // Scatter: the lanes on to their indices, the rest of the UB untouched.
    LocalTensor<float> dst = b.Get<float>(2);
    for (uint32_t i = 0; i < 256; ++i) {
        dst.SetValue(i, -1.0f);
    }
    MicroAPI::RegTensor<uint32_t> to;
    MicroAPI::Arange(reinterpret_cast<MicroAPI::RegTensor<int32_t>&>(to), 0);
    MicroAPI::Muls(to, to, 2u, m40);  // 0, 2, 4, ...
    MicroAPI::RegTensor<float> vals;
    MicroAPI::Arange(vals, 1.0f);
    MicroAPI::Scatter(reinterpret_cast<__ubuf__ float*>(dst.GetPhyAddr()), vals, to, m40);
    CHECK(dst.GetValue(0) == 1.0f && dst.GetValue(1) == -1.0f && dst.GetValue(78) == 40.0f &&
          dst.GetValue(80) == -1.0f);
    MicroAPI::MaskReg two32 = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::VL2>();
    MicroAPI::DataCopyScatter(reinterpret_cast<__ubuf__ float*>(dst.GetPhyAddr()) + 8, vals, to, two32);
    CHECK(dst.GetValue(8) == 1.0f && dst.GetValue(10) == 2.0f && dst.GetValue(12) == 7.0f);
}

/// The older names of the unaligned loads and stores through one UnalignReg.
void TestUnalignRegNames()
{
    Core core;
    selftest::Buffers<2> b(1024);
    LocalTensor<float> src = b.Get<float>(0);
    LocalTensor<float> dst = b.Get<float>(1);
    for (uint32_t i = 0; i < 256; ++i) {
        src.SetValue(i, static_cast<float>(i));
        dst.SetValue(i, -1.0f);
    }
    auto* s = reinterpret_cast<__ubuf__ float*>(src.GetPhyAddr()) + 3;
    auto* d = reinterpret_cast<__ubuf__ float*>(dst.GetPhyAddr()) + 1;
    MicroAPI::UnalignReg us;
    MicroAPI::UnalignReg ud;
    MicroAPI::RegTensor<float> r;
    MicroAPI::DataCopyUnAlignPre(us, s);
    MicroAPI::DataCopyUnAlign(r, us, s, 5);  // lanes 3.. of src; s += 5
    CHECK(r.lane[0] == 3.0f && r.lane[63] == 66.0f);
    MicroAPI::DataCopyUnAlign(d, r, ud, 5);  // src 3..7 to dst 1..5; d += 5
    MicroAPI::DataCopyUnAlignPost(d, ud, 0);
    CHECK(dst.GetValue(0) == -1.0f && dst.GetValue(1) == 3.0f && dst.GetValue(5) == 7.0f &&
          dst.GetValue(6) == -1.0f);
}

/// uint16_t / uint32_t lanes of Add, Sub, Mul, Adds, Muls, Max (wrapping) and integer Div
/// (truncated toward zero), as swi_glu_grad_ub_rearrange.h's index arithmetic uses them.
void TestUnsignedAndIntDiv()
{
    Core core;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<uint32_t>();
    MicroAPI::RegTensor<uint32_t> a, c, d;
    MicroAPI::Arange(reinterpret_cast<MicroAPI::RegTensor<int32_t>&>(a), 0);
    MicroAPI::Duplicate(c, 6u);
    MicroAPI::Div(d, a, c, all);
    CHECK(d.lane[5] == 0 && d.lane[6] == 1 && d.lane[63] == 10);
    MicroAPI::Mul(d, d, c, all);
    MicroAPI::Sub(d, a, d, all);  // a % 6
    CHECK(d.lane[63] == 3 && d.lane[12] == 0);
    MicroAPI::Sub(d, c, a, all);  // 6 - 7 wraps
    CHECK(d.lane[7] == 0xFFFFFFFFu);
    MicroAPI::Adds(d, a, 0xFFFFFFFFu, all);
    CHECK(d.lane[0] == 0xFFFFFFFFu && d.lane[1] == 0);
    MicroAPI::Muls(d, a, 3u, all);
    MicroAPI::Add(d, d, c, all);
    CHECK(d.lane[10] == 36);
    MicroAPI::Max(d, a, c, all);
    CHECK(d.lane[2] == 6 && d.lane[9] == 9);
    MicroAPI::RegTensor<uint16_t> u16, v16;
    MicroAPI::MaskReg all16 = MicroAPI::CreateMask<uint16_t>();
    MicroAPI::Duplicate(u16, uint16_t{65535});
    MicroAPI::Adds(v16, u16, uint16_t{2}, all16);
    CHECK(v16.lane[127] == 1);
    MicroAPI::RegTensor<int32_t> s0, s1, q;
    MicroAPI::Duplicate(s0, -7);
    MicroAPI::Duplicate(s1, 2);
    MicroAPI::Div(q, s0, s1, all);
    CHECK(q.lane[0] == -3);  // toward zero, not -4
}

selftest::Violations AllViolations()
{
    selftest::Violations v;
    v["gather_unaligned_base"] = {"MicroAPI::Gather", [] {
        Core core;
        selftest::Buffers<1> b(1024);
        MicroAPI::RegTensor<float> g;
        MicroAPI::RegTensor<uint32_t> idx;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
        MicroAPI::Gather(g, reinterpret_cast<__ubuf__ float*>(b.Get<float>(0).GetPhyAddr()) + 4, idx, all);
    }};
    v["gather_past_ub"] = {"MicroAPI::Gather", [] {
        Core core(4096);
        selftest::Buffers<1> b(1024);
        MicroAPI::RegTensor<float> g;
        MicroAPI::RegTensor<uint32_t> idx;
        idx.lane[3] = 5000;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
        MicroAPI::Gather(g, reinterpret_cast<__ubuf__ float*>(b.Get<float>(0).GetPhyAddr()), idx, all);
    }};
    v["scatter_repeated_index"] = {"MicroAPI::Scatter", [] {
        Core core;
        selftest::Buffers<1> b(1024);
        MicroAPI::RegTensor<float> s;
        MicroAPI::RegTensor<uint32_t> idx;  // every index 0
        MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
        MicroAPI::Scatter(reinterpret_cast<__ubuf__ float*>(b.Get<float>(0).GetPhyAddr()), s, idx, all);
    }};
    v["div_by_zero"] = {"MicroAPI::Div", [] {
        Core core;
        MicroAPI::RegTensor<uint16_t> a, z, d;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<uint16_t>();
        MicroAPI::Div(d, a, z, all);
    }};
    return v;
}

}  // namespace

int main(int argc, char** argv)
{
    const selftest::Groups groups = {
        {"mask", TestMaskLogic},
        {"arange", TestArange},
        {"gather", [] { TestGatherScatter(); TestUnalignRegNames(); }},
        {"intlanes", TestUnsignedAndIntDiv},
    };
    return selftest::RunSelftest(argc, argv, "selftest_950_index", groups, AllViolations);
}
