// Periodic runs (hswc.vectorizer.broadcast_copy, "Periodic runs"): a bias of 10 f32 (40 bytes,
// not whole 32-byte blocks) added over [64, 10] repeats with a period of lcm(10, 8) = 40
// elements (5 blocks). Init builds the pattern in UB once (one DataCopyPad of the row, a
// barrier, then elements [10, 40) each a GetValue/SetValue of the one 10 before it); each chunk
// is filled from it by whole-block UB -> UB DataCopys starting at the chunk's phase in the
// period; the tiling aligns blockFactor to a block (8 f32) so every phase is a whole block.
// RUN: hswc-opt %s -p hsg-tile-on-cores | filecheck %s --check-prefix=TILED
// RUN: hswc-opt %s --lower-to-ascend | filecheck %s --check-prefix=ASCEND
// RUN: hswc-opt %s --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// TILED-LABEL: func.func @bias_tiling_f32
// TILED-SAME: hsg.ub_plan = {bytes_per_element = 12 : i64, ub_reserve = 160 : i64, align_elements = 64 : i64, block_align = 8 : i64}
// ASCEND-LABEL: func.func @bias_kernel_f32
// ASCEND: %b_resident_buf = ascend.tbuf : !ascend.tbuf<vecin>
// ASCEND-NEXT: %[[BYTES:.*]] = arith.constant 160 : index
// ASCEND-NEXT: ascend.init_buffer %pipe, %b_resident_buf, %[[BYTES]] : !ascend.tbuf<vecin>
// ASCEND-NEXT: %b_resident = ascend.tbuf_get %b_resident_buf
// ASCEND-NEXT: %[[ROW:.*]] = arith.constant 40 : index
// ASCEND-NEXT: ascend.data_copy_pad %b_resident, %b_gm, %[[ROW]]
// ASCEND-NEXT: ascend.pipe_barrier pipe_all
// ASCEND: scf.for %j = %{{.*}} to %{{.*}} step %{{.*}} {
// ASCEND: ascend.get_value %b_resident[%{{.*}}]
// ASCEND-NEXT: ascend.set_value %b_resident[%j]
// ASCEND-NEXT: } {hsg.broadcast_copy = "pattern of 40 f32: rows of 10 repeated"}
// ASCEND-NEXT: ascend.pipe_barrier pipe_all
// ASCEND: %phase = arith.remsi %chunk_start, %{{.*}} : index
// ASCEND: scf.for %k = %{{.*}} to %runs step %{{.*}} {
// ASCEND: ascend.data_copy %{{.*}}, %{{.*}}, %{{.*}} : !ascend.local_tensor<f32, vecin>, !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: } {hsg.broadcast_copy = "periodic runs of 40 f32 (rows of 10): one DataCopy UB -> UB from the pattern in UB per run"}
// ASCEND-NEXT: ascend.pipe_barrier pipe_v
// ASCEND-NEXT: ascend.enque
// CPP-LABEL: class Bias<float> {
// CPP: pipe.InitBuffer(bResidentBuf, 160);
// CPP-NEXT: bResident = bResidentBuf.Get<float>();
// CPP-NEXT: AscendC::DataCopyPad(bResident, bGm, AscendC::DataCopyParams(1, 40, 0, 0),
// CPP-NEXT: AscendC::DataCopyPadParams(false, 0, 0, 0));
// CPP-NEXT: AscendC::PipeBarrier<PIPE_ALL>();
// CPP-NEXT: // pattern of 40 f32: rows of 10 repeated
// CPP-NEXT: for (int64_t j = 10; j < 40; ++j) {
// CPP-NEXT: float value = bResident.GetValue(j - 10);
// CPP-NEXT: bResident.SetValue(j, value);
// CPP-NEXT: }
// CPP-NEXT: AscendC::PipeBarrier<PIPE_ALL>();
// CPP: __aicore__ inline void CopyIn(
// CPP: int64_t phase = chunkStart % 40;
// CPP-NEXT: int64_t runs = CeilDiv(phase + currentNum, 40);
// CPP-NEXT: // periodic runs of 40 f32 (rows of 10): one DataCopy UB -> UB from the pattern in UB per run
// CPP-NEXT: for (int64_t k = 0; k < runs; ++k) {
// CPP-NEXT: int64_t rowOffset = k * 40;
// CPP-NEXT: int64_t runStart = Max(rowOffset - phase, 0);
// CPP-NEXT: int64_t runLength = Min(rowOffset + 40 - phase, currentNum) - runStart;
// CPP-NEXT: AscendC::DataCopy(bLocal[runStart], bResident[(chunkStart + runStart) % 40],
// CPP-NEXT: CeilDiv(runLength, 8) * 8);
// CPP-NEXT: }
// CPP-NEXT: AscendC::PipeBarrier<PIPE_V>();
// CPP-NEXT: inputQueueB.EnQue(bLocal);
// CPP-NOT: SetValue
func.func @bias(%x: tensor<64x10xf32>, %b: tensor<10xf32>) -> tensor<64x10xf32> {
  %e = tensor.empty() : tensor<64x10xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<64x10xf32>, tensor<10xf32>) outs(%e : tensor<64x10xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<64x10xf32>
  func.return %y : tensor<64x10xf32>
}
