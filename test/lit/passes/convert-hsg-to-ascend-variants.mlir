// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores{variant=fast},hsg-block-into-ub,convert-hsg-to-ascend{variant=fast}' | filecheck %s --check-prefix=FAST
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend910b variant=fast},hsg-block-into-ub,convert-hsg-to-ascend{variant=fast}' | filecheck %s --check-prefix=FOLD
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores{scalar-compare=true},hsg-block-into-ub,convert-hsg-to-ascend{scalar-compare=true}' | filecheck %s --check-prefix=SCALAR
// A tiling made for the fast variant's buffers, lowered with the reference's: refused, naming
// both plans (MISMATCH lines at each operator; the reference kernel's own buffers, not its
// tiling budget of 48 bytes per element).
// RUN: hswc-opt %s --split-input-file --verify-diagnostics -p 'hsg-decompose,hsg-tile-on-cores{variant=fast},hsg-block-into-ub,convert-hsg-to-ascend' | filecheck %s --check-prefix=MISMATCH
// The lowered variants print in a form that parses and verifies again, unchanged.
// RUN: hswc-opt %s --split-input-file -p 'hsg-decompose,hsg-tile-on-cores{variant=fast},hsg-block-into-ub,convert-hsg-to-ascend{variant=fast}' | hswc-opt --split-input-file | filecheck %s --check-prefix=FAST

