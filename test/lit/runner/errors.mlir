// Bad inputs end in one message on stderr and exit code 1, never a traceback.
// RUN: python -c "import numpy as np; np.save('%t.ok.npy', np.ones((4, 5), np.float16)); np.save('%t.f32.npy', np.ones((4, 5), np.float32)); np.save('%t.shape.npy', np.ones((3, 5), np.float16)); np.save('%t.pickle.npy', np.array([None], dtype=object), allow_pickle=True); open('%t.text.npy', 'w').write('text'); open('%t.cut.npy', 'wb').write(open('%t.ok.npy', 'rb').read()[:-3])"
// RUN: not hswc-run %s --input %t.f32.npy --input %t.ok.npy 2>&1 | filecheck %s --check-prefix=DTYPE
// RUN: not hswc-run %s --input %t.shape.npy --input %t.ok.npy 2>&1 | filecheck %s --check-prefix=SHAPE
// RUN: not hswc-run %s --input %t.pickle.npy --input %t.ok.npy 2>&1 | filecheck %s --check-prefix=PICKLE
// RUN: not hswc-run %s --input %t.text.npy --input %t.ok.npy 2>&1 | filecheck %s --check-prefix=TEXT
// RUN: not hswc-run %s --input %t.cut.npy --input %t.ok.npy 2>&1 | filecheck %s --check-prefix=CUT
// RUN: not hswc-run %s --input %t.ok.npy 2>&1 | filecheck %s --check-prefix=COUNT
// RUN: not hswc-run %s --input %t.ok.npy --input %t.ok.npy --ub-size 4000 2>&1 | filecheck %s --check-prefix=TILING

func.func @hard_swish_grad(%grad: tensor<4x?xf16>, %x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %y = hsg.hard_swish_grad %grad, %x : tensor<4x?xf16>
  func.return %y : tensor<4x?xf16>
}

// DTYPE:      hswc-run: error: input 1 (grad): expected element type f16 (float16) for tensor<4x?xf16>, got an array of dtype float32
// DTYPE-NOT:  Traceback
// SHAPE:      hswc-run: error: input 1 (grad): expected shape (4, ?) (tensor<4x?xf16>), got an array of shape (3, 5)
// PICKLE:     hswc-run: error: '{{.*}}.pickle.npy' is not a readable .npy file: Object arrays cannot be loaded when allow_pickle=False
// TEXT:       hswc-run: error: '{{.*}}.text.npy' is not a .npy file
// CUT:        hswc-run: error: '{{.*}}.cut.npy' is damaged: its header declares a float16 array of shape (4, 5) (40 bytes) but 37 bytes of data follow it
// CUT-NOT:    Traceback
// COUNT:      hswc-run: error: the function takes 2 input(s), 1 given
// TILING:     errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'cf.assert' assertion failed: ubFactor is invalid
// TILING-NOT: Traceback
