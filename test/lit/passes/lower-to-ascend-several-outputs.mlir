// RUN: hswc-opt %s --lower-to-ascend | filecheck %s

// relu(x) and x > 0 as torch-mlir exports them (two generics reading x): one kernel of two
// outputs, the i1 stored a byte per element; each output its VECOUT queue, EnQue, DeQue and
// DataCopyPad to its own GlobalTensor.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%arg0: tensor<4x64xf16>) -> (tensor<4x64xf16>, tensor<4x64xi1>) {
  %cst = arith.constant 0.000000e+00 : f16
  %0 = tensor.empty() : tensor<4x64xf16>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x64xf16>) outs(%0 : tensor<4x64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %4 = arith.cmpf ugt, %in, %cst : f16
    %5 = arith.select %4, %in, %cst : f16
    linalg.yield %5 : f16
  } -> tensor<4x64xf16>
  %2 = tensor.empty() : tensor<4x64xi1>
  %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x64xf16>) outs(%2 : tensor<4x64xi1>) {
  ^bb0(%in: f16, %out: i1):
    %4 = arith.cmpf ogt, %in, %cst : f16
    linalg.yield %4 : i1
  } -> tensor<4x64xi1>
  return %1, %3 : tensor<4x64xf16>, tensor<4x64xi1>
}
// CHECK-LABEL: func.func @main(
// CHECK:         %[[Y0:[0-9a-z_]+]], %[[Y1:[0-9a-z_]+]] = hsg.launch @main_op_kernel_f16_to_f16_i8 blocks %{{.*}} (%arg0) tiling({{.*}}) scalars(%{{.*}} : f32) : tensor<4x64xf16> -> tensor<4x64xf16>, tensor<4x64xi1>
// CHECK-NEXT:    func.return %[[Y0]], %[[Y1]] : tensor<4x64xf16>, tensor<4x64xi1>
// CHECK-LABEL: func.func @main_op_kernel_f16_to_f16_i8(%arg0: memref<?xf16>, %y0: memref<?xf16>, %y1: memref<?xi8>, %total_num: index, %block_factor: index, %ub_factor: index, %cst: f32)
// CHECK-SAME:      hsg.outputs = 2 : i64
// CHECK:           %y0_gm = ascend.set_global_buffer %y0[%block_offset], %block_length : memref<?xf16> -> !ascend.global_tensor<f16>
// CHECK-NEXT:      %y1_gm = ascend.set_global_buffer %y1[%block_offset], %block_length : memref<?xi8> -> !ascend.global_tensor<i8>
// CHECK:           %output_queue_y0 = ascend.tque : !ascend.tque<vecout, 2>
// CHECK-NEXT:      %output_queue_y1 = ascend.tque : !ascend.tque<vecout, 2>
// CHECK:           ascend.init_buffer %pipe, %output_queue_y0, num 2, %half_bytes : !ascend.tque<vecout, 2>
// CHECK:           ascend.init_buffer %pipe, %output_queue_y1, num 2, %byte_bytes : !ascend.tque<vecout, 2>
// CHECK:             ascend.compare_scalar %[[MASK:.*]], %arg0_fp16, %{{.*}} : f16, gt, %compute_num
// CHECK:             ascend.select %tmp_local, %[[MASK]], %const_local{{.*}}, 0.000000e+00 : f16, vsel_tensor_scalar_mode
// CHECK:             ascend.cast %y1_local, %tmp_local, cast_trunc, %current_num : !ascend.local_tensor<i8, vecout>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:        ascend.enque %output_queue_y0, %y0_local
// CHECK-NEXT:        ascend.enque %output_queue_y1, %y1_local
// CHECK-NEXT:        %[[L0:.*]] = ascend.deque %output_queue_y0 : !ascend.tque<vecout, 2> -> !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:        %[[A0:.*]] = ascend.global_at %y0_gm[%chunk_offset]
// CHECK-NEXT:        ascend.data_copy_pad %[[A0]], %[[L0]], %half_copy_bytes : !ascend.global_tensor<f16>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:        ascend.free_tensor %output_queue_y0, %[[L0]]
// CHECK-NEXT:        %[[L1:.*]] = ascend.deque %output_queue_y1 : !ascend.tque<vecout, 2> -> !ascend.local_tensor<i8, vecout>
// CHECK-NEXT:        %[[A1:.*]] = ascend.global_at %y1_gm[%chunk_offset]
// CHECK-NEXT:        ascend.data_copy_pad %[[A1]], %[[L1]], %byte_copy_bytes : !ascend.global_tensor<i8>, !ascend.local_tensor<i8, vecout>
// CHECK-NEXT:        ascend.free_tensor %output_queue_y1, %[[L1]]
