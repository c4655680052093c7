// ascendc_cpu_vector.h - the vector instructions of the AscendC CPU model.
//
// Part of the AscendC CPU model (see README.md). Level-2 ("count")
// interfaces (and the level-0 forms of Compare and Select), one header per family:
//   ascendc_cpu_vec_common.h  RoundMode, CMPMODE, SELMODE; lane arithmetic, operand checks
//   ascendc_cpu_vec_arith.h   Duplicate, Add, Sub, Mul, Div, Max, Min, Adds, Muls, Maxs,
//                             Mins, Abs, Relu, And, Or, Not
//   ascendc_cpu_vec_cmpsel.h  Compare, CompareScalar / Compares, Select (three modes)
//   ascendc_cpu_vec_level0.h  their mask/repeat (level-0) forms, UnaryRepeatParams, BinaryRepeatParams
//   ascendc_cpu_vec_reduce.h  ReduceSum, ReduceMax, ReduceMin, WholeReduceSum/Max/Min, Brcb, and the
//                             level-0 Add, Sub, Mul, Div, Max, Min (the order of a sum as hswc's)
//   ascendc_cpu_vec_fill.h    Duplicate's mask/repeat (level-0) forms
//   ascendc_cpu_vec_fill_tensor.h Ascend 950's Duplicate from a LocalTensor's first element
//   ascendc_cpu_vec_index.h   CreateVecIndex (count form)
//   ascendc_cpu_vec_block_reduce.h BlockReduceSum, BlockReduceMax, BlockReduceMin (per 32-byte block)
//   ascendc_cpu_mask.h        the vector mask register: SetMaskCount, SetMaskNorm, SetVectorMask
//   ascendc_cpu_vec_cast.h    Cast
//   ascendc_cpu_vec_math.h    Exp, Ln, Sqrt, Rsqrt, Reciprocal (one model each, as hswc's)
//   ascendc_cpu_vec_library.h the library's Erf and Tanh (asc-devkit's sequences of basic calls)
//   ascendc_cpu_vec_sigmoid.h the library's Sigmoid (asc-devkit's sequence of basic calls)
//   ascendc_cpu_vec_transpose.h TransDataTo5HD (16- and 32-bit elements)
//   ascendc_cpu_unmodelled.h  Axpy, Sin, ...: compile errors (results not exactly specified)
#ifndef ASCENDC_CPU_VECTOR_H
#define ASCENDC_CPU_VECTOR_H

#include "ascendc_cpu_unmodelled.h"
#include "ascendc_cpu_vec_arith.h"
#include "ascendc_cpu_mask.h"
#include "ascendc_cpu_vec_block_reduce.h"
#include "ascendc_cpu_vec_cast.h"
#include "ascendc_cpu_vec_cmpsel.h"
#include "ascendc_cpu_vec_common.h"
#include "ascendc_cpu_vec_fill.h"
#include "ascendc_cpu_vec_fill_tensor.h"
#include "ascendc_cpu_vec_index.h"
#include "ascendc_cpu_vec_level0.h"
#include "ascendc_cpu_vec_library.h"
#include "ascendc_cpu_vec_math.h"
#include "ascendc_cpu_vec_reduce.h"
#include "ascendc_cpu_vec_sigmoid.h"
#include "ascendc_cpu_vec_transpose.h"
#include "ascendc_cpu_gather.h"
#include "ascendc_cpu_gather_mask.h"

#endif  // ASCENDC_CPU_VECTOR_H
