// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' | filecheck %s
// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>

// (N, C, H, W) summed over N, H and W with H * W = 6 f32: each channel's runs are 24 bytes, not
// whole 32-byte blocks, so the copy by runs cannot take them, and they are not single columns
// either (which rows of 64 lanes take, as a bias gradient's sum over N): it stays on the host,
// said so.
// CHECK-LABEL: func.func @sum_nhw(
// CHECK-NOT:     hsg.launch
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// REMARK: hsg-tile-on-cores-leading-host.mlir:[[# @LINE + 5]]:3: remark: 'linalg.generic' stays on the host: its row kernel reads each row as 2 runs of 6 elements (24 bytes), not whole 32-byte blocks, which its copy by runs needs
func.func @sum_nhw(%x: tensor<2x3x2x3xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#id4, #ch], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%x : tensor<2x3x2x3xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %s : tensor<3xf32>
}
