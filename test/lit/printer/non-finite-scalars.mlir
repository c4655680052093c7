// RUN: hswc-opt %s --lower-to-ascend -p 'hsg-tile-on-cores{variant=reference},convert-hsg-to-ascend{variant=reference}' -t ascendc | filecheck %s
// RUN: hswc-opt %s -p 'hsg-tile-on-cores{variant=fast},hsg-block-into-ub,convert-hsg-to-ascend{variant=fast}' -t ascendc | filecheck %s --check-prefix=FAST

// Infinities and NaNs have no C++ literal: they are spelled through the compiler's builtins
// (their sign by negation, a NaN's payload in its string, half/bfloat16_t ones converted from
// the float), as Adds / Maxs scalars, Duplicate fills (reference) and (fast) CompareScalar /
// Select scalars.
func.func @non_finite(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %init = tensor.empty(%n) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %inf = arith.constant 0x7F800000 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %nan = arith.constant 0xFFC00005 : f32
    %s = arith.addf %x, %inf : f32
    %m = arith.maximumf %s, %ninf : f32
    %c = arith.cmpf olt, %z, %inf : f32
    %r = arith.select %c, %m, %nan : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  func.return %y : tensor<?xf32>
}

// CHECK-LABEL: __aicore__ inline void Init(
// CHECK-DAG: AscendC::Duplicate({{.*}}, __builtin_inff(), ubFactor);
// CHECK-DAG: AscendC::Duplicate({{.*}}, -__builtin_nanf("0x5"), ubFactor);
// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK: AscendC::Adds({{.*}}, __builtin_inff(), computeNum);
// CHECK: AscendC::Maxs({{.*}}, -__builtin_inff(), computeNum);

// FAST-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// FAST: AscendC::CompareScalar({{.*}}, __builtin_inff(), AscendC::CMPMODE::LT, computeNum);
// FAST: AscendC::Select({{.*}}, cMask, {{.*}}, -__builtin_nanf("0x5"),
// FAST-NEXT: AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE
