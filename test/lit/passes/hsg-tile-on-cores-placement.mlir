// Where hsg-tile-on-cores puts what it makes: the launch where the op was (inside an scf.if
// too), the tiling and kernel functions in the module, under names no other symbol of it has
// (a nested module is refused: test/lit/tools/nested-module.mlir).
// RUN: hswc-opt %s --split-input-file -p hsg-decompose,hsg-tile-on-cores | filecheck %s

// Inside an scf.if: the host code and launch stay in the branch.
func.func @branch(%g: tensor<?xf16>, %x: tensor<?xf16>, %c: i1) -> tensor<?xf16> {
  %r = scf.if %c -> (tensor<?xf16>) {
    %y = hsg.hard_swish_grad %g, %x : tensor<?xf16>
    scf.yield %y : tensor<?xf16>
  } else {
    scf.yield %x : tensor<?xf16>
  }
  func.return %r : tensor<?xf16>
}
// CHECK-LABEL: func.func @branch(
// CHECK:         scf.if %c -> (tensor<?xf16>) {
// CHECK:           func.call @hard_swish_grad_tiling_f16(
// CHECK:           %[[Y:.*]] = hsg.launch @hard_swish_grad_kernel_f16
// CHECK-NEXT:      scf.yield %[[Y]] : tensor<?xf16>
// CHECK:         } else {
// CHECK:       func.func @hard_swish_grad_tiling_f16(
// CHECK:       func.func @hard_swish_grad_kernel_f16(

// -----

// A user's function already has the kernel's name: the kernel gets a fresh one.
func.func @hard_swish_grad_kernel_f16(%a: i32) -> i32 {
  func.return %a : i32
}
func.func @clash(%g: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %g, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f16(%a: i32) -> i32 {
// CHECK:       func.func @clash(
// CHECK:         hsg.launch @hard_swish_grad_1_kernel_f16
// CHECK:       func.func @hard_swish_grad_1_kernel_f16(%grad: memref<?xf16>

