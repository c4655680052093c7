// RUN: not hswc-opt %s -p hsg-fold-slices 2>&1 | filecheck %s

// A static slice past its source (MLIR's verifier refuses it; xDSL's does not check it): an
// error at the slice, whether a generic reads it or not.
// CHECK: hsg-fold-slices-invalid.mlir:[[# @LINE + 2]]:3: error: 'tensor.extract_slice' reads elements 200 to 327 of dim 1 of its source, which has 256: out of bounds
func.func @past_the_end(%x: tensor<6x256xf16>) -> tensor<6x128xf16> {
  %a = tensor.extract_slice %x[0, 200] [6, 128] [1, 1] : tensor<6x256xf16> to tensor<6x128xf16>
  return %a : tensor<6x128xf16>
}
