// Malformed ascend types and enum keywords are parse errors that name what was expected.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// A TQue lives at VECIN or VECOUT, not VECCALC.
func.func @tque_veccalc(%q: !ascend.tque<veccalc, 1>) {
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected one of 'vecin', 'vecout' as a TPosition
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^

// -----

// A TQue holds at least one buffer.
func.func @tque_depth_0(%q: !ascend.tque<vecin, 0>) {
  func.return
}
// CHECK: error:
// CHECK: TQue depth must be at least 1, got 0

// -----

// A negative TQue depth is not even an integer the type accepts.
func.func @tque_depth_negative(%q: !ascend.tque<vecout, -1>) {
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected integer literal
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^

// -----

// A TBuf is a UB buffer: GM is not one of its positions.
func.func @tbuf_gm(%b: !ascend.tbuf<gm>) {
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected one of 'veccalc', 'vecin', 'vecout' as a TPosition
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^

// -----

// A LocalTensor lives in UB too.
func.func @local_tensor_gm(%t: !ascend.local_tensor<f16, gm>) {
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected one of 'veccalc', 'vecin', 'vecout' as a TPosition
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^

// -----

// A LocalTensor type names its position.
func.func @local_tensor_no_position(%t: !ascend.local_tensor<f16>) {
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected ','
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^

// -----

// PipeBarrier knows the five pipes only.
func.func @unknown_pipe() {
  ascend.pipe_barrier pipe_x
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected `pipe_s`, `pipe_v`, `pipe_mte2`, `pipe_mte3`, or `pipe_all`.
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^

// -----

// Compare knows the six CMPMODEs only.
func.func @unknown_cmpmode(%m: !ascend.local_tensor<ui8, veccalc>, %a: !ascend.local_tensor<f32, veccalc>, %n: index) {
  ascend.compare %m, %a, %a, gtx, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected `lt`, `gt`, `ge`, `eq`, `ne`, or `le`.
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^

// -----

// Cast knows the seven round modes only.
func.func @unknown_round_mode(%d: !ascend.local_tensor<f16, vecout>, %s: !ascend.local_tensor<f32, veccalc>, %n: index) {
  ascend.cast %d, %s, cast_nearest, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f32, veccalc>
  func.return
}
// CHECK: ascend-types-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Expected `cast_none`, `cast_rint`, `cast_floor`, `cast_ceil`, `cast_round`, `cast_trunc`, or `cast_odd`.
// CHECK-NEXT: {{.*}}
// CHECK-NEXT: ^
