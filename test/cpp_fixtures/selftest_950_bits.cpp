// selftest_950_bits.cpp - unit tests of the CPU model's MicroAPI bit calls and per-block maximum
// (ascendc_cpu_micro_bits.h: ShiftLefts, ShiftRights, Pack, ReduceDataBlock MAX / MIN and
// ReduceMaxWithDataBlock) and its storage-only 8-bit types, against values worked out by hand
// from the pages the header cites.
//
//   selftest_950_bits GROUP            run one group's checks, print "N passed, M failed"
//   selftest_950_bits --violate CASE   run one violation case; must exit 3 with "ascendc_cpu: <API>: ..."
//   selftest_950_bits --list-violations
//
// Build (from the repository root):
//   g++ -std=c++17 -Wall -Wextra -Werror -DASCENDC_CPU_DAV_3510 -I hswc/checker/ascendc_cpu
//       test/cpp_fixtures/selftest_950_bits.cpp
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernel_operator.h"
#include "selftest_common.h"
#include "selftest_main.h"

using namespace AscendC;

using selftest::Core;

namespace {

/// ShiftRights: logical on unsigned lanes, arithmetic on signed ones, a shift of the width or
/// more 0 (or -1 for a negative signed lane); ShiftLefts: zeros in, a signed lane's sign kept
/// (ShiftLefts.md's int16_t example); the lanes off 0 (ZEROING).
void TestShifts()
{
    Core core;
    MicroAPI::RegTensor<uint16_t> u, du;
    MicroAPI::RegTensor<int16_t> s, ds;
    MicroAPI::MaskReg all16 = MicroAPI::CreateMask<uint16_t>();
    MicroAPI::Duplicate(u, uint16_t{0xAAAA});
    MicroAPI::Duplicate(s, int16_t(-21846));  // 0xAAAA
    MicroAPI::ShiftRights(du, u, int16_t{1}, all16);
    CHECK(du.lane[0] == 0x5555 && du.lane[127] == 0x5555);
    MicroAPI::ShiftRights(ds, s, int16_t{1}, all16);
    CHECK(static_cast<uint16_t>(ds.lane[0]) == 0xD555);
    MicroAPI::ShiftRights(ds, s, int16_t{3}, all16);
    CHECK(static_cast<uint16_t>(ds.lane[0]) == 0xF555);
    MicroAPI::ShiftRights(ds, s, int16_t{16}, all16);
    CHECK(ds.lane[0] == -1);
    MicroAPI::ShiftRights(du, u, int16_t{16}, all16);
    CHECK(du.lane[0] == 0);
    MicroAPI::ShiftLefts(du, u, int16_t{1}, all16);
    CHECK(du.lane[0] == 0x5554);
    MicroAPI::ShiftLefts(ds, s, int16_t{1}, all16);
    CHECK(static_cast<uint16_t>(ds.lane[0]) == 0xD554);  // 1010101010101010 << 1 = 1101010101010100
    MicroAPI::ShiftLefts(ds, s, int16_t{3}, all16);
    CHECK(static_cast<uint16_t>(ds.lane[0]) == 0xD550);  // << 3 = 1101010101010000
    // The f32 exponent field: 0x3F800000 (1.0) >> 23 = 127; 127 << 23 back.
    MicroAPI::RegTensor<uint32_t> f, e;
    MicroAPI::RegTensor<int32_t> g;
    uint32_t five = 5;
    MicroAPI::MaskReg first5 = MicroAPI::UpdateMask<uint32_t>(five);
    MicroAPI::Duplicate(f, 0x3F800000u);
    MicroAPI::ShiftRights(e, f, int16_t{23}, first5);
    CHECK(e.lane[0] == 127 && e.lane[4] == 127 && e.lane[5] == 0);
    MicroAPI::Duplicate(g, 130);
    MicroAPI::ShiftLefts(g, g, int16_t{23}, first5);
    float two3;
    std::memcpy(&two3, &g.lane[0], 4);
    CHECK(two3 == 8.0f && g.lane[5] == 0);
}

/// Pack: the low half of each lane, in order, into the low half of the destination; the high
/// half 0.
void TestPack()
{
    Core core;
    MicroAPI::RegTensor<uint32_t> w;
    MicroAPI::RegTensor<uint16_t> h;
    for (uint32_t i = 0; i < 64; ++i) {
        w.lane[i] = 0x00010000u * i + (i + 7);
    }
    MicroAPI::Duplicate(h, uint16_t{9});
    MicroAPI::Pack(h, w);
    CHECK(h.lane[0] == 7 && h.lane[1] == 8 && h.lane[63] == 70 && h.lane[64] == 0 && h.lane[127] == 0);
    MicroAPI::RegTensor<int16_t> s;
    MicroAPI::RegTensor<uint8_t> b;
    MicroAPI::Duplicate(s, int16_t(-2));  // 0xFFFE
    MicroAPI::Pack(b, s);
    CHECK(b.lane[0] == 0xFE && b.lane[127] == 0xFE && b.lane[128] == 0);
}

/// ReduceDataBlock MAX / MIN and ReduceMaxWithDataBlock: lane b the extremum of block b (8 float
/// lanes, 16 half lanes), the lanes off left out, the other lanes 0; -0 < +0; NaN wins.
void TestBlockReduce()
{
    Core core;
    MicroAPI::RegTensor<float> x, d;
    for (uint32_t i = 0; i < 64; ++i) {
        x.lane[i] = static_cast<float>(i % 8) - 3.0f + 10.0f * static_cast<float>(i / 8);
    }
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
    MicroAPI::ReduceMaxWithDataBlock(d, x, all);
    CHECK(d.lane[0] == 4.0f && d.lane[1] == 14.0f && d.lane[7] == 74.0f && d.lane[8] == 0.0f);
    MicroAPI::ReduceDataBlock<MicroAPI::ReduceType::MIN>(d, x, all);
    CHECK(d.lane[0] == -3.0f && d.lane[7] == 67.0f && d.lane[63] == 0.0f);
    // Lane 7 of block 0 (4.0) off: block 0's maximum is 3.0.
    uint32_t n = 64;
    MicroAPI::MaskReg some = MicroAPI::UpdateMask<float>(n);
    ascendc_cpu::SetMaskLane(some, 64, 7, false);
    MicroAPI::ReduceMaxWithDataBlock(d, x, some);
    CHECK(d.lane[0] == 3.0f && d.lane[1] == 14.0f);
    x.lane[8] = std::nanf("");
    x.lane[16] = -0.0f;
    for (uint32_t i = 17; i < 24; ++i) {
        x.lane[i] = -1.0f;
    }
    x.lane[17] = 0.0f;
    MicroAPI::ReduceMaxWithDataBlock(d, x, all);
    CHECK(std::isnan(d.lane[1]) && d.lane[2] == 0.0f && !std::signbit(d.lane[2]));
    MicroAPI::RegTensor<half> hx, hd;
    MicroAPI::Duplicate(hx, half(1.5f));
    hx.lane[31] = half(2.0f);
    MicroAPI::MaskReg allh = MicroAPI::CreateMask<half>();
    MicroAPI::ReduceMaxWithDataBlock(hd, hx, allh);
    CHECK(static_cast<float>(hd.lane[0]) == 1.5f && static_cast<float>(hd.lane[1]) == 2.0f &&
          static_cast<float>(hd.lane[8]) == 0.0f);
}

/// The storage-only types: one byte each, copied as bytes.
void TestStorageTypes()
{
    Core core;
    CHECK(sizeof(fp8_e8m0_t) == 1 && sizeof(fp4x2_e2m1_t) == 1 && sizeof(fp4x2_e1m2_t) == 1);
    fp8_e8m0_t a{0x7F};
    fp8_e8m0_t b = a;
    CHECK(b.bits == 0x7F);
}

selftest::Violations AllViolations()
{
    selftest::Violations v;
    v["negative_shift"] = {"MicroAPI::ShiftRights", [] {
        Core core;
        MicroAPI::RegTensor<uint32_t> a, d;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<uint32_t>();
        MicroAPI::ShiftRights(d, a, int16_t{-1}, all);
    }};
    v["block_with_no_lane_on"] = {"MicroAPI::ReduceDataBlock", [] {
        Core core;
        MicroAPI::RegTensor<float> a, d;
        uint32_t eight = 8;
        MicroAPI::MaskReg first8 = MicroAPI::UpdateMask<float>(eight);  // block 1 has none
        MicroAPI::ReduceMaxWithDataBlock(d, a, first8);
    }};
    return v;
}

}  // namespace

int main(int argc, char** argv)
{
    const selftest::Groups groups = {
        {"shifts", TestShifts},
        {"pack", TestPack},
        {"blockreduce", TestBlockReduce},
        {"storage", TestStorageTypes},
    };
    return selftest::RunSelftest(argc, argv, "selftest_950_bits", groups, AllViolations);
}
