// What is not elementwise stays on the host, in place; --remarks names the construct: a
// transpose, a reduction, a named op with no model. A gather-like generic stays with a warning.
// RUN: hswc-opt %s --split-input-file --lower-to-ascend --remarks 2>&1 | filecheck %s

// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 6]]:3: remark: 'linalg.transpose' stays on the host (a transpose)
// CHECK-NEXT: remark: 0 kernel launches, 1 op left on the host
// CHECK-LABEL: func.func @transposed
// CHECK: linalg.transpose ins(%x{{ ?}}:{{ ?}}tensor<4x8xf32>)
func.func @transposed(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %0 = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  func.return %0 : tensor<8x4xf32>
}

// -----

// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 4]]:3: remark: 'linalg.reduce' stays on the host (a reduction)
// CHECK-LABEL: func.func @summed
// CHECK: linalg.reduce ins(%x{{ ?}}:{{ ?}}tensor<4x8xf32>)
func.func @summed(%x: tensor<4x8xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 4]]:3: remark: 'linalg.matmul' stays on the host (a matrix product)
// CHECK-LABEL: func.func @product
// CHECK: linalg.matmul ins(%a, %b
func.func @product(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// -----

// A gather-like generic: the input map is not a projection.
// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 6]]:3: remark: 'linalg.generic' stays on the host (a gather or a strided read (a map other than dims plus constants))
// CHECK-NEXT: remark: 0 kernel launches, 1 op left on the host
// CHECK-LABEL: func.func @strided
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> ((d0 * 2))>
func.func @strided(%x: tensor<16xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// A model's pattern: a matmul stays, the elementwise work after it becomes one kernel reading
// the matmul's result; an op with no AscendC model is not fused into it and stays.
// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 17]]:3: remark: 'linalg.matmul' stays on the host (a matrix product)
// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 17]]:3: warning: 'linalg.generic' stays on the host: its 'math.sin' at {{.*}}hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 19]]:5 is not an elementwise operation the vectorizer maps
// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 21]]:3: remark: 'linalg.generic' joins the generic at {{.*}}hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 27]]:3
// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 26]]:3: remark: 'linalg.generic' becomes a launch of @dense_kernel_f32
// CHECK-NEXT: remark: 1 kernel launch, 3 ops left on the host
// CHECK-LABEL: func.func @dense
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[S:.*]] = linalg.generic
// CHECK-SAME: ins(%[[M]] : tensor<4x16xf32>)
// CHECK: math.sin
// CHECK: hsg.launch @dense_kernel_f32 blocks %{{.*}} (%[[M]], %[[S]])
// CHECK-LABEL: func.func @dense_tiling_f32
// CHECK-LABEL: func.func @dense_kernel_f32
func.func @dense(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = math.sin %in : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c3 = arith.constant 3.0 : f32
    %s = arith.maximumf %in, %c3 : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %r : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.mulf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  func.return %o : tensor<4x16xf32>
}

// -----

// A reduction generic: the output is read and one iterator reduces.
// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 4]]:3: remark: 'linalg.generic' stays on the host (a reduction)
// CHECK-LABEL: func.func @reduction
// CHECK: iterator_types = ["reduction"]
func.func @reduction(%a: tensor<4xf32>, %acc: tensor<f32>) -> tensor<f32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a : tensor<4xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%e: f32, %o: f32):
    %s = arith.addf %e, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  func.return %y : tensor<f32>
}

// -----

// An elementwise body that asserts (as torch-mlir checks an index or a bound) stays on the
// host, which checks the assertion as it runs the body: a remark, not a warning.
// CHECK: hsg-tile-on-cores-host-ops.mlir:[[# @LINE + 5]]:3: remark: 'linalg.generic' stays on the host (its body asserts (cf.assert), which the host checks as it runs it)
// CHECK-NEXT: remark: 0 kernel launches, 1 op left on the host
#asserting = affine_map<(d0) -> (d0)>
func.func @asserting(%x: tensor<8xf32>) -> tensor<8xf32> {
  %i = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#asserting, #asserting], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%i : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %ok = arith.cmpf oge, %v, %zero : f32
    cf.assert %ok, "x must not be negative"
    %s = math.sqrt %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
