// LeakyReLU's gradient with a slope of 0.2: a family op with an attribute, which the kernel
// receives at run time through its tiling struct.
func.func @leaky_relu_grad(%grad: tensor<?xbf16>, %x: tensor<?xbf16>) -> tensor<?xbf16> {
  %y = hsg.leaky_relu_grad %grad, %x {negative_slope = 0.2 : f32} : tensor<?xbf16>
  func.return %y : tensor<?xbf16>
}
