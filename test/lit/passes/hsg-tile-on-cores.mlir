// RUN: hswc-opt %s --split-input-file -p hsg-decompose,hsg-tile-on-cores | filecheck %s
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend910b}' | filecheck %s --check-prefix=SOC
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores{core-num=64 ub-size=262144}' | filecheck %s --check-prefix=UT

// Dynamic f16 without a platform: host queries, a call of the tiling function, a launch; the
// tiling function is CANN's formula with its failures as cf.assert; the kernel finds its slice.
func.func @dynamic_f16(%grad: tensor<4x?xf16>, %x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>
  func.return %y : tensor<4x?xf16>
}
// CHECK-LABEL: func.func @dynamic_f16(
// CHECK-SAME:      %[[G:.*]]: tensor<4x?xf16>, %[[X:.*]]: tensor<4x?xf16>) -> tensor<4x?xf16> {
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %[[G]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[UB:.*]] = hsg.get_ub_size
// CHECK-NEXT:    %[[T:.*]], %[[BF:.*]], %[[UF:.*]], %[[USED:.*]], %{{.*}} = func.call @hard_swish_grad_tiling_f16(%[[N]], %[[CORES]], %[[UB]]) : (index, index, index) -> (index, index, index, index, index)
// CHECK-NEXT:    %[[Y:.*]] = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[USED]] (%[[G]], %[[X]]) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<4x?xf16>, tensor<4x?xf16> -> tensor<4x?xf16>
// CHECK-NEXT:    func.return %[[Y]] : tensor<4x?xf16>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @hard_swish_grad_tiling_f16(
// CHECK-SAME:      %[[TN:.*]]: index, %[[CN:.*]]: index, %[[US:.*]]: index) -> (index, index, index, index, index) attributes {hsg.tiling} {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OK1:.*]] = arith.cmpi sgt, %[[CN]], %[[C0]] : index
// CHECK-NEXT:    cf.assert %[[OK1]], "coreNum is 0"
// CHECK-NEXT:    %[[OK2:.*]] = arith.cmpi sgt, %[[US]], %[[C0]] : index
// CHECK-NEXT:    cf.assert %[[OK2]], "ubSize is 0"
// CHECK-NEXT:    %[[EMPTY:.*]] = arith.cmpi eq, %[[TN]], %[[C0]] : index
// CHECK-NEXT:    %[[CORES1:.*]] = arith.maxsi %[[CN]], %[[C1]] : index
// CHECK-NEXT:    %[[BLOCK:.*]] = arith.ceildivsi %[[TN]], %[[CORES1]] : index
// CHECK-NEXT:    %[[BLOCK1:.*]] = arith.maxsi %[[BLOCK]], %[[C1]] : index
// CHECK-NEXT:    %[[USED0:.*]] = arith.ceildivsi %[[TN]], %[[BLOCK1]] : index
// CHECK-NEXT:    %[[USEDC:.*]] = arith.select %[[EMPTY]], %[[C1]], %[[USED0]] : index
// CHECK-NEXT:    %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[AVAIL:.*]] = arith.subi %[[US]], %[[C1024]] : index
// CHECK-NEXT:    %[[OK3A:.*]] = arith.cmpi sgt, %[[AVAIL]], %[[C0]] : index
// CHECK-NEXT:    %[[OK3:.*]] = arith.ori %[[EMPTY]], %[[OK3A]] : i1
// CHECK-NEXT:    cf.assert %[[OK3]], "available UB size is invalid"
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[AVAIL0:.*]] = arith.maxsi %[[AVAIL]], %[[C0]] : index
// CHECK-NEXT:    %[[C48:.*]] = arith.constant 48 : index
// CHECK-NEXT:    %[[RAW:.*]] = arith.floordivsi %[[AVAIL0]], %[[C48]] : index
// CHECK-NEXT:    %[[MOVED:.*]] = arith.constant 32704 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.floordivsi %[[RAW]], %[[C64]] : index
// CHECK-NEXT:    %[[ALIGNED:.*]] = arith.muli %[[Q]], %[[C64]] : index
// CHECK-NEXT:    %[[CAPPED:.*]] = arith.minsi %[[ALIGNED]], %[[MOVED]] : index
// CHECK-NEXT:    %[[UBF:.*]] = arith.select %[[EMPTY]], %[[C0]], %[[CAPPED]] : index
// CHECK-NEXT:    %[[OK4A:.*]] = arith.cmpi sgt, %[[UBF]], %[[C0]] : index
// CHECK-NEXT:    %[[OK4:.*]] = arith.ori %[[EMPTY]], %[[OK4A]] : i1
// CHECK-NEXT:    cf.assert %[[OK4]], "ubFactor is invalid"
// CHECK-NEXT:    func.return %[[TN]], %[[BLOCK]], %[[UBF]], %[[USEDC]], %[[C0]] : index, index, index, index, index
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f16(
// CHECK-SAME:      %[[KG:.*]]: memref<?xf16>, %[[KX:.*]]: memref<?xf16>, %[[KY:.*]]: memref<?xf16>, %[[KT:.*]]: index, %[[KBF:.*]]: index, %[[KUF:.*]]: index) attributes {hsg.kernel} {
// CHECK-NEXT:    %[[IDX:.*]] = ascend.get_block_idx
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[KBF]], %[[IDX]] : index
// CHECK-NEXT:    %[[REST:.*]] = arith.subi %[[KT]], %[[OFF]] : index
// CHECK-NEXT:    %[[LEN0:.*]] = arith.minsi %[[KBF]], %[[REST]] : index
// CHECK-NEXT:    %[[KC0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[LEN:.*]] = arith.maxsi %[[LEN0]], %[[KC0]] : index
// CHECK-NEXT:    hsg.elementwise_slice ins(%[[KG]], %[[KX]] : memref<?xf16>, memref<?xf16>) outs(%[[KY]] : memref<?xf16>) [%[[OFF]], %[[LEN]]] ub_factor %[[KUF]] {
// CHECK-NEXT:    ^{{.*}}(%[[EG:.*]]: f16, %[[EX:.*]]: f16):
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[EX]] : f16 to f32
// CHECK-NEXT:      %[[GF:.*]] = arith.extf %[[EG]] : f16 to f32
// CHECK:           %[[P:.*]] = arith.mulf %[[GF]], %{{.*}} : f32
// CHECK-NEXT:      %[[R:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
// SOC-LABEL: func.func @dynamic_f16(
// SOC-NEXT:    %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<4x?xf16>
// SOC-NEXT:    %[[CORES:.*]] = arith.constant 48 : index
// SOC-NEXT:    %[[UB:.*]] = arith.constant 196608 : index
// SOC-NEXT:    %{{.*}} = func.call @hard_swish_grad_tiling_f16(%[[N]], %[[CORES]], %[[UB]])
// UT-LABEL:  func.func @dynamic_f16(
// UT-NEXT:     %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<4x?xf16>
// UT-NEXT:     %[[CORES:.*]] = arith.constant 64 : index
// UT-NEXT:     %[[UB:.*]] = arith.constant 262144 : index
// UT-NEXT:     %{{.*}} = func.call @hard_swish_grad_tiling_f16(%[[N]], %[[CORES]], %[[UB]])

