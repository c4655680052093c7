// A chain: HardSwishGrad, times a third tensor, then Hardtanh. hsg-fuse-elementwise makes it
// one kernel that reads grad, x and scale once and writes the result once.
func.func @grad_times_scale(%grad: tensor<?xf16>, %x: tensor<?xf16>, %scale: tensor<?xf16>) -> tensor<?xf16> {
  %dx = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %grad, %c0 : tensor<?xf16>
  %init = tensor.empty(%n) : tensor<?xf16>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                            iterator_types = ["parallel"]}
      ins(%dx, %scale : tensor<?xf16>, tensor<?xf16>) outs(%init : tensor<?xf16>) {
  ^bb0(%d: f16, %s: f16, %out: f16):
    %p = arith.mulf %d, %s : f16
    linalg.yield %p : f16
  } -> tensor<?xf16>
  %y = hsg.hardtanh %scaled {min_val = -1.0 : f32, max_val = 1.0 : f32} : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
