// Custom syntax in, parse, print, parse again: every ascend type and op prints stably.
// RUN: hswc-opt %s | hswc-opt | filecheck %s

// Every type: TPipe, TQue at both queue positions and depths 1 and 2, TBuf at every UB position,
// GlobalTensor and LocalTensor of each element type the kernel uses.
func.func @types(%p: !ascend.tpipe, %qi: !ascend.tque<vecin, 1>, %qo: !ascend.tque<vecout, 2>, %bc: !ascend.tbuf<veccalc>, %bi: !ascend.tbuf<vecin>, %bo: !ascend.tbuf<vecout>, %g16: !ascend.global_tensor<f16>, %gb: !ascend.global_tensor<bf16>, %g32: !ascend.global_tensor<f32>, %li: !ascend.local_tensor<f16, vecin>, %lo: !ascend.local_tensor<bf16, vecout>, %lc: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>) {
  func.return
}
// CHECK-LABEL: func.func @types(
// CHECK-SAME:      %{{.*}}: !ascend.tpipe, %{{.*}}: !ascend.tque<vecin, 1>, %{{.*}}: !ascend.tque<vecout, 2>, %{{.*}}: !ascend.tbuf<veccalc>, %{{.*}}: !ascend.tbuf<vecin>, %{{.*}}: !ascend.tbuf<vecout>, %{{.*}}: !ascend.global_tensor<f16>, %{{.*}}: !ascend.global_tensor<bf16>, %{{.*}}: !ascend.global_tensor<f32>, %{{.*}}: !ascend.local_tensor<f16, vecin>, %{{.*}}: !ascend.local_tensor<bf16, vecout>, %{{.*}}: !ascend.local_tensor<f32, veccalc>, %{{.*}}: !ascend.local_tensor<ui8, veccalc>) {

// Kernel structure: block index and count, GM views, the pipe, queues and buffers with InitBuffer.
func.func @structure(%gm: memref<?xf16>, %off: index, %len: index, %bytes: index) {
  %b = ascend.get_block_idx
  %nb = ascend.get_block_num
  %g = ascend.set_global_buffer %gm[%off], %len : memref<?xf16> -> !ascend.global_tensor<f16>
  %at = ascend.global_at %g[%b] : !ascend.global_tensor<f16>
  %pipe = ascend.tpipe
  %q1 = ascend.tque : !ascend.tque<vecin, 1>
  %q2 = ascend.tque : !ascend.tque<vecout, 2>
  %buf = ascend.tbuf : !ascend.tbuf<veccalc>
  ascend.init_buffer %pipe, %q1, num 1, %bytes : !ascend.tque<vecin, 1>
  ascend.init_buffer %pipe, %q2, num 2, %bytes : !ascend.tque<vecout, 2>
  ascend.init_buffer %pipe, %buf, %bytes : !ascend.tbuf<veccalc>
  // num's typed spelling (an i32) is read too, and prints bare.
  ascend.init_buffer %pipe, %q2, num 2 : i32, %bytes : !ascend.tque<vecout, 2>
  func.return
}
// CHECK-LABEL: func.func @structure(
// CHECK-SAME:      %[[GM:[^:]*]]: memref<?xf16>, %[[OFF:[^:]*]]: index, %[[LEN:[^:]*]]: index, %[[BYTES:[^:]*]]: index) {
// CHECK-NEXT:    %[[B:.*]] = ascend.get_block_idx
// CHECK-NEXT:    %{{.*}} = ascend.get_block_num
// CHECK-NEXT:    %[[G:.*]] = ascend.set_global_buffer %[[GM]][%[[OFF]]], %[[LEN]] : memref<?xf16> -> !ascend.global_tensor<f16>
// CHECK-NEXT:    %{{.*}} = ascend.global_at %[[G]][%[[B]]] : !ascend.global_tensor<f16>
// CHECK-NEXT:    %[[PIPE:.*]] = ascend.tpipe
// CHECK-NEXT:    %[[Q1:.*]] = ascend.tque : !ascend.tque<vecin, 1>
// CHECK-NEXT:    %[[Q2:.*]] = ascend.tque : !ascend.tque<vecout, 2>
// CHECK-NEXT:    %[[BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[Q1]], num 1, %[[BYTES]] : !ascend.tque<vecin, 1>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[Q2]], num 2, %[[BYTES]] : !ascend.tque<vecout, 2>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[BUF]], %[[BYTES]] : !ascend.tbuf<veccalc>
// CHECK-NEXT:    ascend.init_buffer %[[PIPE]], %[[Q2]], num 2, %[[BYTES]] : !ascend.tque<vecout, 2>
// CHECK-NEXT:    func.return

