// RUN: hswc-opt %s --split-input-file -p hsg-decompose | filecheck %s
// RUN: hswc-opt %s --split-input-file --lower-to-ascend --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=PARTITION

// hsg.softmax: its max and its sum as reductions into f32 tensors of the other dims (filled
// with -inf and 0), the quotient an elementwise generic reading them through (d0) and rounding
// once to f16. The partition makes the reductions and the quotient one row kernel.
// CHECK-LABEL: func.func @softmax
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK:         %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK:           arith.extf
// CHECK-NEXT:      arith.maximumf
// CHECK:         %sum = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%x, %max : tensor<4x64xf16>, tensor<4xf32>)
// CHECK:           math.exp
// CHECK-NEXT:      arith.addf
// CHECK:         %y = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%x, %max, %sum : tensor<4x64xf16>, tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.divf
// CHECK-NEXT:      arith.truncf {{.*}} : f32 to f16
// PARTITION: hsg-decompose-norms.mlir:[[# @LINE + 3]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @softmax_kernel_f16 (2 reductions along rows of 64; with the generics at
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @softmax(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<4x64xf16>
  return %y : tensor<4x64xf16>
}

// -----

// hsg.rms_norm over the last dim: the sum of squares, then x * rsqrt(mean + eps) * weight, the
// weight read through (d2).
// CHECK-LABEL: func.func @rms_norm
// CHECK:         %sum_of_squares = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:           math.rsqrt
func.func @rms_norm(%x: tensor<2x3x8xbf16>, %w: tensor<8xbf16>) -> tensor<2x3x8xbf16> {
  %y = hsg.rms_norm %x, %w : tensor<2x3x8xbf16>, tensor<8xbf16>
  return %y : tensor<2x3x8xbf16>
}
