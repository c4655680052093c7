// The ascend enum attributes round-trip through the generic form as `#ascend<pipe pipe_v>`.
// RUN: hswc-opt %s --print-op-generic | hswc-opt | filecheck %s

// Ops with enum properties through the generic form: Compare, CompareScalar, Select, Cast, PipeBarrier.
func.func @enums(%m: !ascend.local_tensor<ui8, veccalc>, %f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, vecout>, %n: index) {
  ascend.compare %m, %f, %f, gt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.compare_scalar %m, %f, 3.0 : f32, lt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.select %f, %m, %f, %f, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %h, %f, cast_rint, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f32, veccalc>
  ascend.pipe_barrier pipe_v
  func.return
}
// CHECK-LABEL: func.func @enums(
// CHECK-SAME:      %[[M:[^:]*]]: !ascend.local_tensor<ui8, veccalc>, %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[H:[^:]*]]: !ascend.local_tensor<f16, vecout>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.compare %[[M]], %[[F]], %[[F]], gt, %[[N]] :
// CHECK-NEXT:    ascend.compare_scalar %[[M]], %[[F]], 3.000000e+00 : f32, lt, %[[N]] :
// CHECK-NEXT:    ascend.select %[[F]], %[[M]], %[[F]], %[[F]], vsel_tensor_tensor_mode, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_rint, %[[N]] :
// CHECK-NEXT:    ascend.pipe_barrier pipe_v
// CHECK-NEXT:    func.return
