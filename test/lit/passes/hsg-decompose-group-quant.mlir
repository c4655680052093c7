// RUN: hswc-opt %s --split-input-file -p hsg-decompose | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-tile-on-cores{soc=ascend950}' --lower-to-ascend --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=PARTITION

// hsg.swiglu_group_quant, quant_mode 0 (its default): the SwiGLU of x's halves in f32 plus 0.0,
// viewed as blocks of 128; the block maximum of the finite |s| (s * 0 == s * 0) from 0; the
// scale max(amax, 1e-4) * (1 / 448)f; y = f8E4M3FN of s * (448 / amax), or s where that is not
// finite. On the 950: the SwiGLU kernel and one row kernel of the rest; the two reshapes
// (views) stay on the host.
// CHECK-LABEL: func.func @block_fp8
// CHECK:         %swiglu = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x256xf32>)
// CHECK:           %swiglu_1 = arith.addf %swiglu_group, %zero : f32
// CHECK:         %blocks = tensor.expand_shape %swiglu {{.*}} output_shape [4, 2, 128] : tensor<4x256xf32> into tensor<4x2x128xf32>
// CHECK:         %amax = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           %s_finite = arith.cmpf oeq, %s_times_zero, %s_times_zero : f32
// CHECK:           %finite_abs = arith.select %s_finite, %abs, %{{.*}} : f32
// CHECK:           arith.maximumf %finite_abs, %{{.*}} : f32
// CHECK:         linalg.generic
// CHECK:           %inv_max = arith.constant 0.00223214296 : f32
// CHECK:         %inv_scale = linalg.generic
// CHECK:           %inv = arith.divf %max, %amax_floored_1 : f32
// CHECK:         %y_blocks = linalg.generic
// CHECK:           %cast_in = arith.select %scaled_finite, %scaled, %{{.*}} : f32
// CHECK:           arith.truncf %cast_in : f32 to f8E4M3FN
// CHECK:         tensor.collapse_shape %y_blocks {{.*}} : tensor<4x2x128xf8E4M3FN> into tensor<4x256xf8E4M3FN>
// PARTITION: row kernel @block_fp8_kernel_f32_to_f8E4M3FN_f32 (1 reduction along rows of 128
// PARTITION: remark: 2 kernel launches, 2 ops left on the host
func.func @block_fp8(%x: tensor<4x512xbf16>) -> (tensor<4x256xf8E4M3FN>, tensor<4x2xf32>) {
  %y, %s = hsg.swiglu_group_quant %x : tensor<4x512xbf16>
  return %y, %s : tensor<4x256xf8E4M3FN>, tensor<4x2xf32>
}

// -----

// quant_mode 1 (MX): blocks of 32, the scale rounded up to a power of 2 (Veltkamp's split to
// one bit, doubled where below), written as E8M0 in pairs; y without the NaN fallback. On the
// 950 the conversion to E8M0 stays on the host, besides the three reshapes.
// CHECK-LABEL: func.func @mx
// CHECK:         %blocks = tensor.expand_shape %swiglu {{.*}} output_shape [4, 8, 32]
// CHECK:           %one_bit = arith.subf %split, %split_low : f32
// CHECK:           %pow2_scale = arith.select %below, %next_pow2, %near_pow2 : f32
// CHECK:         %y_scale_e8m0 = linalg.generic
// CHECK:           arith.truncf %{{.*}} : f32 to f8E8M0FNU
// CHECK:         tensor.expand_shape %y_scale_e8m0 {{.*}} output_shape [4, 4, 2] : tensor<4x8xf8E8M0FNU> into tensor<4x4x2xf8E8M0FNU>
// PARTITION: row kernel @mx_kernel_f32_to_f32_f8E5M2 (1 reduction along rows of 32
// PARTITION: warning: 'linalg.generic' stays on the host: {{.*}} tensor<4x8xf8E8M0FNU> has the element type f8E8M0FNU
// PARTITION: remark: 2 kernel launches, 4 ops left on the host
func.func @mx(%x: tensor<4x512xf16>) -> (tensor<4x256xf8E5M2>, tensor<4x4x2xf8E8M0FNU>) {
  %y, %s = hsg.swiglu_group_quant %x {quant_mode = 1 : i64, round_scale = true, dst_type = 35 : i64} : tensor<4x512xf16>
  return %y, %s : tensor<4x256xf8E5M2>, tensor<4x4x2xf8E8M0FNU>
}