// -----

// Static bf16 without a platform: the element count folds, the platform stays a run-time query.
func.func @static_bf16(%grad: tensor<2x3x4xbf16>, %x: tensor<2x3x4xbf16>) -> tensor<2x3x4xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<2x3x4xbf16>
  func.return %y : tensor<2x3x4xbf16>
}
// CHECK-LABEL: func.func @static_bf16(
// CHECK-NEXT:    %[[N:.*]] = arith.constant 24 : index
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[UB:.*]] = hsg.get_ub_size
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %[[USED:.*]], %{{.*}} = func.call @hard_swish_grad_tiling_bf16(%[[N]], %[[CORES]], %[[UB]])
// CHECK-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_bf16 blocks %[[USED]] (
// CHECK-LABEL: func.func @hard_swish_grad_tiling_bf16(
// CHECK:         cf.assert %{{.*}}, "ubFactor is invalid"
// CHECK-NEXT:    %[[KEY:.*]] = arith.constant 2 : index
// CHECK-NEXT:    func.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[KEY]] :
// CHECK-LABEL: func.func @hard_swish_grad_kernel_bf16(
// CHECK-SAME:      memref<?xbf16>, %{{.*}}: memref<?xbf16>, %{{.*}}: memref<?xbf16>,
// CHECK:         hsg.elementwise_slice ins(%{{.*}}, %{{.*}} : memref<?xbf16>, memref<?xbf16>) outs(%{{.*}} : memref<?xbf16>)
// SOC-LABEL: func.func @static_bf16(
// SOC-NEXT:    %[[T:.*]] = arith.constant 24 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 1 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 4032 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 24 : index
// SOC-NEXT:    %{{.*}} = arith.constant 2 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_bf16 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]])

