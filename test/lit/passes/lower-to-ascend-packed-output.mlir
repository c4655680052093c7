// RUN: hswc-opt %s --lower-to-ascend | filecheck %s

// relu(x) and x > 0 with the mask marked {hsg.storage = "bits"}: the kernel takes the mask as
// memref<?xui8> (8 elements a byte), the tiling aligns blockFactor to 8, the second compare
// writes its mask straight into the VECOUT tensor, which is copied out as ceil(cur / 8) bytes at
// byte chunk_offset / 8.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%arg0: tensor<4x64xf16>) -> (tensor<4x64xf16>, tensor<4x64xi1> {hsg.storage = "bits"}) {
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
// CHECK:         hsg.launch @main_op_kernel_f16_to_f16_ui8 {{.*}} : tensor<4x64xf16> -> tensor<4x64xf16>, tensor<4x64xi1>
// CHECK-LABEL: func.func @main_op_tiling_f16_to_f16_ui8(
// CHECK-SAME:      block_align = 8 : i64
// CHECK-LABEL: func.func @main_op_kernel_f16_to_f16_ui8(%arg0: memref<?xf16>, %y0: memref<?xf16>, %y1: memref<?xui8>,
// CHECK:           %[[AT:.*]] = arith.floordivsi %block_offset, %[[EIGHT:.*]] : index
// CHECK-NEXT:      %[[BYTES:.*]] = arith.ceildivsi %block_length, %[[EIGHT]] : index
// CHECK-NEXT:      %y1_gm = ascend.set_global_buffer %y1[%[[AT]]], %[[BYTES]] : memref<?xui8> -> !ascend.global_tensor<ui8>
// CHECK:           ascend.init_buffer %pipe, %output_queue_y1, num 2, %mask_bytes : !ascend.tque<vecout, 2>
// CHECK:             %y1_local = ascend.alloc_tensor %output_queue_y1 : !ascend.tque<vecout, 2> -> !ascend.local_tensor<ui8, vecout>
// CHECK:             ascend.compare_scalar %y1_local, %arg0_fp16, %{{.*}} : f16, gt, %compute_num : !ascend.local_tensor<ui8, vecout>, !ascend.local_tensor<f16, vecin>
// CHECK:             %[[L:.*]] = ascend.deque %output_queue_y1 : !ascend.tque<vecout, 2> -> !ascend.local_tensor<ui8, vecout>
// CHECK:             %[[C:.*]] = arith.floordivsi %chunk_offset, %{{.*}} : index
// CHECK-NEXT:        %y1_gm_at = ascend.global_at %y1_gm[%[[C]]] : !ascend.global_tensor<ui8>
// CHECK-NEXT:        %packed_copy_bytes = arith.ceildivsi %current_num, %{{.*}} : index
// CHECK-NEXT:        ascend.data_copy_pad %y1_gm_at, %[[L]], %packed_copy_bytes : !ascend.global_tensor<ui8>, !ascend.local_tensor<ui8, vecout>