// LocalTensor::operator[]: the tensor from an element offset on (a broadcast input's row run).
// LocalTensor::GetValue: the scalar unit's read of one UB element.
func.func @local_at(%t: !ascend.local_tensor<f16, vecin>, %off: index) {
  %r = ascend.local_at %t[%off] : !ascend.local_tensor<f16, vecin>
  %v = ascend.get_value %t[%off] : !ascend.local_tensor<f16, vecin> -> f16
  func.return
}
// CHECK-LABEL: func.func @local_at(
// CHECK-SAME:      %[[T:[^:]*]]: !ascend.local_tensor<f16, vecin>, %[[OFF:[^:]*]]: index) {
// CHECK-NEXT:    %{{.*}} = ascend.local_at %[[T]][%[[OFF]]] : !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    %{{.*}} = ascend.get_value %[[T]][%[[OFF]]] : !ascend.local_tensor<f16, vecin> -> f16
// CHECK-NEXT:    func.return

// Queue and buffer traffic: AllocTensor, EnQue, DeQue, FreeTensor, TBuf::Get, ReinterpretCast.
func.func @queues(%qi: !ascend.tque<vecin, 1>, %qo: !ascend.tque<vecout, 1>, %buf: !ascend.tbuf<veccalc>) {
  %t = ascend.alloc_tensor %qi : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
  ascend.enque %qi, %t : !ascend.tque<vecin, 1>, !ascend.local_tensor<f32, vecin>
  %d = ascend.deque %qi : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
  %r = ascend.reinterpret_cast %d : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
  ascend.free_tensor %qi, %d : !ascend.tque<vecin, 1>, !ascend.local_tensor<f32, vecin>
  %o = ascend.alloc_tensor %qo : !ascend.tque<vecout, 1> -> !ascend.local_tensor<bf16, vecout>
  %m = ascend.tbuf_get %buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
  %f = ascend.tbuf_get %buf : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
  func.return
}
// CHECK-LABEL: func.func @queues(
// CHECK-SAME:      %[[QI:[^:]*]]: !ascend.tque<vecin, 1>, %[[QO:[^:]*]]: !ascend.tque<vecout, 1>, %[[BUF:[^:]*]]: !ascend.tbuf<veccalc>) {
// CHECK-NEXT:    %[[T:.*]] = ascend.alloc_tensor %[[QI]] : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    ascend.enque %[[QI]], %[[T]] : !ascend.tque<vecin, 1>, !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    %[[D:.*]] = ascend.deque %[[QI]] : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    %{{.*}} = ascend.reinterpret_cast %[[D]] : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    ascend.free_tensor %[[QI]], %[[D]] : !ascend.tque<vecin, 1>, !ascend.local_tensor<f32, vecin>
// CHECK-NEXT:    %{{.*}} = ascend.alloc_tensor %[[QO]] : !ascend.tque<vecout, 1> -> !ascend.local_tensor<bf16, vecout>
// CHECK-NEXT:    %{{.*}} = ascend.tbuf_get %[[BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<ui8, veccalc>
// CHECK-NEXT:    %{{.*}} = ascend.tbuf_get %[[BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    func.return

