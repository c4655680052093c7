// hsg.first_rows (ops-nn's group_index) folded into the launch of the kernel computing its
// operand (hswc.passes.first_rows): the launch takes the counts and their number (a fourth
// tiling value, groupNum), the kernel their GM buffer after its inputs, sums them with the
// scalar unit and cuts totalNum to the counted rows (elements per row: 64) before its core's
// slice, unless groupNum is negative (no counts given: every row); the C++ carries the sum in
// a variable.
// (A first_rows of a function argument stays on the host: test_first_rows.py.)
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores' | filecheck %s --check-prefix=TILE
// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP

// TILE-LABEL: func.func @f
// TILE-NOT: hsg.first_rows
// TILE: %group_num = arith.constant 3 : index
// TILE: %z = hsg.launch @f_kernel_f16 blocks %{{.*}} (%x, %x) tiling(%{{.*}}, %{{.*}}, %{{.*}}, %group_num) counts(%g : tensor<3xi64>) : tensor<8x128xf16>, tensor<8x128xf16> -> tensor<8x64xf16>
// TILE: func.func @f_kernel_f16(%{{.*}}: memref<?xf16>, %{{.*}}: memref<?xf16>, %counts: memref<?xi64>, %y: memref<?xf16>, %total_num: index, %block_factor: index, %ub_factor: index, %group_num: index)
// TILE-SAME: hsg.first_rows = 64 : i64
// TILE: %groups_read = arith.maxsi %group_num, %[[C0:.*]] : index
// TILE: %counts_gm = ascend.set_global_buffer %counts[%[[C0]]], %[[G:.*]] : memref<?xi64> -> !ascend.global_tensor<i64>
// TILE: %counted = scf.for %[[I:.*]] = %[[C0]] to %[[G]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[C0]]) -> (index) {
// TILE-NEXT: %[[V:.*]] = ascend.global_get_value %counts_gm[%[[I]]] : !ascend.global_tensor<i64> -> i64
// TILE-NEXT: %[[N:.*]] = arith.index_cast %[[V]] : i64 to index
// TILE-NEXT: %[[SUM:.*]] = arith.addi %[[ACC]], %[[N]] : index
// TILE-NEXT: scf.yield %[[SUM]] : index
// TILE: %[[ROWS:.*]] = arith.floordivsi %total_num, %[[C64:.*]] : index
// TILE: %[[POS:.*]] = arith.maxsi %counted, %[[C0]] : index
// TILE: %[[CUT:.*]] = arith.minsi %[[POS]], %[[ROWS]] : index
// TILE: %[[EL:.*]] = arith.muli %[[CUT]], %[[C64]] : index
// TILE: %[[LIM:.*]] = arith.minsi %total_num, %[[EL]] : index
// TILE: %group_given = arith.cmpi sgt, %group_num, %{{.*}} : index
// TILE: %counted_num = arith.select %group_given, %[[LIM]], %total_num : index
// TILE: %block_offset = arith.muli %block_factor, %block_idx : index
// TILE: arith.subi %counted_num, %block_offset : index

// CPP: int64_t groupNum = tilingData->groupNum;
// CPP: int64_t groupsRead = Max(groupNum, 0);
// CPP: int64_t counted = 0;
// CPP-NEXT: for (int64_t i = 0; i < groupsRead; ++i) {
// CPP-NEXT: int64_t value = countsGm.GetValue(i);
// CPP-NEXT: counted = counted + static_cast<int64_t>(value);
// CPP-NEXT: }
// CPP-NEXT: bool groupGiven = groupNum > -1;
// CPP-NEXT: int64_t countedNum = groupGiven ? Min(totalNum, Min(Max(counted, 0), FloorDiv(totalNum, 64)) * 64) : totalNum;
// CPP: blockLength = Max(Min(blockFactor, countedNum - blockOffset), 0);
func.func @f(%x: tensor<8x128xf16>, %g: tensor<3xi64>) -> tensor<8x64xf16> {
  %y = hsg.clipped_swiglu %x {interleaved = false} : tensor<8x128xf16>
  %z = hsg.first_rows %y, %g : tensor<8x64xf16>, tensor<3xi64>
  return %z : tensor<8x64xf16>
}

