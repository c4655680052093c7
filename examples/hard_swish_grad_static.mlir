// HardSwishGrad on a static shape: with a named platform, hsg-tile-on-cores computes the tiling
// at compile time and the launch gets constants (examples/hard_swish_grad.mlir is dynamic).
func.func @hard_swish_grad(%grad: tensor<4x1000xf16>, %x: tensor<4x1000xf16>) -> tensor<4x1000xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x1000xf16>
  func.return %y : tensor<4x1000xf16>
}
