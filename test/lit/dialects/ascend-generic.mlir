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
// GENERIC:         "ascend.data_copy_pad"(%{{.*}}, %{{.*}}, %{{.*}}) <{pad_value = 0.000000e+00 : f32}> : (!ascend.local_tensor<f32, vecin>, !ascend.global_tensor<f32>, index) -> ()
// GENERIC:         "ascend.muls"(%{{.*}}, %{{.*}}, %{{.*}}) <{scalar = 0.333333343 : f32}> : (!ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, vecin>, index) -> ()
