// Broadcast inputs read in row runs (hswc.vectorizer.broadcast_copy): where a row is whole
// 32-byte blocks, a bias is one copy per run (from its copy in UB, or from GM when it is larger
// than 2048 bytes) and a per-row scale one GetValue (likewise) + Duplicate per run, into the
// VECIN tensor at the run's offset; the tiling aligns blockFactor to a 32-byte block so every run starts
// aligned in UB. Other rows keep the element loop.
// RUN: hswc-opt %s --split-input-file -p hsg-tile-on-cores | filecheck %s --check-prefix=TILED
// RUN: hswc-opt %s --split-input-file --lower-to-ascend | filecheck %s --check-prefix=ASCEND
// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// A bias of 64 f32 (256 bytes): copied into UB once in Init (then a barrier), a UB -> UB
// DataCopy of whole 32-byte blocks per run; blockFactor a multiple of 8 f32, the copy reserved.
// TILED-LABEL: func.func @bias_tiling_f32
// TILED: %[[BF:.*]] = arith.ceildivsi %total_num, %{{.*}} : index
// TILED: %[[BLOCKS:.*]] = arith.ceildivsi %[[BF]], %c8 : index
// TILED-NEXT: %block_factor = arith.muli %[[BLOCKS]], %c8 : index
// TILED: func.func @bias_kernel_f32({{.*}} hsg.ub_plan = {bytes_per_element = 12 : i64, ub_reserve = 256 : i64, align_elements = 64 : i64, block_align = 8 : i64}
// ASCEND-LABEL: func.func @bias_kernel_f32
// ASCEND: %b_resident_buf = ascend.tbuf : !ascend.tbuf<vecin>
// ASCEND-NEXT: %[[N:.*]] = arith.constant 256 : index
// ASCEND-NEXT: ascend.init_buffer %pipe, %b_resident_buf, %[[N]] : !ascend.tbuf<vecin>
// ASCEND-NEXT: %b_resident = ascend.tbuf_get %b_resident_buf : !ascend.tbuf<vecin> -> !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: ascend.data_copy_pad %b_resident, %b_gm, %[[N]] : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
// ASCEND-NEXT: ascend.pipe_barrier pipe_all
// ASCEND: %chunk_start = arith.addi %block_offset, %chunk_offset : index
// ASCEND: %phase = arith.remsi %chunk_start, %[[ROW:.*]] : index
// ASCEND: %runs = arith.ceildivsi %{{.*}}, %[[ROW]] : index
// ASCEND: scf.for %k = %{{.*}} to %runs step %{{.*}} {
// ASCEND: %run_start = arith.maxsi
// ASCEND: %run_length = arith.subi
// ASCEND: %[[AT:.*]] = arith.remsi %{{.*}}, %{{.*}} : index
// ASCEND-NEXT: %[[DST:.*]] = ascend.local_at %b_local[%run_start] : !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: %[[SRC:.*]] = ascend.local_at %b_resident[%[[AT]]] : !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: %[[B:.*]] = arith.constant 8 : index
// ASCEND-NEXT: %[[K:.*]] = arith.ceildivsi %run_length, %[[B]] : index
// ASCEND-NEXT: %[[C:.*]] = arith.muli %[[K]], %[[B]] : index
// ASCEND-NEXT: ascend.data_copy %[[DST]], %[[SRC]], %[[C]] : !ascend.local_tensor<f32, vecin>, !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: } {hsg.broadcast_copy = "row runs of 64 f32: one DataCopy UB -> UB from the input's copy in UB per run"}
// ASCEND-NEXT: ascend.pipe_barrier pipe_v
// ASCEND-NEXT: ascend.enque
// ASCEND-NOT: ascend.set_value
// CPP-LABEL: class Bias<float> {
// CPP: pipe.InitBuffer(bResidentBuf, 256);
// CPP-NEXT: bResident = bResidentBuf.Get<float>();
// CPP-NEXT: AscendC::DataCopyPad(bResident, bGm, AscendC::DataCopyParams(1, 256, 0, 0),
// CPP-NEXT:     AscendC::DataCopyPadParams(false, 0, 0, 0));
// CPP-NEXT: AscendC::PipeBarrier<PIPE_ALL>();
// CPP: __aicore__ inline void CopyIn(
// CPP: int64_t phase = chunkStart % 64;
// CPP-NEXT: int64_t runs = CeilDiv(phase + currentNum, 64);
// CPP-NEXT: // row runs of 64 f32: one DataCopy UB -> UB from the input's copy in UB per run
// CPP-NEXT: for (int64_t k = 0; k < runs; ++k) {
// CPP-NEXT:     int64_t rowOffset = k * 64;
// CPP-NEXT:     int64_t runStart = Max(rowOffset - phase, 0);
// CPP-NEXT:     int64_t runLength = Min(rowOffset + 64 - phase, currentNum) - runStart;
// CPP-NEXT:     AscendC::DataCopy(bLocal[runStart], bResident[(chunkStart + runStart) % 64],
// CPP-NEXT:         CeilDiv(runLength, 8) * 8);
// CPP-NEXT: }
// CPP-NEXT: AscendC::PipeBarrier<PIPE_V>();
// CPP-NEXT: inputQueueB.EnQue(bLocal);
func.func @bias(%x: tensor<4x64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x64xf32>, tensor<64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x64xf32>
  func.return %y : tensor<4x64xf32>
}

