// The module at the hsg and blocked levels, lowered by hswc-run (the default, ascend) and lowered
// beforehand by hswc-opt: each gives the reference's bits, on an 8 KiB UB (128 elements per
// pass, so each of the 3 cores runs several chunks and a short last one). test_hswc_run.py runs
// every level.
// RUN: python -c "import numpy as np, ml_dtypes; r = np.random.default_rng(1); np.save('%t.g.npy', r.standard_normal(1001).astype(ml_dtypes.bfloat16)); np.save('%t.x.npy', r.uniform(-5, 5, 1001).astype(ml_dtypes.bfloat16))"
// RUN: hswc-run %s --level hsg --input %t.g.npy --input %t.x.npy --check cann --core-num 3 --ub-size 8192 | filecheck %s
// RUN: hswc-run %s --level blocked --input %t.g.npy --input %t.x.npy --check cann --core-num 3 --ub-size 8192 | filecheck %s
// RUN: hswc-run %s --level ascend --input %t.g.npy --input %t.x.npy --check cann --core-num 3 --ub-size 8192 | filecheck %s
// RUN: hswc-opt --lower-to-ascend %s > %t.lowered.mlir
// RUN: hswc-run %t.lowered.mlir --input %t.g.npy --input %t.x.npy --check cann --core-num 3 --ub-size 8192 | filecheck %s

func.func @hard_swish_grad(%grad: tensor<?xbf16>, %x: tensor<?xbf16>) -> tensor<?xbf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xbf16>
  func.return %y : tensor<?xbf16>
}

// CHECK: --check cann: bit-exact: all 1001 bfloat16 elements match
