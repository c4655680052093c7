// hswc-run lowers an hsg-level module to the AscendC kernel, runs it on 48 modelled cores and
// compares the result bit for bit with the golden models.
// RUN: python -c "import numpy as np; r = np.random.default_rng(0); np.save('%t.g.npy', r.standard_normal((4, 999)).astype(np.float16)); np.save('%t.x.npy', r.uniform(-5, 5, (4, 999)).astype(np.float16))"
// RUN: hswc-run %s --input %t.g.npy --input %t.x.npy --output %t.y.npy --check cann | filecheck %s --check-prefix=CANN
// RUN: not hswc-run %s --input %t.g.npy --input %t.x.npy --check torch | filecheck %s --check-prefix=TORCH
// RUN: python -c "import numpy as np; y = np.load('%t.y.npy'); print(y.dtype, y.shape)" | filecheck %s --check-prefix=OUT

func.func @hard_swish_grad(%grad: tensor<4x?xf16>, %x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>
  func.return %y : tensor<4x?xf16>
}

// CANN:       --check cann: bit-exact: all 3996 float16 elements match
// CANN-EMPTY:
// TORCH:      --check torch: MISMATCH: {{[0-9]+}} of 3996 float16 elements differ
// TORCH-NEXT: first difference at index ({{[0-9]+}}, {{[0-9]+}}): actual 0x{{[0-9a-f]+}} ({{.*}}), expected 0x{{[0-9a-f]+}} ({{.*}})
// TORCH-NEXT:   values differ: {{ +}}{{[0-9]+}}, first at index ({{[0-9]+}}, {{[0-9]+}}): {{.*}}; max abs error {{.*}}, max ulp error {{[0-9]+}}
// TORCH-NEXT:   signs of zero differ: {{[0-9]+}}
// TORCH-NEXT:   NaN against a number: 0
// OUT:        float16 (4, 999)
