// RUN: hswc-opt %s --split-input-file -p hsg-decompose | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-tile-on-cores{soc=ascend950}' --lower-to-ascend --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=PARTITION

// hsg.swiglu_group_quant_grad with weight, y_origin and clamp_limit 7: da and db read x's
// halves through the 2 x H view and the row's weight through (d0, d1) -> (d0); the kernel's
// sigmoid e / (e + 1); masks Select 1 or 0 and multiply; dx joins the halves; grad_weight is
// the row sum of grad_y * y_origin (before the weight) from 0. On the 950: one kernel of dx
// (two generics, several outputs joined) and one row kernel of grad_weight.
// CHECK-LABEL: func.func @weighted
// CHECK:         %halves = tensor.expand_shape %x {{.*}} output_shape [4, 2, 64]
// CHECK:         %da = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0, d1)>, affine_map<(d0, d1) -> (d0, 1, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           %grad_weighted = arith.mulf %grad_fp32, %weight : f32
// CHECK:           %a_clamped = arith.minimumf %a_fp32, %limit : f32
// CHECK:           %exp_a = math.exp %a_clamped : f32
// CHECK:           %sigmoid = arith.divf %exp_a, %exp_plus_one : f32
// CHECK:           %one_minus_s = arith.subf %{{.*}}, %sigmoid : f32
// CHECK:           %silu_grad = arith.mulf %sigmoid, %silu_term : f32
// CHECK:           %grad_b = arith.mulf %grad_weighted, %b_clamped : f32
// CHECK:           %da_all = arith.mulf %grad_b, %silu_grad : f32
// CHECK:           %a_in = arith.cmpf olt, %a_fp32, %{{.*}} : f32
// CHECK:           %da_mask = arith.select %a_in, %{{.*}}, %{{.*}} : f32
// CHECK:           arith.mulf %da_all, %da_mask : f32
// CHECK:         %db = linalg.generic
// CHECK:           %silu = arith.mulf %a_clamped_1, %sigmoid_1 : f32
// CHECK:           %b_in = arith.andi %b_above, %b_below : i1
// CHECK:         tensor.insert_slice %da into %{{.*}}[0, 0] [4, 64] [1, 1]
// CHECK:         %dx = tensor.insert_slice %db into %{{.*}}[0, 64] [4, 64] [1, 1]
// CHECK:         %dw = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK:           %grad_y_origin = arith.mulf %grad_fp32_2, %y_origin_fp32 : f32
// CHECK:           arith.addf %acc_2, %grad_y_origin : f32
// CHECK:         return %dx, %dw
// PARTITION: remark: 'linalg.generic' joins the generic at {{.*}}: one kernel, several outputs
// PARTITION: row kernel @weighted_kernel_f16_to_f32 (1 reduction along rows of 64)
// PARTITION: remark: 2 kernel launches, 0 ops left on the host
func.func @weighted(%g: tensor<4x64xf16>, %x: tensor<4x128xf16>, %w: tensor<4xf32>, %yo: tensor<4x64xf16>) -> (tensor<4x128xf16>, tensor<4xf32>) {
  %dx, %dw = hsg.swiglu_group_quant_grad %g, %x, %w, %yo {clamp_limit = 7.0 : f32} : tensor<4x64xf16>, tensor<4x128xf16>, tensor<4xf32>, tensor<4x64xf16>
  return %dx, %dw : tensor<4x128xf16>, tensor<4xf32>
}

// -----

// Without weight nor clamp_limit: no weight product, no clamp, no masks; one kernel.
// CHECK-LABEL: func.func @plain
// CHECK:         %da = linalg.generic
// CHECK-NOT:       arith.minimumf
// CHECK-NOT:       arith.select
// CHECK:         %dx = tensor.insert_slice %db
// CHECK-NEXT:    return %dx
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @plain(%g: tensor<4x64xbf16>, %x: tensor<4x128xbf16>) -> tensor<4x128xbf16> {
  %dx = hsg.swiglu_group_quant_grad %g, %x : tensor<4x64xbf16>, tensor<4x128xbf16>
  return %dx : tensor<4x128xbf16>
}
