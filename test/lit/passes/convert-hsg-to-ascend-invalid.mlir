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
  // CHECK: convert-hsg-to-ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad_slice' must be tiled and blocked before convert-hsg-to-ascend (run hsg-tile-on-cores and hsg-block-into-ub first)
  hsg.hard_swish_grad_slice %g, %x, %y [%off, %len] ub_factor %uf : memref<?xf32>, memref<?xf32>, memref<?xf32>
  func.return
}

// -----

// A chunk outside any loop: there is no loop to hoist the UB set-up above.
func.func @chunk_without_loop(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %off: index, %len: index, %uf: index) {
  // CHECK: convert-hsg-to-ascend-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hard_swish_grad_chunk' must sit directly in the scf.for of hsg-block-into-ub
  hsg.hard_swish_grad_chunk %g, %x, %y slice [%off, %len] chunk [%off, %len] ub_factor %uf : memref<?xf16>, memref<?xf16>, memref<?xf16>
  func.return
}

// -----

// A chunk nested in an scf.if inside the loop is not "directly" in the loop either.
func.func @chunk_under_if(%g: memref<?xf16>, %x: memref<?xf16>, %y: memref<?xf16>, %off: index, %len: index, %uf: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %len step %c1 {
    scf.if %c {
      // CHECK: error: 'hsg.hard_swish_grad_chunk' must sit directly in the scf.for of hsg-block-into-ub
      hsg.hard_swish_grad_chunk %g, %x, %y slice [%off, %len] chunk [%i, %len] ub_factor %uf : memref<?xf16>, memref<?xf16>, memref<?xf16>
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
    // CHECK: error: 'hsg.hard_swish_grad_chunk' slice_offset must be defined outside the chunk loop, so the UB set-up can precede it
    hsg.hard_swish_grad_chunk %g, %x, %y slice [%off, %len] chunk [%i, %len] ub_factor %uf : memref<?xbf16>, memref<?xbf16>, memref<?xbf16>
  }
  func.return
}

// -----

// The UB factor is the loop's induction variable: the buffer sizes would change per chunk.
func.func @ub_factor_in_loop(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %off: index, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %len step %c1 {
    // CHECK: error: 'hsg.hard_swish_grad_chunk' ub_factor must be defined outside the chunk loop, so the UB set-up can precede it
    hsg.hard_swish_grad_chunk %g, %x, %y slice [%off, %len] chunk [%i, %len] ub_factor %i : memref<?xf32>, memref<?xf32>, memref<?xf32>
  }
  func.return
}
