// Input from a file or stdin, output to stdout or to -o FILE: the same module each way.
// RUN: hswc-opt %s | filecheck %s
// RUN: hswc-opt < %s | filecheck %s
// RUN: hswc-opt %s -o %t && filecheck %s < %t
// RUN: hswc-opt %s -p hsg-decompose,hsg-tile-on-cores -o %t.tiled && filecheck %s --check-prefix=TILED < %t.tiled

// One operator, printed back.
func.func @io(%a: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.hard_swish_grad %a, %a : tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// CHECK:       builtin.module {
// CHECK-LABEL: func.func @io(
// CHECK-SAME:      %[[A:.*]]: tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    %[[Y:.*]] = hsg.hard_swish_grad %[[A]], %[[A]] : tensor<?xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<?xf32>
// TILED-LABEL: func.func @io(
// TILED:         hsg.launch @hard_swish_grad_kernel_f32
