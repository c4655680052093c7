// Misspelt attributes are refused by the parser, at the attribute dictionary.
// RUN: not hswc-opt %s 2>&1 | filecheck %s
func.func @typo(%x: tensor<4xf16>) {
  // CHECK: hsg-family-syntax-invalid.mlir:[[# @LINE + 1]]:26: error: hsg.leaky_relu has no attribute 'negative_slop' (its attributes: negative_slope); discardable attributes take a dialect prefix
  %y = hsg.leaky_relu %x {negative_slop = 0.1 : f32} : tensor<4xf16>
  func.return
}
