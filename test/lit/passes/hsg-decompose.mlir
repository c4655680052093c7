// RUN: hswc-opt %s --split-input-file -p hsg-decompose | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose{semantics=torch}' | filecheck %s --check-prefix=TORCH
// Idempotent: a second run finds no named op and changes nothing.
// RUN: hswc-opt %s --split-input-file -p hsg-decompose,hsg-decompose | filecheck %s

// HardSwishGrad, cann (the default): the kernel's steps in its order, widened to f32 once,
// rounded back once; the generic carries its op name, semantics and the CANN tiling budget.
func.func @hsg_f16(%grad: tensor<4x?xf16>, %x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>
  func.return %y : tensor<4x?xf16>
}
// CHECK-LABEL: func.func @hsg_f16(
// CHECK-SAME:      %[[G:.*]]: tensor<4x?xf16>, %[[X:.*]]: tensor<4x?xf16>) -> tensor<4x?xf16> {
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[D1:.*]] = tensor.dim %[[G]], %[[C1]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[D1]]) : tensor<4x?xf16>
// CHECK-NEXT:    %[[Y:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[G]], %[[X]] : tensor<4x?xf16>, tensor<4x?xf16>) outs(%[[INIT]] : tensor<4x?xf16>) attrs =  {hsg.op_name = "hard_swish_grad", hsg.semantics = "cann", hsg.ub_budget = {bytes_per_element = 48 : i64, ub_reserve = 1024 : i64, align_elements = 64 : i64}} {
// CHECK-NEXT:    ^{{.*}}(%[[EG:.*]]: f16, %[[EX:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[EX]] : f16 to f32
// CHECK-NEXT:      %[[GF:.*]] = arith.extf %[[EG]] : f16 to f32
// CHECK-NEXT:      %[[LO:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[XF]], %[[LO]] : f32
// CHECK-NEXT:      %[[HI:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[XF]], %[[HI]] : f32
// CHECK-NEXT:      %[[THIRD:.*]] = arith.constant 0.333333343 : f32
// CHECK-NEXT:      %[[S0:.*]] = arith.mulf %[[XF]], %[[THIRD]] : f32
// CHECK-NEXT:      %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:      %[[S1:.*]] = arith.addf %[[S0]], %[[HALF]] : f32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[S2:.*]] = arith.select %[[GT]], %[[S1]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[S3:.*]] = arith.select %[[LT]], %[[S2]], %[[ONE]] : f32
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[GF]], %[[S3]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
// CHECK-NEXT:    } -> tensor<4x?xf16>
// CHECK-NEXT:    func.return %[[Y]] : tensor<4x?xf16>
// The torch semantics: a true division by 3, +0 (not grad*0) at and below -3, no budget.
// TORCH-LABEL: func.func @hsg_f16(
// TORCH:         attrs =  {hsg.op_name = "hard_swish_grad", hsg.semantics = "torch"} {
// TORCH:           %[[XF:.*]] = arith.extf
// TORCH-NEXT:      %[[GF:.*]] = arith.extf
// TORCH-NEXT:      %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// TORCH-NEXT:      %[[Q:.*]] = arith.divf %[[XF]], %[[THREE]] : f32
// TORCH-NEXT:      %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// TORCH-NEXT:      %[[S:.*]] = arith.addf %[[Q]], %[[HALF]] : f32
// TORCH-NEXT:      %[[LIN:.*]] = arith.mulf %[[GF]], %[[S]] : f32
// TORCH-NEXT:      %[[LT:.*]] = arith.cmpf olt, %[[XF]], %[[THREE]] : f32
// TORCH-NEXT:      %[[MID:.*]] = arith.select %[[LT]], %[[LIN]], %[[GF]] : f32
// TORCH-NEXT:      %[[LO:.*]] = arith.constant -3.000000e+00 : f32
// TORCH-NEXT:      %[[LE:.*]] = arith.cmpf ole, %[[XF]], %[[LO]] : f32
// TORCH-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// TORCH-NEXT:      %[[R:.*]] = arith.select %[[LE]], %[[ZERO]], %[[MID]] : f32
// TORCH-NEXT:      %[[N:.*]] = arith.truncf %[[R]] : f32 to f16
// TORCH-NEXT:      linalg.yield %[[N]] : f16

// -----

// f32 computes directly: no extf, no truncf; a static shape needs no tensor.dim.
func.func @hsg_f32(%grad: tensor<7x3xf32>, %x: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<7x3xf32>
  func.return %y : tensor<7x3xf32>
}
// CHECK-LABEL: func.func @hsg_f32(
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty() : tensor<7x3xf32>
// CHECK-NEXT:    linalg.generic
// CHECK-NEXT:    ^{{.*}}(%[[EG:.*]]: f32, %[[EX:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[LO:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-NEXT:      arith.cmpf ogt, %[[EX]], %[[LO]] : f32
// CHECK-NOT:       arith.extf
// CHECK:           %[[P:.*]] = arith.mulf %[[EG]], %{{.*}} : f32
// CHECK-NEXT:      linalg.yield %[[P]] : f32

// -----

// Unranked bf16: linalg.generic takes ranked tensors, so the operands are flattened (their
// elements in order) and the result is given grad's shape back.
func.func @hsg_unranked(%grad: tensor<*xbf16>, %x: tensor<*xbf16>) -> tensor<*xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<*xbf16>
  func.return %y : tensor<*xbf16>
}
// CHECK-LABEL: func.func @hsg_unranked(
// CHECK-SAME:      %[[G:.*]]: tensor<*xbf16>, %[[X:.*]]: tensor<*xbf16>) -> tensor<*xbf16> {
// CHECK-NEXT:    %[[FG:.*]] = hsg.flatten %[[G]] : tensor<*xbf16> -> tensor<?xbf16>
// CHECK-NEXT:    %[[FX:.*]] = hsg.flatten %[[X]] : tensor<*xbf16> -> tensor<?xbf16>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D0:.*]] = tensor.dim %[[FG]], %[[C0]] : tensor<?xbf16>
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty(%[[D0]]) : tensor<?xbf16>
// CHECK-NEXT:    %[[YF:.*]] = linalg.generic {{.*}} ins(%[[FG]], %[[FX]] : tensor<?xbf16>, tensor<?xbf16>) outs(%[[INIT]] : tensor<?xbf16>)
// CHECK:         } -> tensor<?xbf16>
// CHECK-NEXT:    %[[Y:.*]] = hsg.unflatten %[[YF]] like %[[G]] : tensor<?xbf16> -> tensor<*xbf16>
// CHECK-NEXT:    func.return %[[Y]] : tensor<*xbf16>