// -----

// Unranked f32: the element count is a run-time query even with a platform; the kernel gets the
// operands flattened (hsg-decompose's view of them) and the result takes grad's shape again.
func.func @unranked_f32(%grad: tensor<*xf32>, %x: tensor<*xf32>) -> tensor<*xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<*xf32>
  func.return %y : tensor<*xf32>
}
// CHECK-LABEL: func.func @unranked_f32(
// CHECK-SAME:      %[[G:.*]]: tensor<*xf32>, %[[X:.*]]: tensor<*xf32>) -> tensor<*xf32> {
// CHECK-NEXT:    %[[FG:.*]] = hsg.flatten %[[G]] : tensor<*xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[FX:.*]] = hsg.flatten %[[X]] : tensor<*xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %[[FG]] : tensor<?xf32>
// CHECK:         func.call @hard_swish_grad_tiling_f32(%[[N]],
// CHECK-NEXT:    %[[YF:.*]] = hsg.launch @hard_swish_grad_kernel_f32 blocks %{{.*}} (%[[FG]], %[[FX]]) {{.*}} : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[Y:.*]] = hsg.unflatten %[[YF]] like %[[G]] : tensor<?xf32> -> tensor<*xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<*xf32>
// CHECK-LABEL: func.func @hard_swish_grad_tiling_f32(
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %[[KEY:.*]] = arith.constant 1 : index
// CHECK:         cf.assert %{{.*}}, "ubFactor is invalid"
// CHECK-NEXT:    func.return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[KEY]] :
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f32(
// CHECK-SAME:      memref<?xf32>
// SOC-LABEL: func.func @unranked_f32(
// SOC:         %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<?xf32>
// SOC-NEXT:    %[[CORES:.*]] = arith.constant 48 : index
// SOC-NEXT:    %[[UB:.*]] = arith.constant 196608 : index
// SOC-NEXT:    %{{.*}} = func.call @hard_swish_grad_tiling_f32(%[[N]], %[[CORES]], %[[UB]])

// -----

// Scalar f16 on ascend910b: a rank-0 tensor counts as one element, on one core.
func.func @scalar_f16(%grad: tensor<f16>, %x: tensor<f16>) -> tensor<f16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<f16>
  func.return %y : tensor<f16>
}
// CHECK-LABEL: func.func @scalar_f16(
// CHECK-NEXT:    %[[N:.*]] = arith.constant 1 : index
// CHECK-NEXT:    hsg.get_core_num_aiv
// SOC-LABEL: func.func @scalar_f16(
// SOC-NEXT:    %[[T:.*]] = arith.constant 1 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 1 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 4032 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = arith.constant 0 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<f16>, tensor<f16> -> tensor<f16>

