// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true},hsg-block-into-ub' | filecheck %s --check-prefix=BLOCK
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true}' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// f16 softmax over rows of 64: its max, its sum and the quotient are one row kernel, whose
// launch carries the dim softmax reduces (hsg.op_dim, for its package's `dim`); 300 rows
// over 48 cores are 7 rows a core on 43 cores, chunks of at most 178 whole rows (1092 bytes a
// row: the plan's buffers at a pitch of 64; 1728 bytes reserved: the row buffer's repeat, the
// spread buffer's 8 blocks, each element buffer's rounding to a repeat; (196608 - 1728) / 1092).
// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT:    %[[T:.*]] = arith.constant 300 : index
// CHECK-NEXT:    %[[BF:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[UF:.*]] = arith.constant 178 : index
// CHECK-NEXT:    %[[USED:.*]] = arith.constant 43 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %y = hsg.launch @softmax_kernel_f16 blocks %[[USED]] (%x) tiling(%[[T]], %[[BF]], %[[UF]]) {hsg.op_dim = 1 : i64} : tensor<300x64xf16> -> tensor<300x64xf16>
// CHECK-NEXT:    func.return %y
// CHECK-LABEL: func.func @softmax_tiling_f16(
// CHECK-SAME:      hsg.ub_plan = {bytes_per_element = 1092 : i64, ub_reserve = 1728 : i64, align_elements = 1 : i64, most = 248 : i64}
// CHECK-LABEL: func.func @softmax_kernel_f16(
// CHECK-SAME:      %x: memref<?xf16>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index)
// CHECK-SAME:      hsg.rows = {length = 64 : i64, inputs = ["element"], outputs = ["element"]}
// CHECK:         %block_idx = ascend.get_block_idx
// CHECK:         hsg.row_slice ins(%x : memref<?xf16>) outs(%y : memref<?xf16>) [%block_offset, %block_length] ub_factor %ub_factor rows {length = 64 : i64, inputs = ["element"], outputs = ["element"]} {
// CHECK:           hsg.reduce "maximumf" %{{.*}} : f32
// CHECK:           math.exp
// CHECK:           hsg.reduce "addf" %{{.*}} : f32
// CHECK:           arith.divf
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:      linalg.yield %{{.*}} : f16
// BLOCK-LABEL: func.func @softmax_kernel_f16(
// BLOCK:           %loop_count = arith.ceildivsi %block_length, %ub_factor : index
// BLOCK:           scf.for %i = %{{.*}} to %loop_count step %{{.*}} {
// BLOCK-NEXT:        %chunk_offset = arith.muli %i, %ub_factor : index
// BLOCK-NEXT:        %[[REST:.*]] = arith.subi %block_length, %chunk_offset : index
// BLOCK-NEXT:        %current_num = arith.minsi %ub_factor, %[[REST]] : index
// BLOCK-NEXT:        hsg.row_chunk ins(%x : memref<?xf16>) outs(%y : memref<?xf16>) slice [%block_offset, %block_length] chunk [%chunk_offset, %current_num] ub_factor %ub_factor rows {length = 64 : i64, inputs = ["element"], outputs = ["element"]} {
// BLOCK:               hsg.reduce "maximumf"
// REMARK: hsg-tile-on-cores-rows.mlir:[[# @LINE + 2]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @softmax_kernel_f16 (2 reductions along rows of 64; with the generics at
func.func @softmax(%x: tensor<300x64xf16>) -> tensor<300x64xf16> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<300x64xf16>
  return %y : tensor<300x64xf16>
}

// -----

// bf16 rms_norm over rows of 7: the weight is a column operand (read whole by every core);
// epsilon, the op's attribute, is the kernel's scalar argument.
// CHECK-LABEL: func.func @rms_norm(
// CHECK-NEXT:    %epsilon = arith.constant {hsg.op_attribute = {default = 1.000000e-06 : f32, {{.*}}, non_negative}} 1.000000e-06 : f32
// CHECK:         %y = hsg.launch @rms_norm_kernel_bf16 blocks %{{.*}} (%x, %w) tiling(%{{[a-z_0-9]+}}, %{{[a-z_0-9]+}}, %{{[a-z_0-9]+}}) scalars(%epsilon : f32) : tensor<16x7xbf16>, tensor<7xbf16> -> tensor<16x7xbf16>
// CHECK-LABEL: func.func @rms_norm_kernel_bf16(
// CHECK-SAME:      %ub_factor: index, %epsilon: f32)
// CHECK-SAME:      hsg.rows = {length = 7 : i64, inputs = ["element", "column"], outputs = ["element"]}
// CHECK:         hsg.row_slice ins(%x, %w : memref<?xbf16>, memref<?xbf16>) outs(%y : memref<?xbf16>)
// CHECK:           hsg.reduce "addf"
// CHECK:           math.rsqrt
func.func @rms_norm(%x: tensor<16x7xbf16>, %w: tensor<7xbf16>) -> tensor<16x7xbf16> {
  %y = hsg.rms_norm %x, %w {epsilon = 1.0e-06 : f32} : tensor<16x7xbf16>, tensor<7xbf16>
  return %y : tensor<16x7xbf16>
}

