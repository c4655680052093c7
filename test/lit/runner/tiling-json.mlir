// --tiling-json writes the launch's tiling; --core-num / --ub-size override the SoC's figures.
// RUN: python -c "import numpy as np; np.save('%t.a.npy', np.ones((7, 3), np.float32))"
// RUN: hswc-run %s --input %t.a.npy --input %t.a.npy --tiling-json %t.json --core-num 64 --ub-size 262144
// RUN: filecheck %s --check-prefix=SPEC < %t.json
// RUN: hswc-run %s --input %t.a.npy --input %t.a.npy --tiling-json %t.a2.json
// RUN: filecheck %s --check-prefix=A2 < %t.a2.json

func.func @hard_swish_grad(%grad: tensor<?x3xf32>, %x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?x3xf32>
  func.return %y : tensor<?x3xf32>
}

// The ops-nn tiling unit test: shape {7, 3} on 64 cores with 256 KiB of UB.
// SPEC:      "totalNum": 21,
// SPEC-NEXT: "blockFactor": 1,
// SPEC-NEXT: "ubFactor": 5440,
// SPEC-NEXT: "usedCoreNum": 21,
// SPEC-NEXT: "tilingKey": 1
// A2:        "ubFactor": 4032,
