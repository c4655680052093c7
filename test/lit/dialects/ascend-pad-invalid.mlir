// DataCopyPad's pad value must have the tensor's dtype, like every scalar of the dialect.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// An f32 pad value for an f16 copy.
func.func @pad_dtype(%t: !ascend.local_tensor<f16, vecin>, %g: !ascend.global_tensor<f16>, %n: index) {
  // CHECK: ascend-pad-invalid.mlir:[[# @LINE + 1]]:3: error: 'ascend.data_copy_pad' {{.*}}f32{{.*}}f16
  ascend.data_copy_pad %t, %g, %n pad 0.0 : f32 : !ascend.local_tensor<f16, vecin>, !ascend.global_tensor<f16>
  func.return
}
