// HardSwishGrad on a dynamic f16 tensor: the backward of HardSwish, y = dHardSwish(x) * grad.
// Lower it with:  hswc-opt --lower-to-ascend examples/hard_swish_grad.mlir
func.func @hard_swish_grad(%grad: tensor<4x?xf16>, %x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>
  func.return %y : tensor<4x?xf16>
}
