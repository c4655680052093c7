// Broadcast inputs of dynamic shapes (hswc.broadcast): the description keeps -1 for a
// run-time dim and static strides; the host compares the run-time dims that must agree
// (tensor.dim, cf.assert naming the input) before the tiling call; the kernel reads the
// weight as it would with static shapes, and an input of a run-time size (a per-row scale)
// gets a GlobalTensor over what its core reads, never a copy in UB.
// RUN: hswc-opt %s --split-input-file -p hsg-tile-on-cores | filecheck %s --check-prefix=TILED
// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s --check-prefix=ASCEND
// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// PReLU's per-channel weight over a dynamic batch: no run-time check (the weight's 3 is the
// type's), runs of H*W = 32 from the weight's copy in UB.
// TILED-LABEL: func.func @prelu
// TILED-NOT: cf.assert
// TILED: %total_num = hsg.num_elements %e : tensor<?x3x4x8xf32>
// TILED: func.func @prelu_kernel_f32({{.*}}hsg.broadcast = [array<i64: -1, 3, 4, 8>, array<i64>, array<i64: 0, 1, 0, 0>]
// ASCEND-LABEL: func.func @prelu_kernel_f32
// ASCEND: %w_gm = ascend.set_global_buffer %w[%{{.*}}], %c3 : memref<?xf32> -> !ascend.global_tensor<f32>
// ASCEND: } {hsg.broadcast_copy = "row runs of 32 f32: one GetValue from the input's copy in UB + Duplicate per run"}
// CPP-LABEL: class Prelu<float> {
// CPP: wGm.SetGlobalBuffer((__gm__ float*)w, 3);
// CPP: int64_t runs = CeilDiv(phase + currentNum, 32);
// CPP: float value = wResident.GetValue(FloorDiv(chunkStart + runStart, 32) % 3);
func.func @prelu(%x: tensor<?x3x4x8xf32>, %w: tensor<3xf32>) -> tensor<?x3x4x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3x4x8xf32>
  %e = tensor.empty(%n) : tensor<?x3x4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %w : tensor<?x3x4x8xf32>, tensor<3xf32>) outs(%e : tensor<?x3x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %a, %z : f32
    %m = arith.mulf %a, %b : f32
    %r = arith.select %p, %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x3x4x8xf32>
  func.return %y : tensor<?x3x4x8xf32>
}

// -----

// A per-row scale (?, 1): its dim 0 must be x's at run time; its GlobalTensor covers
// ceil((blockOffset + blockLength) / 16) elements, one GetValue + Duplicate per row.
// TILED-LABEL: func.func @scale
// TILED: %w_dim0 = tensor.dim %w, %c0 : tensor<?x1xf32>
// TILED-NEXT: %x_dim0 = tensor.dim %x, %c0 : tensor<?x16xf32>
// TILED-NEXT: %[[OK:.*]] = arith.cmpi eq, %w_dim0, %x_dim0 : index
// TILED-NEXT: cf.assert %[[OK]], "Scale: input w (broadcast) does not broadcast: its dim 0 must be dim 0 of x at run time"
// TILED-NEXT: %total_num = hsg.num_elements %e : tensor<?x16xf32>
// TILED: hsg.broadcast = [array<i64: -1, 16>, array<i64>, array<i64: 1, 0>]
// ASCEND-LABEL: func.func @scale_kernel_f32
// ASCEND-NOT: _resident
// ASCEND: %[[END:.*]] = arith.addi %block_offset, %block_length : index
// ASCEND-NEXT: %[[ROW:.*]] = arith.constant 16 : index
// ASCEND-NEXT: %[[N:.*]] = arith.ceildivsi %[[END]], %[[ROW]] : index
// ASCEND-NEXT: %w_gm = ascend.set_global_buffer %w[%{{.*}}], %[[N]] : memref<?xf32> -> !ascend.global_tensor<f32>
// ASCEND: } {hsg.broadcast_copy = "row runs of 16 f32: one GetValue + Duplicate per run"}
// CPP-LABEL: class Scale<float> {
// CPP: wGm.SetGlobalBuffer((__gm__ float*)w, CeilDiv(blockOffset + blockLength, 16));
// CPP: float value = wGm.GetValue(FloorDiv(chunkStart + runStart, 16));
func.func @scale(%x: tensor<?x16xf32>, %w: tensor<?x1xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %w : tensor<?x16xf32>, tensor<?x1xf32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<?x16xf32>
  func.return %y : tensor<?x16xf32>
}

// -----

// A bias of a dynamic length over (?, 16): checked against 16 at run time, then read as the
// static bias it is.
// TILED-LABEL: func.func @bias
// TILED: %b_dim0 = tensor.dim %b, %c0 : tensor<?xf16>
// TILED-NEXT: %[[C16:.*]] = arith.constant 16 : index
// TILED-NEXT: %[[OK:.*]] = arith.cmpi eq, %b_dim0, %[[C16]] : index
// TILED-NEXT: cf.assert %[[OK]], "Bias: input b (broadcast) does not broadcast: its dim 0 must be 16 at run time"
// TILED: hsg.broadcast = [array<i64: -1, 16>, array<i64>, array<i64: 0, 1>]
// ASCEND-LABEL: func.func @bias_kernel_f16
// ASCEND: %b_gm = ascend.set_global_buffer %b[%{{.*}}], %c16 : memref<?xf16> -> !ascend.global_tensor<f16>
// ASCEND: } {hsg.broadcast_copy = "row runs of 16 f16: one DataCopy UB -> UB from the input's copy in UB per run"}
// CPP-LABEL: class Bias<half> {
// CPP: bGm.SetGlobalBuffer((__gm__ half*)b, 16);
func.func @bias(%x: tensor<?x16xf16>, %b: tensor<?xf16>) -> tensor<?x16xf16> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf16>
  %e = tensor.empty(%n) : tensor<?x16xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<?x16xf16>, tensor<?xf16>) outs(%e : tensor<?x16xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    linalg.yield %s : f16
  } -> tensor<?x16xf16>
  func.return %y : tensor<?x16xf16>
}
