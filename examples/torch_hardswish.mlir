#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @main(%arg0: tensor<4x1000xf16>) -> tensor<4x1000xf16> {
    %cst = arith.constant 3.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 6.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x1000xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x1000xf16>) outs(%0 : tensor<4x1000xf32>) {
    ^bb0(%in: f16, %out: f32):
      %9 = arith.extf %in : f16 to f32
      linalg.yield %9 : f32
    } -> tensor<4x1000xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x1000xf32>) outs(%0 : tensor<4x1000xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.addf %in, %cst : f32
      linalg.yield %9 : f32
    } -> tensor<4x1000xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x1000xf32>) outs(%0 : tensor<4x1000xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.cmpf ult, %in, %cst_0 : f32
      %10 = arith.select %9, %cst_0, %in : f32
      linalg.yield %10 : f32
    } -> tensor<4x1000xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<4x1000xf32>) outs(%0 : tensor<4x1000xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.cmpf ugt, %in, %cst_1 : f32
      %10 = arith.select %9, %cst_1, %in : f32
      linalg.yield %10 : f32
    } -> tensor<4x1000xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %4 : tensor<4x1000xf32>, tensor<4x1000xf32>) outs(%0 : tensor<4x1000xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %9 = arith.mulf %in, %in_2 : f32
      linalg.yield %9 : f32
    } -> tensor<4x1000xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<4x1000xf32>) outs(%0 : tensor<4x1000xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.divf %in, %cst_1 : f32
      linalg.yield %9 : f32
    } -> tensor<4x1000xf32>
    %7 = tensor.empty() : tensor<4x1000xf16>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<4x1000xf32>) outs(%7 : tensor<4x1000xf16>) {
    ^bb0(%in: f32, %out: f16):
      %9 = arith.truncf %in : f32 to f16
      linalg.yield %9 : f16
    } -> tensor<4x1000xf16>
    return %8 : tensor<4x1000xf16>
  }
}

