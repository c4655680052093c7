// Custom syntax in, parse, print, parse again: the printed form is stable.
// RUN: hswc-opt %s | hswc-opt | filecheck %s
// The generic form re-parses to the same ops.
// RUN: hswc-opt %s --print-op-generic | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// hsg.hard_swish_grad on f16 for every rank from 0 to 8, static and dynamic dims.
func.func @ranks_f16(%r0: tensor<f16>, %r1: tensor<7xf16>, %r2: tensor<4x?xf16>, %r3: tensor<?x?x?xf16>, %r4: tensor<1x2x3x4xf16>, %r5: tensor<1x?x3x?x5xf16>, %r6: tensor<2x2x2x2x2x2xf16>, %r7: tensor<?x1x1x1x1x1x?xf16>, %r8: tensor<1x2x3x4x5x6x7x8xf16>) {
  %y0 = hsg.hard_swish_grad %r0, %r0 : tensor<f16>
  %y1 = hsg.hard_swish_grad %r1, %r1 : tensor<7xf16>
  %y2 = hsg.hard_swish_grad %r2, %r2 : tensor<4x?xf16>
  %y3 = hsg.hard_swish_grad %r3, %r3 : tensor<?x?x?xf16>
  %y4 = hsg.hard_swish_grad %r4, %r4 : tensor<1x2x3x4xf16>
  %y5 = hsg.hard_swish_grad %r5, %r5 : tensor<1x?x3x?x5xf16>
  %y6 = hsg.hard_swish_grad %r6, %r6 : tensor<2x2x2x2x2x2xf16>
  %y7 = hsg.hard_swish_grad %r7, %r7 : tensor<?x1x1x1x1x1x?xf16>
  %y8 = hsg.hard_swish_grad %r8, %r8 : tensor<1x2x3x4x5x6x7x8xf16>
  func.return
}
// CHECK-LABEL: func.func @ranks_f16(
// CHECK-SAME:      %[[R0:[^:]*]]: tensor<f16>, %[[R1:[^:]*]]: tensor<7xf16>, %[[R2:[^:]*]]: tensor<4x?xf16>, %[[R3:[^:]*]]: tensor<?x?x?xf16>, %[[R4:[^:]*]]: tensor<1x2x3x4xf16>, %[[R5:[^:]*]]: tensor<1x?x3x?x5xf16>, %[[R6:[^:]*]]: tensor<2x2x2x2x2x2xf16>, %[[R7:[^:]*]]: tensor<?x1x1x1x1x1x?xf16>, %[[R8:[^:]*]]: tensor<1x2x3x4x5x6x7x8xf16>) {
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R0]], %[[R0]] : tensor<f16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R1]], %[[R1]] : tensor<7xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R2]], %[[R2]] : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R3]], %[[R3]] : tensor<?x?x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R4]], %[[R4]] : tensor<1x2x3x4xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R5]], %[[R5]] : tensor<1x?x3x?x5xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R6]], %[[R6]] : tensor<2x2x2x2x2x2xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R7]], %[[R7]] : tensor<?x1x1x1x1x1x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[R8]], %[[R8]] : tensor<1x2x3x4x5x6x7x8xf16>
// CHECK-NEXT:    func.return
// GENERIC-LABEL: "func.func"() <{sym_name = "ranks_f16"
// GENERIC:         %{{.*}} = "hsg.hard_swish_grad"(%{{.*}}, %{{.*}}) : (tensor<f16>, tensor<f16>) -> tensor<f16>
// GENERIC:         %{{.*}} = "hsg.hard_swish_grad"(%{{.*}}, %{{.*}}) : (tensor<1x2x3x4x5x6x7x8xf16>, tensor<1x2x3x4x5x6x7x8xf16>) -> tensor<1x2x3x4x5x6x7x8xf16>

