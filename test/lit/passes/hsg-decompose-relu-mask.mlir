// RUN: hswc-opt %s --split-input-file -p hsg-decompose | filecheck %s
// RUN: hswc-opt %s --split-input-file --lower-to-ascend --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=PARTITION

// hsg.relu_mask on f16, the mask stored packed: two generics reading x, y = where(x <= 0, 0,
// x) in f32 rounded to f16 (hsg.threshold's body at 0), the mask x > 0 (ogt: false for NaN).
// One kernel writes both.
// CHECK-LABEL: func.func @relu_mask
// CHECK:         %y = linalg.generic {{.*}} ins(%x : tensor<?x64xf16>) outs(%{{.*}} : tensor<?x64xf16>)
// CHECK:           %at_most = arith.cmpf ole, %x_fp32, %zero : f32
// CHECK:           %result = arith.select %at_most, %zero, %x_fp32 : f32
// CHECK:           %[[Y:.*]] = arith.truncf %result : f32 to f16
// CHECK:           linalg.yield %[[Y]] : f16
// CHECK:         %mask = linalg.generic {{.*}} ins(%x : tensor<?x64xf16>) outs(%{{.*}} : tensor<?x64xi1>)
// CHECK:           %[[M:.*]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK:           linalg.yield %[[M]] : i1
// CHECK:         func.return %y, %mask : tensor<?x64xf16>, tensor<?x64xi1>
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @relu_mask(%x: tensor<?x64xf16>) -> (tensor<?x64xf16>, tensor<?x64xi1> {hsg.storage = "bits"}) {
  %y, %mask = hsg.relu_mask %x : tensor<?x64xf16> -> tensor<?x64xi1>
  func.return %y, %mask : tensor<?x64xf16>, tensor<?x64xi1>
}

// -----

// On i32: compared with 0 in i32 (cmpi), 0 or x selected; the mask cmpi sgt.
// CHECK-LABEL: func.func @relu_mask_i32
// CHECK:         %y = linalg.generic
// CHECK:           %zero = arith.constant 0 : i32
// CHECK:           %at_most = arith.cmpi sle, %x_1, %zero : i32
// CHECK:           %result = arith.select %at_most, %zero, %x_1 : i32
// CHECK:         %mask = linalg.generic
// CHECK:           %above = arith.cmpi sgt, %x_2, %{{.*}} : i32
// PARTITION: remark: 1 kernel launch, 0 ops left on the host
func.func @relu_mask_i32(%x: tensor<8x33xi32>) -> (tensor<8x33xi32>, tensor<8x33xi1>) {
  %y, %mask = hsg.relu_mask %x : tensor<8x33xi32> -> tensor<8x33xi1>
  func.return %y, %mask : tensor<8x33xi32>, tensor<8x33xi1>
}
