// A row kernel of a run-time row count: one module run on 5 and on 1000 rows of 64; its tiling
// counts x's rows (CANN's split over the 48 cores of ascend910b: 1 row a core on 5 cores, 21 on
// 48), the result has x's run-time shape and each row of it sums to 1.
// RUN: python -c "import numpy as np; r = np.random.default_rng(1); np.save('%t.x5.npy', r.standard_normal((5, 64)).astype(np.float16)); np.save('%t.x1000.npy', r.standard_normal((1000, 64)).astype(np.float16))"
// RUN: hswc-run %s --input %t.x5.npy --output %t.y5.npy --tiling-json %t.5.json
// RUN: filecheck %s --check-prefix=FIVE < %t.5.json
// RUN: hswc-run %s --input %t.x1000.npy --output %t.y1000.npy --tiling-json %t.1000.json
// RUN: filecheck %s --check-prefix=THOUSAND < %t.1000.json
// RUN: python -c "import numpy as np; y = np.load('%t.y1000.npy'); assert y.shape == (1000, 64) and y.dtype == np.float16, y.shape; s = y.astype(np.float64).sum(-1); assert abs(s - 1).max() < 0.05, abs(s - 1).max()"

func.func @softmax(%x: tensor<?x64xf16>) -> tensor<?x64xf16> {
  %y = hsg.softmax %x {dim = -1 : i64} : tensor<?x64xf16>
  func.return %y : tensor<?x64xf16>
}

// FIVE:      "totalNum": 5,
// FIVE-NEXT: "blockFactor": 1,
// FIVE:      "usedCoreNum": 5,
// THOUSAND:      "totalNum": 1000,
// THOUSAND-NEXT: "blockFactor": 21,
// THOUSAND:      "usedCoreNum": 48,
