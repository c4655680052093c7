// The activation family's named ops: custom syntax round trip, attributes as f32 properties
// (defaults filled in where PyTorch has them; Softshrink's bias, which follows lambd, only
// where given), and the generic form.
// RUN: hswc-opt %s | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @family(%g: tensor<4x?xf16>, %x: tensor<4x?xf16>) {
  %a = hsg.hard_swish %x : tensor<4x?xf16>
  %b = hsg.hard_sigmoid %x : tensor<4x?xf16>
  %c = hsg.hard_sigmoid_grad %g, %x : tensor<4x?xf16>
  %d = hsg.hardtanh %x : tensor<4x?xf16>
  %e = hsg.hardtanh_grad %g, %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : tensor<4x?xf16>
  %f = hsg.leaky_relu %x {negative_slope = 0.2 : f32} : tensor<4x?xf16>
  %h = hsg.leaky_relu_grad %g, %x : tensor<4x?xf16>
  %i = hsg.threshold %x {threshold = 1.0 : f32, value = -2.0 : f32} : tensor<4x?xf16>
  %j = hsg.threshold_grad %g, %x {threshold = 0.0 : f32} : tensor<4x?xf16>
  %k = hsg.hard_shrink %x : tensor<4x?xf16>
  %l = hsg.hard_shrink_grad %g, %x {lambd = 1.5 : f32} : tensor<4x?xf16>
  %m = hsg.softshrink %x {lambd = 0.7 : f32, test.note = "kept"} : tensor<4x?xf16>
  %n = hsg.softshrink_grad %g, %x : tensor<4x?xf16>
  %o = hsg.hard_sigmoid %x {alpha = 0.2 : f32, beta = 0.4 : f32} : tensor<4x?xf16>
  %p = hsg.hard_sigmoid_grad %g, %x {beta = 0.25 : f32} : tensor<4x?xf16>
  %q = hsg.softshrink %x {lambd = 0.5 : f32, bias = 0.0 : f32} : tensor<4x?xf16>
  func.return
}
// CHECK-LABEL: func.func @family(
// CHECK-SAME:      %[[G:[^:]*]]: tensor<4x?xf16>, %[[X:[^:]*]]: tensor<4x?xf16>) {
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish %[[X]] : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_sigmoid %[[X]] {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_sigmoid_grad %[[G]], %[[X]] {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hardtanh %[[X]] {min_val = -1.000000e+00 : f32, max_val = 1.000000e+00 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hardtanh_grad %[[G]], %[[X]] {min_val = 0.000000e+00 : f32, max_val = 6.000000e+00 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.leaky_relu %[[X]] {negative_slope = 2.000000e-01 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.leaky_relu_grad %[[G]], %[[X]] {negative_slope = 1.000000e-02 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.threshold %[[X]] {threshold = 1.000000e+00 : f32, value = -2.000000e+00 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.threshold_grad %[[G]], %[[X]] {threshold = 0.000000e+00 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_shrink %[[X]] {lambd = 5.000000e-01 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_shrink_grad %[[G]], %[[X]] {lambd = 1.500000e+00 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.softshrink %[[X]] {lambd = 7.000000e-01 : f32, test.note = "kept"} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.softshrink_grad %[[G]], %[[X]] {lambd = 5.000000e-01 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_sigmoid %[[X]] {alpha = 2.000000e-01 : f32, beta = 4.000000e-01 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_sigmoid_grad %[[G]], %[[X]] {alpha = 0.166666672 : f32, beta = 2.500000e-01 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.softshrink %[[X]] {lambd = 5.000000e-01 : f32, bias = 0.000000e+00 : f32} : tensor<4x?xf16>
// CHECK-NEXT:    func.return
// GENERIC-LABEL: "func.func"() <{sym_name = "family"
// GENERIC:         "hsg.hard_swish"(%{{.*}}) : (tensor<4x?xf16>) -> tensor<4x?xf16>
// GENERIC:         "hsg.leaky_relu"(%{{.*}}) <{negative_slope = 2.000000e-01 : f32}> : (tensor<4x?xf16>) -> tensor<4x?xf16>
// GENERIC:         "hsg.softshrink"(%{{.*}}) <{lambd = 7.000000e-01 : f32}> {test.note = "kept"} : (tensor<4x?xf16>) -> tensor<4x?xf16>
