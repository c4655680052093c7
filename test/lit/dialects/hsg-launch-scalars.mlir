// hsg.launch passes f32 scalars after the tiling values: `scalars(%a, %b : f32, f32)`, absent
// when there are none; the custom and the generic form print stably.
// RUN: hswc-opt %s | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | hswc-opt | filecheck %s
// RUN: hswc-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// A kernel with two scalar arguments, launched with a constant and a host argument.
func.func private @leaky_clip_kernel_f32(memref<?xf32>, memref<?xf32>, index, index, index, f32, f32) attributes {hsg.kernel}
func.func @host(%x: tensor<?xf32>, %t: index, %bf: index, %uf: index, %lambd: f32) -> tensor<?xf32> {
  %cores = hsg.get_core_num_aiv
  %slope = arith.constant 1.000000e-02 : f32
  %y = hsg.launch @leaky_clip_kernel_f32 blocks %cores (%x) tiling(%t, %bf, %uf) scalars(%slope, %lambd : f32, f32) : tensor<?xf32> -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// CHECK-LABEL: func.func @host(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<?xf32>, %[[T:[^:]*]]: index, %[[BF:[^:]*]]: index, %[[UF:[^:]*]]: index, %[[L:[^:]*]]: f32) -> tensor<?xf32> {
// CHECK-NEXT:    %[[CORES:.*]] = hsg.get_core_num_aiv
// CHECK-NEXT:    %[[S:.*]] = arith.constant 1.000000e-02 : f32
// CHECK-NEXT:    %[[Y:.*]] = hsg.launch @leaky_clip_kernel_f32 blocks %[[CORES]] (%[[X]]) tiling(%[[T]], %[[BF]], %[[UF]]) scalars(%[[S]], %[[L]] : f32, f32) : tensor<?xf32> -> tensor<?xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<?xf32>
// The scalars are the launch's fourth operand group.
// GENERIC-LABEL: "func.func"() <{sym_name = "host"
// GENERIC:         "hsg.launch"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @leaky_clip_kernel_f32, operandSegmentSizes = array<i32: 1, 1, 3, 2, 0>}> : (index, tensor<?xf32>, index, index, index, f32, f32) -> tensor<?xf32>

// Without scalars the launch prints as it always did.
func.func private @plain_kernel_f32(memref<?xf32>, memref<?xf32>, index, index, index) attributes {hsg.kernel}
func.func @plain(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %y = hsg.launch @plain_kernel_f32 blocks %n (%x) tiling(%n, %n, %n) : tensor<?xf32> -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}
// CHECK-LABEL: func.func @plain(
// CHECK-NEXT:    %[[Y:.*]] = hsg.launch @plain_kernel_f32 blocks %{{.*}} (%{{.*}}) tiling(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?xf32> -> tensor<?xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<?xf32>
