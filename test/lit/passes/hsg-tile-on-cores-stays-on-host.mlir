// linalg.generic ops hswc cannot compile as kernels stay on the host, each with one located
// warning at the generic saying why (naming the body op when it is one) and what is supported.
// RUN: hswc-opt %s --split-input-file -p hsg-tile-on-cores 2>&1 | filecheck %s

// A transpose.
func.func @transpose(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // CHECK: hsg-tile-on-cores-stays-on-host.mlir:[[# @LINE + 1]]:3: warning: 'linalg.generic' stays on the host: is not an elementwise computation hswc compiles: indexing map (d0, d1) -> (d1, d0) reads the output's dims out of order (a transpose); supported: parallel iterators, 1 to 4 inputs and one or several outputs of one shape, each f16, bf16, f32, i8, ui8, i16, i32 or i64, each input read at the output's index or broadcast to it by a projection that keeps the dims' order
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%e: f32, %o: f32):
    linalg.yield %e : f32
  } -> tensor<4x4xf32>
  func.return %y : tensor<4x4xf32>
}

// -----

// A parallel generic whose body reads the output's current value (an accumulation).
func.func @reads_out(%a: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<8xf16> {
  // CHECK: warning: 'linalg.generic' stays on the host: is not an elementwise computation hswc compiles: its body reads the output's current value (an accumulation)
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf16>) outs(%b : tensor<8xf16>) {
  ^bb0(%e: f16, %o: f16):
    %s = arith.addf %e, %o : f16
    linalg.yield %s : f16
  } -> tensor<8xf16>
  func.return %y : tensor<8xf16>
}

// -----

// An element type the kernels do not take.
func.func @f64(%a: tensor<8xf64>) -> tensor<8xf64> {
  // CHECK: warning: 'linalg.generic' stays on the host: is not an elementwise computation hswc compiles: tensor<8xf64> has the element type f64
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf64>) outs(%a : tensor<8xf64>) {
  ^bb0(%e: f64, %o: f64):
    linalg.yield %e : f64
  } -> tensor<8xf64>
  func.return %y : tensor<8xf64>
}

// -----

// Five inputs: the kernels take 1 to 4.
func.func @five(%a: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: warning: 'linalg.generic' stays on the host: is not an elementwise computation hswc compiles: it has 5 input(s), 1 output(s) and 1 result(s)
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %a, %a, %a, %a : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%e0: f32, %e1: f32, %e2: f32, %e3: f32, %e4: f32, %o: f32):
    linalg.yield %e0 : f32
  } -> tensor<8xf32>
  func.return %y : tensor<8xf32>
}

// -----

// A tensor with an encoding.
func.func @encoded(%a: tensor<8xf32, "sparse">) -> tensor<8xf32, "sparse"> {
  // CHECK: warning: 'linalg.generic' stays on the host: is not an elementwise computation hswc compiles: tensor<8xf32, "sparse"> has an encoding; only dense tensors are supported
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32, "sparse">) outs(%a : tensor<8xf32, "sparse">) {
  ^bb0(%e: f32, %o: f32):
    linalg.yield %e : f32
  } -> tensor<8xf32, "sparse">
  func.return %y : tensor<8xf32, "sparse">
}

// -----

// A body op the vectorizer cannot map, named at the op.
func.func @unsupported_op(%a: tensor<8xf32>) -> tensor<8xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%e: f32, %o: f32):
    // CHECK: hsg-tile-on-cores-stays-on-host.mlir:[[# @LINE - 2]]:3: warning: 'linalg.generic' stays on the host: its 'arith.minnumf' at {{.*}}hsg-tile-on-cores-stays-on-host.mlir:[[# @LINE + 1]]:5 is not an elementwise operation the vectorizer maps; supported: arith.extf, arith.truncf, arith.addf, arith.subf, arith.mulf, arith.divf, arith.minimumf, arith.maximumf, arith.negf, arith.cmpf, arith.select, arith.andi, arith.ori, arith.xori, arith.constant, arith.addi, arith.subi, arith.muli, arith.maxsi, arith.minsi, arith.extsi, arith.extui, arith.sitofp, arith.uitofp, arith.fptosi, arith.fptoui, arith.maxui, arith.minui, arith.cmpi, arith.shli, arith.shrsi, arith.shrui, arith.trunci, arith.divsi, arith.divui, arith.remsi, arith.remui, arith.floordivsi, arith.ceildivsi, arith.ceildivui, math.roundeven, math.absi, math.exp, math.log, math.sqrt, math.rsqrt, math.absf, math.log1p, math.expm1, math.tanh, math.erf, math.fpowi (by a constant exponent), ending in linalg.yield
    %m = arith.minnumf %e, %e : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  func.return %y : tensor<8xf32>
}

// -----

// A value from outside the body that is not a float scalar: a condition.
func.func @outside_condition(%a: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %n = arith.negf %e : f32
    // CHECK: hsg-tile-on-cores-stays-on-host.mlir:[[# @LINE - 3]]:3: warning: 'linalg.generic' stays on the host: its 'arith.select' at {{.*}}hsg-tile-on-cores-stays-on-host.mlir:[[# @LINE + 1]]:5 uses i1 from outside the body; an elementwise body may only use float scalars (f16, bf16, f32) from outside
    %s = arith.select %c, %n, %e : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  func.return %y : tensor<8xf32>
}

// -----

// bf16 arithmetic has no vector instruction on A2/A3: the body must widen first.
func.func @bf16_add(%a: tensor<8xbf16>) -> tensor<8xbf16> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xbf16>) outs(%a : tensor<8xbf16>) {
  ^bb0(%e: bf16, %o: bf16):
    // CHECK: warning: 'linalg.generic' stays on the host: its 'arith.addf' at {{.*}} computes on bf16, but Add on Atlas A2/A3 takes f16 or f32: widen the operands with arith.extf to f32 first
    %s = arith.addf %e, %e : bf16
    linalg.yield %s : bf16
  } -> tensor<8xbf16>
  func.return %y : tensor<8xbf16>
}

