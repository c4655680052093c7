// A computation of your own as a linalg.generic: (a - b)^2, in f32 from f16 inputs.
func.func @squared_difference(%a: tensor<?x64xf16>, %b: tensor<?x64xf16>) -> tensor<?x64xf16> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %a, %c0 : tensor<?x64xf16>
  %init = tensor.empty(%rows) : tensor<?x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x64xf16>, tensor<?x64xf16>) outs(%init : tensor<?x64xf16>) {
  ^bb0(%ai: f16, %bi: f16, %out: f16):
    %a32 = arith.extf %ai : f16 to f32
    %b32 = arith.extf %bi : f16 to f32
    %d = arith.subf %a32, %b32 : f32
    %sq = arith.mulf %d, %d : f32
    %r = arith.truncf %sq : f32 to f16
    linalg.yield %r : f16
  } -> tensor<?x64xf16>
  func.return %y : tensor<?x64xf16>
}
