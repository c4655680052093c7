// --split-input-file: each chunk is parsed, verified and printed on its own; a failing chunk prints
// its diagnostic (with the line in the whole file) and the others are still processed.
// RUN: not hswc-opt %s --split-input-file 2>&1 | filecheck %s
// With --verify-diagnostics the diagnostic goes to stdout and the exit code is 0.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=DIAG

// A valid first chunk.
func.func @first(%a: tensor<2xf16>) -> tensor<2xf16> {
  %y = hsg.hard_swish_grad %a, %a : tensor<2xf16>
  func.return %y : tensor<2xf16>
}
// CHECK-LABEL: func.func @first(
// CHECK-NEXT:    hsg.hard_swish_grad
// DIAG-LABEL:  func.func @first(

// -----

// A failing second chunk: reported at its line in the file, not in the chunk.
func.func @second(%a: tensor<2xf64>) -> tensor<2xf64> {
  // CHECK: hswc-opt-split-input-file.mlir:[[# @LINE + 2]]:3: error: 'hsg.hard_swish_grad' grad has element type f64
  // DIAG: hswc-opt-split-input-file.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' grad has element type f64
  %y = hsg.hard_swish_grad %a, %a : tensor<2xf64>
  func.return %y : tensor<2xf64>
}
// CHECK-NOT: func.func @second

// -----

// A valid third chunk after the failing one.
func.func @third(%a: tensor<2xbf16>) -> tensor<2xbf16> {
  %y = hsg.hard_swish_grad %a, %a : tensor<2xbf16>
  func.return %y : tensor<2xbf16>
}
// CHECK-LABEL: func.func @third(
// CHECK-NEXT:    hsg.hard_swish_grad %{{.*}}, %{{.*}} : tensor<2xbf16>
// DIAG-LABEL:  func.func @third(
// CHECK-NOT: Traceback
