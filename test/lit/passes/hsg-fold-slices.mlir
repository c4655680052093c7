// RUN: hswc-opt %s --split-input-file -p hsg-fold-slices | filecheck %s
// RUN: hswc-opt %s --split-input-file --lower-to-ascend --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=PARTITION

// torch-mlir's x.chunk(2, -1): both halves read through one 4x2x32 view of x, at the constant
// parts 0 and 1; the slices are gone. The partition makes one kernel of it, launched on x.
// CHECK-LABEL: func.func @chunk_halves
// CHECK-NEXT:    %[[V:.*]] = tensor.expand_shape %x {{\[\[}}0 : i64], [1 : i64, 2 : i64]] output_shape [4, 2, 32] : tensor<4x64xf16> into tensor<4x2x32xf16>
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0, d1)>, affine_map<(d0, d1) -> (d0, 1, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[V]], %[[V]] : tensor<4x2x32xf16>, tensor<4x2x32xf16>)
// PARTITION: hsg-fold-slices.mlir:[[# @LINE + 7]]:3: remark: 'linalg.generic' becomes a launch of @chunk_halves_kernel_f16
// PARTITION-NEXT: remark: 1 kernel launch, 0 ops left on the host
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chunk_halves(%x: tensor<4x64xf16>) -> tensor<4x32xf16> {
  %a = tensor.extract_slice %x[0, 0] [4, 32] [1, 1] : tensor<4x64xf16> to tensor<4x32xf16>
  %b = tensor.extract_slice %x[0, 32] [4, 32] [1, 1] : tensor<4x64xf16> to tensor<4x32xf16>
  %e = tensor.empty() : tensor<4x32xf16>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x32xf16>, tensor<4x32xf16>) outs(%e : tensor<4x32xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %m = arith.mulf %p, %q : f16
    linalg.yield %m : f16
  } -> tensor<4x32xf16>
  return %y : tensor<4x32xf16>
}

// -----

// An offset that is not a whole part of its dim (columns 3 to 18 of 24), next to an operand
// that gives d1's extent: read through d1 + 3 on x itself.
// CHECK-LABEL: func.func @shifted_window
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 + 3))>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%x, %z : tensor<4x24xf32>, tensor<4x16xf32>)
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shifted_window(%x: tensor<4x24xf32>, %z: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %a = tensor.extract_slice %x[0, 3] [4, 16] [1, 1] : tensor<4x24xf32> to tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %z : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.addf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A rank-reducing slice (column 5 of 8): the dropped dim is read at the constant 5.
// CHECK-LABEL: func.func @column
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 5)>, affine_map<(d0) -> (d0)>]
// CHECK-SAME:      ins(%x : tensor<6x8xf32>)
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
#id1 = affine_map<(d0) -> (d0)>
func.func @column(%x: tensor<6x8xf32>) -> tensor<6xf32> {
  %c = tensor.extract_slice %x[0, 5] [6, 1] [1, 1] : tensor<6x8xf32> to tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %y = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%c : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.negf %p : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// -----

// x widened to f32 before it is chunked (torch-mlir's F.glu on f16): the slices bubble up
// through the extf, each half's extf reads x's half, and the partition fuses all into one
// kernel on x.
// CHECK-LABEL: func.func @widened_first
// CHECK:         %[[V:.*]] = tensor.expand_shape %x
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           arith.extf
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 1, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:           arith.extf
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
#idw = affine_map<(d0, d1) -> (d0, d1)>
func.func @widened_first(%x: tensor<4x64xf16>) -> tensor<4x32xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %w = linalg.generic {indexing_maps = [#idw, #idw], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf16>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%p: f16, %o: f32):
    %m = arith.extf %p : f16 to f32
    linalg.yield %m : f32
  } -> tensor<4x64xf32>
  %a = tensor.extract_slice %w[0, 0] [4, 32] [1, 1] : tensor<4x64xf32> to tensor<4x32xf32>
  %b = tensor.extract_slice %w[0, 32] [4, 32] [1, 1] : tensor<4x64xf32> to tensor<4x32xf32>
  %h = tensor.empty() : tensor<4x32xf32>
  %y = linalg.generic {indexing_maps = [#idw, #idw, #idw], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x32xf32>, tensor<4x32xf32>) outs(%h : tensor<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// A strided slice is not read through a map: it stays on the host, and the remark says why.
// CHECK-LABEL: func.func @strided
// CHECK:         tensor.extract_slice %x[0, 0] [4, 16] [1, 2]
// PARTITION: hsg-fold-slices.mlir:[[# @LINE + 4]]:3: remark: 'tensor.extract_slice' stays on the host (a slice: a strided slice (strides [1, 2]; hswc reads slices of unit stride))
// PARTITION: remark: 1 kernel launch, 1 op left on the host
#ids = affine_map<(d0, d1) -> (d0, d1)>
func.func @strided(%x: tensor<4x32xf32>) -> tensor<4x16xf32> {
  %a = tensor.extract_slice %x[0, 0] [4, 16] [1, 2] : tensor<4x32xf32> to tensor<4x16xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#ids, #ids], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.negf %p : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Columns 0 to 4 of 6 read alone: no map reads them (a dim read alone spans its operand, and
// 5 does not divide 6), so the slice stays, a copy on the host.
// CHECK-LABEL: func.func @unaligned_prefix
// CHECK:         tensor.extract_slice %x[0, 0] [4, 5] [1, 1]
// PARTITION: remark: 'tensor.extract_slice' stays on the host (a slice no indexing map of its readers reads: an offset-0 part that does not divide its dim, or a reader that is not elementwise)
#idu = affine_map<(d0, d1) -> (d0, d1)>
func.func @unaligned_prefix(%x: tensor<4x6xf32>) -> tensor<4x5xf32> {
  %a = tensor.extract_slice %x[0, 0] [4, 5] [1, 1] : tensor<4x6xf32> to tensor<4x5xf32>
  %e = tensor.empty() : tensor<4x5xf32>
  %y = linalg.generic {indexing_maps = [#idu, #idu], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.negf %p : f32
    linalg.yield %m : f32
  } -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}