// Copies GM -> UB (VECIN) and UB (VECOUT) -> GM: DataCopy, DataCopyPad with and without a pad value.
func.func @copies(%in: !ascend.local_tensor<bf16, vecin>, %out: !ascend.local_tensor<bf16, vecout>, %g: !ascend.global_tensor<bf16>, %n: index) {
  ascend.data_copy %in, %g, %n : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
  ascend.data_copy %g, %out, %n : !ascend.global_tensor<bf16>, !ascend.local_tensor<bf16, vecout>
  ascend.data_copy_pad %in, %g, %n : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
  ascend.data_copy_pad %in, %g, %n pad 1.5 : bf16 : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
  ascend.data_copy_pad %g, %out, %n : !ascend.global_tensor<bf16>, !ascend.local_tensor<bf16, vecout>
  func.return
}
// CHECK-LABEL: func.func @copies(
// CHECK-SAME:      %[[IN:[^:]*]]: !ascend.local_tensor<bf16, vecin>, %[[OUT:[^:]*]]: !ascend.local_tensor<bf16, vecout>, %[[G:[^:]*]]: !ascend.global_tensor<bf16>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.data_copy %[[IN]], %[[G]], %[[N]] : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
// CHECK-NEXT:    ascend.data_copy %[[G]], %[[OUT]], %[[N]] : !ascend.global_tensor<bf16>, !ascend.local_tensor<bf16, vecout>
// CHECK-NEXT:    ascend.data_copy_pad %[[IN]], %[[G]], %[[N]] : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
// CHECK-NEXT:    ascend.data_copy_pad %[[IN]], %[[G]], %[[N]] pad 1.500000e+00 : bf16 : !ascend.local_tensor<bf16, vecin>, !ascend.global_tensor<bf16>
// CHECK-NEXT:    ascend.data_copy_pad %[[G]], %[[OUT]], %[[N]] : !ascend.global_tensor<bf16>, !ascend.local_tensor<bf16, vecout>
// CHECK-NEXT:    func.return

// Elementwise vector instructions on half and float: Muls, Adds, Mul, Duplicate (also bf16).
func.func @arith(%h: !ascend.local_tensor<f16, veccalc>, %f: !ascend.local_tensor<f32, veccalc>, %b: !ascend.local_tensor<bf16, veccalc>, %n: index) {
  ascend.muls %f, %f, 0.333333343 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.muls %h, %h, -2.0 : f16, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.adds %f, %f, 0.5 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.adds %h, %h, 3.0 : f16, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.mul %f, %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.mul %h, %h, %h, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.duplicate %f, -3.0 : f32, %n : !ascend.local_tensor<f32, veccalc>
  ascend.duplicate %h, 1.0 : f16, %n : !ascend.local_tensor<f16, veccalc>
  ascend.duplicate %b, 0.0 : bf16, %n : !ascend.local_tensor<bf16, veccalc>
  func.return
}
// CHECK-LABEL: func.func @arith(
// CHECK-SAME:      %[[H:[^:]*]]: !ascend.local_tensor<f16, veccalc>, %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[B:[^:]*]]: !ascend.local_tensor<bf16, veccalc>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.muls %[[F]], %[[F]], 0.333333343 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.muls %[[H]], %[[H]], -2.000000e+00 : f16, %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.adds %[[F]], %[[F]], 5.000000e-01 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.adds %[[H]], %[[H]], 3.000000e+00 : f16, %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.mul %[[F]], %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.mul %[[H]], %[[H]], %[[H]], %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[F]], -3.000000e+00 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[H]], 1.000000e+00 : f16, %[[N]] : !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.duplicate %[[B]], 0.000000e+00 : bf16, %[[N]] : !ascend.local_tensor<bf16, veccalc>
// CHECK-NEXT:    func.return

// The tensor-tensor arithmetic family on float and half: Add, Sub, Mul, Div, Max, Min.
func.func @binary(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, vecin>, %o: !ascend.local_tensor<f16, vecout>, %n: index) {
  ascend.add %f, %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.sub %o, %h, %o, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecout>
  ascend.div %f, %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.div %o, %h, %h, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecin>
  ascend.max %f, %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.min %o, %o, %h, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
  func.return
}
// CHECK-LABEL: func.func @binary(
// CHECK-SAME:      %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[H:[^:]*]]: !ascend.local_tensor<f16, vecin>, %[[O:[^:]*]]: !ascend.local_tensor<f16, vecout>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.add %[[F]], %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.sub %[[O]], %[[H]], %[[O]], %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecout>
// CHECK-NEXT:    ascend.div %[[F]], %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.div %[[O]], %[[H]], %[[H]], %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    ascend.max %[[F]], %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.min %[[O]], %[[O]], %[[H]], %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    func.return

