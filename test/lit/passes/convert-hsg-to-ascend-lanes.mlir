// RUN: hswc-opt %s -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true variant=reference}' | filecheck %s --check-prefix=TILE
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true variant=reference},hsg-block-into-ub,convert-hsg-to-ascend' -t ascendc | filecheck %s --check-prefix=CPP
// RUN: hswc-opt %s -p 'hsg-decompose,hsg-fuse-elementwise,hsg-tile-on-cores{soc=ascend910b rows=true variant=reference}' --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// f32 softmax over dim 1 of x (2, 3, 128): a row kernel of lanes (hswc.rows: Lanes), each row
// 64 adjacent columns read as 3 runs of 64, 128 apart; the 4 rows come in 2 groups of 2
// (Rows.row_start: row r at r / 2 * 384 + r % 2 * 64).
// TILE-LABEL: func.func @softmax_dim1(
// TILE:         hsg.launch @softmax_dim1_kernel_f32 blocks %{{.*}} (%x) tiling(%{{.*}}) {hsg.op_dim = 1 : i64} : tensor<2x3x128xf32> -> tensor<2x3x128xf32>
// TILE-LABEL: func.func @softmax_dim1_kernel_f32(
// TILE-SAME:    hsg.rows = {length = 192 : i64, inputs = ["element"], outputs = ["element"], runs = 3 : i64, stride = 128 : i64, one_per_chunk, lanes = 64 : i64}
// TILE:         hsg.reduce "maximumf"
// TILE:         hsg.reduce "addf"
// A core's GlobalTensor starts at its first row's first run; a chunk (one row) comes in as one
// DataCopyPad of its 3 runs (256 bytes each, 256 bytes apart in GM, one after the other in UB)
// and goes out so; the maximum folds run 2 into run 0, then run 1 into run 0 (level-0 Max over
// 64 lanes of a copy of x, reduction_order.reduce_lanes), and run 0's 64 lanes are the row's
// maxima, read back as one repeat for each of the 3 runs (repeat stride 0); the sum likewise.
// CPP-LABEL: class SoftmaxDim1<float> {
// CPP:         xGm.SetGlobalBuffer((__gm__ float*)x + [[START:value[0-9]*]],
// CPP:         AscendC::DataCopyPad(xLocal,
// CPP-NEXT:        xGm[FloorDiv([[ROW:value[0-9]*]], 2) * 384 + [[ROW]] % 2 * 64 - (FloorDiv(blockOffset, 2) * 384 + blockOffset % 2 * 64)],
// CPP-NEXT:        AscendC::DataCopyParams(3, 256, 256, 0), AscendC::DataCopyPadParams(false, 0, 0, 0));
// CPP:         AscendC::DataCopy(foldLocal, xLocal, chunkElements);
// CPP:         AscendC::Max(foldLocal, foldLocal, foldLocalAt128, 64, 1,
// CPP:         AscendC::Max(foldLocal, foldLocal, foldLocalAt64, 64, 1,
// CPP:         AscendC::DataCopy(tmpLocal, foldLocal, 64);
// CPP:         AscendC::Sub(tmp1Local, xLocal, tmpLocal, 64, 3,
// CPP-NEXT:        AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 0));
// CPP:         AscendC::Add(foldLocal, foldLocal, foldLocalAt128, 64, 1,
// CPP:         AscendC::Add(foldLocal, foldLocal, foldLocalAt64, 64, 1,
// CPP:         AscendC::DataCopy(tmpLocal, foldLocal, 64);
// CPP:         AscendC::Div(yLocal, tmp1Local, tmpLocal, 64, 3,
// CPP-NEXT:        AscendC::BinaryRepeatParams(1, 1, 1, 8, 8, 0));
// CPP-NOT:     WholeReduce
// CPP:         yLocal, AscendC::DataCopyParams(3, 256, 0, 256));
// REMARK: convert-hsg-to-ascend-lanes.mlir:[[# @LINE + 2]]:3: remark: 'linalg.generic' becomes a launch of the row kernel @softmax_dim1_kernel_f32 (2 reductions along rows of 192 (3 runs of 64, 128 apart, its 64 lanes reduced apart)
func.func @softmax_dim1(%x: tensor<2x3x128xf32>) -> tensor<2x3x128xf32> {
  %y = hsg.softmax %x {dim = 1 : i64} : tensor<2x3x128xf32>
  return %y : tensor<2x3x128xf32>
}
