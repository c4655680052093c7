// RUN: hswc-opt %s -p 'hsg-decompose,hsg-tile-on-cores{soc=ascend950},hsg-block-into-ub,convert-hsg-to-ascend' -t ascendc | filecheck %s

// Ascend 950, f16 -> f8E4M3FN: the kernel sets the non-saturating mode once in Init (its Cast to
// an 8-bit float then keeps NaN and inf as truncf does), widens exactly, then Casts with CAST_RINT.
#id = affine_map<(d0) -> (d0)>
func.func @q(%x: tensor<?xf16>) -> tensor<?xf8E4M3FN> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf16>
  %e = tensor.empty(%n) : tensor<?xf8E4M3FN>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf16>) outs(%e : tensor<?xf8E4M3FN>) {
    ^bb0(%a: f16, %o: f8E4M3FN):
      %t = arith.truncf %a : f16 to f8E4M3FN
      linalg.yield %t : f8E4M3FN
  } -> tensor<?xf8E4M3FN>
  return %y : tensor<?xf8E4M3FN>
}

// CHECK:       yGm.SetGlobalBuffer((__gm__ fp8_e4m3fn_t*)y + blockOffset, blockLength);
// CHECK:       AscendC::SetCtrlSpr<48, 48>(1);
// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:       AscendC::Cast(xFp32Local, xLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK:       AscendC::LocalTensor<fp8_e4m3fn_t> yLocal = outputQueueY.AllocTensor<fp8_e4m3fn_t>();
// CHECK-NEXT:  AscendC::Cast(yLocal, xFp32Local, AscendC::RoundMode::CAST_RINT, currentNum);
