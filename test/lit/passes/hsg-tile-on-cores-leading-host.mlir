// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' | filecheck %s
// RUN: hswc-opt %s -p 'hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// (N, C) summed over N (a bias gradient): each channel's runs are one element (4 bytes), not
// whole 32-byte blocks, so the copy by runs cannot take it: it stays on the host, said so.
// CHECK-LABEL: func.func @sum_n(
// CHECK-NOT:     hsg.launch
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["reduction", "parallel"]
// REMARK: hsg-tile-on-cores-leading-host.mlir:[[# @LINE + 5]]:3: remark: 'linalg.generic' stays on the host: its row kernel reads each row as 6 runs of 1 element (4 bytes), not whole 32-byte blocks, which its copy by runs needs
func.func @sum_n(%x: tensor<6x40xf32>) -> tensor<40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<40xf32>) -> tensor<40xf32>
  %s = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<6x40xf32>) outs(%init : tensor<40xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<40xf32>
  return %s : tensor<40xf32>
}