// -----

// Empty bf16 on ascend910b: one block that does nothing, block and UB factors 0.
func.func @empty_bf16(%grad: tensor<0x3xbf16>, %x: tensor<0x3xbf16>) -> tensor<0x3xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<0x3xbf16>
  func.return %y : tensor<0x3xbf16>
}
// CHECK-LABEL: func.func @empty_bf16(
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    hsg.get_core_num_aiv
// SOC-LABEL: func.func @empty_bf16(
// SOC-NEXT:    %[[T:.*]] = arith.constant 0 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 0 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 0 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = arith.constant 2 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_bf16 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]])
// UT-LABEL:  func.func @empty_bf16(
// UT-NEXT:     %{{.*}} = arith.constant 0 : index
// UT-NEXT:     %{{.*}} = arith.constant 0 : index
// UT-NEXT:     %{{.*}} = arith.constant 0 : index
// UT-NEXT:     %{{.*}} = arith.constant 1 : index

// -----

// Empty f32 with a zero in the middle of a rank-3 shape: still one idle block.
func.func @empty_f32(%grad: tensor<5x0x7xf32>, %x: tensor<5x0x7xf32>) -> tensor<5x0x7xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<5x0x7xf32>
  func.return %y : tensor<5x0x7xf32>
}
// SOC-LABEL: func.func @empty_f32(
// SOC-NEXT:    %{{.*}} = arith.constant 0 : index
// SOC-NEXT:    %{{.*}} = arith.constant 0 : index
// SOC-NEXT:    %{{.*}} = arith.constant 0 : index
// SOC-NEXT:    %{{.*}} = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = arith.constant 1 : index
// SOC-NEXT:    hsg.launch @hard_swish_grad_kernel_f32

// -----

// The ops-nn tiling unit test: 7x3 f32 on 64 cores with 262144 bytes of UB.
func.func @ops_nn_unit_test(%grad: tensor<7x3xf32>, %x: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<7x3xf32>
  func.return %y : tensor<7x3xf32>
}
// UT-LABEL:  func.func @ops_nn_unit_test(
// UT-NEXT:     %[[T:.*]] = arith.constant 21 : index
// UT-NEXT:     %[[BF:.*]] = arith.constant 1 : index
// UT-NEXT:     %[[UF:.*]] = arith.constant 5440 : index
// UT-NEXT:     %[[USED:.*]] = arith.constant 21 : index
// UT-NEXT:     %{{.*}} = arith.constant 1 : index
// UT-NEXT:     %{{.*}} = hsg.launch @hard_swish_grad_kernel_f32 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<7x3xf32>, tensor<7x3xf32> -> tensor<7x3xf32>
// SOC-LABEL: func.func @ops_nn_unit_test(
// SOC-NEXT:    %{{.*}} = arith.constant 21 : index
// SOC-NEXT:    %{{.*}} = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = arith.constant 4032 : index
// SOC-NEXT:    %{{.*}} = arith.constant 21 : index

// -----

// A million f16 elements on ascend910b: 48 cores of 20834 elements, 4032 per UB pass.
func.func @million_f16(%grad: tensor<1000x1000xf16>, %x: tensor<1000x1000xf16>) -> tensor<1000x1000xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<1000x1000xf16>
  func.return %y : tensor<1000x1000xf16>
}
// SOC-LABEL: func.func @million_f16(
// SOC-NEXT:    %[[T:.*]] = arith.constant 1000000 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 20834 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 4032 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 48 : index
// SOC-NEXT:    %{{.*}} = arith.constant 0 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]])
// UT-LABEL:  func.func @million_f16(
// UT-NEXT:     %{{.*}} = arith.constant 1000000 : index
// UT-NEXT:     %{{.*}} = arith.constant 15625 : index
// UT-NEXT:     %{{.*}} = arith.constant 5440 : index
// UT-NEXT:     %{{.*}} = arith.constant 64 : index

