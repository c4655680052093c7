// RUN: hswc-opt %s --split-input-file --verify-diagnostics -p 'hsg-decompose,hsg-tile-on-cores{core-num=64 ub-size=2048}' | filecheck %s
// RUN: hswc-opt %s --split-input-file --verify-diagnostics -p 'hsg-decompose,hsg-tile-on-cores{core-num=64 ub-size=1024}' | filecheck %s --check-prefix=NOUB

// A static shape on a UB below 4096 bytes: the folded tiling fails at compile time, as CANN's would.
func.func @ub_too_small(%grad: tensor<7x3xf32>, %x: tensor<7x3xf32>) -> tensor<7x3xf32> {
  // CHECK: hsg-tile-on-cores-invalid.mlir:[[# @LINE + 2]]:3: error: 'hsg.hard_swish_grad' cannot be tiled for core-num=64 ub-size=2048: HardSwishGrad tiling failed: ubFactor is invalid
  // NOUB: hsg-tile-on-cores-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' cannot be tiled for core-num=64 ub-size=1024: HardSwishGrad tiling failed: available UB size is invalid
  %y = hsg.hard_swish_grad %grad, %x : tensor<7x3xf32>
  func.return %y : tensor<7x3xf32>
}

// -----

// A dynamic shape on the same platform: no error now, the tiling function asserts at run time.
func.func @dynamic_ub_too_small(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
// CHECK-NOT: error:
// CHECK-LABEL: func.func @dynamic_ub_too_small(
// CHECK:         %[[UB:.*]] = arith.constant 2048 : index
// CHECK-NEXT:    func.call @hard_swish_grad_tiling_f16(%{{.*}}, %{{.*}}, %[[UB]])
// CHECK-LABEL: func.func @hard_swish_grad_tiling_f16(
// CHECK:         cf.assert %{{.*}}, "ubFactor is invalid"
// NOUB-LABEL:  func.func @dynamic_ub_too_small(

// -----

// An empty static tensor launches nothing, so even a tiny UB tiles (blockDim 1, factors 0).
func.func @empty_ub_too_small(%grad: tensor<0xbf16>, %x: tensor<0xbf16>) -> tensor<0xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<0xbf16>
  func.return %y : tensor<0xbf16>
}
// CHECK-NOT: error:
// CHECK-LABEL: func.func @empty_ub_too_small(
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// NOUB-LABEL:  func.func @empty_ub_too_small(

// -----

// An op outside any function cannot be tiled: the launch has to be host code.
%t = "test.op"() : () -> tensor<4xf16>
// CHECK: hsg-tile-on-cores-invalid.mlir:[[# @LINE + 2]]:1: error: 'hsg.hard_swish_grad' must be inside a func.func to be tiled: the launch is host code
// NOUB: error: 'hsg.hard_swish_grad' must be inside a func.func to be tiled: the launch is host code
%y = hsg.hard_swish_grad %t, %t : tensor<4xf16>

// -----

// 2^64 elements: more than the int64 count the tiling and the kernel take.
func.func @huge(%g: tensor<4294967296x4294967296xf16>, %x: tensor<4294967296x4294967296xf16>) -> tensor<4294967296x4294967296xf16> {
  // CHECK: hsg-tile-on-cores-invalid.mlir:[[# @LINE + 2]]:3: error: 'hsg.hard_swish_grad' has 18446744073709551616 elements, more than a 64-bit count can hold
  // NOUB: hsg-tile-on-cores-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' has 18446744073709551616 elements, more than a 64-bit count can hold
  %y = hsg.hard_swish_grad %g, %x : tensor<4294967296x4294967296xf16>
  func.return %y : tensor<4294967296x4294967296xf16>
}

