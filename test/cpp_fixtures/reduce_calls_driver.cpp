// reduce_calls_driver.cpp - one reduction, Brcb or level-0 binary call of the CPU model on the
// UB bytes of a file (build with -DASCENDC_CPU_DAV_3510 for Ascend 950).
//
//   reduce_calls_driver SPEC IN OUT
//
// SPEC, whitespace-separated: CALL DTYPE B0 B1 B2 D_BUF D_OFF S_BUF S_OFF T_BUF T_OFF N1 .. N8
//   CALL   ReduceSum ReduceMax ReduceMin | WholeReduceSum WholeReduceMax WholeReduceMin | Brcb |
//          Add Sub Mul Div Max Min (the level-0 forms)
//   DTYPE  half, float (bfloat16_t for Brcb and the 950 binary calls)
//   B0..B2 the byte sizes of three VECCALC buffers (multiples of 32, 0: absent), placed back to
//          back from UB byte 0 as TPipe::InitBuffer places them
//   X_BUF X_OFF  an operand: buffer index and element offset (the tensor is buf.Get<T>()[off]):
//          D dst; S src / src0; T work / src1
//   N1..   the call's numbers: ReduceX: count; WholeReduceX: mask repeat dstRepStride srcBlkStride
//          srcRepStride; Brcb: repeat dstBlkStride dstRepStride; binary: mask repeat and the six
//          BinaryRepeatParams strides
// IN holds the three buffers' bytes, OUT gets them after the call. A broken rule ends the run
// with exit 3 and the model's message (test_reduce_calls.py checks both against hswc's
// interpreter: hswc/interpreter/ascendc_reduce.py and ascendc_repeat.py).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "selftest_common.h"

using namespace AscendC;

namespace {

struct Spec {
    std::string call;
    std::string dtype;
    uint32_t bytes[3] = {};
    uint32_t buf[3] = {};
    uint32_t off[3] = {};
    int64_t n[8] = {};
};

template <typename T>
void Run(const Spec& s, TBuf<TPosition::VECCALC>* bufs)
{
    const auto operand = [&](int i) { return bufs[s.buf[i]].Get<T>()[s.off[i]]; };
    const LocalTensor<T> d = operand(0), a = operand(1), b = operand(2);
    const int64_t* n = s.n;
    if constexpr (std::is_same<T, half>::value || std::is_same<T, float>::value) {
        if (s.call == "ReduceSum") {
            ReduceSum(d, a, b, n[0]);
            return;
        }
        if (s.call == "ReduceMax") {
            ReduceMax(d, a, b, n[0], false);
            return;
        }
        if (s.call == "ReduceMin") {
            ReduceMin(d, a, b, n[0], false);
            return;
        }
        if (s.call == "WholeReduceSum") {
            WholeReduceSum(d, a, n[0], n[1], n[2], n[3], n[4]);
            return;
        }
        if (s.call == "WholeReduceMax") {
            WholeReduceMax(d, a, n[0], n[1], n[2], n[3], n[4], ReduceOrder::ORDER_ONLY_VALUE);
            return;
        }
        if (s.call == "WholeReduceMin") {
            WholeReduceMin(d, a, n[0], n[1], n[2], n[3], n[4], ReduceOrder::ORDER_ONLY_VALUE);
            return;
        }
        if (s.call == "Div") {
            const BinaryRepeatParams p(n[2], n[3], n[4], n[5], n[6], n[7]);
            Div(d, a, b, n[0], n[1], p);
            return;
        }
    }
    if (s.call == "Brcb") {
        Brcb(d, a, n[0], BrcbRepeatParams(n[1], n[2]));
        return;
    }
    const BinaryRepeatParams p(n[2], n[3], n[4], n[5], n[6], n[7]);
#if !defined(ASCENDC_CPU_DAV_3510)
    if constexpr (std::is_same<T, bfloat16_t>::value) {
        std::fprintf(stderr, "driver: bfloat16_t binary calls are Ascend 950's\n");
        std::exit(2);
    } else
#endif
    {
        if (s.call == "Add") {
            Add(d, a, b, n[0], n[1], p);
        } else if (s.call == "Sub") {
            Sub(d, a, b, n[0], n[1], p);
        } else if (s.call == "Mul") {
            Mul(d, a, b, n[0], n[1], p);
        } else if (s.call == "Max") {
            Max(d, a, b, n[0], n[1], p);
        } else if (s.call == "Min") {
            Min(d, a, b, n[0], n[1], p);
        } else {
            std::fprintf(stderr, "driver: no call %s for %s\n", s.call.c_str(), s.dtype.c_str());
            std::exit(2);
        }
    }
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 4 && !(argc == 5 && std::strcmp(argv[4], "--record-rules") == 0)) {
        std::fprintf(stderr, "usage: reduce_calls_driver SPEC IN OUT [--record-rules]\n");
        return 2;
    }
    ascendc_cpu::Rt().recordRules = argc == 5;  // a recordable rule reported, the call goes on
    Spec s;
    std::ifstream spec(argv[1]);
    spec >> s.call >> s.dtype;
    for (uint32_t& b : s.bytes) {
        spec >> b;
    }
    for (int i = 0; i < 3; ++i) {
        spec >> s.buf[i] >> s.off[i];
    }
    for (int64_t& v : s.n) {
        spec >> v;
    }
    if (!spec) {
        std::fprintf(stderr, "driver: unreadable SPEC %s\n", argv[1]);
        return 2;
    }
    const std::vector<uint8_t> in = selftest::ReadAll(argv[2]);
    selftest::Core core(1u << 18);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufs[3];
    uint32_t total = 0;
    for (int i = 0; i < 3; ++i) {
        if (s.bytes[i] != 0) {
            pipe.InitBuffer(bufs[i], s.bytes[i]);
            total += s.bytes[i];
        }
    }
    if (in.size() != total) {
        std::fprintf(stderr, "driver: IN holds %zu bytes, the buffers %u\n", in.size(), total);
        return 2;
    }
    uint8_t* ub = reinterpret_cast<uint8_t*>(bufs[0].Get<uint8_t>().GetPhyAddr());
    std::memcpy(ub, in.data(), total);
    if (s.dtype == "half") {
        Run<half>(s, bufs);
    } else if (s.dtype == "float") {
        Run<float>(s, bufs);
    } else if (s.dtype == "bfloat16_t") {
        Run<bfloat16_t>(s, bufs);
    } else {
        std::fprintf(stderr, "driver: no dtype %s\n", s.dtype.c_str());
        return 2;
    }
    selftest::WriteAll(argv[3], ub, total);
    return 0;
}