// Maxs and Mins with a scalar of the tensors' dtype, Abs and Relu, on float and half.
func.func @scalar_and_unary(%f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  ascend.maxs %f, %f, 0.0 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.maxs %h, %h, -3.0 : f16, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.mins %f, %f, 6.0 : f32, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.mins %h, %h, 0.5 : f16, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.abs %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.abs %h, %h, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  ascend.relu %f, %f, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.relu %h, %h, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}
// CHECK-LABEL: func.func @scalar_and_unary(
// CHECK-SAME:      %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[H:[^:]*]]: !ascend.local_tensor<f16, veccalc>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.maxs %[[F]], %[[F]], 0.000000e+00 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.maxs %[[H]], %[[H]], -3.000000e+00 : f16, %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.mins %[[F]], %[[F]], 6.000000e+00 : f32, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.mins %[[H]], %[[H]], 5.000000e-01 : f16, %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.abs %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.abs %[[H]], %[[H]], %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.relu %[[F]], %[[F]], %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.relu %[[H]], %[[H]], %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    func.return

// Compare masks combined bitwise: the ui8 masks seen as ui16 (and i16) by ReinterpretCast, And,
// Or, Not, and back to ui8 for Select.
func.func @bitwise(%m1: !ascend.local_tensor<ui8, veccalc>, %m2: !ascend.local_tensor<ui8, veccalc>, %n: index) {
  %a = ascend.reinterpret_cast %m1 : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<ui16, veccalc>
  %b = ascend.reinterpret_cast %m2 : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<ui16, veccalc>
  ascend.and %a, %a, %b, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  ascend.or %a, %a, %b, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  ascend.not %b, %a, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  %s = ascend.reinterpret_cast %m1 : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<i16, veccalc>
  ascend.and %s, %s, %s, %n : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
  ascend.or %s, %s, %s, %n : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
  ascend.not %s, %s, %n : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
  %back = ascend.reinterpret_cast %a : !ascend.local_tensor<ui16, veccalc> -> !ascend.local_tensor<ui8, veccalc>
  %back_signed = ascend.reinterpret_cast %s : !ascend.local_tensor<i16, veccalc> -> !ascend.local_tensor<ui8, veccalc>
  func.return
}
// CHECK-LABEL: func.func @bitwise(
// CHECK-SAME:      %[[M1:[^:]*]]: !ascend.local_tensor<ui8, veccalc>, %[[M2:[^:]*]]: !ascend.local_tensor<ui8, veccalc>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    %[[A:.*]] = ascend.reinterpret_cast %[[M1]] : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    %[[B:.*]] = ascend.reinterpret_cast %[[M2]] : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    ascend.and %[[A]], %[[A]], %[[B]], %[[N]] : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    ascend.or %[[A]], %[[A]], %[[B]], %[[N]] : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    ascend.not %[[B]], %[[A]], %[[N]] : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    %[[S:.*]] = ascend.reinterpret_cast %[[M1]] : !ascend.local_tensor<ui8, veccalc> -> !ascend.local_tensor<i16, veccalc>
// CHECK-NEXT:    ascend.and %[[S]], %[[S]], %[[S]], %[[N]] : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
// CHECK-NEXT:    ascend.or %[[S]], %[[S]], %[[S]], %[[N]] : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
// CHECK-NEXT:    ascend.not %[[S]], %[[S]], %[[N]] : !ascend.local_tensor<i16, veccalc>, !ascend.local_tensor<i16, veccalc>
// CHECK-NEXT:    %{{.*}} = ascend.reinterpret_cast %[[A]] : !ascend.local_tensor<ui16, veccalc> -> !ascend.local_tensor<ui8, veccalc>
// CHECK-NEXT:    %{{.*}} = ascend.reinterpret_cast %[[S]] : !ascend.local_tensor<i16, veccalc> -> !ascend.local_tensor<ui8, veccalc>
// CHECK-NEXT:    func.return

