#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<4x64xf16>, %arg1: tensor<64xf16>) -> tensor<4x64xf16> {
    %0 = tensor.empty() : tensor<4x64xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x64xf16>, tensor<64xf16>) outs(%0 : tensor<4x64xf16>) {
    ^bb0(%in: f16, %in_0: f16, %out: f16):
      %2 = arith.addf %in, %in_0 : f16
      linalg.yield %2 : f16
    } -> tensor<4x64xf16>
    return %1 : tensor<4x64xf16>
  }
}
