// The generic form of the ascend ops without enum properties re-parses to the same custom form.
// (Ops with CmpMode, SelMode, RoundMode or Pipe properties: ascend-generic-enums.mlir.)
// RUN: hswc-opt %s --print-op-generic | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Kernel structure, queues, copies and elementwise arithmetic through the generic form.
func.func @generic(%gm: memref<?xf32>, %off: index, %n: index) {
  %b = ascend.get_block_idx
  %g = ascend.set_global_buffer %gm[%off], %n : memref<?xf32> -> !ascend.global_tensor<f32>
  %at = ascend.global_at %g[%b] : !ascend.global_tensor<f32>
  %pipe = ascend.tpipe
  %qi = ascend.tque : !ascend.tque<vecin, 2>
  %qo = ascend.tque : !ascend.tque<vecout, 1>
  %buf = ascend.tbuf : !ascend.tbuf<veccalc>
  ascend.init_buffer %pipe, %qi, num 2, %n : !ascend.tque<vecin, 2>
  ascend.init_buffer %pipe, %buf, %n : !ascend.tbuf<veccalc>
  %t = ascend.alloc_tensor %qi : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f32, vecin>
  ascend.data_copy_pad %t, %at, %n pad 0.0 : f32 : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
  ascend.enque %qi, %t : !ascend.tque<vecin, 2>, !ascend.local_tensor<f32, vecin>
  %d = ascend.deque %qi : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f32, vecin>
  %s = ascend.tbuf_get %buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
  ascend.muls %s, %d, 0.333333343 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, vecin>
  ascend.adds %s, %s, 0.5 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.duplicate %s, 1.0 : f32, %n : !ascend.local_tensor<f32, veccalc>
  %o = ascend.alloc_tensor %qo : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f32, vecout>
  %r = ascend.reinterpret_cast %o : !ascend.local_tensor<f32, vecout> -> !ascend.local_tensor<f32, vecout>
  ascend.mul %r, %d, %s, %n : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.free_tensor %qi, %d : !ascend.tque<vecin, 2>, !ascend.local_tensor<f32, vecin>
  ascend.data_copy %at, %o, %n : !ascend.global_tensor<f32>, !ascend.local_tensor<f32, vecout>
  func.return
}
// CHECK-LABEL: func.func @generic(
// CHECK-SAME:      %[[GM:[^:]*]]: memref<?xf32>, %[[OFF:[^:]*]]: index, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    %[[B:.*]] = ascend.get_block_idx
// CHECK-NEXT:    %[[G:.*]] = ascend.set_global_buffer %[[GM]][%[[OFF]]], %[[N]] : memref<?xf32> -> !ascend.global_tensor<f32>
// CHECK-NEXT:    %[[AT:.*]] = ascend.global_at %[[G]][%[[B]]] : !ascend.global_tensor<f32>
// CHECK-NEXT:    %[[PIPE:.*]] = ascend.tpipe
// CHECK-NEXT:    %[[QI:.*]] = ascend.tque : !ascend.tque<vecin, 2>
// CHECK-NEXT:    %[[QO:.*]] = ascend.tque : !ascend.tque<vecout, 1>
// CHECK-NEXT:    %[[BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[QI]], num 2, %[[N]] : !ascend.tque<vecin, 2>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[BUF]], %[[N]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    %[[T:.*]] = ascend.alloc_tensor %[[QI]] : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    ascend.data_copy_pad %[[T]], %[[AT]], %[[N]] pad 0.000000e+00 : f32 : !ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>
// CHECK-NEXT:    ascend.enque %[[QI]], %[[T]] : !ascend.tque<vecin, 2>, !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    %[[D:.*]] = ascend.deque %[[QI]] : !ascend.tque<vecin, 2> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    %[[S:.*]] = ascend.tbuf_get %[[BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.muls %[[S]], %[[D]], 0.333333343 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    ascend.adds %[[S]], %[[S]], 5.000000e-01 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[S]], 1.000000e+00 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    %[[O:.*]] = ascend.alloc_tensor %[[QO]] : !ascend.tque<vecout, 1> -> !ascend.local_tensor<f32, vecout>
// CHECK-NEXT:    %[[R:.*]] = ascend.reinterpret_cast %[[O]] : !ascend.local_tensor<f32, vecout> -> !ascend.local_tensor<f32, vecout>
// CHECK-NEXT:    ascend.mul %[[R]], %[[D]], %[[S]], %[[N]] : !ascend.local_tensor<f32, vecout>, !ascend.local_tensor<f32, vecin>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.free_tensor %[[QI]], %[[D]] : !ascend.tque<vecin, 2>, !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    ascend.data_copy %[[AT]], %[[O]], %[[N]] : !ascend.global_tensor<f32>, !ascend.local_tensor<f32, vecout>
// CHECK-NEXT:    func.return
// GENERIC-LABEL: "func.func"() <{sym_name = "generic"
// GENERIC:         "ascend.init_buffer"(%{{.*}}, %{{.*}}, %{{.*}}) <{num = 2 : i32}> : (!ascend.tpipe, !ascend.tque<vecin, 2>, index) -> ()
// GENERIC:         "ascend.data_copy_pad"(%{{.*}}, %{{.*}}, %{{.*}}) <{pad_value = 0.000000e+00 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>, index) -> ()
// GENERIC:         "ascend.muls"(%{{.*}}, %{{.*}}, %{{.*}}) <{scalar = 0.333333343 : f32}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, vecin>, index) -> ()

