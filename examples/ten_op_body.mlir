// A random elementwise body of 10 ops, as test/elementwise_bodies.py draws them
// (draw_body(RandomChooser(2085), inputs=2, finite=True)): f16 arithmetic, an f32 round
// trip, an ordered not-equal compare and a select.
func.func @ten_op_body(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %c0 = arith.constant 0 : index
  %dim0 = tensor.dim %a, %c0 : tensor<?xf16>
  %init = tensor.empty(%dim0) : tensor<?xf16>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf16>, tensor<?xf16>) outs(%init : tensor<?xf16>) {
  ^bb0(%ai: f16, %bi: f16, %out: f16):
    %v2 = arith.constant 0x3C00 : f16
    %v3 = arith.minimumf %bi, %v2 : f16
    %v4 = arith.cmpf one, %ai, %v2 : f16
    %v5 = arith.select %v4, %ai, %v2 : f16
    %v6 = arith.extf %v5 : f16 to f32
    %v7 = arith.truncf %v6 : f32 to f16
    %v8 = arith.extf %v7 : f16 to f32
    %v9 = arith.divf %v3, %v7 : f16
    %v10 = arith.truncf %v8 : f32 to f16
    %v11 = arith.maximumf %v9, %v10 : f16
    %v12 = arith.maximumf %v3, %v11 : f16
    linalg.yield %v12 : f16
  } -> tensor<?xf16>
  func.return %0 : tensor<?xf16>
}