// f16, the fast variant: the tiling divides by the variant's 21 bytes per element after an
// 8704-byte reserve; depth-2 queues, only the f32 copies and the masks as TBufs, no Duplicate;
// x is copied and enqueued before grad, the slope is computed in x's f32 copy with scalar
// compares and selects (GT -3 -> 0 first, then LT 3 -> 1), inputs are freed after their casts,
// the product lands in grad's f32 copy, and y is taken from its queue only for the Cast that
// writes it (x-first takes each buffer when it is first needed).
func.func @hsg_f16(%grad: tensor<?xf16>, %x: tensor<?xf16>) -> tensor<?xf16> {
  // MISMATCH: convert-hsg-to-ascend-variants.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_chunk' was tiled for a UB plan of 21 bytes per element, 8704 bytes reserved, ubFactor a multiple of 64, but convert-hsg-to-ascend (reference) allocates for 35 bytes per element, 8704 bytes reserved, ubFactor a multiple of 64: give hsg-tile-on-cores the same variant options
  %y = hsg.hard_swish_grad %grad, %x : tensor<?xf16>
  func.return %y : tensor<?xf16>
}
// FAST-LABEL: func.func @hard_swish_grad_tiling_f16(
// FAST-SAME:      attributes {hsg.tiling, hsg.ub_plan = {bytes_per_element = 21 : i64, ub_reserve = 8704 : i64, align_elements = 64 : i64}} {
// FAST:           %[[RESERVE:.*]] = arith.constant 8704 : index
// FAST-NEXT:      %{{.*}} = arith.subi %{{.*}}, %[[RESERVE]] : index
// FAST:           %[[BPE:.*]] = arith.constant 21 : index
// FAST-NEXT:      %{{.*}} = arith.floordivsi %{{.*}}, %[[BPE]] : index
// FAST-LABEL: func.func @hard_swish_grad_kernel_f16(
// FAST-SAME:      attributes {hsg.kernel, hsg.ub_plan = {bytes_per_element = 21 : i64, ub_reserve = 8704 : i64, align_elements = 64 : i64}} {
// FAST:           %[[PIPE:.*]] = ascend.tpipe
// FAST-NEXT:      %[[QX:.*]] = ascend.tque : !ascend.tque<vecin, 2>
// FAST-NEXT:      %[[QG:.*]] = ascend.tque : !ascend.tque<vecin, 2>
// FAST-NEXT:      %[[QY:.*]] = ascend.tque : !ascend.tque<vecout, 2>
// FAST-NEXT:      %[[XF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// FAST-NEXT:      %[[GF_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// FAST-NEXT:      %[[GT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// FAST-NEXT:      %[[LT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// FAST:           ascend.init_buffer %[[PIPE]], %[[QX]], num 2, %[[TB:.*]] : !ascend.tque<vecin, 2>
// FAST-NEXT:      ascend.init_buffer %[[PIPE]], %[[QG]], num 2, %[[TB]] : !ascend.tque<vecin, 2>
// FAST-NEXT:      ascend.init_buffer %[[PIPE]], %[[QY]], num 2, %[[TB]] : !ascend.tque<vecout, 2>
// FAST-NEXT:      ascend.init_buffer %[[PIPE]], %[[XF_BUF]], %[[FB:.*]] : !ascend.tbuf<veccalc>
// FAST-NEXT:      ascend.init_buffer %[[PIPE]], %[[GF_BUF]], %[[FB]] : !ascend.tbuf<veccalc>
// FAST:           ascend.init_buffer %[[PIPE]], %[[LT_BUF]], %{{.*}} : !ascend.tbuf<veccalc>
// FAST-NOT:       ascend.duplicate
// FAST-NEXT:      scf.for
// FAST:             %[[XL:.*]] = ascend.alloc_tensor %[[QX]]
// FAST-NEXT:        %[[XAT:.*]] = ascend.global_at
// FAST-NEXT:        ascend.data_copy_pad %[[XL]], %[[XAT]], %[[BYTES:.*]] :
// FAST-NEXT:        ascend.enque %[[QX]], %[[XL]] :
// FAST-NEXT:        %[[GL:.*]] = ascend.alloc_tensor %[[QG]]
// FAST-NEXT:        %[[GAT:.*]] = ascend.global_at
// FAST-NEXT:        ascend.data_copy_pad %[[GL]], %[[GAT]], %[[BYTES]] :
// FAST-NEXT:        ascend.enque %[[QG]], %[[GL]] :
// FAST-NEXT:        %[[X:.*]] = ascend.deque %[[QX]]
// FAST-NEXT:        %[[XF:.*]] = ascend.tbuf_get %[[XF_BUF]] : !ascend.tbuf<veccalc> -> !ascend.local_tensor<f32, veccalc>
// FAST-NEXT:        ascend.cast %[[XF]], %[[X]], cast_none, %[[CUR:.*]] :
// FAST-NEXT:        ascend.free_tensor %[[QX]], %[[X]] :
// FAST-NEXT:        ascend.pipe_barrier pipe_v
// FAST-NEXT:        %[[GTM:.*]] = ascend.tbuf_get %[[GT_BUF]]
// FAST-NEXT:        %[[LTM:.*]] = ascend.tbuf_get %[[LT_BUF]]
// FAST:             ascend.compare_scalar %[[GTM]], %[[XF]], -3.000000e+00 : f32, gt, %[[N:.*]] :
// FAST-NEXT:        ascend.compare_scalar %[[LTM]], %[[XF]], 3.000000e+00 : f32, lt, %[[N]] :
// FAST-NEXT:        ascend.pipe_barrier pipe_v
// FAST-NEXT:        ascend.muls %[[XF]], %[[XF]], 0.333333343 : f32, %[[N]] :
// FAST-NEXT:        ascend.pipe_barrier pipe_v
// FAST-NEXT:        ascend.adds %[[XF]], %[[XF]], 5.000000e-01 : f32, %[[N]] :
// FAST-NEXT:        ascend.pipe_barrier pipe_v
// FAST-NEXT:        ascend.select %[[XF]], %[[GTM]], %[[XF]], 0.000000e+00 : f32, vsel_tensor_scalar_mode, %[[N]] :
// FAST-NEXT:        ascend.pipe_barrier pipe_v
// FAST-NEXT:        ascend.select %[[XF]], %[[LTM]], %[[XF]], 1.000000e+00 : f32, vsel_tensor_scalar_mode, %[[N]] :
// FAST-NEXT:        %[[G:.*]] = ascend.deque %[[QG]]
// FAST-NEXT:        %[[GF:.*]] = ascend.tbuf_get %[[GF_BUF]]
// FAST-NEXT:        ascend.cast %[[GF]], %[[G]], cast_none, %[[CUR]] :
// FAST-NEXT:        ascend.free_tensor %[[QG]], %[[G]] :
// FAST-NEXT:        ascend.pipe_barrier pipe_v
// FAST-NEXT:        ascend.mul %[[GF]], %[[GF]], %[[XF]], %[[N]] :
// FAST-NEXT:        ascend.pipe_barrier pipe_v
// FAST-NEXT:        %[[Y:.*]] = ascend.alloc_tensor %[[QY]]
// FAST-NEXT:        ascend.cast %[[Y]], %[[GF]], cast_none, %[[CUR]] : !ascend.local_tensor<f16, vecout>, !ascend.local_tensor<f32, veccalc>
// FAST-NEXT:        ascend.enque %[[QY]], %[[Y]] :
// FAST-NEXT:        %[[YO:.*]] = ascend.deque %[[QY]]
// FAST-NEXT:        %[[YAT:.*]] = ascend.global_at
// FAST-NEXT:        ascend.data_copy_pad %[[YAT]], %[[YO]], %[[BYTES]] :
// FAST-NEXT:        ascend.free_tensor %[[QY]], %[[YO]] :
// FAST-NEXT:      }

// -----

