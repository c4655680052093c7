// RUN: hswc-opt %s --split-input-file | filecheck %s
// RUN: hswc-opt %s --split-input-file | hswc-opt --split-input-file | filecheck %s
// Upstream linalg as PyTorch's exporter writes it parses and prints back in MLIR's syntax
// (hswc.dialects.linalg): the ops xDSL 0.75 lacks, the two-result generic, mixed-type
// accumulators.

// A softmax's max value and index: a generic with two results.
// CHECK-LABEL: func.func @max_and_index
// CHECK:       %[[M:.*]], %[[I:.*]] = linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xi64>) {
// CHECK:       } -> (tensor<4xf32>, tensor<4xi64>)
// CHECK-NEXT:  func.return %[[M]], %[[I]] : tensor<4xf32>, tensor<4xi64>
func.func @max_and_index(%x: tensor<4x16xf32>, %m: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %j = linalg.index 1 : index
    %k = arith.index_cast %j : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %gt, %k, %out_0 : i64
    linalg.yield %mx, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// An f16 matmul into an f32 accumulator, and the batch matmul xDSL lacks.
// CHECK-LABEL: func.func @matmuls
// CHECK:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf16>, tensor<16x32xf16>) outs(%{{.*}} : tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK:       linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x8xbf16>, tensor<2x8x4xbf16>) outs(%{{.*}} : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
func.func @matmuls(%a: tensor<8x16xf16>, %b: tensor<16x32xf16>, %c: tensor<8x32xf32>, %p: tensor<2x4x8xbf16>, %q: tensor<2x8x4xbf16>, %r: tensor<2x4x4xf32>) -> (tensor<8x32xf32>, tensor<2x4x4xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x16xf16>, tensor<16x32xf16>) outs(%c : tensor<8x32xf32>) -> tensor<8x32xf32>
  %1 = linalg.batch_matmul ins(%p, %q : tensor<2x4x8xbf16>, tensor<2x8x4xbf16>) outs(%r : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %0, %1 : tensor<8x32xf32>, tensor<2x4x4xf32>
}

// -----

// The convolutions and poolings torch-mlir writes, f16 into f32 among them.
// CHECK-LABEL: func.func @windows
// CHECK:       linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x9x9xf16>, tensor<8x3x3xf16>) outs(%{{.*}} : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK:       linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x9x9xf16>, tensor<4x8x3x3xf16>) outs(%{{.*}} : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
// CHECK:       linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x3x8xf32>, tensor<4x3x3xf32>) outs(%{{.*}} : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
// CHECK:       linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
// CHECK:       linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x9x9xbf16>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
// CHECK:       linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x9x9xf16>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
func.func @windows(%x: tensor<1x8x9x9xf16>, %k: tensor<8x3x3xf16>, %f: tensor<4x8x3x3xf16>, %o: tensor<1x8x4x4xf32>, %o2: tensor<1x4x7x7xf32>, %y: tensor<1x3x8xf32>, %g: tensor<4x3x3xf32>, %o3: tensor<1x4x6xf32>, %z: tensor<1x2x4x4x4xf32>, %h: tensor<2x2x2x2x2xf32>, %o4: tensor<1x2x3x3x3xf32>, %xb: tensor<1x8x9x9xbf16>, %w: tensor<3x3xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x4x7x7xf32>, tensor<1x4x6xf32>, tensor<1x2x3x3x3xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<1x8x9x9xf16>, tensor<8x3x3xf16>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %f : tensor<1x8x9x9xf16>, tensor<4x8x3x3xf16>) outs(%o2 : tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  %2 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%y, %g : tensor<1x3x8xf32>, tensor<4x3x3xf32>) outs(%o3 : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  %3 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%z, %h : tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x2xf32>) outs(%o4 : tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
  %4 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%xb, %w : tensor<1x8x9x9xbf16>, tensor<3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %5 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x8x9x9xf16>, tensor<3x3xf32>) outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x8x4x4xf32>, tensor<1x4x7x7xf32>, tensor<1x4x6xf32>, tensor<1x2x3x3x3xf32>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// Weights as the exporter writes them: dense_resource blobs, printed back after the module.
// CHECK-LABEL: func.func @weights
// CHECK:       arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
// CHECK:       {-#
// CHECK-NEXT:  dialect_resources: {
// CHECK-NEXT:  builtin: {
// CHECK-NEXT:  torch_tensor_2_torch.float32: "0x040000000000803F00000040"
func.func @weights() -> tensor<2xf32> {
  %w = arith.constant dense_resource<torch_tensor_2_torch.float32> : tensor<2xf32>
  return %w : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// A dense float in hexadecimal is its bit pattern (a masked attention's -inf), printed back so.
// CHECK-LABEL: func.func @hex_floats
// CHECK:       arith.constant dense<0xff800000> : tensor<f32>
// CHECK:       arith.constant dense<[0x7c00, 1.500000e+00]> : tensor<2xf16>
func.func @hex_floats() -> (tensor<f32>, tensor<2xf16>) {
  %a = arith.constant dense<0xFF800000> : tensor<f32>
  %b = arith.constant dense<[0x7C00, 1.5]> : tensor<2xf16>
  return %a, %b : tensor<f32>, tensor<2xf16>
}