// -----

// Rows 2100 f32 elements apart in UB (263 blocks, more than a level-0 repeat stride between
// rows reaches) make a kernel of one row per chunk (ubFactor 1, the UB plan's bound 1,
// `one_per_chunk`); so does a row too long for two of them in UB.
// CHECK-LABEL: func.func @one_row_a_chunk(
// CHECK-NEXT:    %epsilon = arith.constant
// CHECK-NEXT:    %[[T:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[BF:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[UF:.*]] = arith.constant 1 : index
// CHECK:         hsg.launch @one_row_a_chunk_kernel_f32
// CHECK:       func.func @one_row_a_chunk_tiling_f32({{.*}} hsg.ub_plan = {{{.*}}align_elements = 1 : i64, most = 1 : i64}
// CHECK:       func.func @one_row_a_chunk_kernel_f32({{.*}}hsg.rows = {length = 2100 : i64, inputs = ["element", "column", "column"], outputs = ["element"], one_per_chunk}
func.func @one_row_a_chunk(%x: tensor<2x2100xf32>, %w: tensor<2100xf32>, %b: tensor<2100xf32>) -> tensor<2x2100xf32> {
  %y = hsg.layer_norm %x, %w, %b {epsilon = 1.0e-05 : f32} : tensor<2x2100xf32>, tensor<2100xf32>, tensor<2100xf32>
  return %y : tensor<2x2100xf32>
}

// -----

// A row too long for one row of its buffers in 196608 bytes: a kernel of one row a chunk in
// segments; the most a chunk holds is 5312 elements (whole 64-lane f32 repeats), and the cost
// model takes two even segments of 3072 (hswc.passes.row_segment_choice). Neither sum
// is `signed` (compensated in rows one a chunk, hswc.reduction_order): the mean is only divided
// by the length, the variance sums squares.
// CHECK-LABEL: func.func @too_long(
// CHECK:         hsg.launch @too_long_kernel_f32
// CHECK:       func.func @too_long_kernel_f32({{.*}}hsg.rows = {length = 6065 : i64, inputs = ["element", "column", "column"], outputs = ["element"], one_per_chunk, segment = 3072 : i64}
// CHECK:         hsg.row_slice
// CHECK:           hsg.reduce "addf" %{{.*}} : f32
// CHECK:           hsg.reduce "addf" %{{.*}} : f32
// REMARK: hsg-tile-on-cores-rows.mlir:[[# @LINE + 2]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @too_long_kernel_f32 (2 reductions along rows of 6065;
func.func @too_long(%x: tensor<2x6065xf32>, %w: tensor<6065xf32>, %b: tensor<6065xf32>) -> tensor<2x6065xf32> {
  %y = hsg.layer_norm %x, %w, %b {epsilon = 1.0e-05 : f32} : tensor<2x6065xf32>, tensor<6065xf32>, tensor<6065xf32>
  return %y : tensor<2x6065xf32>
}

// -----

// A run-time row count (rows of 64 static): the host computes it from x's elements, then calls
// the tiling function on the platform's figures; the kernel is the static one's.
// CHECK-LABEL: func.func @softmax_rows_at_run_time(
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %x : tensor<?x64xf16>
// CHECK-NEXT:    %[[L:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %total_num = arith.floordivsi %[[N]], %[[L]] : index
// CHECK-NEXT:    %core_num = arith.constant 48 : index
// CHECK-NEXT:    %ub_size = arith.constant 196608 : index
// CHECK-NEXT:    %{{.*}}, %block_factor, %ub_factor, %used_core_num, %tiling_key = func.call @softmax_rows_at_run_time_tiling_f16(%total_num, %core_num, %ub_size)
// CHECK-NEXT:    %y = hsg.launch @softmax_rows_at_run_time_kernel_f16 blocks %used_core_num (%x) tiling(%{{.*}}, %block_factor, %ub_factor) {hsg.op_dim = 1 : i64} : tensor<?x64xf16> -> tensor<?x64xf16>
// CHECK-LABEL: func.func @softmax_rows_at_run_time_kernel_f16(
// CHECK-SAME:      hsg.rows = {length = 64 : i64, inputs = ["element"], outputs = ["element"]}
func.func @softmax_rows_at_run_time(%x: tensor<?x64xf16>) -> tensor<?x64xf16> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}
