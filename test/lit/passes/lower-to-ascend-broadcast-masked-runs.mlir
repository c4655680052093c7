// Constant row runs that are not whole 32-byte blocks (hswc.vectorizer.broadcast_copy, "Masked
// runs"): a per-channel weight over 14 x 14 (runs of 196 f32, 784 bytes). Each run is one
// GetValue, one Duplicate in its bitwise-mask form writing the run's lanes among the 64 from
// the 32-byte block it starts in, then, if the run is longer, one count Duplicate of the rest
// from lane 64 on; no element loop, and CANN's blockFactor (no block alignment).
// RUN: hswc-opt %s -p hsg-tile-on-cores | filecheck %s --check-prefix=TILED
// RUN: hswc-opt %s --lower-to-ascend | filecheck %s --check-prefix=ASCEND
// RUN: hswc-opt %s --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// TILED-LABEL: func.func @channels_tiling_f32
// TILED-NOT: block_align
// TILED: %block_factor = arith.ceildivsi %total_num, %{{.*}} : index
// TILED-NOT: block_align
// ASCEND-LABEL: func.func @channels_kernel_f32
// ASCEND: scf.for %k = %{{.*}} to %runs step %{{.*}} {
// ASCEND: %[[V:.*]] = ascend.get_value %w_resident[%{{.*}}] : !ascend.local_tensor<f32, vecin> -> f32
// ASCEND-NEXT: %[[B:.*]] = arith.constant 8 : index
// ASCEND-NEXT: %lane = arith.remsi %run_start, %[[B]] : index
// ASCEND-NEXT: %block_start = arith.subi %run_start, %lane : index
// ASCEND-NEXT: %[[W:.*]] = arith.constant 64 : index
// ASCEND-NEXT: %[[LEFT:.*]] = arith.subi %[[W]], %lane : index
// ASCEND-NEXT: %head = arith.minsi %run_length, %[[LEFT]] : index
// ASCEND-NEXT: %[[AT:.*]] = ascend.local_at %w_local[%block_start] : !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: ascend.duplicate_lanes %[[AT]], %lane, %[[V]] : f32, %head : !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: %rest = arith.subi %run_length, %head : index
// ASCEND: scf.if %{{.*}} {
// ASCEND-NEXT: %[[TAIL:.*]] = arith.addi %block_start, %[[W]] : index
// ASCEND-NEXT: %[[AT2:.*]] = ascend.local_at %w_local[%[[TAIL]]] : !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: ascend.duplicate %[[AT2]], %[[V]] : f32, %rest : !ascend.local_tensor<f32, vecin>
// ASCEND-NEXT: }
// ASCEND-NEXT: } {hsg.broadcast_copy = "row runs of 196 f32: one GetValue from the input's copy in UB + Duplicate of its lanes in the first 64 (bitwise mask), then one of the rest per run"}
// ASCEND-NEXT: ascend.pipe_barrier pipe_v
// ASCEND-NEXT: ascend.enque
// ASCEND-NOT: ascend.set_value
// CPP-LABEL: class Channels<float> {
// CPP: __aicore__ inline void CopyIn(
// CPP: float value = wResident.GetValue(FloorDiv(chunkStart + runStart, 196));
// CPP-NEXT: int64_t lane = runStart % 8;
// CPP-NEXT: int64_t blockStart = runStart - lane;
// CPP-NEXT: int64_t head = Min(runLength, 64 - lane);
// CPP-NEXT: uint64_t laneMask[2] = {(~0ULL >> (64 - head)) << lane, 0};
// CPP-NEXT: AscendC::Duplicate(wLocal[blockStart], value, laneMask, 1, 1, 8);
// CPP-NEXT: int64_t rest = runLength - head;
// CPP-NEXT: if (rest > 0) {
// CPP-NEXT:     AscendC::Duplicate(wLocal[blockStart + 64], value, rest);
// CPP-NEXT: }
// CPP-NEXT: }
// CPP-NEXT: AscendC::PipeBarrier<PIPE_V>();
// CPP-NEXT: inputQueueW.EnQue(wLocal);
// CPP-NOT: SetValue
func.func @channels(%x: tensor<1x16x14x14xf32>, %w: tensor<16xf32>) -> tensor<1x16x14x14xf32> {
  %e = tensor.empty() : tensor<1x16x14x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %w : tensor<1x16x14x14xf32>, tensor<16xf32>) outs(%e : tensor<1x16x14x14xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x16x14x14xf32>
  func.return %y : tensor<1x16x14x14xf32>
}
