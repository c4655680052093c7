// An exponential activation: SiLU (x / (1 + exp(-x))), compared with PyTorch within its tolerance.
func.func @silu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = hsg.silu %x : tensor<?xf32>
  func.return %y : tensor<?xf32>
}
