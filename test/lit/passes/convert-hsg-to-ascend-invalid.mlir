// RUN: hswc-opt %s --split-input-file --verify-diagnostics -p convert-hsg-to-ascend | filecheck %s

// An untiled operator: convert-hsg-to-ascend refuses it instead of silently leaving it behind.
func.func @untiled(%grad: tensor<8xf16>, %x: tensor<8xf16>) -> tensor<8xf16> {
  // CHECK: convert-hsg-to-ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad' must be tiled and blocked before convert-hsg-to-ascend (run hsg-tile-on-cores and hsg-block-into-ub first)
  %y = hsg.hard_swish_grad %grad, %x : tensor<8xf16>
  func.return %y : tensor<8xf16>
}

// -----

// A slice that was tiled but not blocked into UB chunks: refused the same way.
func.func @unblocked(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %off: index, %len: index, %uf: index) {
  // CHECK: convert-hsg-to-ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_slice' must be tiled and blocked before convert-hsg-to-ascend (run hsg-tile-on-cores and hsg-block-into-ub first)
  hsg.elementwise_slice ins(%g, %x : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>) [%off, %len] ub_factor %uf {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  func.return
}

// -----

// A chunk outside any loop: there is no loop to hoist the UB set-up above.
func.func @chunk_without_loop(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %off: index, %len: index, %uf: index) {
  // CHECK: convert-hsg-to-ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_chunk' must sit directly in the scf.for of hsg-block-into-ub
  hsg.elementwise_chunk ins(%g, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) slice [%off, %len] chunk [%off, %len] ub_factor %uf {
  ^bb0(%a: f16, %b: f16):
    linalg.yield %a : f16
  }
  func.return
}

// -----

// A chunk nested in an scf.if inside the loop is not "directly" in the loop either.
func.func @chunk_under_if(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %off: index, %len: index, %uf: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %len step %c1 {
    scf.if %c {
      // CHECK: error: 'hsg.elementwise_chunk' must sit directly in the scf.for of hsg-block-into-ub
      hsg.elementwise_chunk ins(%g, %x : memref<?xf16>, memref<?xf16>) outs(%y : memref<?xf16>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
      ^bb0(%a: f16, %b: f16):
        linalg.yield %a : f16
      }
    }
  }
  func.return
}

// -----

// The slice offset computed inside the loop: the Init before the loop could not use it.
func.func @offset_in_loop(%g: memref<?xbf16>, %x: memref<?xbf16>, %y: memref<?xbf16>, %len: index, %uf: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %len step %c1 {
    %off = arith.muli %i, %uf : index
    // CHECK: error: 'hsg.elementwise_chunk' slice_offset must be defined outside the chunk loop, so the UB set-up can precede it
    hsg.elementwise_chunk ins(%g, %x : memref<?xbf16>, memref<?xbf16>) outs(%y : memref<?xbf16>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%a: bf16, %b: bf16):
      linalg.yield %a : bf16
    }
  }
  func.return
}

// -----

// The UB factor is the loop's induction variable: the buffer sizes would change per chunk.
func.func @ub_factor_in_loop(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %off: index, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %len step %c1 {
    // CHECK: error: 'hsg.elementwise_chunk' ub_factor must be defined outside the chunk loop, so the UB set-up can precede it
    hsg.elementwise_chunk ins(%g, %x : memref<?xf32>, memref<?xf32>) outs(%y : memref<?xf32>) slice [%off, %len] chunk [%i, %len] ub_factor %i {
    ^bb0(%a: f32, %b: f32):
      linalg.yield %a : f32
    }
  }
  func.return
}

// -----

// A body op the vectorizer has no AscendC call for: named at the op, with what is supported.
func.func @unsupported_body(%g: memref<?xf32>, %off: index, %len: index, %uf: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %len step %c1 {
    hsg.elementwise_chunk ins(%g : memref<?xf32>) outs(%g : memref<?xf32>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%a: f32):
      // CHECK: convert-hsg-to-ascend-invalid.mlir:[[# @LINE + 1]]:7: error: 'arith.maxnumf' is not an elementwise operation the vectorizer maps; supported: arith.extf, arith.truncf, arith.addf, arith.subf, arith.mulf, arith.divf, arith.minimumf, arith.maximumf, arith.negf, arith.cmpf, arith.select, arith.andi, arith.ori, arith.xori, arith.constant, arith.addi, arith.subi, arith.muli, arith.maxsi, arith.minsi, arith.extsi, arith.extui, arith.sitofp, arith.uitofp, arith.fptosi, arith.fptoui, arith.maxui, arith.minui, arith.cmpi, arith.shli, arith.shrsi, arith.shrui, arith.trunci, arith.divsi, arith.divui, arith.remsi, arith.remui, arith.floordivsi, arith.ceildivsi, arith.ceildivui, math.roundeven, math.absi, math.exp, math.log, math.sqrt, math.rsqrt, math.absf, math.log1p, math.expm1, math.tanh, math.erf, math.fpowi (by a constant exponent), ending in linalg.yield
      %r = arith.maxnumf %a, %a : f32
      linalg.yield %r : f32
    }
  }
  func.return
}

// -----

// bf16 arithmetic: the A2/A3 vector unit has none, so the body must widen first.
func.func @bf16_arithmetic(%g: memref<?xbf16>, %off: index, %len: index, %uf: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %len step %c1 {
    hsg.elementwise_chunk ins(%g : memref<?xbf16>) outs(%g : memref<?xbf16>) slice [%off, %len] chunk [%i, %len] ub_factor %uf {
    ^bb0(%a: bf16):
      // CHECK: convert-hsg-to-ascend-invalid.mlir:[[# @LINE + 1]]:7: error: 'arith.mulf' computes on bf16, but Mul on Atlas A2/A3 takes f16 or f32: widen the operands with arith.extf to f32 first
      %r = arith.mulf %a, %a : bf16
      linalg.yield %r : bf16
    }
  }
  func.return
}
