// selftest_950_bits.cpp - unit tests of the CPU model's MicroAPI bit calls and per-block maximum
// (ascendc_cpu_micro_bits.h: ShiftLefts, ShiftRights, Pack, ReduceDataBlock MAX / MIN and
// ReduceMaxWithDataBlock, the dual DINTLV and the E2B loads, Cast int32_t -> uint8_t), its
// storage-only 8-bit types and the 64-bit integer lanes (ascendc_cpu_micro_int64.h: Add, Sub,
// Adds, ReduceSum), against values worked out by hand from the pages and the implementation
// lines the headers cite.
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

/// int64_t / uint64_t lanes: 32 a register; Add, Sub, Adds wrap modulo 2^64, the lanes off 0;
/// ReduceSum's lane 0 the wrapping sum of the lanes on, the others 0.
void TestInt64Lanes()
{
    Core core;
    MicroAPI::RegTensor<int64_t> a, b, d;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<int64_t>();
    uint32_t five = 5;
    MicroAPI::MaskReg first5 = MicroAPI::UpdateMask<int64_t>(five);
    MicroAPI::Duplicate(a, INT64_MAX);
    MicroAPI::Duplicate(b, int64_t{1});
    MicroAPI::Add(d, a, b, all);
    CHECK(d.lane[0] == INT64_MIN && d.lane[31] == INT64_MIN);
    MicroAPI::Sub(d, b, a, first5);  // 1 - (2^63 - 1) = -2^63 + 2
    CHECK(d.lane[4] == INT64_MIN + 2 && d.lane[5] == 0);
    MicroAPI::Duplicate(a, int64_t{5000000000});  // above 2^32: the carry out of the low word
    MicroAPI::Adds(d, a, int64_t{-5000000001}, all);
    CHECK(d.lane[0] == -1 && d.lane[31] == -1);
    MicroAPI::Adds(d, a, 0, first5);
    CHECK(d.lane[0] == 5000000000 && d.lane[5] == 0);
    MicroAPI::RegTensor<uint64_t> u, s;
    MicroAPI::MaskReg allu = MicroAPI::CreateMask<uint64_t>();
    MicroAPI::Duplicate(u, uint64_t{0xFFFFFFFFu});
    MicroAPI::ReduceSum(s, u, allu);
    CHECK(s.lane[0] == 32ull * 0xFFFFFFFFull && s.lane[1] == 0);  // 0x1FFFFFFFE0
    MicroAPI::RegTensor<int64_t> g;  // group_index counts: 21 + 0 + 43, the rest off
    g.lane[0] = 21;
    g.lane[1] = 0;
    g.lane[2] = 43;
    g.lane[3] = 1000;
    uint32_t three = 3;
    MicroAPI::MaskReg first3 = MicroAPI::UpdateMask<int64_t>(three);
    MicroAPI::ReduceSum(d, g, first3);
    CHECK(d.lane[0] == 64);
}

/// The dual load (DIST_DINTLV_B16: even elements to the first register, odd to the second, the
/// address moved on), the E2B load (an element per 32-byte block) and Cast int32_t -> uint8_t
/// (lane i to byte 4i + layout; NO_SAT keeps the low byte: table 4's 256 -> 0).
void TestLoadsAndNarrowing()
{
    Core core;
    selftest::Buffers<1> buf(1024);
    __ubuf__ uint16_t* p = reinterpret_cast<__ubuf__ uint16_t*>(buf.Get<uint16_t>(0).GetPhyAddr());
    for (uint16_t i = 0; i < 256; ++i) {
        p[i] = i;
    }
    MicroAPI::RegTensor<uint16_t> even, odd;
    __ubuf__ uint16_t* q = p;
    MicroAPI::LoadAlign<uint16_t, MicroAPI::PostLiteral::POST_MODE_UPDATE, MicroAPI::LoadDist::DIST_DINTLV_B16>(
        even, odd, q, 256);
    CHECK(even.lane[0] == 0 && even.lane[1] == 2 && odd.lane[0] == 1 && odd.lane[127] == 255 && q == p + 256);
    MicroAPI::RegTensor<uint16_t> e2b;
    MicroAPI::LoadAlign<uint16_t, MicroAPI::LoadDist::DIST_E2B_B16>(e2b, p);
    CHECK(e2b.lane[0] == 0 && e2b.lane[15] == 0 && e2b.lane[16] == 1 && e2b.lane[127] == 7);
    MicroAPI::RegTensor<int32_t> codes;
    MicroAPI::RegTensor<uint8_t> bytes;
    MicroAPI::Duplicate(codes, 256);
    codes.lane[1] = 127;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<int32_t>();
    static constexpr MicroAPI::CastTrait kEven = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::NO_SAT,
        MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_NONE};
    MicroAPI::Cast<uint8_t, int32_t, kEven>(bytes, codes, all);  // CTRL[60] = 1, [59] = 0: saturating
    CHECK(bytes.lane[0] == 255 && bytes.lane[4] == 127 && bytes.lane[5] == 0);
    SetCtrlSpr<60, 60>(0);  // the per-instruction mode, as SwigluGroupQuant's kernels set it
    MicroAPI::Cast<uint8_t, int32_t, kEven>(bytes, codes, all);
    CHECK(bytes.lane[0] == 0 && bytes.lane[4] == 127 && bytes.lane[5] == 0);
    static constexpr MicroAPI::CastTrait kSat = {MicroAPI::RegLayout::ONE, MicroAPI::SatMode::SAT,
        MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_NONE};
    MicroAPI::Cast<uint8_t, int32_t, kSat>(bytes, codes, all);
    CHECK(bytes.lane[1] == 255 && bytes.lane[5] == 127 && bytes.lane[0] == 0);
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
        {"int64", TestInt64Lanes},
        {"loads", TestLoadsAndNarrowing},
    };
    return selftest::RunSelftest(argc, argv, "selftest_950_bits", groups, AllViolations);
}
