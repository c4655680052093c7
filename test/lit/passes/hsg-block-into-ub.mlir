// RUN: hswc-opt %s --split-input-file -p hsg-block-into-ub | filecheck %s
// Idempotent: a second run finds no slice and changes nothing. Each slice's body travels
// into its chunk unchanged.
// RUN: hswc-opt %s --split-input-file -p hsg-block-into-ub,hsg-block-into-ub | filecheck %s

// Dynamic f16 slice: guarded by len > 0 && ubFactor > 0, CeilDiv(len, ubFactor) chunks of
// min(ubFactor, len - i*ubFactor) elements at i*ubFactor.
func.func @dynamic_f16(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %off: index, %len: index, %uf: index) {
  hsg.elementwise_slice ins(%g, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) [%off, %len] ub_factor %uf {
  ^bb0(%ga: f16, %xa: f16):
    %s = arith.addf %ga, %xa : f16
    linalg.yield %s : f16
  }
  func.return
}
// CHECK-LABEL: func.func @dynamic_f16(
// CHECK-SAME:      %[[G:.*]]: memref<?xf16>, %[[X:.*]]: memref<?xf16>, %[[Y:.*]]: memref<?xf16>, %[[OFF:.*]]: index, %[[LEN:.*]]: index, %[[UF:.*]]: index) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HAS_LEN:.*]] = arith.cmpi sgt, %[[LEN]], %[[C0]] : index
// CHECK-NEXT:    %[[HAS_UB:.*]] = arith.cmpi sgt, %[[UF]], %[[C0]] : index
// CHECK-NEXT:    %[[WORK:.*]] = arith.andi %[[HAS_LEN]], %[[HAS_UB]] : i1
// CHECK-NEXT:    scf.if %[[WORK]] {
// CHECK-NEXT:      %[[LOOPS:.*]] = arith.ceildivsi %[[LEN]], %[[UF]] : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[I:.*]] = %[[C0]] to %[[LOOPS]] step %[[C1]] {
// CHECK-NEXT:        %[[COFF:.*]] = arith.muli %[[I]], %[[UF]] : index
// CHECK-NEXT:        %[[REST:.*]] = arith.subi %[[LEN]], %[[COFF]] : index
// CHECK-NEXT:        %[[CUR:.*]] = arith.minsi %[[UF]], %[[REST]] : index
// CHECK-NEXT:        hsg.elementwise_chunk ins(%[[G]], %[[X]] : memref<?xf16>, memref<?xf16>) outs(%[[Y]] : memref<?xf16>) slice [%[[OFF]], %[[LEN]]] chunk [%[[COFF]], %[[CUR]]] ub_factor %[[UF]] {
// CHECK-NEXT:        ^{{.*}}(%[[GA:.*]]: f16, %[[XA:.*]]: f16):
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[GA]], %[[XA]] : f16
// CHECK-NEXT:          linalg.yield %[[S]] : f16
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// -----

// Static f32 slice of 20834 elements with ubFactor 4032: the loop count folds to 6.
func.func @static_f32(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %off: index) {
  %len = arith.constant 20834 : index
  %uf = arith.constant 4032 : index
  hsg.elementwise_slice ins(%g, %x : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>) [%off, %len] ub_factor %uf {
  ^bb0(%ga: f32, %xa: f32):
    %s = arith.addf %ga, %xa : f32
    linalg.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @static_f32(
// CHECK:         scf.if
// CHECK-NEXT:      %[[LOOPS:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %{{.*}} = %{{.*}} to %[[LOOPS]] step %[[C1]] {
// CHECK:             hsg.elementwise_chunk ins({{.*}} : memref<?xf32>, memref<?xf32>) outs({{.*}} : memref<?xf32>)

// -----

// bf16 slice of dynamic length with a constant ubFactor of 64: the loop count stays dynamic.
func.func @dynamic_len_bf16(%g: memref<?xbf16>, %x: memref<?xbf16>, %y: memref<?xbf16>, %off: index, %len: index) {
  %uf = arith.constant 64 : index
  hsg.elementwise_slice ins(%g, %x : memref<?xbf16>, memref<?xbf16>) outs(%y : memref<?xbf16>) [%off, %len] ub_factor %uf {
  ^bb0(%ga: bf16, %xa: bf16):
    %s = arith.addf %ga, %xa : bf16
    linalg.yield %s : bf16
  }
  func.return
}
// CHECK-LABEL: func.func @dynamic_len_bf16(
// CHECK-SAME:      %[[LEN:[^:]*]]: index) {
// CHECK-NEXT:    %[[UF:.*]] = arith.constant 64 : index
// CHECK:         scf.if
// CHECK-NEXT:      %[[LOOPS:.*]] = arith.ceildivsi %[[LEN]], %[[UF]] : index
// CHECK:             hsg.elementwise_chunk ins({{.*}} : memref<?xbf16>, memref<?xbf16>) outs({{.*}} : memref<?xbf16>) {{.*}} ub_factor %[[UF]] {

// -----

// Two slices in one kernel: each gets its own guarded loop.
func.func @two_slices(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %a: index, %b: index, %uf: index) {
  hsg.elementwise_slice ins(%g, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) [%a, %b] ub_factor %uf {
  ^bb0(%ga: f16, %xa: f16):
    %s = arith.addf %ga, %xa : f16
    linalg.yield %s : f16
  }
  hsg.elementwise_slice ins(%g, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) [%b, %a] ub_factor %uf {
  ^bb0(%ga: f16, %xa: f16):
    %s = arith.addf %ga, %xa : f16
    linalg.yield %s : f16
  }
  func.return
}
// CHECK-LABEL: func.func @two_slices(
// CHECK-SAME:      %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %{{.*}}: index) {
// CHECK:         scf.if
// CHECK:             hsg.elementwise_chunk {{.*}} slice [%[[A]], %[[B]]]
// CHECK:         scf.if
// CHECK:             hsg.elementwise_chunk {{.*}} slice [%[[B]], %[[A]]]
// CHECK-NOT:   hsg.elementwise_slice
