// hsg.relu_mask's types, refused at the op.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// The mask is an i1 (its storage is the function result's hsg.storage), not a byte type.
func.func @byte_mask(%x: tensor<16xf16>) {
  // CHECK: hsg-relu-mask-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.relu_mask' the mask has element type ui8; it must be i1 (stored a byte per element, or packed 8 a byte where the function's result says {hsg.storage = "bits"}, as ops-nn's DT_UINT1 and ReluV3's uint8 mask)
  %y, %m = hsg.relu_mask %x : tensor<16xf16> -> tensor<16xui8>
  func.return
}

// -----

// The mask has x's shape.
func.func @short_mask(%x: tensor<16xf32>) {
  // CHECK: error: 'hsg.relu_mask' the mask has type tensor<2xi1>; it must have x's shape (tensor<16xf32>)
  %y, %m = hsg.relu_mask %x : tensor<16xf32> -> tensor<2xi1>
  func.return
}

// -----

// An element type hswc's kernels do not take.
func.func @unsigned(%x: tensor<16xui8>) {
  // CHECK: error: 'hsg.relu_mask' x has element type ui8; it takes f16, bf16, f32, i8, i16, i32, i64
  %y, %m = hsg.relu_mask %x : tensor<16xui8> -> tensor<16xi1>
  func.return
}