// -----

// Dynamic bf16 (every dim dynamic): the same host code, calling the bf16 tiling function.
func.func @dynamic_bf16(%grad: tensor<?x?xbf16>, %x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?x?xbf16>
  func.return %y : tensor<?x?xbf16>
}
// CHECK-LABEL: func.func @dynamic_bf16(
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<?x?xbf16>
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[UB:.*]] = hsg.get_ub_size
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %[[USED:.*]], %{{.*}} = func.call @hard_swish_grad_tiling_bf16(%[[N]], %[[CORES]], %[[UB]])
// CHECK-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_bf16 blocks %[[USED]] (
// SOC-LABEL: func.func @dynamic_bf16(
// SOC-NEXT:    %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<?x?xbf16>
// SOC-NEXT:    %[[CORES:.*]] = arith.constant 48 : index
// SOC-NEXT:    %[[UB:.*]] = arith.constant 196608 : index
// SOC-NEXT:    %{{.*}} = func.call @hard_swish_grad_tiling_bf16(%[[N]], %[[CORES]], %[[UB]])

// -----

// Dynamic f32 (one dynamic dim among static ones).
func.func @dynamic_f32(%grad: tensor<2x?x8xf32>, %x: tensor<2x?x8xf32>) -> tensor<2x?x8xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<2x?x8xf32>
  func.return %y : tensor<2x?x8xf32>
}
// CHECK-LABEL: func.func @dynamic_f32(
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<2x?x8xf32>
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[UB:.*]] = hsg.get_ub_size
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %[[USED:.*]], %{{.*}} = func.call @hard_swish_grad_tiling_f32(%[[N]], %[[CORES]], %[[UB]])
// CHECK-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_f32 blocks %[[USED]] (
// SOC-LABEL: func.func @dynamic_f32(
// SOC-NEXT:    %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<2x?x8xf32>
// SOC-NEXT:    %[[CORES:.*]] = arith.constant 48 : index
// SOC-NEXT:    %[[UB:.*]] = arith.constant 196608 : index
// SOC-NEXT:    %{{.*}} = func.call @hard_swish_grad_tiling_f32(%[[N]], %[[CORES]], %[[UB]])

// -----

// Unranked f16: the element count is a run-time query.
func.func @unranked_f16(%grad: tensor<*xf16>, %x: tensor<*xf16>) -> tensor<*xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<*xf16>
  func.return %y : tensor<*xf16>
}
// CHECK-LABEL: func.func @unranked_f16(
// CHECK-NEXT:    %[[FG:.*]] = hsg.flatten %{{.*}} : tensor<*xf16> -> tensor<?xf16>
// CHECK-NEXT:    %{{.*}} = hsg.flatten %{{.*}} : tensor<*xf16> -> tensor<?xf16>
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %[[FG]] : tensor<?xf16>
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[UB:.*]] = hsg.get_ub_size
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %[[USED:.*]], %{{.*}} = func.call @hard_swish_grad_tiling_f16(%[[N]], %[[CORES]], %[[UB]])
// CHECK-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[USED]] (
// SOC-LABEL: func.func @unranked_f16(
// SOC:         %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<?xf16>
// SOC-NEXT:    %[[CORES:.*]] = arith.constant 48 : index
// SOC-NEXT:    %[[UB:.*]] = arith.constant 196608 : index
// SOC-NEXT:    %{{.*}} = func.call @hard_swish_grad_tiling_f16(%[[N]], %[[CORES]], %[[UB]])

// -----