// -----

// A scalar (rank 0): no dims, no iterators.
func.func @hsg_scalar(%grad: tensor<f16>, %x: tensor<f16>) -> tensor<f16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<f16>
  func.return %y : tensor<f16>
}
// CHECK-LABEL: func.func @hsg_scalar(
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty() : tensor<f16>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}

// -----

// HardSwish, the forward, has torch semantics only: min(max(x + 3, 0), 6) * x / 6.
func.func @hard_swish(%x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
// CHECK-LABEL: func.func @hard_swish(
// CHECK:         attrs =  {hsg.op_name = "hard_swish", hsg.semantics = "torch"} {
// CHECK-NEXT:    ^{{.*}}(%[[E:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK-NEXT:      %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:      %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:      %[[SH:.*]] = arith.addf %[[XF]], %[[THREE]] : f32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[RELU:.*]] = arith.maximumf %[[SH]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[R6:.*]] = arith.minimumf %[[RELU]], %[[SIX]] : f32
// CHECK-NEXT:      %[[SC:.*]] = arith.mulf %[[XF]], %[[R6]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.divf %[[SC]], %[[SIX]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[N]] : f16

// -----

// An attribute becomes an f32 constant outside the body: a run-time scalar of the kernel.
func.func @leaky_relu_grad(%grad: tensor<8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %y = hsg.leaky_relu_grad %grad, %x {negative_slope = 0.2 : f32} : tensor<8xf32>
  func.return %y : tensor<8xf32>
}
// CHECK-LABEL: func.func @leaky_relu_grad(
// CHECK-NEXT:    %[[INIT:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT:    %[[SLOPE:.*]] = arith.constant 2.000000e-01 : f32
// CHECK-NEXT:    linalg.generic {{.*}} attrs =  {hsg.op_name = "leaky_relu_grad", hsg.semantics = "torch"} {
// CHECK-NEXT:    ^{{.*}}(%[[EG:.*]]: f32, %[[EX:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[POS:.*]] = arith.cmpf ogt, %[[EX]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[SC:.*]] = arith.mulf %[[EG]], %[[SLOPE]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[POS]], %[[EG]], %[[SC]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32

// -----

// Softshrink in f16: lambd is rounded to f16 first (as PyTorch does), in the body, on scalars;
// bias, left out, is lambd's value, rounded the same way.
func.func @softshrink(%x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.softshrink %x {lambd = 0.7 : f32} : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
// CHECK-LABEL: func.func @softshrink(
// CHECK:         %[[L:.*]] = arith.constant 7.000000e-01 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 7.000000e-01 : f32
// CHECK-NEXT:    linalg.generic
// CHECK-NEXT:    ^{{.*}}(%[[E:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK-NEXT:      %[[LH:.*]] = arith.truncf %[[L]] : f32 to f16
// CHECK-NEXT:      %[[LR:.*]] = arith.extf %[[LH]] : f16 to f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[LR]] : f32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.cmpf olt, %[[XF]], %[[NEG]] : f32
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.cmpf ogt, %[[XF]], %[[LR]] : f32
// CHECK-NEXT:      %[[BH:.*]] = arith.truncf %[[B]] : f32 to f16
// CHECK-NEXT:      %[[BR:.*]] = arith.extf %[[BH]] : f16 to f32
// CHECK-NEXT:      %[[DOWN:.*]] = arith.subf %[[XF]], %[[BR]] : f32
// CHECK-NEXT:      %[[UP:.*]] = arith.addf %[[XF]], %[[BR]] : f32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[LOW:.*]] = arith.select %[[BELOW]], %[[UP]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[ABOVE]], %[[DOWN]], %[[LOW]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[N]] : f16

// -----

// ONNX Shrink: a bias of its own (0 here) shifts, lambd bounds the band.
func.func @shrink_bias(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.softshrink %x {lambd = 0.5 : f32, bias = 0.0 : f32} : tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// CHECK-LABEL: func.func @shrink_bias(
// CHECK:         %[[L:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.generic
// CHECK-NEXT:    ^{{.*}}(%[[XF:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[L]] : f32
// CHECK-NEXT:      arith.cmpf olt, %[[XF]], %[[NEG]] : f32
// CHECK-NEXT:      arith.cmpf ogt, %[[XF]], %[[L]] : f32
// CHECK-NEXT:      arith.subf %[[XF]], %[[B]] : f32
// CHECK-NEXT:      arith.addf %[[XF]], %[[B]] : f32

// -----

// HardSigmoid's alpha and beta: alpha x + beta clamped to [0, 1], as (x + beta / alpha) /
// (1 / alpha), PyTorch's (x + 3) / 6 for the defaults; the quotients of the scalars in the body.
func.func @hard_sigmoid_alpha_beta(%x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_sigmoid %x {alpha = 0.2 : f32, beta = 0.4 : f32} : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
// CHECK-LABEL: func.func @hard_sigmoid_alpha_beta(
// CHECK:         %[[A:.*]] = arith.constant 2.000000e-01 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 4.000000e-01 : f32
// CHECK-NEXT:    linalg.generic
// CHECK-NEXT:    ^{{.*}}(%[[E:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:      %[[OFF:.*]] = arith.divf %[[B]], %[[A]] : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[SPAN:.*]] = arith.divf %[[ONE]], %[[A]] : f32
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK-NEXT:      %[[SH:.*]] = arith.addf %[[XF]], %[[OFF]] : f32
// CHECK-NEXT:      %[[RATIO:.*]] = arith.divf %[[SH]], %[[SPAN]] : f32
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[LOW:.*]] = arith.maximumf %[[RATIO]], %[[ZERO]] : f32
// CHECK-NEXT:      %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[R:.*]] = arith.minimumf %[[LOW]], %[[ONE2]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[N]] : f16

// -----

// ops-nn's Celu: x >= 0 ? x * alpha3 : expm1(x / alpha2) * alpha (its alpha1).
func.func @celu_three_alphas(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.celu %x {alpha = 1.5 : f32, alpha2 = 0.5 : f32, alpha3 = 2.0 : f32} : tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// CHECK-LABEL: func.func @celu_three_alphas(
// CHECK:         %[[A1:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %[[A2:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[A3:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    linalg.generic
// CHECK-NEXT:    ^{{.*}}(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[INV:.*]] = arith.divf %{{.*}}, %[[A2]] : f32
// CHECK:           %[[NN:.*]] = arith.cmpf oge, %[[X]], %{{.*}} : f32
// CHECK-NEXT:      %[[XIN:.*]] = arith.mulf %[[X]], %[[INV]] : f32
// CHECK-NEXT:      %[[EM1:.*]] = math.expm1 %[[XIN]] : f32
// CHECK-NEXT:      %[[BELOW:.*]] = arith.mulf %[[EM1]], %[[A1]] : f32
// CHECK-NEXT:      %[[ABOVE:.*]] = arith.mulf %[[X]], %[[A3]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.select %[[NN]], %[[ABOVE]], %[[BELOW]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32

// -----

// PyTorch's celu: alpha2, left out, is alpha's value; alpha3 is 1.
func.func @celu_torch(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.celu %x {alpha = 2.5 : f32} : tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// CHECK-LABEL: func.func @celu_torch(
// CHECK:         arith.constant 2.500000e+00 : f32
// CHECK-NEXT:    arith.constant 2.500000e+00 : f32
// CHECK-NEXT:    arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    linalg.generic

// -----

// ops-nn's Swish: x / (1 + exp(-(x * scale))); SiLU is scale 1.
func.func @swish_scale(%x: tensor<?xbf16>) -> tensor<?xbf16> {
  %y = hsg.silu %x {scale = 1.702 : f32} : tensor<?xbf16>
  func.return %y : tensor<?xbf16>
}
// CHECK-LABEL: func.func @swish_scale(
// CHECK:         %[[S:.*]] = arith.constant 1.702000e+00 : f32
// CHECK-NEXT:    linalg.generic
// CHECK-NEXT:    ^{{.*}}(%[[E:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[E]] : bf16 to f32
// CHECK-NEXT:      %[[XS:.*]] = arith.mulf %[[XF]], %[[S]] : f32
// CHECK-NEXT:      %[[NEG:.*]] = arith.negf %[[XS]] : f32
// CHECK-NEXT:      %[[EXP:.*]] = math.exp %[[NEG]] : f32
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[DEN:.*]] = arith.addf %[[ONE]], %[[EXP]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.divf %[[XF]], %[[DEN]] : f32
// CHECK-NEXT:      %[[N:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[N]] : bf16

// -----

// A user's generic is left as it is: only named ops are decomposed.
func.func @generic(%a: tensor<4xf32>) -> tensor<4xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%e: f32, %o: f32):
    %n = arith.negf %e : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
// CHECK-LABEL: func.func @generic(
// CHECK-NEXT:    %{{.*}} = linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[E:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[E]] : f32
// CHECK-NEXT:      linalg.yield %[[N]] : f32
