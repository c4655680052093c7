// RUN: hswc-opt %s --split-input-file --lower-to-ascend -t ascendc | filecheck %s

// arith.trunci and the integer divisions in C++: Div on float, Casts by rounding mode, shifts on
// ReinterpretCast lanes (hswc/vectorizer/integer_lowering.py).

// torch's `x // y` on int16 (floordivsi): both operands Cast to float exactly, Div, the
// quotient rounded toward -inf in float (CAST_FLOOR), then Cast back to int16_t.
func.func @floordiv(%x: tensor<?xi16>, %y: tensor<?xi16>) -> tensor<?xi16> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi16>
  %e = tensor.empty(%d) : tensor<?xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xi16>, tensor<?xi16>) outs(%e : tensor<?xi16>) {
  ^bb0(%a: i16, %b: i16, %o: i16):
    %q = arith.floordivsi %a, %b : i16
    linalg.yield %q : i16
  } -> tensor<?xi16>
  func.return %r : tensor<?xi16>
}

// CHECK-LABEL: __aicore__ inline void Compute2(int64_t currentNum)
// CHECK:           AscendC::Div(tmpLocal, tmpLocal, tmp1Local, computeNum);
// CHECK:           AscendC::Cast(tmp1Local, tmpLocal, AscendC::RoundMode::CAST_FLOOR, currentNum);
// CHECK:           AscendC::Cast(rLocal, tmp1Local, AscendC::RoundMode::CAST_TRUNC, currentNum);

// -----

// remsi of int8 by the constant -5: a - trunc(a / b) * b in float, b a constant buffer; the
// int8 result from float through half (A2/A3 casts to int8_t only from half).
func.func @rem(%x: tensor<?xi8>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi8>
  %e = tensor.empty(%d) : tensor<?xi8>
  %k = arith.constant -5 : i8
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi8>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: i8, %o: i8):
    %m = arith.remsi %a, %k : i8
    linalg.yield %m : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK:           AscendC::Duplicate(constLocal, -5.0f, ubFactor);
// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:           AscendC::Div(tmp1Local, tmpLocal, constLocal, computeNum);
// CHECK:           AscendC::Cast(tmp2Local, tmp1Local, AscendC::RoundMode::CAST_TRUNC, currentNum);
// CHECK:           AscendC::Muls(tmp2Local, tmp2Local, -5.0f, computeNum);
// CHECK:           AscendC::Sub(tmpLocal, tmpLocal, tmp2Local, computeNum);

// -----

// trunci i32 -> i8 keeps the low bits: shifted up by 24 on the unsigned lanes, down by 24 on
// the signed ones (the low byte sign-extended), then Cast to int8_t exactly through float and
// half (A2/A3 has no int32_t -> int8_t Cast; the value is in int8's range).
func.func @trunc(%x: tensor<?xi32>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xi32>
  %e = tensor.empty(%d) : tensor<?xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<?xi32>) outs(%e : tensor<?xi8>) {
  ^bb0(%a: i32, %o: i8):
    %t = arith.trunci %a : i32 to i8
    linalg.yield %t : i8
  } -> tensor<?xi8>
  func.return %r : tensor<?xi8>
}

// CHECK-LABEL: __aicore__ inline void Compute(int64_t currentNum)
// CHECK:           AscendC::LocalTensor<uint32_t> tmpLocalAsUi32 = tmpLocal.ReinterpretCast<uint32_t>();
// CHECK:           AscendC::ShiftLeft(tmpLocalAsUi32, xInt32AsUi32, static_cast<uint32_t>(24), computeNum);
// CHECK:           AscendC::ShiftRight(tmpLocal, tmpLocal, static_cast<int32_t>(24), computeNum);
// CHECK:           AscendC::Cast(tF32Local, tmpLocal, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK:           AscendC::Cast(tF16Local, tF32Local, AscendC::RoundMode::CAST_NONE, currentNum);
// CHECK:           AscendC::Cast(rLocal, tF16Local, AscendC::RoundMode::CAST_NONE, currentNum);