// -----

// A per-row scale of rows of 48 f16 (96 bytes) with its 6 values copied into UB once: a
// GetValue from that copy + Duplicate per run, then a PipeBarrier<PIPE_V> before Compute's
// vector reads; the Duplicate belongs to CopyIn.
// TILED-LABEL: func.func @rows_tiling_f16
// TILED: %block_factor = arith.muli %{{.*}}, %c16 : index
// ASCEND-LABEL: func.func @rows_kernel_f16
// ASCEND: %s_resident = ascend.tbuf_get %s_resident_buf : !ascend.tbuf<vecin> -> !ascend.local_tensor<f16, vecin>
// ASCEND-NEXT: %[[N:.*]] = arith.constant 12 : index
// ASCEND-NEXT: ascend.data_copy_pad %s_resident, %s_gm, %[[N]] : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
// ASCEND-NEXT: ascend.pipe_barrier pipe_all
// ASCEND: scf.for %k = %{{.*}} to %runs step %{{.*}} {
// ASCEND: %[[AT:.*]] = arith.floordivsi %{{.*}}, %{{.*}} : index
// ASCEND-NEXT: %[[DST:.*]] = ascend.local_at %s_local[%run_start] : !ascend.local_tensor<f16, vecin>
// ASCEND-NEXT: %[[V:.*]] = ascend.get_value %s_resident[%[[AT]]] : !ascend.local_tensor<f16, vecin> -> f16
// ASCEND-NEXT: ascend.duplicate %[[DST]], %[[V]] : f16, %run_length : !ascend.local_tensor<f16, vecin>
// ASCEND-NEXT: } {hsg.broadcast_copy = "row runs of 48 f16: one GetValue from the input's copy in UB + Duplicate per run"}
// ASCEND-NEXT: ascend.pipe_barrier pipe_v
// ASCEND-NEXT: ascend.enque
// CPP-LABEL: class Rows<half> {
// CPP: __aicore__ inline void CopyIn(
// CPP: // row runs of 48 f16: one GetValue from the input's copy in UB + Duplicate per run
// CPP-NEXT: for (int64_t k = 0; k < runs; ++k) {
// CPP: half value = sResident.GetValue(FloorDiv(chunkStart + runStart, 48));
// CPP-NEXT: AscendC::Duplicate(sLocal[runStart], value, runLength);
// CPP-NEXT: }
// CPP-NEXT: AscendC::PipeBarrier<PIPE_V>();
// CPP-NEXT: inputQueueS.EnQue(sLocal);
func.func @rows(%x: tensor<6x48xf16>, %s: tensor<6x1xf16>) -> tensor<6x48xf16> {
  %e = tensor.empty() : tensor<6x48xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<6x48xf16>, tensor<6x1xf16>) outs(%e : tensor<6x48xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %r = arith.mulf %a, %c : f16
    linalg.yield %r : f16
  } -> tensor<6x48xf16>
  func.return %y : tensor<6x48xf16>
}

