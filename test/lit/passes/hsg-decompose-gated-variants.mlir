// RUN: hswc-opt %s --split-input-file -p hsg-decompose | filecheck %s
// RUN: hswc-opt %s --split-input-file --lower-to-ascend --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=PARTITION

// hsg.fatrelu_mul: x viewed as its two halves, one generic reading a at (d0, 0, d1), b at
// (d0, 1, d1) and the threshold's one element at (0); a kept where a > t (ogt), times b, in f32
// rounded once to f16. One kernel.
// CHECK-LABEL: func.func @fatrelu_mul
// CHECK:         %halves = tensor.expand_shape %x {{.*}} output_shape [4, 2, 32] : tensor<4x64xf16> into tensor<4x2x32xf16>
// CHECK:         %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0, d1)>, affine_map<(d0, d1) -> (d0, 1, d1)>, affine_map<(d0, d1) -> (0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%halves, %halves, %t : tensor<4x2x32xf16>, tensor<4x2x32xf16>, tensor<1xf16>)
// CHECK:           %above = arith.cmpf ogt, %a_fp32, %threshold_fp32 : f32
// CHECK:           %fatrelu = arith.select %above, %a_fp32, %zero : f32
// CHECK:           %fatrelu_mul = arith.mulf %fatrelu, %b_fp32 : f32
// CHECK:           arith.truncf %fatrelu_mul : f32 to f16
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @fatrelu_mul(%x: tensor<4x64xf16>, %t: tensor<1xf16>) -> tensor<4x32xf16> {
  %y = hsg.fatrelu_mul %x, %t : tensor<4x64xf16>, tensor<1xf16>
  return %y : tensor<4x32xf16>
}

// -----

// hsg.clipped_swiglu, interleaved (its default): x viewed as H x 2, a and b its even and odd
// elements at (d0, d1, 0) and (d0, d1, 1); a clamped above by limit, a / (1 + exp(-alpha a)),
// times clamp(b) + bias.
// CHECK-LABEL: func.func @clipped_swiglu
// CHECK:         %halves = tensor.expand_shape %x {{.*}} output_shape [4, 32, 2] : tensor<4x64xbf16> into tensor<4x32x2xbf16>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, 0)>, affine_map<(d0, d1) -> (d0, d1, 1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           %b_clamped_low = arith.maximumf %b_fp32, %minus_limit : f32
// CHECK:           %b_clamped = arith.minimumf %b_clamped_low, %limit : f32
// CHECK:           %a_clamped = arith.minimumf %a_fp32, %{{.*}} : f32
// CHECK:           %scaled = arith.mulf %a_clamped, %minus_alpha : f32
// CHECK:           %exp_scaled = math.exp %scaled : f32
// CHECK:           %glu = arith.divf %a_clamped, %denominator : f32
// CHECK:           %b_biased = arith.addf %b_clamped, %bias : f32
// CHECK:           arith.mulf %b_biased, %glu : f32
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @clipped_swiglu(%x: tensor<4x64xbf16>) -> tensor<4x32xbf16> {
  %y = hsg.clipped_swiglu %x : tensor<4x64xbf16>
  return %y : tensor<4x32xbf16>
}

// -----

// hsg.ge_glu_v2 (ops-nn's defaults: tanh, activate_left false): two results, each a generic on
// the halves; y = [gelu(b)] * a (the GeLU rounded to f16, widened again), gelu = [gelu(b)].
// Both results are replaced; one kernel writes both.
// CHECK-LABEL: func.func @ge_glu_v2
// CHECK:         %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0, d1)>, affine_map<(d0, d1) -> (d0, 1, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           %gelu_rounded = arith.truncf %{{.*}} : f32 to f16
// CHECK:           %gelu_stored = arith.extf %gelu_rounded : f16 to f32
// CHECK:           %ge_glu = arith.mulf %gelu_stored, %a_fp32 : f32
// CHECK:         %[[GELU:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0, d1)>, affine_map<(d0, d1) -> (d0, 1, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           %exp_minus_2u_{{.*}} = math.exp
// CHECK:           %[[G:.*]] = arith.divf %b_fp32_1, %denominator{{.*}} : f32
// CHECK:           arith.truncf %[[G]] : f32 to f16
// CHECK:         return %y, %[[GELU]] : tensor<4x32xf16>, tensor<4x32xf16>
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @ge_glu_v2(%x: tensor<4x64xf16>) -> (tensor<4x32xf16>, tensor<4x32xf16>) {
  %y, %gelu = hsg.ge_glu_v2 %x : tensor<4x64xf16>
  return %y, %gelu : tensor<4x32xf16>, tensor<4x32xf16>
}

// -----

// hsg.ge_glu_grad_v2: dx's halves as two generics reading grad, a, b and the given gelu (its
// own map, the identity); d_a = grad * gelu (activate_left false), d_b the tanh GeLU's
// derivative at b times grad * a; inserted into x's shape, which the kernel writes as one
// output (hswc.passes.joint_outputs).
// CHECK-LABEL: func.func @ge_glu_grad_v2
// CHECK:         %da = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0, d1)>, affine_map<(d0, d1) -> (d0, 1, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%g, %halves, %halves, %gelu : tensor<4x32xf16>, tensor<4x2x32xf16>, tensor<4x2x32xf16>, tensor<4x32xf16>)
// CHECK:           %grad_gelu = arith.mulf %grad_fp32, %gelu_fp32 : f32
// CHECK:         %db = linalg.generic
// CHECK:           %grad_other = arith.mulf %grad_fp32_1, %a_fp32_1 : f32
// CHECK:         tensor.insert_slice %da
// CHECK:         tensor.insert_slice %db
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @ge_glu_grad_v2(%g: tensor<4x32xf16>, %x: tensor<4x64xf16>, %gelu: tensor<4x32xf16>) -> tensor<4x64xf16> {
  %dx = hsg.ge_glu_grad_v2 %g, %x, %gelu : tensor<4x32xf16>, tensor<4x64xf16>, tensor<4x32xf16>
  return %dx : tensor<4x64xf16>
}