// DataCopy UB -> UB between LocalTensors of one dtype, at any UB positions.
func.func @copy_ub_to_ub(%in: !ascend.local_tensor<f16, vecin>, %calc: !ascend.local_tensor<f16, veccalc>, %out: !ascend.local_tensor<f16, vecout>, %m: !ascend.local_tensor<ui16, veccalc>, %n: index) {
  ascend.data_copy %calc, %in, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, vecin>
  ascend.data_copy %out, %calc, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, veccalc>
  ascend.data_copy %out, %in, %n : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
  ascend.data_copy %m, %m, %n : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
  func.return
}
// CHECK-LABEL: func.func @copy_ub_to_ub(
// CHECK-SAME:      %[[IN:[^:]*]]: !ascend.local_tensor<f16, vecin>, %[[CALC:[^:]*]]: !ascend.local_tensor<f16, veccalc>, %[[OUT:[^:]*]]: !ascend.local_tensor<f16, vecout>, %[[M:[^:]*]]: !ascend.local_tensor<ui16, veccalc>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.data_copy %[[CALC]], %[[IN]], %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    ascend.data_copy %[[OUT]], %[[CALC]], %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    ascend.data_copy %[[OUT]], %[[IN]], %[[N]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    ascend.data_copy %[[M]], %[[M]], %[[N]] : !ascend.local_tensor<ui16, veccalc>, !ascend.local_tensor<ui16, veccalc>
// CHECK-NEXT:    func.return

// Compare in every CMPMODE and CompareScalar, on float and half, with a static whole-block count.
func.func @compare(%m: !ascend.local_tensor<ui8, veccalc>, %f: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, vecin>, %n: index) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  ascend.compare %m, %f, %f, lt, %c64 : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.compare %m, %f, %f, gt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.compare %m, %f, %f, ge, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.compare %m, %f, %f, eq, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.compare %m, %h, %h, ne, %c128 : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecin>
  ascend.compare %m, %h, %h, le, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecin>
  ascend.compare_scalar %m, %f, -3.0 : f32, gt, %n : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.compare_scalar %m, %h, 3.0 : f16, lt, %c128 : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecin>
  func.return
}
// CHECK-LABEL: func.func @compare(
// CHECK-SAME:      %[[M:[^:]*]]: !ascend.local_tensor<ui8, veccalc>, %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[H:[^:]*]]: !ascend.local_tensor<f16, vecin>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:    ascend.compare %[[M]], %[[F]], %[[F]], lt, %[[C64]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.compare %[[M]], %[[F]], %[[F]], gt, %[[N]] :
// CHECK-NEXT:    ascend.compare %[[M]], %[[F]], %[[F]], ge, %[[N]] :
// CHECK-NEXT:    ascend.compare %[[M]], %[[F]], %[[F]], eq, %[[N]] :
// CHECK-NEXT:    ascend.compare %[[M]], %[[H]], %[[H]], ne, %[[C128]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    ascend.compare %[[M]], %[[H]], %[[H]], le, %[[N]] :
// CHECK-NEXT:    ascend.compare_scalar %[[M]], %[[F]], -3.000000e+00 : f32, gt, %[[N]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.compare_scalar %[[M]], %[[H]], 3.000000e+00 : f16, lt, %[[C128]] : !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    func.return