// -----

// A row of 509 f32 (2036 bytes, not whole 32-byte blocks; its period, 4072 elements, too long
// for a pattern in UB): the element loop, saying why, and CANN's blockFactor as it is.
// TILED-LABEL: func.func @odd_tiling_f32
// TILED: %block_factor = arith.ceildivsi %total_num, %{{.*}} : index
// TILED-NOT: block_align
// TILED: func.func @odd_kernel_f32
// ASCEND-LABEL: func.func @odd_kernel_f32
// ASCEND: scf.for %j = %{{.*}} to %current_num step %{{.*}} {
// ASCEND: ascend.set_value %b_local[%j]
// ASCEND-NEXT: } {hsg.broadcast_copy = "element loop: a row of 509 f32 is 2036 bytes, not a whole number of 32-byte blocks, and its period of 4072 elements exceeds 2048 bytes"}
// ASCEND-NEXT: ascend.pipe_barrier pipe_all
// CPP-LABEL: class Odd<float> {
// CPP: // element loop: a row of 509 f32 is 2036 bytes, not a whole number of 32-byte blocks, and its period of 4072 elements exceeds 2048 bytes
// CPP-NEXT: for (int64_t j = 0; j < currentNum; ++j) {
func.func @odd(%x: tensor<4x509xf32>, %b: tensor<509xf32>) -> tensor<4x509xf32> {
  %e = tensor.empty() : tensor<4x509xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x509xf32>, tensor<509xf32>) outs(%e : tensor<4x509xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x509xf32>
  func.return %y : tensor<4x509xf32>
}

// -----

// A bias of 1024 f32 (4096 bytes, larger than a copy in UB may be): a DataCopyPad from GM per run.
// ASCEND-LABEL: func.func @wide_kernel_f32
// ASCEND-NOT: resident
// ASCEND: scf.for %k = %{{.*}} to %runs step %{{.*}} {
// ASCEND: %[[DST:.*]] = ascend.local_at %b_local[%run_start] : !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: %[[SRC:.*]] = ascend.global_at %b_gm[%{{.*}}] : !ascend.global_tensor<f32>
// ASCEND-NEXT: %{{.*}} = arith.constant 4 : index
// ASCEND-NEXT: %[[BYTES:.*]] = arith.muli %run_length, %{{.*}} : index
// ASCEND-NEXT: ascend.data_copy_pad %[[DST]], %[[SRC]], %[[BYTES]] : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
// ASCEND-NEXT: } {hsg.broadcast_copy = "row runs of 1024 f32: one DataCopyPad per run"}
// ASCEND-NEXT: ascend.enque
// CPP-LABEL: class Wide<float> {
// CPP: // row runs of 1024 f32: one DataCopyPad per run
// CPP: AscendC::DataCopyPad(bLocal[runStart], bGm[(chunkStart + runStart) % 1024],
// CPP-NEXT: AscendC::DataCopyParams(1, runLength * 4, 0, 0),
func.func @wide(%x: tensor<2x1024xf32>, %b: tensor<1024xf32>) -> tensor<2x1024xf32> {
  %e = tensor.empty() : tensor<2x1024xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x1024xf32>, tensor<1024xf32>) outs(%e : tensor<2x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x1024xf32>
  func.return %y : tensor<2x1024xf32>
}

// -----

// A per-row scale of 1024 f32 values (4096 bytes): a GetValue from GM per run.
// ASCEND-LABEL: func.func @tall_kernel_f32
// ASCEND-NOT: resident
// ASCEND: ascend.global_get_value %s_gm[%{{.*}}] : !ascend.global_tensor<f32> -> f32
// ASCEND-NEXT: ascend.duplicate
// ASCEND-NEXT: } {hsg.broadcast_copy = "row runs of 8 f32: one GetValue + Duplicate per run"}
func.func @tall(%x: tensor<1024x8xf32>, %s: tensor<1024x1xf32>) -> tensor<1024x8xf32> {
  %e = tensor.empty() : tensor<1024x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<1024x8xf32>, tensor<1024x1xf32>) outs(%e : tensor<1024x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<1024x8xf32>
  func.return %y : tensor<1024x8xf32>
}