// bf16 with distinct grad and x, unranked, and a discardable (dialect-prefixed) attribute that
// survives printing.
func.func @bf16(%grad: tensor<8x?xbf16>, %x: tensor<8x?xbf16>, %u: tensor<*xbf16>, %s: tensor<bf16>) -> tensor<8x?xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<8x?xbf16>
  %yu = hsg.hard_swish_grad %u, %u {test.note = "kept"} : tensor<*xbf16>
  %ys = hsg.hard_swish_grad %s, %s : tensor<bf16>
  func.return %y : tensor<8x?xbf16>
}
// CHECK-LABEL: func.func @bf16(
// CHECK-SAME:      %[[G:[^:]*]]: tensor<8x?xbf16>, %[[X:[^:]*]]: tensor<8x?xbf16>, %[[U:[^:]*]]: tensor<*xbf16>, %[[S:[^:]*]]: tensor<bf16>) -> tensor<8x?xbf16> {
// CHECK-NEXT:    %[[Y:.*]] = hsg.hard_swish_grad %[[G]], %[[X]] : tensor<8x?xbf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[U]], %[[U]] {test.note = "kept"} : tensor<*xbf16>
// CHECK-NEXT:    %{{.*}} = hsg.hard_swish_grad %[[S]], %[[S]] : tensor<bf16>
// CHECK-NEXT:    func.return %[[Y]] : tensor<8x?xbf16>
// GENERIC-LABEL: "func.func"() <{sym_name = "bf16"
// GENERIC:         "hsg.hard_swish_grad"(%{{.*}}, %{{.*}}) : (tensor<8x?xbf16>, tensor<8x?xbf16>) -> tensor<8x?xbf16>
// GENERIC:         "hsg.hard_swish_grad"(%{{.*}}, %{{.*}}) {test.note = "kept"} : (tensor<*xbf16>, tensor<*xbf16>) -> tensor<*xbf16>

// f32: static, fully dynamic rank 8, unranked, and an empty shape.
func.func @f32(%a: tensor<7x3xf32>, %b: tensor<?x?x?x?x?x?x?x?xf32>, %c: tensor<*xf32>, %d: tensor<0x5xf32>) {
  %ya = hsg.hard_swish_grad %a, %a : tensor<7x3xf32>
  %yb = hsg.hard_swish_grad %b, %b : tensor<?x?x?x?x?x?x?x?xf32>
  %yc = hsg.hard_swish_grad %c, %c : tensor<*xf32>
  %yd = hsg.hard_swish_grad %d, %d : tensor<0x5xf32>
  func.return
}
// CHECK-LABEL: func.func @f32(
// CHECK-NEXT:    hsg.hard_swish_grad %{{.*}}, %{{.*}} : tensor<7x3xf32>
// CHECK-NEXT:    hsg.hard_swish_grad %{{.*}}, %{{.*}} : tensor<?x?x?x?x?x?x?x?xf32>
// CHECK-NEXT:    hsg.hard_swish_grad %{{.*}}, %{{.*}} : tensor<*xf32>
// CHECK-NEXT:    hsg.hard_swish_grad %{{.*}}, %{{.*}} : tensor<0x5xf32>
// CHECK-NEXT:    func.return

// Host-side ops of the tiled level: element count, platform queries and the launch.
func.func @host(%grad: tensor<4x?xf16>, %x: tensor<4x?xf16>, %t: index, %bf: index, %uf: index) -> tensor<4x?xf16> {
  %n = hsg.num_elements %grad : tensor<4x?xf16>
  %nu = hsg.num_elements %x {note} : tensor<4x?xf16>
  %cores = hsg.get_core_num_aiv
  %ub = hsg.get_ub_size
  %y = hsg.launch @hard_swish_grad_kernel_f16 blocks %cores (%grad, %x) tiling(%t, %bf, %uf) : tensor<4x?xf16>, tensor<4x?xf16> -> tensor<4x?xf16>
  func.return %y : tensor<4x?xf16>
}
// CHECK-LABEL: func.func @host(
// CHECK-SAME:      %[[G:[^:]*]]: tensor<4x?xf16>, %[[X:[^:]*]]: tensor<4x?xf16>, %[[T:[^:]*]]: index, %[[BF:[^:]*]]: index, %[[UF:[^:]*]]: index) -> tensor<4x?xf16> {
// CHECK-NEXT:    %{{.*}} = hsg.num_elements %[[G]] : tensor<4x?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.num_elements %[[X]] {note} : tensor<4x?xf16>
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %{{.*}} = hsg.get_ub_size
// CHECK-NEXT:    %[[Y:.*]] = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[CORES]] (%[[G]], %[[X]]) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<4x?xf16>, tensor<4x?xf16> -> tensor<4x?xf16>
// CHECK-NEXT:    func.return %[[Y]] : tensor<4x?xf16>
// GENERIC-LABEL: "func.func"() <{sym_name = "host"
// GENERIC:         "hsg.num_elements"(%{{.*}}) : (tensor<4x?xf16>) -> index
// GENERIC:         "hsg.get_core_num_aiv"() : () -> index
// GENERIC:         "hsg.get_ub_size"() : () -> index
// GENERIC:         "hsg.launch"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @hard_swish_grad_kernel_f16, operandSegmentSizes = array<i32: 1, 2, 3, 0, 0>}> : (index, tensor<4x?xf16>, tensor<4x?xf16>, index, index, index) -> tensor<4x?xf16>

