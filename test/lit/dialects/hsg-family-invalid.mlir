// The family's attribute rules, refused at the op with the attribute named.
// RUN: hswc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Threshold has no default threshold (PyTorch has none either).
func.func @required(%x: tensor<4xf16>) {
  // CHECK: hsg-family-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.threshold' attribute threshold is required (an f32, e.g. {threshold = 1.0 : f32})
  %y = hsg.threshold %x {value = 0.0 : f32} : tensor<4xf16>
  func.return
}

// -----

// Hardtanh's bounds must be ordered.
func.func @bounds(%x: tensor<4xf32>) {
  // CHECK: hsg-family-invalid.mlir:[[# @LINE + 1]]:3: error: 'hsg.hardtanh' min_val (2.0) is greater than max_val (1.0)
  %y = hsg.hardtanh %x {min_val = 2.0 : f32} : tensor<4xf32>
  func.return
}

// -----

// A bound PyTorch converts to f16 must fit it.
func.func @bound_range(%x: tensor<4xf16>) {
  // CHECK: error: 'hsg.hardtanh' attribute max_val = 70000.0 does not fit f16 (largest finite 65504), which Hardtanh converts it to
  %y = hsg.hardtanh %x {max_val = 70000.0 : f32} : tensor<4xf16>
  func.return
}

// -----

// The shrink ops' lambd may not be negative.
func.func @lambd(%g: tensor<4xbf16>, %x: tensor<4xbf16>) {
  // CHECK: error: 'hsg.softshrink_grad' attribute lambd must not be negative, got -0.5
  %y = hsg.softshrink_grad %g, %x {lambd = -0.5 : f32} : tensor<4xbf16>
  func.return
}

// -----

// HardSigmoid divides by its alpha: zero is refused, as is a subnormal one.
func.func @hard_sigmoid_alpha(%x: tensor<4xf16>) {
  // CHECK: error: 'hsg.hard_sigmoid' attribute alpha must not be zero (HardSigmoid divides by it)
  %y = hsg.hard_sigmoid %x {alpha = 0.0 : f32} : tensor<4xf16>
  func.return
}

// -----

func.func @hard_sigmoid_grad_alpha(%g: tensor<4xf32>, %x: tensor<4xf32>) {
  // CHECK: error: 'hsg.hard_sigmoid_grad' attribute alpha = 9.99995e-41 is below the smallest normal f32 (1.17549e-38) in magnitude; HardSigmoidGrad divides by it
  %y = hsg.hard_sigmoid_grad %g, %x {alpha = 1.0e-40 : f32} : tensor<4xf32>
  func.return
}

// -----

// Softshrink's bias, which PyTorch converts to the input dtype as lambd, must fit it.
func.func @softshrink_bias(%x: tensor<4xf16>) {
  // CHECK: error: 'hsg.softshrink' attribute bias = 70000.0 does not fit f16 (largest finite 65504), which Softshrink converts it to
  %y = hsg.softshrink %x {bias = 70000.0 : f32} : tensor<4xf16>
  func.return
}

// -----

// NaN and infinity are not attributes.
func.func @nan(%x: tensor<4xf32>) {
  // CHECK: error: 'hsg.leaky_relu' attribute negative_slope must be a finite f32, got nan
  %y = hsg.leaky_relu %x {negative_slope = 0x7FC00000 : f32} : tensor<4xf32>
  func.return
}

// -----

func.func @inf(%g: tensor<4xf32>, %x: tensor<4xf32>) {
  // CHECK: error: 'hsg.threshold_grad' attribute threshold must be a finite f32, got inf
  %y = hsg.threshold_grad %g, %x {threshold = 0x7F800000 : f32} : tensor<4xf32>
  func.return
}

// -----

// Attributes are f32, not f16 or f64 (the kernels compare in f32): the parser says so at the
// attribute dictionary, the verifier for the generic form.
func.func @f64(%x: tensor<4xf32>) {
  // CHECK: hsg-family-invalid.mlir:[[# @LINE + 1]]:27: error: hsg.hard_shrink: attribute lambd must be an f32 (e.g. lambd = 0.5 : f32), got 5.000000e-01 : f64
  %y = hsg.hard_shrink %x {lambd = 0.5 : f64} : tensor<4xf32>
  func.return
}

// -----

func.func @f64_generic(%x: tensor<4xf32>) {
  // CHECK: error: 'hsg.hard_shrink' attribute lambd must be an f32 FloatAttr, got 5.000000e-01 : f64
  %y = "hsg.hard_shrink"(%x) <{lambd = 0.5 : f64}> : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// -----

// Not a float at all.
func.func @integer(%x: tensor<4xf16>) {
  // CHECK: hsg-family-invalid.mlir:[[# @LINE + 1]]:26: error: hsg.leaky_relu: attribute negative_slope must be an f32 (e.g. negative_slope = 0.5 : f32), got 1 : i32
  %y = hsg.leaky_relu %x {negative_slope = 1 : i32} : tensor<4xf16>
  func.return
}

// -----

// grad and x of one gradient op must match.
func.func @mismatch(%g: tensor<4xf16>, %x: tensor<8xf16>) {
  // CHECK: error: 'hsg.leaky_relu_grad' x has type tensor<8xf16> but grad has type tensor<4xf16>; grad, x and the result must have the same shape and element type
  %y = "hsg.leaky_relu_grad"(%g, %x) : (tensor<4xf16>, tensor<8xf16>) -> tensor<4xf16>
  func.return
}
