// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s
// The lowered IR prints in a form that parses and verifies again, unchanged.
// RUN: hswc-opt %s --split-input-file --lower-to-ascend | hswc-opt --split-input-file | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend910b},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s --check-prefix=FOLD

// Dynamic f16, the whole pipeline: host tiling call and launch; in the kernel the constants -3, 3,
// 0, 1 feed Compare GT / Compare LT / Select / Select in the reference's order, between Muls by
// 0.333333343f and Adds 0.5f, and the result is cast back to f16 with CAST_NONE.
func.func @hard_swish_grad_f16(%grad: tensor<4x?xf16>, %x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>
  func.return %y : tensor<4x?xf16>
}
// CHECK-LABEL: func.func @hard_swish_grad_f16(
// CHECK-SAME:      %[[G:.*]]: tensor<4x?xf16>, %[[X:.*]]: tensor<4x?xf16>) -> tensor<4x?xf16> {
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %[[G]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[UB:.*]] = hsg.get_ub_size
// CHECK-NEXT:    %[[T:.*]], %[[BF:.*]], %[[UF:.*]], %[[USED:.*]], %{{.*}} = func.call @hard_swish_grad_tiling_f16(%[[N]], %[[CORES]], %[[UB]])
// CHECK-NEXT:    %[[Y:.*]] = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[USED]] (%[[G]], %[[X]]) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<4x?xf16>, tensor<4x?xf16> -> tensor<4x?xf16>
// CHECK-NEXT:    func.return %[[Y]] : tensor<4x?xf16>
// CHECK-LABEL: func.func @hard_swish_grad_tiling_f16(
// CHECK:         cf.assert %{{.*}}, "ubFactor is invalid"
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f16(
// CHECK-SAME:      attributes {hsg.kernel} {
// CHECK-NEXT:    %[[IDX:.*]] = ascend.get_block_idx
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[XF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[GF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[SLOPE_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[LO_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[HI_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[ZERO_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[ONE_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[GT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:      %[[LT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK:           %[[LO0:.*]] = ascend.tbuf_get %[[LO_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:      ascend.duplicate %[[LO0]], -3.000000e+00 : f32,
// CHECK-NEXT:      %[[HI0:.*]] = ascend.tbuf_get %[[HI_BUF]] :
// CHECK-NEXT:      ascend.duplicate %[[HI0]], 3.000000e+00 : f32,
// CHECK-NEXT:      %[[ZERO0:.*]] = ascend.tbuf_get %[[ZERO_BUF]] :
// CHECK-NEXT:      ascend.duplicate %[[ZERO0]], 0.000000e+00 : f32,
// CHECK-NEXT:      %[[ONE0:.*]] = ascend.tbuf_get %[[ONE_BUF]] :
// CHECK-NEXT:      ascend.duplicate %[[ONE0]], 1.000000e+00 : f32,
// CHECK-NEXT:      ascend.pipe_barrier pipe_v
// CHECK-NEXT:      scf.for
// CHECK:             %[[XF:.*]] = ascend.tbuf_get %[[XF_BUF]] :
// CHECK-NEXT:        %[[GF:.*]] = ascend.tbuf_get %[[GF_BUF]] :
// CHECK-NEXT:        ascend.cast %[[XF]], %{{.*}}, cast_none, %[[CUR:.*]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:        ascend.cast %[[GF]], %{{.*}}, cast_none, %[[CUR]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        %[[S:.*]] = ascend.tbuf_get %[[SLOPE_BUF]] :
// CHECK-NEXT:        %[[LO:.*]] = ascend.tbuf_get %[[LO_BUF]] :
// CHECK-NEXT:        %[[HI:.*]] = ascend.tbuf_get %[[HI_BUF]] :
// CHECK-NEXT:        %[[ZERO:.*]] = ascend.tbuf_get %[[ZERO_BUF]] :
// CHECK-NEXT:        %[[ONE:.*]] = ascend.tbuf_get %[[ONE_BUF]] :
// CHECK-NEXT:        %[[GTM:.*]] = ascend.tbuf_get %[[GT_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
// CHECK-NEXT:        %[[LTM:.*]] = ascend.tbuf_get %[[LT_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
// CHECK:             ascend.compare %[[GTM]], %[[XF]], %[[LO]], gt, %[[CN:.*]] :
// CHECK-NEXT:        ascend.compare %[[LTM]], %[[XF]], %[[HI]], lt, %[[CN]] :
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.muls %[[S]], %[[XF]], 0.333333343 : f32, %[[CN]] :
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.adds %[[S]], %[[S]], 5.000000e-01 : f32, %[[CN]] :
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.select %[[S]], %[[GTM]], %[[S]], %[[ZERO]], vsel_tensor_tensor_mode, %[[CN]] :
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.select %[[S]], %[[LTM]], %[[S]], %[[ONE]], vsel_tensor_tensor_mode, %[[CN]] :
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.mul %[[S]], %[[GF]], %[[S]], %[[CN]] :
// CHECK-NEXT:        ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.cast %{{.*}}, %[[S]], cast_none, %[[CUR]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f32, veccalc>
// FOLD-LABEL:  func.func @hard_swish_grad_f16(
// FOLD-NEXT:     %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<4x?xf16>
// FOLD-NEXT:     %[[CORES:.*]] = arith.constant 48 : index
// FOLD-NEXT:     %[[UB:.*]] = arith.constant 196608 : index
// FOLD-NEXT:     %{{.*}} = func.call @hard_swish_grad_tiling_f16(%[[N]], %[[CORES]], %[[UB]])

// -----

// Unranked bf16: widened with CAST_NONE, narrowed back with CAST_RINT.
func.func @hard_swish_grad_bf16(%grad: tensor<*xbf16>, %x: tensor<*xbf16>) -> tensor<*xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<*xbf16>
  func.return %y : tensor<*xbf16>
}
// CHECK-LABEL: func.func @hard_swish_grad_bf16(
// CHECK-NEXT:    %[[FG:.*]] = hsg.flatten %{{.*}} : tensor<*xbf16> -> tensor<?xbf16>
// CHECK-NEXT:    hsg.flatten %{{.*}} : tensor<*xbf16> -> tensor<?xbf16>
// CHECK-NEXT:    hsg.num_elements %[[FG]] : tensor<?xbf16>
// CHECK-LABEL: func.func @hard_swish_grad_kernel_bf16(
// CHECK:             ascend.cast %{{.*}}, %{{.*}}, cast_none, %{{.*}} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<bf16, vecin>
// CHECK-NEXT:        ascend.cast %{{.*}}, %{{.*}}, cast_none, %{{.*}} : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<bf16, vecin>
// CHECK:             ascend.muls %{{.*}}, %{{.*}}, 0.333333343 : f32,
// CHECK-NEXT:             ascend.pipe_barrier pipe_v
// CHECK-NEXT:        ascend.adds %{{.*}}, %{{.*}}, 5.000000e-01 : f32,
// CHECK:             ascend.cast %{{.*}}, %{{.*}}, cast_rint, %{{.*}} : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
// FOLD-LABEL:  func.func @hard_swish_grad_bf16(
// FOLD-NEXT:     hsg.flatten
// FOLD-NEXT:     hsg.flatten
// FOLD-NEXT:     hsg.num_elements %{{.*}} : tensor<?xbf16>
// FOLD-NEXT:     arith.constant 48 : index

// -----

// Static 7x3 f32: ReinterpretCast instead of Cast, and with a platform the tiling folds.
func.func @hard_swish_grad_f32(%grad: tensor<7x3xf32>, %x: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<7x3xf32>
  func.return %y : tensor<7x3xf32>
}
// CHECK-LABEL: func.func @hard_swish_grad_f32(
// CHECK-NEXT:    %{{.*}} = arith.constant 21 : index
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f32(
// CHECK-NOT:         ascend.cast
// CHECK:             %[[XF:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:        %[[GF:.*]] = ascend.reinterpret_cast %{{.*}} : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// CHECK:             ascend.compare %{{.*}}, %[[XF]], %{{.*}}, gt,
// CHECK-NEXT:        ascend.compare %{{.*}}, %[[XF]], %{{.*}}, lt,
// CHECK:             ascend.mul %{{.*}}, %[[GF]], %{{.*}} : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecin>, !ascend.local_tensor<f32, veccalc>
// CHECK-NOT:         ascend.cast
// FOLD-LABEL:  func.func @hard_swish_grad_f32(
// FOLD-NEXT:     %[[T:.*]] = arith.constant 21 : index
// FOLD-NEXT:     %[[BF:.*]] = arith.constant 1 : index
// FOLD-NEXT:     %[[UF:.*]] = arith.constant 4032 : index
// FOLD-NEXT:     %[[USED:.*]] = arith.constant 21 : index
// FOLD-NEXT:     %{{.*}} = arith.constant 1 : index
// FOLD-NEXT:     %{{.*}} = hsg.launch @hard_swish_grad_kernel_f32 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]])
// FOLD-LABEL:  func.func @hard_swish_grad_kernel_f32(
// FOLD:          ascend.reinterpret_cast