// f32, the fast variant: no TBuf but the masks; the slope is computed in x's queue buffer and
// the product written straight into y. Folded for ascend910b: ubFactor 7488 (25 bytes/element).
func.func @hsg_f32(%grad: tensor<1000000xf32>, %x: tensor<1000000xf32>) -> tensor<1000000xf32> {
  // MISMATCH: convert-hsg-to-ascend-variants.mlir:[[# @LINE + 1]]:3: error: 'hsg.elementwise_chunk' was tiled for a UB plan of 25 bytes per element
  %y = hsg.hard_swish_grad %grad, %x : tensor<1000000xf32>
  func.return %y : tensor<1000000xf32>
}
// FOLD-LABEL: func.func @hsg_f32(
// FOLD-NEXT:    %[[T:.*]] = arith.constant 1000000 : index
// FOLD-NEXT:    %[[BF:.*]] = arith.constant 20834 : index
// FOLD-NEXT:    %[[UF:.*]] = arith.constant 7488 : index
// FOLD-LABEL: func.func @hard_swish_grad_kernel_f32(
// FOLD:           ascend.tque : !ascend.tque<vecout, 2>
// FOLD-NEXT:      %[[GT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// FOLD-NEXT:      %[[LT_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// FOLD-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// FOLD-NEXT:      %{{.*}} = arith.muli %{{.*}}, %[[C4]] : index
// FOLD-NOT:       float_bytes
// FOLD:             %[[X:.*]] = ascend.deque
// FOLD-NEXT:        %[[XF:.*]] = ascend.reinterpret_cast %[[X]] : !ascend.local_tensor<f32, vecin> -> !ascend.local_tensor<f32, vecin>
// FOLD:             ascend.muls %[[XF]], %[[XF]], 0.333333343 : f32
// FOLD:             %[[G:.*]] = ascend.deque
// FOLD-NEXT:        %[[GF:.*]] = ascend.reinterpret_cast %[[G]]
// FOLD-NEXT:        ascend.pipe_barrier pipe_v
// FOLD-NEXT:        %[[Y:.*]] = ascend.alloc_tensor
// FOLD-NEXT:        %[[YF:.*]] = ascend.reinterpret_cast %[[Y]] : !ascend.local_tensor<f32, vecout> -> !ascend.local_tensor<f32, vecout>
// FOLD-NEXT:        ascend.mul %[[YF]], %[[GF]], %[[XF]], %{{.*}} :
// FOLD-NEXT:        ascend.enque %{{.*}}, %[[Y]] :
// FOLD-NEXT:        ascend.free_tensor %{{.*}}, %[[X]] :
// FOLD-NEXT:        ascend.free_tensor %{{.*}}, %[[G]] :

// scalar-compare alone (f32 here): depth-1 queues and the slope buffer stay, the four constant
// buffers and their Duplicates go; the reference's order of steps is kept.
// SCALAR-LABEL: func.func @hard_swish_grad_kernel_f32(
// SCALAR:         ascend.tque : !ascend.tque<vecout, 1>
// SCALAR-NEXT:    %[[SLOPE_BUF:.*]] = ascend.tbuf : !ascend.tbuf<veccalc>
// SCALAR-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// SCALAR-NEXT:    ascend.tbuf : !ascend.tbuf<veccalc>
// SCALAR-NOT:     ascend.tbuf :
// SCALAR-NOT:     ascend.duplicate
// SCALAR:           %[[X:.*]] = ascend.deque
// SCALAR-NEXT:      %[[G:.*]] = ascend.deque
// SCALAR-NEXT:      %[[Y:.*]] = ascend.alloc_tensor
// SCALAR-NEXT:      %[[XF:.*]] = ascend.reinterpret_cast %[[X]]
// SCALAR-NEXT:      %[[GF:.*]] = ascend.reinterpret_cast %[[G]]
// SCALAR-NEXT:      %[[S:.*]] = ascend.tbuf_get %[[SLOPE_BUF]]
// SCALAR:           ascend.compare_scalar %{{.*}}, %[[XF]], -3.000000e+00 : f32, gt,
// SCALAR-NEXT:      ascend.compare_scalar %{{.*}}, %[[XF]], 3.000000e+00 : f32, lt,
// SCALAR-NEXT:      ascend.pipe_barrier pipe_v
// SCALAR-NEXT:      ascend.muls %[[S]], %[[XF]], 0.333333343 : f32
// SCALAR-NEXT:      ascend.pipe_barrier pipe_v
// SCALAR-NEXT:      ascend.adds %[[S]], %[[S]], 5.000000e-01 : f32
// SCALAR-NEXT:      ascend.pipe_barrier pipe_v
// SCALAR-NEXT:      ascend.select %[[S]], %{{.*}}, %[[S]], 0.000000e+00 : f32, vsel_tensor_scalar_mode,
// SCALAR-NEXT:      ascend.pipe_barrier pipe_v
// SCALAR-NEXT:      ascend.select %[[S]], %{{.*}}, %[[S]], 1.000000e+00 : f32, vsel_tensor_scalar_mode,
// SCALAR-NEXT:      ascend.pipe_barrier pipe_v
