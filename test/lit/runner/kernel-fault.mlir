// A kernel that breaks a queue rule is refused at the op that breaks it, with its location.
// Each core of the launch allocates from a depth-1 queue twice without freeing in between.
// RUN: python -c "import numpy as np; np.save('%t.a.npy', np.ones(256, np.float32))"
// RUN: not hswc-run %s --input %t.a.npy --input %t.a.npy 2>&1 | filecheck %s

func.func @host(%g: tensor<256xf32>, %x: tensor<256xf32>) -> tensor<256xf32> {
  %c2 = arith.constant 2 : index
  %y = hsg.launch @leaky blocks %c2 (%g, %x) tiling()
       : tensor<256xf32>, tensor<256xf32> -> tensor<256xf32>
  func.return %y : tensor<256xf32>
}

func.func @leaky(%g: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) attributes {hsg.kernel} {
  %c512 = arith.constant 512 : index
  %pipe = ascend.tpipe
  %in = ascend.tque : !ascend.tque<vecin, 1>
  ascend.init_buffer %pipe, %in, num 1, %c512 : !ascend.tque<vecin, 1>
  %a = ascend.alloc_tensor %in : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
  %b = ascend.alloc_tensor %in : !ascend.tque<vecin, 1> -> !ascend.local_tensor<f32, vecin>
  func.return
}

// CHECK:     kernel-fault.mlir:[[# @LINE - 4]]:3: error: 'ascend.alloc_tensor' AllocTensor on a full queue: all 1 buffer(s) of TQue %in are in use (a FreeTensor is missing, or the queue is too shallow) (cores 0, 1)
// CHECK-NOT: Traceback
