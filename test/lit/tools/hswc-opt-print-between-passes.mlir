// --print-between-passes prints the IR after each pass that another pass follows.
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend910b},hsg-block-into-ub' --print-between-passes | filecheck %s
// --lower-to-ascend runs the five passes: four dumps, then the final IR.
// RUN: hswc-opt %s --lower-to-ascend --print-between-passes | filecheck %s --check-prefix=LOWER

// A static f16 operator through tile and block.
func.func @between(%a: tensor<64xf16>) -> tensor<64xf16> {
  %y = hsg.hard_swish_grad %a, %a : tensor<64xf16>
  func.return %y : tensor<64xf16>
}
// CHECK:       IR after hsg-decompose
// CHECK:         linalg.generic
// CHECK:       IR after hsg-tile-on-cores
// CHECK:       func.func @between(
// CHECK:         hsg.launch @hard_swish_grad_kernel_f16
// CHECK:       func.func @hard_swish_grad_kernel_f16(
// CHECK:         hsg.elementwise_slice
// CHECK-NOT:   hsg.elementwise_chunk
// CHECK-NOT:   IR after
// CHECK:       builtin.module {
// CHECK:       func.func @between(
// CHECK:       func.func @hard_swish_grad_kernel_f16(
// CHECK-NOT:     hsg.elementwise_slice
// CHECK:         hsg.elementwise_chunk
// CHECK-NOT:   IR after
// LOWER:       IR after hsg-decompose
// LOWER:         linalg.generic
// LOWER:       IR after hsg-fuse-elementwise
// LOWER:         linalg.generic
// LOWER:       IR after hsg-tile-on-cores
// LOWER:         hsg.elementwise_slice
// LOWER:       IR after hsg-block-into-ub
// LOWER:         hsg.elementwise_chunk
// LOWER-NOT:   IR after
// LOWER:         ascend.tpipe
// LOWER-NOT:   hsg.elementwise_chunk
