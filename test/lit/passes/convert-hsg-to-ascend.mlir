// RUN: hswc-opt %s --split-input-file -p convert-hsg-to-ascend | filecheck %s

// f16 chunk loop: Init before the loop (GM views, TPipe, depth-1 queues, nine VECCALC buffers,
// constants filled once), then CopyIn -> Compute -> CopyOut per chunk; Cast CAST_NONE both ways.
func.func @chunk_f16(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %off: index, %len: index, %uf: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %coff = arith.muli %i, %uf : index
    %cur = arith.minsi %uf, %len : index
    hsg.elementwise_chunk ins(%g, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) slice [%off, %len] chunk [%coff, %cur] ub_factor %uf {
    ^bb0(%grad_1: f16, %x_1: f16):
      %x_fp32 = arith.extf %x_1 : f16 to f32
      %grad_fp32 = arith.extf %grad_1 : f16 to f32
      %lower = arith.constant -3.000000e+00 : f32
      %greater = arith.cmpf ogt, %x_fp32, %lower : f32
      %upper = arith.constant 3.000000e+00 : f32
      %less = arith.cmpf olt, %x_fp32, %upper : f32
      %one_third = arith.constant 0.333333343 : f32
      %slope = arith.mulf %x_fp32, %one_third : f32
      %half = arith.constant 5.000000e-01 : f32
      %slope_1 = arith.addf %slope, %half : f32
      %zero = arith.constant 0.000000e+00 : f32
      %slope_2 = arith.select %greater, %slope_1, %zero : f32
      %one = arith.constant 1.000000e+00 : f32
      %slope_3 = arith.select %less, %slope_2, %one : f32
      %product = arith.mulf %grad_fp32, %slope_3 : f32
      %result = arith.truncf %product : f32 to f16
      linalg.yield %result : f16
    }
  }
  func.return
}
// CHECK-LABEL: func.func @chunk_f16(
// CHECK-SAME:      %[[G:.*]]: memref<?xf16>, %[[X:.*]]: memref<?xf16>, %[[Y:.*]]: memref<?xf16>, %[[OFF:.*]]: index, %[[LEN:.*]]: index, %[[UF:.*]]: index, %[[N:.*]]: index) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[XGM:.*]] = ascend.set_global_buffer %[[X]][%[[OFF]]], %[[LEN]] : memref<?xf16> -> !ascend.global_tensor<f16>
// CHECK-NEXT:    %[[GGM:.*]] = ascend.set_global_buffer %[[G]][%[[OFF]]], %[[LEN]] : memref<?xf16> -> !ascend.global_tensor<f16>
// CHECK-NEXT:    %[[YGM:.*]] = ascend.set_global_buffer %[[Y]][%[[OFF]]], %[[LEN]] : memref<?xf16> -> !ascend.global_tensor<f16>
// CHECK-NEXT:    %[[PIPE:.*]] = ascend.tpipe
// CHECK-NEXT:    %[[QX:.*]] = ascend.tque : !ascend.tque<vecin, 1>
// CHECK-NEXT:    %[[QG:.*]] = ascend.tque : !ascend.tque<vecin, 1>
// CHECK-NEXT:    %[[QY:.*]] = ascend.tque : !ascend.tque<vecout, 1>
// CHECK-NEXT:    %[[XF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[GF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[SLOPE_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[LO_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[HI_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[ZERO_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[ONE_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[GT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[LT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[TBYTES:.*]] = arith.muli %[[UF]], %[[C2]] : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[FBYTES:.*]] = arith.muli %[[UF]], %[[C4]] : index
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[QX]], num 1, %[[TBYTES]] : !ascend.tque<vecin, 1>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[QG]], num 1, %[[TBYTES]] : !ascend.tque<vecin, 1>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[QY]], num 1, %[[TBYTES]] : !ascend.tque<vecout, 1>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[XF_BUF]], %[[FBYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[GF_BUF]], %[[FBYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[SLOPE_BUF]], %[[FBYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[LO_BUF]], %[[FBYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[HI_BUF]], %[[FBYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[ZERO_BUF]], %[[FBYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[ONE_BUF]], %[[FBYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[BITS:.*]] = arith.ceildivsi %[[UF]], %[[C8]] : index
// CHECK-NEXT:    %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %[[BLOCKS:.*]] = arith.ceildivsi %[[BITS]], %[[C256]] : index
// CHECK-NEXT:    %[[ROUNDED:.*]] = arith.muli %[[BLOCKS]], %[[C256]] : index
// CHECK-NEXT:    %[[MASK:.*]] = arith.maxsi %[[ROUNDED]], %[[C256]] : index
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[GT_BUF]], %[[MASK]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[LT_BUF]], %[[MASK]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[LO:.*]] = ascend.tbuf_get %[[LO_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[LO]], -3.000000e+00 : f32, %[[UF]] : !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    %[[HI:.*]] = ascend.tbuf_get %[[HI_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[HI]], 3.000000e+00 : f32, %[[UF]] : !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    %[[ZERO:.*]] = ascend.tbuf_get %[[ZERO_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[ZERO]], 0.000000e+00 : f32, %[[UF]] : !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    %[[ONE:.*]] = ascend.tbuf_get %[[ONE_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[ONE]], 1.000000e+00 : f32, %[[UF]] : !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.pipe_barrier pipe_v
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:      %[[COFF:.*]] = arith.muli %[[I]], %[[UF]] : index
// CHECK-NEXT:      %[[CUR:.*]] = arith.minsi %[[UF]], %[[LEN]] : index
// CHECK-NEXT:      %[[SIZE:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[BYTES:.*]] = arith.muli %[[CUR]], %[[SIZE]] : index
// CHECK-NEXT:      %[[XIN:.*]] = ascend.alloc_tensor %[[QX]] : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      %[[GIN:.*]] = ascend.alloc_tensor %[[QG]] : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      %[[XAT:.*]] = ascend.global_at %[[XGM]][%[[COFF]]] : !ascend.global_tensor<f16>
// CHECK-NEXT:      ascend.data_copy_pad %[[XIN]], %[[XAT]], %[[BYTES]] : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
// CHECK-NEXT:      %[[GAT:.*]] = ascend.global_at %[[GGM]][%[[COFF]]] : !ascend.global_tensor<f16>
// CHECK-NEXT:      ascend.data_copy_pad %[[GIN]], %[[GAT]], %[[BYTES]] : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
// CHECK-NEXT:      ascend.enque %[[QX]], %[[XIN]] : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      ascend.enque %[[QG]], %[[GIN]] : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      %[[XL:.*]] = ascend.deque %[[QX]] : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      %[[GL:.*]] = ascend.deque %[[QG]] : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      %[[YL:.*]] = ascend.alloc_tensor %[[QY]] : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:      %[[XF:.*]] = ascend.tbuf_get %[[XF_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      %[[GF:.*]] = ascend.tbuf_get %[[GF_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.cast %[[XF]], %[[XL]], cast_none, %[[CUR]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      ascend.cast %[[GF]], %[[GL]], cast_none, %[[CUR]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      %[[S:.*]] = ascend.tbuf_get %[[SLOPE_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      %[[LO2:.*]] = ascend.tbuf_get %[[LO_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      %[[HI2:.*]] = ascend.tbuf_get %[[HI_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      %[[ZERO2:.*]] = ascend.tbuf_get %[[ZERO_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      %[[ONE2:.*]] = ascend.tbuf_get %[[ONE_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      %[[GTM:.*]] = ascend.tbuf_get %[[GT_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
// CHECK-NEXT:      %[[LTM:.*]] = ascend.tbuf_get %[[LT_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
// CHECK-NEXT:      %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[REPEATS:.*]] = arith.ceildivsi %[[CUR]], %[[C64]] : index
// CHECK-NEXT:      %[[CN:.*]] = arith.muli %[[REPEATS]], %[[C64]] : index
// CHECK-NEXT:      ascend.compare %[[GTM]], %[[XF]], %[[LO2]], gt, %[[CN]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.compare %[[LTM]], %[[XF]], %[[HI2]], lt, %[[CN]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.muls %[[S]], %[[XF]], 0.333333343 : f32, %[[CN]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.adds %[[S]], %[[S]], 5.000000e-01 : f32, %[[CN]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.select %[[S]], %[[GTM]], %[[S]], %[[ZERO2]], vsel_tensor_tensor_mode, %[[CN]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.select %[[S]], %[[LTM]], %[[S]], %[[ONE2]], vsel_tensor_tensor_mode, %[[CN]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.mul %[[S]], %[[GF]], %[[S]], %[[CN]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.cast %[[YL]], %[[S]], cast_none, %[[CUR]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.enque %[[QY]], %[[YL]] : !ascend.tque<vecout, 1>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:      ascend.free_tensor %[[QX]], %[[XL]] : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      ascend.free_tensor %[[QG]], %[[GL]] : !ascend.tque<vecin, 1>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:      %[[YOUT:.*]] = ascend.deque %[[QY]] : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:      %[[YAT:.*]] = ascend.global_at %[[YGM]][%[[COFF]]] : !ascend.global_tensor<f16>
// CHECK-NEXT:      ascend.data_copy_pad %[[YAT]], %[[YOUT]], %[[BYTES]] : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:      ascend.free_tensor %[[QY]], %[[YOUT]] : !ascend.tque<vecout, 1>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// -----

// bf16 chunk loop: widened with CAST_NONE, narrowed back with CAST_RINT (f32 -> bf16 refuses NONE).
func.func @chunk_bf16(%g: memref<?xbf16>, %x: memref<?xbf16>, %y: memref<?xbf16>, %off: index, %len: index, %uf: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    hsg.elementwise_chunk ins(%g, %x : memref<?xbf16>, memref<?xbf16>) outs(%y : memref<?xbf16>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%grad_1: bf16, %x_1: bf16):
      %x_fp32 = arith.extf %x_1 : bf16 to f32
      %grad_fp32 = arith.extf %grad_1 : bf16 to f32
      %lower = arith.constant -3.000000e+00 : f32
      %greater = arith.cmpf ogt, %x_fp32, %lower : f32
      %upper = arith.constant 3.000000e+00 : f32
      %less = arith.cmpf olt, %x_fp32, %upper : f32
      %one_third = arith.constant 0.333333343 : f32
      %slope = arith.mulf %x_fp32, %one_third : f32
      %half = arith.constant 5.000000e-01 : f32
      %slope_1 = arith.addf %slope, %half : f32
      %zero = arith.constant 0.000000e+00 : f32
      %slope_2 = arith.select %greater, %slope_1, %zero : f32
      %one = arith.constant 1.000000e+00 : f32
      %slope_3 = arith.select %less, %slope_2, %one : f32
      %product = arith.mulf %grad_fp32, %slope_3 : f32
      %result = arith.truncf %product : f32 to bf16
      linalg.yield %result : bf16
    }
  }
  func.return
}
// CHECK-LABEL: func.func @chunk_bf16(
// CHECK-SAME:      %{{[^:]*}}: index, %[[UF:[^:]*]]: index, %{{[^:]*}}: index) {
// CHECK:         %[[XF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[GF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[TBYTES:.*]] = arith.muli %[[UF]], %[[C2]] : index
// CHECK:         ascend.init_buffer %{{.*}}, %[[XF_BUF]], %{{.*}} : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %[[GF_BUF]], %{{.*}} : !ascend.tbuf<veccalc>
// CHECK:         scf.for
// CHECK:           %[[SIZE:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[BYTES:.*]] = arith.muli %{{.*}}, %[[SIZE]] : index
// CHECK:           ascend.cast %{{.*}}, %{{.*}}, cast_none, %{{.*}} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<bf16, vecin>
// CHECK-NEXT:      ascend.cast %{{.*}}, %{{.*}}, cast_none, %{{.*}} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<bf16, vecin>
// CHECK:           ascend.mul %[[S:.*]], %{{.*}}, %[[S]], %{{.*}} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.cast %[[YL:.*]], %[[S]], cast_rint, %{{.*}} : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.enque %{{.*}}, %[[YL]] : !ascend.tque<vecout, 1>, !ascend.local_tensor<bf16, vecout>
// CHECK:           ascend.data_copy_pad %{{.*}}, %{{.*}}, %[[BYTES]] : !ascend.global_tensor<bf16>, !ascend.local_tensor<bf16, vecout>

// -----

// f32 chunk loop: no widening (ReinterpretCast, no Cast), so no x/grad f32 copies in UB; Mul
// writes straight into the output queue's tensor.
func.func @chunk_f32(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %off: index, %len: index, %uf: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    hsg.elementwise_chunk ins(%g, %x : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%grad_1: f32, %x_1: f32):
      %lower = arith.constant -3.000000e+00 : f32
      %greater = arith.cmpf ogt, %x_1, %lower : f32
      %upper = arith.constant 3.000000e+00 : f32
      %less = arith.cmpf olt, %x_1, %upper : f32
      %one_third = arith.constant 0.333333343 : f32
      %slope = arith.mulf %x_1, %one_third : f32
      %half = arith.constant 5.000000e-01 : f32
      %slope_1 = arith.addf %slope, %half : f32
      %zero = arith.constant 0.000000e+00 : f32
      %slope_2 = arith.select %greater, %slope_1, %zero : f32
      %one = arith.constant 1.000000e+00 : f32
      %slope_3 = arith.select %less, %slope_2, %one : f32
      %product = arith.mulf %grad_1, %slope_3 : f32
      linalg.yield %product : f32
    }
  }
  func.return
}
// CHECK-LABEL: func.func @chunk_f32(
// CHECK-SAME:      %{{[^:]*}}: index, %[[UF:[^:]*]]: index, %{{[^:]*}}: index) {
// CHECK-NOT:     x_fp32_buf
// CHECK-NOT:     grad_fp32_buf
// CHECK:         %[[QY:.*]] = ascend.tque : !ascend.tque<vecout, 1>
// CHECK-NEXT:    %[[SLOPE_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[TBYTES:.*]] = arith.muli %[[UF]], %[[C4]] : index
// CHECK-NOT:     ascend.cast
// CHECK:         scf.for
// CHECK:           %[[XL:.*]] = ascend.deque %{{.*}} : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:      %[[GL:.*]] = ascend.deque %{{.*}} : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:      %[[YL:.*]] = ascend.alloc_tensor %[[QY]] : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f32, vecout>
// CHECK-NEXT:      %[[XF:.*]] = ascend.reinterpret_cast %[[XL]] : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:      %[[GF:.*]] = ascend.reinterpret_cast %[[GL]] : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:      %[[S:.*]] = ascend.tbuf_get %[[SLOPE_BUF]]
// CHECK-NOT:       ascend.cast
// CHECK:           ascend.compare %{{.*}}, %[[XF]], %{{.*}}, gt, %[[CN:.*]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, vecin>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.compare %{{.*}}, %[[XF]], %{{.*}}, lt, %[[CN]] :
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.muls %[[S]], %[[XF]], 0.333333343 : f32, %[[CN]] :
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.adds %[[S]], %[[S]], 5.000000e-01 : f32, %[[CN]] :
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.select %[[S]], %{{.*}}, %[[S]], %{{.*}}, vsel_tensor_tensor_mode, %[[CN]] :
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      ascend.select %[[S]], %{{.*}}, %[[S]], %{{.*}}, vsel_tensor_tensor_mode, %[[CN]] :
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      %[[YF:.*]] = ascend.reinterpret_cast %[[YL]] : !ascend.local_tensor<f32, vecout> -> !ascend.local_tensor<f32, vecout>
// CHECK-NEXT:      ascend.mul %[[YF]], %[[GF]], %[[S]], %[[CN]] : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecin>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.enque %{{.*}}, %[[YL]] : !ascend.tque<vecout, 1>, !ascend.local_tensor<f32, vecout>
// CHECK-NOT:       ascend.cast
// CHECK:         func.return

// -----

// Mask buffers for ubFactor 4032: max(256, roundup256(ceil(4032 / 8) = 504)) = 512 bytes.
func.func @mask_4032(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %off: index, %len: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %uf = arith.constant 4032 : index
  scf.for %i = %c0 to %n step %c1 {
    hsg.elementwise_chunk ins(%g, %x : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%grad_1: f32, %x_1: f32):
      %lower = arith.constant -3.000000e+00 : f32
      %greater = arith.cmpf ogt, %x_1, %lower : f32
      %upper = arith.constant 3.000000e+00 : f32
      %less = arith.cmpf olt, %x_1, %upper : f32
      %one_third = arith.constant 0.333333343 : f32
      %slope = arith.mulf %x_1, %one_third : f32
      %half = arith.constant 5.000000e-01 : f32
      %slope_1 = arith.addf %slope, %half : f32
      %zero = arith.constant 0.000000e+00 : f32
      %slope_2 = arith.select %greater, %slope_1, %zero : f32
      %one = arith.constant 1.000000e+00 : f32
      %slope_3 = arith.select %less, %slope_2, %one : f32
      %product = arith.mulf %grad_1, %slope_3 : f32
      linalg.yield %product : f32
    }
  }
  func.return
}
// f32: the tensor and float lengths are one folded constant, 4032 * 4 = 16128.
// CHECK-LABEL: func.func @mask_4032(
// CHECK:         %{{.*}} = arith.constant 4 : index
// CHECK-NEXT:    %[[FB:.*]] = arith.constant 16128 : index
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, num 1, %[[FB]] : !ascend.tque<vecin, 1>
// CHECK:         ascend.init_buffer %{{.*}}, %{{.*}}, %[[FB]] : !ascend.tbuf<veccalc>
// CHECK:         %{{.*}} = arith.constant 504 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 256 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 2 : index
// CHECK-NEXT:    %[[MASK:.*]] = arith.constant 512 : index
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, %[[MASK]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, %[[MASK]] : !ascend.tbuf<veccalc>

// -----

// Mask buffers for ubFactor 64: ceil(64 / 8) = 8 bytes round up to the 256-byte minimum
// (constants fold one by one, and a folded constant reuses an equal one built before it in its
// block: here the float buffers' 256).
func.func @mask_64(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %off: index, %len: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %uf = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    hsg.elementwise_chunk ins(%g, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%grad_1: f16, %x_1: f16):
      %x_fp32 = arith.extf %x_1 : f16 to f32
      %grad_fp32 = arith.extf %grad_1 : f16 to f32
      %lower = arith.constant -3.000000e+00 : f32
      %greater = arith.cmpf ogt, %x_fp32, %lower : f32
      %upper = arith.constant 3.000000e+00 : f32
      %less = arith.cmpf olt, %x_fp32, %upper : f32
      %one_third = arith.constant 0.333333343 : f32
      %slope = arith.mulf %x_fp32, %one_third : f32
      %half = arith.constant 5.000000e-01 : f32
      %slope_1 = arith.addf %slope, %half : f32
      %zero = arith.constant 0.000000e+00 : f32
      %slope_2 = arith.select %greater, %slope_1, %zero : f32
      %one = arith.constant 1.000000e+00 : f32
      %slope_3 = arith.select %less, %slope_2, %one : f32
      %product = arith.mulf %grad_fp32, %slope_3 : f32
      %result = arith.truncf %product : f32 to f16
      linalg.yield %result : f16
    }
  }
  func.return
}
// CHECK-LABEL: func.func @mask_64(
// CHECK:         %[[TB:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 4 : index
// CHECK-NEXT:    %[[FB:.*]] = arith.constant 256 : index
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, num 1, %[[TB]] : !ascend.tque<vecin, 1>
// CHECK:         ascend.init_buffer %{{.*}}, %{{.*}}, %[[FB]] : !ascend.tbuf<veccalc>
// CHECK:         %{{.*}} = arith.constant 8 : index
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, %[[FB]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, %[[FB]] : !ascend.tbuf<veccalc>

// -----

// Mask buffers for ubFactor 16448: ceil(16448 / 8) = 2056 bytes round up to 2304.
func.func @mask_16448(%g: memref<?xbf16>, %x: memref<?xbf16>, %y: memref<?xbf16>, %off: index, %len: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %uf = arith.constant 16448 : index
  scf.for %i = %c0 to %n step %c1 {
    hsg.elementwise_chunk ins(%g, %x : memref<?xbf16>, memref<?xbf16>) outs(%y : memref<?xbf16>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%grad_1: bf16, %x_1: bf16):
      %x_fp32 = arith.extf %x_1 : bf16 to f32
      %grad_fp32 = arith.extf %grad_1 : bf16 to f32
      %lower = arith.constant -3.000000e+00 : f32
      %greater = arith.cmpf ogt, %x_fp32, %lower : f32
      %upper = arith.constant 3.000000e+00 : f32
      %less = arith.cmpf olt, %x_fp32, %upper : f32
      %one_third = arith.constant 0.333333343 : f32
      %slope = arith.mulf %x_fp32, %one_third : f32
      %half = arith.constant 5.000000e-01 : f32
      %slope_1 = arith.addf %slope, %half : f32
      %zero = arith.constant 0.000000e+00 : f32
      %slope_2 = arith.select %greater, %slope_1, %zero : f32
      %one = arith.constant 1.000000e+00 : f32
      %slope_3 = arith.select %less, %slope_2, %one : f32
      %product = arith.mulf %grad_fp32, %slope_3 : f32
      %result = arith.truncf %product : f32 to bf16
      linalg.yield %result : bf16
    }
  }
  func.return
}
// CHECK-LABEL: func.func @mask_16448(
// CHECK:         %{{.*}} = arith.constant 2056 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 256 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 9 : index
// CHECK-NEXT:    %[[MASK:.*]] = arith.constant 2304 : index
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, %[[MASK]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %{{.*}}, %{{.*}}, %[[MASK]] : !ascend.tbuf<veccalc>

// -----

// A module without chunks (already converted, or never tiled kernels) is left unchanged.
func.func @nothing_to_do(%a: index) -> index {
  func.return %a : index
}
// CHECK-LABEL: func.func @nothing_to_do(
// CHECK-SAME:      %[[A:.*]]: index) -> index {
// CHECK-NEXT:    func.return %[[A]] : index
// CHECK-NEXT:  }
