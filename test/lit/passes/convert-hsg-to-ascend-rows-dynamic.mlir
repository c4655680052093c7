// RUN: hswc-opt %s -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s

// f32 softmax over rows of a run-time length (hswc.rows `dynamic`): the host reads the length
// from x's dim 1 and passes it after the tiling values; the kernel works each row in segments
// of 4096 (online: the max and the sum in one pass, then the outputs' pass), each pass an
// scf.for over the (n - 1) / 4096 full segments and then the last one of n - that * 4096
// elements, copied in by that many bytes, each reduction's source padded from there with the
// combiner's identity (SetValue up to the next 32-byte block, then one Duplicate) before its
// tree of WholeReduces over all 4096 lanes.
// The kernel is compiled as branches (hswc.passes.row_branches): whole rows of at most 64, 1024
// and 8192 elements, then the segmented kernel; the tiling picks one by its key from the length.
// CHECK-LABEL: func.func @softmax(
// CHECK:         %row_length = tensor.dim %x, %{{.*}} : tensor<?x?xf32>
// CHECK:         func.call @softmax_tiling_f32(%{{.*}}, %{{.*}}, %{{.*}}, %row_length)
// CHECK:         %use_w64 = arith.cmpi eq, %tiling_key, %{{.*}} : index
// CHECK:         hsg.launch @softmax_kernel_f32_w64 blocks %used_core_num (%x) tiling(%{{.*}}, %block_factor, %ub_factor, %row_length)
// CHECK:         hsg.launch @softmax_kernel_f32_w1024 blocks
// CHECK:         hsg.launch @softmax_kernel_f32_w8192 blocks
// CHECK:         } else {
// CHECK-NEXT:      hsg.launch @softmax_kernel_f32_seg4096 blocks %used_core_num (%x) tiling(%{{.*}}, %block_factor, %ub_factor, %row_length)
// CHECK-LABEL: func.func @softmax_tiling_f32(
// CHECK-SAME:    %row_length: index)
// CHECK:         %tiling_key = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-LABEL: func.func @softmax_kernel_f32_seg4096(
// CHECK-SAME:    %ub_factor: index, %row_length: index)
// CHECK-SAME:    hsg.rows = {length = 4096 : i64, inputs = ["element"], outputs = ["element"], one_per_chunk, segment = 4096 : i64, online, dynamic}
// CHECK:         %[[START:.*]] = arith.muli %block_offset, %row_length : index
// CHECK:         %full_segments = arith.floordivsi %{{.*}}, %{{.*}} : index
// CHECK:         %last_segment_start = arith.muli %full_segments, %{{.*}} : index
// CHECK:         %last_segment_length = arith.subi %row_length, %last_segment_start : index
// CHECK:         scf.for %segment = %{{.*}} to %full_segments step %{{.*}} {
// CHECK:           ascend.data_copy_pad %x_local, %x_gm_at, %c16384 blocks %current_num
// CHECK:           ascend.whole_reduce_max
// CHECK:           ascend.whole_reduce_sum
// CHECK:         }
// CHECK:         %[[BYTES:.*]] = arith.muli %last_segment_length, %{{.*}} : index
// CHECK:         ascend.data_copy_pad %{{.*}}, %{{.*}}, %[[BYTES]] blocks %current_num
// CHECK:         %padded_from = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         %identity = arith.constant 0xff800000 : f32
// CHECK:         ascend.pipe_barrier pipe_all
// CHECK-NEXT:    scf.for %lane = %last_segment_length to %padded_from step %{{.*}} {
// CHECK-NEXT:      ascend.set_value %[[X:.*]][%lane], %identity
// CHECK:         ascend.pipe_barrier pipe_all
// CHECK:           %padded = ascend.local_at %[[X]][%padded_from]
// CHECK:           ascend.duplicate %padded, 0xff800000 : f32
// CHECK:         ascend.whole_reduce_max %{{.*}}, %[[X]], %c64
// CHECK:         %identity_1 = arith.constant -0.000000e+00 : f32
// CHECK:           ascend.duplicate %padded_1, -0.000000e+00 : f32
// CHECK:         ascend.whole_reduce_sum
// CHECK:         scf.for %segment_1 = %{{.*}} to %full_segments step %{{.*}} {
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
