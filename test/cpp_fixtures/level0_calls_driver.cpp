// level0_calls_driver.cpp - the CPU model's vector mask register (SetMaskCount, SetMaskNorm,
// SetVectorMask; Copy reading it), Duplicate's mask forms, BlockReduceSum / Max, WholeReduceMax's index orders, TransDataTo5HD, Gather and
// ArithProgression on fixed
// inputs (build with -DASCENDC_CPU_DAV_3510 for Ascend 950); test_level0_calls.py checks the
// printed results against hand-computed values.
//
//   level0_calls_driver SCENARIO
//
// prints dst's first 16 floats, one per line (%.9g and the bits), or exits 3 with the model's
// message.
#include <cstdio>
#include <cstring>
#include <string>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: level0_calls_driver SCENARIO\n");
        return 2;
    }
    const std::string s = argv[1];
    selftest::Core core(1u << 16);
    TPipe pipe;
    TBuf<TPosition::VECCALC> srcBuf, dstBuf;
    pipe.InitBuffer(srcBuf, 1024);
    pipe.InitBuffer(dstBuf, 256);
    const LocalTensor<float> src = srcBuf.Get<float>();
    const LocalTensor<float> dst = dstBuf.Get<float>();
    for (int i = 0; i < 256; ++i) {
        src.SetValue(i, s == "block_tree" ? (i % 8 == 0 ? 16777216.0f : 1.0f) : s == "ones_counter" ||
            s == "whole_counter" ? 1.0f : static_cast<float>(i));
    }
    for (int i = 0; i < 64; ++i) {
        dst.SetValue(i, -7.0f);
    }
    if (s == "block_tree") {  // each block [2^24, 1 x 7], summed as a tree
        BlockReduceSum(dst, src, 2, 64, 1, 1, 8);
    } else if (s == "block_max") {  // src[i] = i: each block's last lane
        BlockReduceMax(dst, src, 1, 64, 1, 1, 8);
    } else if (s == "ones_counter") {  // 70 ones: a whole repeat and 6 lanes of a second
        SetMaskCount();
        SetVectorMask<float>(0, 70);
        BlockReduceSum<float, false>(dst, src, 1, MASK_PLACEHOLDER, 1, 1, 8);
        SetMaskNorm();
    } else if (s == "whole_counter") {  // repeatTime 0 is ignored in counter mode
        SetMaskCount();
        SetVectorMask<float>(0, 70);
        WholeReduceSum<float, false>(dst, src, 1, MASK_PLACEHOLDER, 1, 1, 8);
        SetMaskNorm();
    } else if (s == "whole_register") {  // Normal mode: lanes 0, 1 and 3 of the register
        SetVectorMask<float>(0, 0xB);
        WholeReduceSum<float, false>(dst, src, 1, 2, 1, 1, 8);
    } else if (s == "whole_register_twice") {  // a reader keeps the register known
        SetVectorMask<float>(0, 0xB);
        WholeReduceSum<float, false>(dst, src, 1, 1, 1, 1, 8);
        WholeReduceMax<float, false>(dst[8], src, 1, 1, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    } else if (s == "max_value_index") {  // the default order: [value, lane], the lowest of a tie
        src.SetValue(9, 1000.0f);
        src.SetValue(5, 1000.0f);
        WholeReduceMax(dst, src, 64, 2, 1, 1, 8);
    } else if (s == "max_nan_index") {  // a signalling NaN in lane 3: the result is quieted
        const uint32_t signalling = 0x7F800001u;
        float nan = 0.0f;
        std::memcpy(&nan, &signalling, sizeof nan);
        src.SetValue(3, nan);
        WholeReduceMax(dst, src, 64, 1, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
    } else if (s == "transpose_b32" || s == "transpose_twice") {
        // 16 blocks of 8 floats, src[8b + i] = 100 b + i, into dst's 16 blocks (a TBuf of 512 bytes)
        TBuf<TPosition::VECCALC> outBuf;
        pipe.InitBuffer(outBuf, 1024);
        const LocalTensor<float> out = outBuf.Get<float>();
        for (int i = 0; i < 128; ++i) {
            src.SetValue(i, static_cast<float>(100 * (i / 8) + i % 8));
            src.SetValue(128 + i, static_cast<float>(-(100 * (i / 8) + i % 8)));
        }
        uint64_t dstList[16];
        uint64_t srcList[16];
        for (int b = 0; b < 16; ++b) {
            srcList[b] = src.GetPhyAddr(8 * b);
            dstList[b] = out.GetPhyAddr(8 * b);
        }
        TransDataTo5HDParams params;
        // twice: repeat 1 reads 16 blocks further on and writes 16 further on
        params.repeatTimes = s == "transpose_twice" ? 2 : 1;
        params.srcRepStride = s == "transpose_twice" ? 16 : 0;
        params.dstRepStride = s == "transpose_twice" ? 16 : 0;
        TransDataTo5HD<float>(dstList, srcList, params);
        for (int i = 0; i < 16; ++i) {
            std::printf("%.9g %d\n", static_cast<double>(out.GetValue(i)), 0);
            std::printf("%.9g %d\n", static_cast<double>(out.GetValue(128 + i)), 1);
        }
        return 0;
    } else if (s == "transpose_b16") {  // TransDataTo5HDImpl on half: a 16 x 16 transpose
        const LocalTensor<half> in = src.ReinterpretCast<half>();
        const LocalTensor<half> out = dst.ReinterpretCast<half>();
        __ubuf__ half* dstList[16];
        __ubuf__ half* srcList[16];
        for (int i = 0; i < 256; ++i) {
            in.SetValue(i, half(static_cast<float>(i)));
        }
        for (int b = 0; b < 16; ++b) {
            srcList[b] = in.GetPhyAddr(16 * b);
            dstList[b] = out.GetPhyAddr(16 * b);
        }
        TransDataTo5HDImpl(dstList, srcList, TransDataTo5HDParams(false, false, 1, 0, 0));
        for (int i = 0; i < 32; ++i) {
            std::printf("%.9g %d\n", static_cast<double>(static_cast<float>(out.GetValue(i))), 0);
        }
        return 0;
    } else if (s == "scalar_bits") {  // CountLeadingZero.md's example, and bit counts
        std::printf("%lld %d\n", static_cast<long long>(ScalarCountLeadingZero(0x0100000000000020ULL)), 0);
        std::printf("%lld %d\n", static_cast<long long>(CountLeadingZero(0)), 0);
        std::printf("%lld %d\n", static_cast<long long>(ScalarGetCountOfValue<1>(0xF0F0ULL)), 0);
        std::printf("%lld %d\n", static_cast<long long>(GetBitCount<0>(0xF0F0ULL)), 0);
        return 0;
    } else if (s == "gather_pairs") {  // Gather.md: src[(base + offset[i]) / 4]; ArithProgression's offsets
        TBuf<TPosition::VECCALC> offBuf;
        pipe.InitBuffer(offBuf, 256);
        const LocalTensor<int32_t> offsets = offBuf.Get<int32_t>();
        offsets.SetValue(10, -9);  // past count 9: its block is written (8 + 8 int32_t)
        offsets.SetValue(20, -9);  // past that block: untouched
        ArithProgression(offsets, static_cast<int32_t>(0), static_cast<int32_t>(8), 9);
        PipeBarrier<PIPE_V>();
        const LocalTensor<uint32_t> bytes = offsets.ReinterpretCast<uint32_t>();
        Gather(dst, src, bytes, 4u, 6);       // src[2i + 1]
        Gather(dst[8], src, bytes, 0u, 6);    // src[2i]
        dst.SetValue(14, static_cast<float>(offsets.GetValue(10)));
        dst.SetValue(15, static_cast<float>(offsets.GetValue(20)));
    } else if (s == "gather_misaligned") {  // an offset not a multiple of the element: a rule
        TBuf<TPosition::VECCALC> offBuf;
        pipe.InitBuffer(offBuf, 256);
        const LocalTensor<uint32_t> offsets = offBuf.Get<uint32_t>();
        offsets.SetValue(0, 2);
        Gather(dst, src, offsets, 0u, 1);
    } else if (s == "stale_register") {  // a level-2 call between SetVectorMask and its reader
        SetVectorMask<float>(0, 0xB);
        Adds(src[128], src[128], 1.0f, 64);
        WholeReduceSum<float, false>(dst, src, 1, 1, 1, 1, 8);
    } else if (s == "duplicate_lanes") {  // Duplicate's bitwise mask: lanes 3..10 of 1 repeat
        uint64_t mask[2] = {0x7F8u, 0};
        Duplicate(dst, 2.5f, mask, 1, 1, 8);
    } else if (s == "duplicate_continuous") {  // the first 3 lanes of 2 repeats 1 block apart
        Duplicate(dst, 4.0f, uint64_t{3}, 2, 1, 1);
    } else if (s == "duplicate_mask_high") {  // a float's lanes are all in mask[0]
        uint64_t mask[2] = {1, 1};
        Duplicate(dst, 1.0f, mask, 1, 1, 8);
    } else if (s == "duplicate_past_tensor") {  // lane 64 of a repeat at dst[56]: past 256 bytes
        uint64_t mask[2] = {0x100u, 0};
        Duplicate(dst[56], 1.0f, mask, 1, 1, 8);
    } else if (s == "copy_counter") {  // Copy's counter mode: 10 floats in each of 1 repeat,
        SetMaskCount();                   // block j from src block 2j (srcStride 2)
        SetVectorMask<float, MaskMode::COUNTER>(10);
        Copy<float, false>(dst, src, MASK_PLACEHOLDER, 1, {1, 2, 8, 8});
        SetMaskNorm();
        ResetMask();
    } else if (s == "copy_register") {  // Normal mode: lanes 0 and 2 of each of 2 repeats
        SetVectorMask<float>(0, 0x5);
        Copy<float, false>(dst, src, MASK_PLACEHOLDER, 2, {1, 1, 1, 8});
    } else if (s == "counter_set_mask") {  // counter mode and a mask argument: not modelled
        SetMaskCount();
        SetVectorMask<float>(0, 70);
        WholeReduceSum(dst, src, 64, 1, 1, 1, 8);
    } else {
        std::fprintf(stderr, "driver: no scenario %s\n", s.c_str());
        return 2;
    }
    for (int i = 0; i < 16; ++i) {
        const float v = dst.GetValue(i);
        uint32_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        std::printf("%.9g %u\n", static_cast<double>(v), bits);
    }
    return 0;
}