// Unranked bf16: the element count is a run-time query.
func.func @unranked_bf16(%grad: tensor<*xbf16>, %x: tensor<*xbf16>) -> tensor<*xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<*xbf16>
  func.return %y : tensor<*xbf16>
}
// CHECK-LABEL: func.func @unranked_bf16(
// CHECK-NEXT:    %[[FG:.*]] = hsg.flatten %{{.*}} : tensor<*xbf16> -> tensor<?xbf16>
// CHECK-NEXT:    %{{.*}} = hsg.flatten %{{.*}} : tensor<*xbf16> -> tensor<?xbf16>
// CHECK-NEXT:    %[[N:.*]] = hsg.num_elements %[[FG]] : tensor<?xbf16>
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[UB:.*]] = hsg.get_ub_size
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %[[USED:.*]], %{{.*}} = func.call @hard_swish_grad_tiling_bf16(%[[N]], %[[CORES]], %[[UB]])
// CHECK-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_bf16 blocks %[[USED]] (
// SOC-LABEL: func.func @unranked_bf16(
// SOC:         %[[N:.*]] = hsg.num_elements %{{.*}} : tensor<?xbf16>
// SOC-NEXT:    %[[CORES:.*]] = arith.constant 48 : index
// SOC-NEXT:    %[[UB:.*]] = arith.constant 196608 : index
// SOC-NEXT:    %{{.*}} = func.call @hard_swish_grad_tiling_bf16(%[[N]], %[[CORES]], %[[UB]])

// -----

// Scalar bf16 on ascend910b: one element on one core, tiling key 2.
func.func @scalar_bf16(%grad: tensor<bf16>, %x: tensor<bf16>) -> tensor<bf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<bf16>
  func.return %y : tensor<bf16>
}
// CHECK-LABEL: func.func @scalar_bf16(
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    hsg.get_core_num_aiv
// SOC-LABEL: func.func @scalar_bf16(
// SOC-NEXT:    %[[T:.*]] = arith.constant 1 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 1 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 4032 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = arith.constant 2 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_bf16 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<bf16>, tensor<bf16> -> tensor<bf16>

// -----

// Scalar f32 on ascend910b: one element on one core, tiling key 1.
func.func @scalar_f32(%grad: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<f32>
  func.return %y : tensor<f32>
}
// CHECK-LABEL: func.func @scalar_f32(
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    hsg.get_core_num_aiv
// SOC-LABEL: func.func @scalar_f32(
// SOC-NEXT:    %[[T:.*]] = arith.constant 1 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 1 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 4032 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_f32 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<f32>, tensor<f32> -> tensor<f32>

// -----

// Empty f16 on ascend910b: one idle block, factors 0, tiling key 0.
func.func @empty_f16(%grad: tensor<3x0xf16>, %x: tensor<3x0xf16>) -> tensor<3x0xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<3x0xf16>
  func.return %y : tensor<3x0xf16>
}
// CHECK-LABEL: func.func @empty_f16(
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    hsg.get_core_num_aiv
// SOC-LABEL: func.func @empty_f16(
// SOC-NEXT:    %[[T:.*]] = arith.constant 0 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 0 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 0 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 1 : index
// SOC-NEXT:    %{{.*}} = arith.constant 0 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<3x0xf16>, tensor<3x0xf16> -> tensor<3x0xf16>

// -----

// Static f16 on ascend910b: 9700 elements, 203 per core, the last of 48 cores short.
func.func @static_f16(%grad: tensor<100x97xf16>, %x: tensor<100x97xf16>) -> tensor<100x97xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<100x97xf16>
  func.return %y : tensor<100x97xf16>
}
// CHECK-LABEL: func.func @static_f16(
// CHECK-NEXT:    %{{.*}} = arith.constant 9700 : index
// CHECK-NEXT:    hsg.get_core_num_aiv
// SOC-LABEL: func.func @static_f16(
// SOC-NEXT:    %[[T:.*]] = arith.constant 9700 : index
// SOC-NEXT:    %[[BF:.*]] = arith.constant 203 : index
// SOC-NEXT:    %[[UF:.*]] = arith.constant 4032 : index
// SOC-NEXT:    %[[USED:.*]] = arith.constant 48 : index
// SOC-NEXT:    %{{.*}} = arith.constant 0 : index
// SOC-NEXT:    %{{.*}} = hsg.launch @hard_swish_grad_kernel_f16 blocks %[[USED]] (%{{.*}}, %{{.*}}) tiling(%[[T]], %[[BF]], %[[UF]]) : tensor<100x97xf16>, tensor<100x97xf16> -> tensor<100x97xf16>

