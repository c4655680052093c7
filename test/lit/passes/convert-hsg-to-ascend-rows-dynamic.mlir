// RUN: hswc-opt %s -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s

// f32 softmax over rows of a run-time length (hswc.rows `dynamic`): the host reads the length
// from x's dim 1 and passes it after the tiling values; the kernel works each row in segments
// of 4096 (online: the max and the sum in one pass, then the outputs' pass), each pass an
// scf.for over the (n - 1) / 4096 full segments and then the last one of n - that * 4096
// elements, copied in by that many bytes, each reduction's source padded from there with the
// combiner's identity where it is short of 4096 (vector calls only, no PIPE_ALL barrier:
// Duplicate's bitwise-mask form for the lanes from there of the 64-lane group holding it, then
// one Duplicate of the groups after it) before its tree of WholeReduces over all 4096 lanes.
// The kernel is compiled as branches (hswc.passes.row_branches): whole rows of at most 64, 1024
// and 8192 elements, then the segmented kernel; the tiling picks one by its key from the length.
// Each branch's schedule is the cost model's for the lengths it serves (64; 1024; 8192; 60000:
// hswc.passes.row_schedule_choice.served_lengths), the L2 hint tried on each: every one here
// takes the fast preset with its input hinted past L2, as the static kernels of those lengths
// do (bench/README.md, "dynrow36").
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
// The whole branches of 64 and 1024 take several rows a chunk (no one_per_chunk): one
// DataCopyPad of the chunk's rows of n elements each, landed W apart (its UB stride the run-time
// W's blocks less n's), then each reduction's source padded from n to W in every row at once:
// Duplicate's bitwise-mask form over the rows (lanes n % 64 to 64 of the group holding lane n,
// then every later group whole), W * 4 / 32 blocks a repeat.
// CHECK-LABEL: func.func @softmax_kernel_f32_w64(
// CHECK-SAME:    hsg.rows = {length = 64 : i64, inputs = ["element"], outputs = ["element"], dynamic}
// CHECK-SAME:    most = 248 : i64
// CHECK-SAME:    hsg.schedule = {options = "double-buffer=true scalar-compare=true in-place=true early-free=true x-first=true l2-bypass=true"
// CHECK:         %[[BYTES64:.*]] = arith.muli %row_length, %{{.*}} : index
// CHECK:         %[[N_BLOCKS:.*]] = arith.ceildivsi %[[BYTES64]], %c32 : index
// CHECK-NEXT:    %row_gap = arith.subi %c8_1, %[[N_BLOCKS]] : index
// CHECK-NEXT:    ascend.data_copy_pad %x_local, %x_gm_at, %[[BYTES64]] blocks %current_num ub_gap %row_gap
// CHECK:         %[[SHORT:.*]] = arith.cmpi sgt, %c64_1, %row_length : index
// CHECK-NEXT:    scf.if %[[SHORT]] {
// CHECK:           %pad_group = arith.floordivsi %row_length, %{{.*}} : index
// CHECK:           %pad_first = arith.subi %row_length, %{{.*}} : index
// CHECK:           %pad_at = ascend.local_at %[[X64:.*]][%{{.*}}]
// CHECK:           ascend.duplicate_lanes_repeat %pad_at, %pad_first, %{{.*}}, %current_num {scalar = 0xff800000 : f32, dst_rep_stride = 8 : i64}
// CHECK-NEXT:    }
// CHECK:         ascend.whole_reduce_max %{{.*}}, %[[X64]], %c64_1, %current_num
// CHECK:         ascend.duplicate_lanes_repeat %{{.*}}, %{{.*}}, %{{.*}}, %current_num {scalar = -0.000000e+00 : f32, dst_rep_stride = 8 : i64}
// CHECK:         ascend.whole_reduce_sum
// CHECK:         ascend.data_copy_pad %y_gm_at{{.*}}, %{{.*}}, %{{.*}} blocks %current_num ub_gap %row_gap
// CHECK-LABEL: func.func @softmax_kernel_f32_w1024(
// CHECK-SAME:    most = 15 : i64
// CHECK-SAME:    l2-bypass=true
// CHECK:           ascend.duplicate_lanes_repeat %pad_at, %pad_first, %{{.*}}, %current_num {scalar = 0xff800000 : f32, dst_rep_stride = 128 : i64}
// CHECK:           %[[NEXT:.*]] = arith.addi %pad_group, %{{.*}} : index
// CHECK:           scf.for %pad_rest = %[[NEXT]] to %c16{{.*}} step %{{.*}} {
// CHECK:             ascend.duplicate_lanes_repeat %pad_rest_at, %{{.*}}, %{{.*}}, %current_num {scalar = 0xff800000 : f32, dst_rep_stride = 128 : i64}
// CHECK-LABEL: func.func @softmax_kernel_f32_w8192(
// CHECK-SAME:    one_per_chunk, dynamic}
// CHECK-SAME:    l2-bypass=true
// CHECK-LABEL: func.func @softmax_kernel_f32_seg4096(
// CHECK-SAME:    %ub_factor: index, %row_length: index)
// CHECK-SAME:    hsg.rows = {length = 4096 : i64, inputs = ["element"], outputs = ["element"], one_per_chunk, segment = 4096 : i64, online, dynamic}
// CHECK-SAME:    l2-bypass=true
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
// CHECK-NOT:     pipe_all
// CHECK:         %[[SHORT_SEG:.*]] = arith.cmpi sgt, %c4096{{.*}}, %last_segment_length : index
// CHECK-NEXT:    scf.if %[[SHORT_SEG]] {
// CHECK:           %pad_group = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT:      %pad_first = arith.subi %last_segment_length, %pad_group : index
// CHECK-NEXT:      %padded = ascend.local_at %[[X:.*]][%pad_group]
// CHECK:           ascend.duplicate_lanes %padded, %pad_first, 0xff800000 : f32
// CHECK:           %padded_from = arith.addi %pad_group, %{{.*}} : index
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        %padded_1 = ascend.local_at %[[X]][%padded_from]
// CHECK:             ascend.duplicate %padded_1, 0xff800000 : f32
// CHECK-NOT:     pipe_all
// CHECK:         ascend.whole_reduce_max %{{.*}}, %[[X]], %c64
// CHECK:           ascend.duplicate_lanes %{{.*}}, %{{.*}}, -0.000000e+00 : f32
// CHECK:         ascend.whole_reduce_sum
// CHECK:         scf.for %segment_1 = %{{.*}} to %full_segments step %{{.*}} {
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
