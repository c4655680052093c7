// A named op is never left on the host: what keeps it from becoming a kernel is an error.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics -p hsg-tile-on-cores | filecheck %s

// Not decomposed yet.
func.func @named(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: hsg-tile-on-cores-named-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish' must be decomposed before hsg-tile-on-cores: run hsg-decompose first (--lower-to-ascend does)
  %y = hsg.hard_swish %x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// -----

// Its decomposition cannot be tiled on this UB.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics -p 'hsg-decompose,hsg-tile-on-cores{core-num=64 ub-size=2048}' | filecheck %s --check-prefix=SMALL
func.func @small_ub(%g: tensor<7x3xf32>, %x: tensor<7x3xf32>) -> tensor<7x3xf32> {
  // SMALL: hsg-tile-on-cores-named-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' cannot be tiled for core-num=64 ub-size=2048
  %y = hsg.hard_swish_grad %g, %x : tensor<7x3xf32>
  func.return %y : tensor<7x3xf32>
}