// The elementwise families and DataCopy UB -> UB through the generic form: operands in the order
// dst, sources, count; Maxs/Mins keep their scalar as a property.
func.func @elementwise(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, vecout>, %m: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  ascend.add %f, %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.sub %f, %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.div %h, %h, %h, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
  ascend.max %f, %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.min %h, %h, %h, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
  ascend.maxs %f, %f, 0.0 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.mins %h, %h, 6.0 : f16, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
  ascend.abs %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.relu %h, %h, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
  %w = ascend.reinterpret_cast %m : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<ui16, veccalc>
  ascend.and %w, %w, %w, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  ascend.or %w, %w, %w, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  ascend.not %w, %w, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  ascend.data_copy %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  func.return
}
// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME:      %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[H:[^:]*]]: !ascend.local_tensor<f16, vecout>, %[[M:[^:]*]]: !ascend.local_tensor<ui8, veccalc>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.add %[[F]], %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.sub %[[F]], %[[F]], %[[F]], %[[N]] :
// CHECK-NEXT:    ascend.div %[[H]], %[[H]], %[[H]], %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    ascend.max %[[F]], %[[F]], %[[F]], %[[N]] :
// CHECK-NEXT:    ascend.min %[[H]], %[[H]], %[[H]], %[[N]] :
// CHECK-NEXT:    ascend.maxs %[[F]], %[[F]], 0.000000e+00 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.mins %[[H]], %[[H]], 6.000000e+00 : f16, %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    ascend.abs %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.relu %[[H]], %[[H]], %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    %[[W:.*]] = ascend.reinterpret_cast %[[M]] : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    ascend.and %[[W]], %[[W]], %[[W]], %[[N]] : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    ascend.or %[[W]], %[[W]], %[[W]], %[[N]] :
// CHECK-NEXT:    ascend.not %[[W]], %[[W]], %[[N]] : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    ascend.data_copy %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    func.return
// GENERIC-LABEL: "func.func"() <{sym_name = "elementwise"
// GENERIC:         "ascend.add"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, index) -> ()
// GENERIC:         "ascend.maxs"(%{{.*}}, %{{.*}}, %{{.*}}) <{scalar = 0.000000e+00 : f32}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, index) -> ()
// GENERIC:         "ascend.mins"(%{{.*}}, %{{.*}}, %{{.*}}) <{scalar = 6.000000e+00 : f16}> : (!ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>, index) -> ()
// GENERIC:         "ascend.not"(%{{.*}}, %{{.*}}, %{{.*}}) : (!ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, index) -> ()
// GENERIC:         "ascend.data_copy"(%{{.*}}, %{{.*}}, %{{.*}}) : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, index) -> ()
