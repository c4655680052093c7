// Run-time scalars: every op with a scalar source takes it as a value (`%s : f32`) as well as an
// attribute (`0.5 : f32`); both forms print stably, and the generic form re-parses to them.
// RUN: hswc-opt %s | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Muls, Adds, Maxs, Mins, Duplicate (f16, f32, bf16), CompareScalar and Select in
// VSEL_TENSOR_SCALAR_MODE with a value; Mins and Select keep the attribute form beside it.
func.func @values(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, vecout>, %b: !ascend.local_tensor<bf16, vecout>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index, %s: f32, %hs: f16, %bs: bf16) {
  ascend.muls %f, %f, %s : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.adds %h, %h, %hs : f16, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
  ascend.maxs %f, %f, %s : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.mins %h, %h, %hs : f16, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
  ascend.mins %f, %f, 0.5 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.duplicate %f, %s : f32, %n : !ascend.local_tensor<f32, veccalc>
  ascend.duplicate %h, %hs : f16, %n : !ascend.local_tensor<f16, vecout>
  ascend.duplicate %b, %bs : bf16, %n : !ascend.local_tensor<bf16, vecout>
  ascend.compare_scalar %m, %f, %s : f32, ge, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.select %h, %m, %h, %hs : f16, vsel_tensor_scalar_mode, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecout>
  ascend.select %f, %m, %f, 1.5 : f32, vsel_tensor_scalar_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.select %f, %m, %f, %f, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}
// CHECK-LABEL: func.func @values(
// CHECK-SAME:      %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[H:[^:]*]]: !ascend.local_tensor<f16, vecout>, %[[B:[^:]*]]: !ascend.local_tensor<bf16, vecout>, %[[M:[^:]*]]: !ascend.local_tensor<ui8, veccalc>, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f32, %[[HS:[^:]*]]: f16, %[[BS:[^:]*]]: bf16) {
// CHECK-NEXT:    ascend.muls %[[F]], %[[F]], %[[S]] : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.adds %[[H]], %[[H]], %[[HS]] : f16, %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    ascend.maxs %[[F]], %[[F]], %[[S]] : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.mins %[[H]], %[[H]], %[[HS]] : f16, %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    ascend.mins %[[F]], %[[F]], 5.000000e-01 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[F]], %[[S]] : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[H]], %[[HS]] : f16, %[[N]] : !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    ascend.duplicate %[[B]], %[[BS]] : bf16, %[[N]] : !ascend.local_tensor<bf16, vecout>
// CHECK-NEXT:    ascend.compare_scalar %[[M]], %[[F]], %[[S]] : f32, ge, %[[N]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.select %[[H]], %[[M]], %[[H]], %[[HS]] : f16, vsel_tensor_scalar_mode, %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    ascend.select %[[F]], %[[M]], %[[F]], 1.500000e+00 : f32, vsel_tensor_scalar_mode, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.select %[[F]], %[[M]], %[[F]], %[[F]], vsel_tensor_tensor_mode, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    func.return
// The value is an operand after the tensors, before count; Select names its operand groups
// (dst, mask, src0, src1, scalar_value, count).
// GENERIC-LABEL: "func.func"() <{sym_name = "values"
// GENERIC:         "ascend.muls"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, f32, index) -> ()
// GENERIC:         "ascend.mins"(%{{.*}}, %{{.*}}, %{{.*}}) <{scalar = 5.000000e-01 : f32}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, index) -> ()
// GENERIC:         "ascend.duplicate"(%{{.*}}, %{{.*}}, %{{.*}}) : (!ascend.local_tensor<bf16, vecout>, bf16, index) -> ()
// GENERIC:         "ascend.compare_scalar"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #ascend<cmpmode ge>}> : (!ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, f32, index) -> ()
// GENERIC:         "ascend.select"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #ascend<selmode vsel_tensor_scalar_mode>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1>}> : (!ascend.local_tensor<f16, vecout>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecout>, f16, index) -> ()
// GENERIC:         "ascend.select"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{scalar = 1.500000e+00 : f32, mode = #ascend<selmode vsel_tensor_scalar_mode>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, index) -> ()
// GENERIC:         "ascend.select"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{mode = #ascend<selmode vsel_tensor_tensor_mode>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, index) -> ()

// A value computed by the kernel's scalar code feeds a call the same way.
func.func @computed(%f: !ascend.local_tensor<f16, veccalc>, %n: index, %lambd: f32) {
  %0 = arith.negf %lambd : f32
  %neg_lambd = arith.truncf %0 : f32 to f16
  ascend.adds %f, %f, %neg_lambd : f16, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}
// CHECK-LABEL: func.func @computed(
// CHECK-SAME:      %[[F:[^:]*]]: !ascend.local_tensor<f16, veccalc>, %[[N:[^:]*]]: index, %[[L:[^:]*]]: f32) {
// CHECK-NEXT:    %[[NEG:.*]] = arith.negf %[[L]] : f32
// CHECK-NEXT:    %[[H:.*]] = arith.truncf %[[NEG]] : f32 to f16
// CHECK-NEXT:    ascend.adds %[[F]], %[[F]], %[[H]] : f16, %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    func.return