// Select in its three modes: tensor-tensor and mask-register with a tensor, tensor-scalar with a scalar.
func.func @select(%d: !ascend.local_tensor<f32, veccalc>, %m: !ascend.local_tensor<ui8, veccalc>, %one: !ascend.local_tensor<f32, veccalc>, %h: !ascend.local_tensor<f16, veccalc>, %n: index) {
  ascend.select %d, %m, %d, %one, vsel_tensor_tensor_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.select %d, %m, %d, %one, vsel_cmpmask_spr, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.select %d, %m, %d, 0.0 : f32, vsel_tensor_scalar_mode, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
  ascend.select %h, %m, %h, 1.0 : f16, vsel_tensor_scalar_mode, %n : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
  func.return
}
// CHECK-LABEL: func.func @select(
// CHECK-SAME:      %[[D:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[M:[^:]*]]: !ascend.local_tensor<ui8, veccalc>, %[[ONE:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[H:[^:]*]]: !ascend.local_tensor<f16, veccalc>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.select %[[D]], %[[M]], %[[D]], %[[ONE]], vsel_tensor_tensor_mode, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.select %[[D]], %[[M]], %[[D]], %[[ONE]], vsel_cmpmask_spr, %[[N]] :
// CHECK-NEXT:    ascend.select %[[D]], %[[M]], %[[D]], 0.000000e+00 : f32, vsel_tensor_scalar_mode, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.select %[[H]], %[[M]], %[[H]], 1.000000e+00 : f16, vsel_tensor_scalar_mode, %[[N]] : !ascend.local_tensor<f16, veccalc>, !ascend.local_tensor<ui8, veccalc>, !ascend.local_tensor<f16, veccalc>
// CHECK-NEXT:    func.return

// Cast: every pair and round mode CAST_RULES allows on Atlas A2/A3.
func.func @cast(%h: !ascend.local_tensor<f16, vecin>, %b: !ascend.local_tensor<bf16, vecout>, %f: !ascend.local_tensor<f32, veccalc>, %n: index) {
  ascend.cast %f, %h, cast_none, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
  ascend.cast %f, %b, cast_none, %n : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<bf16, vecout>
  ascend.cast %h, %f, cast_none, %n : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %h, %f, cast_rint, %n : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %h, %f, cast_floor, %n : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %h, %f, cast_ceil, %n : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %h, %f, cast_round, %n : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %h, %f, cast_trunc, %n : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %h, %f, cast_odd, %n : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %b, %f, cast_rint, %n : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %b, %f, cast_floor, %n : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %b, %f, cast_ceil, %n : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %b, %f, cast_round, %n : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
  ascend.cast %b, %f, cast_trunc, %n : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
  func.return
}
// CHECK-LABEL: func.func @cast(
// CHECK-SAME:      %[[H:[^:]*]]: !ascend.local_tensor<f16, vecin>, %[[B:[^:]*]]: !ascend.local_tensor<bf16, vecout>, %[[F:[^:]*]]: !ascend.local_tensor<f32, veccalc>, %[[N:[^:]*]]: index) {
// CHECK-NEXT:    ascend.cast %[[F]], %[[H]], cast_none, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<f16, vecin>
// CHECK-NEXT:    ascend.cast %[[F]], %[[B]], cast_none, %[[N]] : !ascend.local_tensor<f32, veccalc>, !ascend.local_tensor<bf16, vecout>
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_none, %[[N]] : !ascend.local_tensor<f16, vecin>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_rint, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_floor, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_ceil, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_round, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_trunc, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[H]], %[[F]], cast_odd, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[B]], %[[F]], cast_rint, %[[N]] : !ascend.local_tensor<bf16, vecout>, !ascend.local_tensor<f32, veccalc>
// CHECK-NEXT:    ascend.cast %[[B]], %[[F]], cast_floor, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[B]], %[[F]], cast_ceil, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[B]], %[[F]], cast_round, %[[N]] :
// CHECK-NEXT:    ascend.cast %[[B]], %[[F]], cast_trunc, %[[N]] :
// CHECK-NEXT:    func.return

// PipeBarrier on every pipe.
func.func @barriers() {
  ascend.pipe_barrier pipe_v
  ascend.pipe_barrier pipe_s
  ascend.pipe_barrier pipe_mte2
  ascend.pipe_barrier pipe_mte3
  ascend.pipe_barrier pipe_all
  func.return
}
// CHECK-LABEL: func.func @barriers() {
// CHECK-NEXT:    ascend.pipe_barrier pipe_v
// CHECK-NEXT:    ascend.pipe_barrier pipe_s
// CHECK-NEXT:    ascend.pipe_barrier pipe_mte2
// CHECK-NEXT:    ascend.pipe_barrier pipe_mte3
// CHECK-NEXT:    ascend.pipe_barrier pipe_all
// CHECK-NEXT:    func.return