// The kernel the launch above names.
func.func @hard_swish_grad_kernel_f16(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %t: index, %bf: index, %uf: index) attributes {hsg.kernel} {
  func.return
}
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f16(
// CHECK-SAME:      attributes {hsg.kernel} {

// Device-side ops: one core's slice, and one UB chunk of it, on flat GM buffers, each carrying
// the elementwise body it computes.
func.func @device(%g: memref<?xbf16>, %x: memref<?xbf16>, %y: memref<?xbf16>, %off: index, %len: index, %coff: index, %cur: index, %uf: index) {
  hsg.elementwise_slice ins(%g, %x : memref<?xbf16>, memref<?xbf16>) outs(%y : memref<?xbf16>) [%off, %len] ub_factor %uf {
  ^bb0(%a: bf16, %b: bf16):
    %w = arith.extf %a : bf16 to f32
    %r = arith.truncf %w : f32 to bf16
    linalg.yield %r : bf16
  }
  hsg.elementwise_chunk ins(%x : memref<?xbf16>) outs(%y : memref<?xbf16>) slice [%off, %len] chunk [%coff, %cur] ub_factor %uf {
  ^bb0(%a: bf16):
    linalg.yield %a : bf16
  }
  func.return
}
// CHECK-LABEL: func.func @device(
// CHECK-SAME:      %[[G:[^:]*]]: memref<?xbf16>, %[[X:[^:]*]]: memref<?xbf16>, %[[Y:[^:]*]]: memref<?xbf16>, %[[OFF:[^:]*]]: index, %[[LEN:[^:]*]]: index, %[[COFF:[^:]*]]: index, %[[CUR:[^:]*]]: index, %[[UF:[^:]*]]: index) {
// CHECK-NEXT:    hsg.elementwise_slice ins(%[[G]], %[[X]] : memref<?xbf16>, memref<?xbf16>) outs(%[[Y]] : memref<?xbf16>) [%[[OFF]], %[[LEN]]] ub_factor %[[UF]] {
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: bf16, %{{.*}}: bf16):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[W]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[R]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    hsg.elementwise_chunk ins(%[[X]] : memref<?xbf16>) outs(%[[Y]] : memref<?xbf16>) slice [%[[OFF]], %[[LEN]]] chunk [%[[COFF]], %[[CUR]]] ub_factor %[[UF]] {
// CHECK:           linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// GENERIC-LABEL: "func.func"() <{sym_name = "device"
// GENERIC:         "hsg.elementwise_slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 1, 1, 1, 1>}> ({
// GENERIC:         "hsg.elementwise_chunk"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>}> ({

// HardSwish, the forward: one operand.
func.func @forward(%x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  %y = hsg.hard_swish %x : tensor<?x8xf16>
  func.return %y : tensor<?x8xf16>
}
// CHECK-LABEL: func.func @forward(
// CHECK-NEXT:    %[[Y:.*]] = hsg.hard_swish %{{.*}} : tensor<?x8xf16>
// CHECK-NEXT:    func.return %[[Y]] : tensor<?x8xf16>

// The host's view of unranked tensors: flattened, and given their shape back.
func.func @flat(%x: tensor<*xf32>) -> tensor<*xf32> {
  %f = hsg.flatten %x : tensor<*xf32> -> tensor<?xf32>
  %y = hsg.unflatten %f like %x : tensor<?xf32> -> tensor<*xf32>
  func.return %y : tensor<*xf32>
}
// CHECK-LABEL: func.func @flat(
// CHECK-NEXT:    %[[F:.*]] = hsg.flatten %[[X:.*]] : tensor<*xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[Y:.*]] = hsg.unflatten %[[F]] like %[[X]] : tensor<?xf32> -> tensor<*xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<*xf32>
