// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' | filecheck %s
// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// (N, C, H, W) of f32 x times f16 g summed over N, H and W with H * W = 6: each channel's runs
// are 24 bytes of x and 12 of g, not whole 32-byte blocks; padded to whole blocks a run would
// take 8 elements in f32 and 16 in f16, so no one UB layout holds both (runs of one type, or of
// types that pad alike, are padded: convert-hsg-to-ascend-padded-runs.mlir), and they are not
// single columns either (which rows of 64 lanes take, as a bias gradient's sum over N): it
// stays on the host, said so.
// CHECK-LABEL: func.func @sum_nhw(
// CHECK-NOT:     hsg.launch
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// REMARK: hsg-tile-on-cores-leading-host.mlir:[[# @LINE + 5]]:3: remark: 'linalg.generic' stays on the host: its row kernel reads each row as 2 runs of 6 elements (24 bytes), not whole 32-byte blocks, and its element operands' types pad a run to whole blocks of different lengths
func.func @sum_nhw(%x: tensor<2x3x2x3xf32>, %g: tensor<2x3x2x3xf16>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id4, #id4, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x, %g : tensor<2x3x2x3xf32>, tensor<2x3x2x3xf16>) outs(%init : tensor<3xf32>) {
  ^bb0(%in: f32, %w: f16, %acc: f32):
    %v = arith.extf %w : f16 to f32
    %p = arith.mulf %in, %v : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