// -----

// Two f16 ops share one tiling function and one kernel.
func.func @two_f16(%a: tensor<8xf16>, %b: tensor<?xf16>) -> (tensor<8xf16>, tensor<?xf16>) {
  %y = hsg.hard_swish_grad %a, %a : tensor<8xf16>
  %z = hsg.hard_swish_grad %b, %b : tensor<?xf16>
  func.return %y, %z : tensor<8xf16>, tensor<?xf16>
}
// CHECK-LABEL: func.func @two_f16(
// CHECK:         func.call @hard_swish_grad_tiling_f16(
// CHECK:         hsg.launch @hard_swish_grad_kernel_f16
// CHECK:         func.call @hard_swish_grad_tiling_f16(
// CHECK:         hsg.launch @hard_swish_grad_kernel_f16
// CHECK-LABEL: func.func @hard_swish_grad_tiling_f16(
// CHECK-NOT:   func.func @hard_swish_grad_tiling_f16(
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f16(
// CHECK-NOT:   func.func
// CHECK:       {{^//}} -----
// SOC-LABEL: func.func @two_f16(
// SOC:         hsg.launch @hard_swish_grad_kernel_f16
// SOC:         hsg.launch @hard_swish_grad_kernel_f16
// SOC-LABEL: func.func @hard_swish_grad_tiling_f16(
// SOC-LABEL: func.func @hard_swish_grad_kernel_f16(
// SOC-NOT:   func.func
// SOC:       {{^//}} -----

// -----

// f32 and bf16 ops in one module: one tiling function and one kernel per element type.
func.func @two_dtypes(%a: tensor<8xf32>, %b: tensor<8xbf16>) -> (tensor<8xf32>, tensor<8xbf16>) {
  %y = hsg.hard_swish_grad %a, %a : tensor<8xf32>
  %z = hsg.hard_swish_grad %b, %b : tensor<8xbf16>
  func.return %y, %z : tensor<8xf32>, tensor<8xbf16>
}
// CHECK-LABEL: func.func @two_dtypes(
// CHECK:         hsg.launch @hard_swish_grad_kernel_f32
// CHECK:         hsg.launch @hard_swish_grad_kernel_bf16
// CHECK-LABEL: func.func @hard_swish_grad_tiling_f32(
// CHECK-LABEL: func.func @hard_swish_grad_kernel_f32(
// CHECK-LABEL: func.func @hard_swish_grad_tiling_bf16(
// CHECK-LABEL: func.func @hard_swish_grad_kernel_bf16(
// CHECK-NOT:   func.func
// CHECK:       {{^//}} -----

// -----

// Already tiled IR (a launch and no linalg.generic) is left as it is: the pass is idempotent.
func.func private @k(memref<?xf16>, memref<?xf16>, memref<?xf16>, index, index, index) attributes {hsg.kernel}
func.func @already_tiled(%g: tensor<8xf16>, %n: index) -> tensor<8xf16> {
  %y = hsg.launch @k blocks %n (%g, %g) tiling(%n, %n, %n) : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
  func.return %y : tensor<8xf16>
}
// CHECK:       func.func private @k(
// CHECK-LABEL: func.func @already_tiled(
// CHECK-SAME:      %[[G:.*]]: tensor<8xf16>, %[[N:.*]]: index)
// CHECK-NEXT:    %[[Y:.*]] = hsg.launch @k blocks %[[N]] (%[[G]], %[[G]]) tiling(%[[N]], %[[N]], %[[N]])
// CHECK-NEXT:    func.return %[[Y]]
// CHECK-NEXT:  }
// CHECK-NEXT:  }
