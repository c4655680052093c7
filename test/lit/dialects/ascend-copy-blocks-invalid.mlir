// DataCopyPad of several blocks (a row kernel's rows): blockCount in [0, 4095], strides not
// negative (DataCopyExtParams).
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// 4096 blocks: one more than blockCount holds.
func.func @too_many_blocks(%t: !ascend.local_tensor<f32, vecin>, %g: !ascend.global_tensor<f32>, %n: index) {
  %c = arith.constant 4096 : index
  // CHECK: ascend-copy-blocks-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' block count 4096 is outside [0, 4095] (DataCopyExtParams.blockCount)
  ascend.data_copy_pad %t, %g, %n blocks %c : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
  func.return
}

// -----

// A negative UB stride.
func.func @negative_stride(%t: !ascend.local_tensor<f32, vecin>, %g: !ascend.global_tensor<f32>, %n: index) {
  // CHECK: ascend-copy-blocks-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' dst_stride -1 is negative
  ascend.data_copy_pad %t, %g, %n blocks %n {dst_stride = -1 : i64} : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
  func.return
}
