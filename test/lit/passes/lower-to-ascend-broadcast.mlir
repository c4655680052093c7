// Broadcast operands (hswc.broadcast) through the pipeline: the kernel records how each input
// is read, its broadcast input gets a GlobalTensor over the whole operand, and CopyIn reads it
// element by element where its contiguous rows are not whole 32-byte blocks and their period
// is too long for a pattern in UB (rows of whole blocks are read in row runs:
// lower-to-ascend-broadcast-runs.mlir; shorter periods in periodic runs:
// lower-to-ascend-broadcast-periodic-runs.mlir; constant rows in masked runs:
// lower-to-ascend-broadcast-masked-runs.mlir; a one-element operand: once, then Duplicate).
// RUN: hswc-opt %s --split-input-file -p hsg-tile-on-cores,hsg-block-into-ub | filecheck %s --check-prefix=TILED
// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s --check-prefix=ASCEND
// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// A bias: (d0, d1) -> (d1), rows of 509 f32 (a period of 4072 elements). Its copy-in is the
// same for every count of rows, so the kernel takes the rows at run time (-1: one kernel for
// every batch, hswc.passes.shape_sharing).
// TILED: hsg.launch @bias_kernel_f32 blocks %{{.*}} (%x, %b) tiling({{.*}}) : tensor<4x509xf32>, tensor<509xf32> -> tensor<4x509xf32>
// TILED: func.func @bias_kernel_f32(%x: memref<?xf32>, %b: memref<?xf32>, %y: memref<?xf32>, {{.*}} attributes {hsg.kernel, hsg.broadcast = [array<i64: -1, 509>, array<i64>, array<i64: 0, 1>]
// TILED: hsg.elementwise_chunk ins(%x, %b : memref<?xf32>, memref<?xf32>) {{.*}} attributes {hsg.broadcast = [array<i64: -1, 509>, array<i64>, array<i64: 0, 1>]}
// ASCEND-LABEL: func.func @bias_kernel_f32
// ASCEND: %b_gm = ascend.set_global_buffer %b[%c0{{.*}}], %c509 : memref<?xf32> -> !ascend.global_tensor<f32>
// ASCEND: %chunk_start = arith.addi %block_offset, %chunk_offset : index
// ASCEND-NEXT: %{{.*}} = arith.constant 0 : index
// ASCEND-NEXT: %{{.*}} = arith.constant 1 : index
// ASCEND-NEXT: scf.for %j = %{{.*}} to %current_num step %{{.*}} {
// ASCEND-NEXT:   %[[FLAT:.*]] = arith.addi %chunk_start, %j : index
// ASCEND-NEXT:   %[[N:.*]] = arith.constant 509 : index
// ASCEND-NEXT:   %[[AT:.*]] = arith.remsi %[[FLAT]], %[[N]] : index
// ASCEND-NEXT:   %[[V:.*]] = ascend.global_get_value %b_gm[%[[AT]]] : !ascend.global_tensor<f32> -> f32
// ASCEND-NEXT:   ascend.set_value %b_local[%j], %[[V]] : !ascend.local_tensor<f32, vecin>, f32
// ASCEND-NEXT: }
// ASCEND-NEXT: ascend.pipe_barrier pipe_all
// CPP: bGm.SetGlobalBuffer((__gm__ float*)b, 509);
// CPP: for (int64_t j = 0; j < currentNum; ++j) {
// CPP-NEXT:     float value = bGm.GetValue((chunkStart + j) % 509);
// CPP-NEXT:     bLocal.SetValue(j, value);
// CPP-NEXT: }
// CPP-NEXT: AscendC::PipeBarrier<PIPE_ALL>();
func.func @bias(%x: tensor<4x509xf32>, %b: tensor<509xf32>) -> tensor<4x509xf32> {
  %e = tensor.empty() : tensor<4x509xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x509xf32>, tensor<509xf32>) outs(%e : tensor<4x509xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x509xf32>
  func.return %y : tensor<4x509xf32>
}

// -----

// A per-row scale of a rank-3 tensor: (d0, d1, d2) -> (d1, 0) reads (flat / 17) % 3, once per
// run of 17 (34 bytes: masked runs, lower-to-ascend-broadcast-masked-runs.mlir).
// ASCEND-LABEL: func.func @rows_kernel_f16
// ASCEND: %[[D:.*]] = arith.floordivsi %{{.*}}, %{{.*}} : index
// ASCEND: arith.remsi %[[D]], %{{.*}} : index
// CPP: FloorDiv(chunkStart + runStart, 17) % 3
func.func @rows(%x: tensor<2x3x17xf16>, %s: tensor<3x1xf16>) -> tensor<2x3x17xf16> {
  %e = tensor.empty() : tensor<2x3x17xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<2x3x17xf16>, tensor<3x1xf16>) outs(%e : tensor<2x3x17xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %r = arith.mulf %a, %c : f16
    linalg.yield %r : f16
  } -> tensor<2x3x17xf16>
  func.return %y : tensor<2x3x17xf16>
}

// -----

// A rank-0 argument: read once in Init, duplicated over each chunk.
// ASCEND-LABEL: func.func @scale_kernel_f32
// ASCEND: %s_gm = ascend.set_global_buffer %s[%c0{{.*}}], %c1{{.*}} : memref<?xf32> -> !ascend.global_tensor<f32>
// ASCEND: %s_value = ascend.global_get_value %s_gm[%c0{{.*}}] : !ascend.global_tensor<f32> -> f32
// ASCEND: scf.for
// ASCEND: ascend.duplicate %s_local, %s_value : f32, %current_num : !ascend.local_tensor<f32, vecin>
// ASCEND-NOT: ascend.set_value
// CPP: sValue = sGm.GetValue(0);
// CPP: AscendC::Duplicate(sLocal, sValue, currentNum);
func.func @scale(%x: tensor<4x100xf32>, %s: tensor<f32>) -> tensor<4x100xf32> {
  %e = tensor.empty() : tensor<4x100xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<4x100xf32>, tensor<f32>) outs(%e : tensor<4x100xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x100xf32>
  func.return %y : tensor<4x100xf32>
}
