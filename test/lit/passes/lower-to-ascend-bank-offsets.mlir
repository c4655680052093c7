// The `bank-offsets` schedule (hswc.vectorizer.bank_layout): a gap TBuf before each buffer
// whose start the planner moves to the other half of a 512-byte bank-group span, its length
// computed in the kernel from the bytes placed before it, so that Sub's sources (a, b) start
// 256 bytes apart modulo 512 at any ubFactor (asc-devkit add_high_performance, case 6). The
// cost model chooses it on Atlas A2 (bank conflicts double a call there), not on Ascend 950.
// RUN: hswc-opt %s --lower-to-ascend | filecheck %s --check-prefix=A2
// RUN: hswc-opt %s --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend950},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s --check-prefix=A950

// y = max(a * b, 0) - a in f16, on a dynamic shape.
func.func @scaled_relu(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf16>, tensor<?xf16>) outs(%a : tensor<?xf16>) {
  ^bb0(%ea: f16, %eb: f16, %o: f16):
    %prod = arith.mulf %ea, %eb : f16
    %zero = arith.constant 0.0 : f16
    %relu = arith.maximumf %prod, %zero : f16
    %diff = arith.subf %relu, %ea : f16
    linalg.yield %diff : f16
  } -> tensor<?xf16>
  return %y : tensor<?xf16>
}
// Two gaps of at most 512 bytes each reserved by the tiling from ubFactor 768 (gapped_from: 8 x
// 2 x 512 / 12, up to 128s), a block each below it; a at byte 0 (half 0, no gap), y at half 0
// (992), b moved to half 1 (256 mod 512: 1248 = 256 + 992). The InitBuffers come in the order
// a, y, b (hswc.vectorizer.bank_order): at the full chunk of A2's UB (each queue's two buffers
// about 64 KB), y's and b's slots start in other 64 KB banks than in the planned a, b, y.
// A2-LABEL: func.func @scaled_relu_tiling_f16(
// A2-SAME:      hsg.ub_plan = {bytes_per_element = 12 : i64, ub_reserve = 0 : i64, align_elements = 128 : i64, bank_gaps = 2 : i64}
// A2:           %bank_gaps_placed = arith.cmpi sgt, %{{.*}}, %c767 : index
// A2-LABEL: func.func @scaled_relu_kernel_f16(
// A2-SAME:      hsg.schedule = {options = "{{.*}} bank-offsets=true"
// A2:           ascend.init_buffer %pipe, %input_queue_a, num 2, %[[BYTES:.*]] : !ascend.tque<vecin, 2>
// A2:           %[[PLACED0:.*]] = arith.muli %c2, %{{.*}} : index
// A2:           %[[R0:.*]] = arith.remsi %[[PLACED0]], %c512 : index
// A2-NEXT:      %[[S0:.*]] = arith.subi %c992, %[[R0]] : index
// A2-NEXT:      %[[M0:.*]] = arith.remsi %[[S0]], %c512 : index
// A2-NEXT:      %[[G0:.*]] = arith.addi %c32, %[[M0]] : index
// A2:           %[[PLACED:.*]] = arith.cmpi sgt, %ub_factor, %c767 : index
// A2-NEXT:      %[[GAP0:.*]] = arith.select %[[PLACED]], %[[G0]], %c32 : index
// A2-NEXT:      %[[BUF0:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// A2-NEXT:      ascend.init_buffer %pipe, %[[BUF0]], %[[GAP0]] : !ascend.tbuf<veccalc>
// A2-NEXT:      ascend.init_buffer %pipe, %output_queue_y, num 2, %[[BYTES]] : !ascend.tque<vecout, 2>
// A2:           arith.subi %c1248, %{{.*}} : index
// A2:           %[[BUF1:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// A2-NEXT:      ascend.init_buffer %pipe, %[[BUF1]], %{{.*}} : !ascend.tbuf<veccalc>
// A2-NEXT:      ascend.init_buffer %pipe, %input_queue_b, num 2, %[[BYTES]] : !ascend.tque<vecin, 2>
// A2-NOT:       ascend.tbuf
// A2:           ascend.sub %y_fp16, %b_fp16, %a_fp16

// CPP:          pipe.InitBuffer(inputQueueA, 2, tensorBytes);
// CPP-NEXT:     int64_t ubPlaced0 = 2 * (CeilDiv(tensorBytes, 32) * 32);
// CPP-NEXT:     bool bankGapsPlaced = ubFactor > 767;
// CPP-NEXT:     int64_t bankGap0Bytes = bankGapsPlaced ? 32 + (992 - ubPlaced0 % 512) % 512 : 32;
// CPP-NEXT:     pipe.InitBuffer(bankGap0, bankGap0Bytes);
// CPP-NEXT:     pipe.InitBuffer(outputQueueY, 2, tensorBytes);
// CPP-NEXT:     int64_t ubPlaced1 = ubPlaced0 + bankGap0Bytes + 2 * (CeilDiv(tensorBytes, 32) * 32);
// CPP-NEXT:     int64_t bankGap1Bytes = bankGapsPlaced ? 32 + (1248 - ubPlaced1 % 512) % 512 : 32;
// CPP-NEXT:     pipe.InitBuffer(bankGap1, bankGap1Bytes);
// CPP-NEXT:     pipe.InitBuffer(inputQueueB, 2, tensorBytes);

// A950-LABEL: func.func @scaled_relu_kernel_f16(
// A950-NOT:     bank-offsets
// A950-NOT:     bank_gap
// A950:         ascend.sub
