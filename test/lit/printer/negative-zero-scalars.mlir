// RUN: hswc-opt %s --lower-to-ascend | filecheck %s --check-prefix=IR
// RUN: hswc-opt %s --lower-to-ascend -t ascendc | filecheck %s --check-prefix=CPP
// RUN: hswc-opt %s --lower-to-ascend -p 'hsg-tile-on-cores{scalar-compare=false}' | filecheck %s --check-prefix=IR-FILL
// RUN: hswc-opt %s --lower-to-ascend -p 'hsg-tile-on-cores{scalar-compare=false}' -t ascendc | filecheck %s --check-prefix=CPP-FILL
// RUN: python -c "import numpy as np; np.save('%t.x.npy', np.array([-1.0, 1.0, 0.0, -0.0] * 16, dtype=np.float16))"
// RUN: hswc-run %s --input %t.x.npy --output %t.y.npy --check | filecheck %s --check-prefix=CHECKED
// RUN: python -c "import numpy as np; y = np.load('%t.y.npy'); print(y[:4].view(np.uint16).tolist())" | filecheck %s --check-prefix=BITS

// A constant -0.0 keeps its sign as a scalar operand (the default schedule: CompareScalar and
// a tensor-scalar Select) and in a constant buffer's Duplicate fill (scalar-compare=false; it
// is falsy in Python, so a fill chosen by `value or 0.0` came out +0.0): the select keeps the
// sign of each zero it yields, at every level and in the C++.
func.func @negz(%x: tensor<64xf16>) -> tensor<64xf16> {
  %e = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64xf16>) outs(%e : tensor<64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant -0.0 : f16
    %z = arith.cmpf ogt, %a, %c : f16
    %s = arith.select %z, %a, %c : f16
    linalg.yield %s : f16
  } -> tensor<64xf16>
  return %r : tensor<64xf16>
}

// IR: ascend.compare_scalar %{{.*}}, %{{.*}}, -0.000000e+00 : f16, gt
// IR: ascend.select %{{.*}}, %{{.*}}, %{{.*}}, -0.000000e+00 : f16, vsel_tensor_scalar_mode
// CPP: AscendC::CompareScalar(zMask, xFp16, static_cast<half>(-0.0f), AscendC::CMPMODE::GT,
// CPP: AscendC::Select(rFp16, zMask, xFp16, static_cast<half>(-0.0f),
// IR-FILL: ascend.duplicate %{{.*}}, -0.000000e+00 : f16
// CPP-FILL: AscendC::Duplicate(cLocal, static_cast<half>(-0.0f), ubFactor);
// CHECKED: bit-exact: all 64 float16 elements match
// -1 -> -0.0 (0x8000), 1 -> 1 (0x3c00), +0 and -0 are not > -0: both -0.0.
// BITS: [32768, 15360, 32768, 32768]
