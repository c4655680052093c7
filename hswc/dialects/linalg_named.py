"""Upstream linalg's named ops that PyTorch's exporter writes and xDSL 0.75 lacks.

Each is MLIR's op of that name: the same syntax (attributes in front, `ins`, `outs`, `->`),
indexing maps, iterator types and body (hswc.dialects.linalg_bodies: the inputs cast to the
output's element type, then combined with its current value), as
`mlir-opt --linalg-generalize-named-ops` prints them. Loop dims are listed in MLIR's order, which
is the order convert-linalg-to-loops nests them in (the reduction dims' order is the order a
sum is taken in).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr
from xdsl.dialects.linalg.abstract_ops import ConvOperation, NamedOperation, PoolingOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, prop_def

from hswc.dialects.linalg_bodies import (
    accumulate,
    body,
    element_types,
    multiply_accumulate,
)


def _window(out: AffineExpr, kernel: AffineExpr, stride: int, dilation: int) -> AffineExpr:
    """The input position a window reads: out * stride + kernel * dilation."""
    return out * stride + kernel * dilation


def _iterators(parallel: int, reduction: int) -> ArrayAttr[IteratorTypeAttr]:
    return ArrayAttr((IteratorTypeAttr.parallel(),) * parallel
                     + (IteratorTypeAttr.reduction(),) * reduction)


class _MultiplyAccumulate(NamedOperation):
    """A named op whose body is `out + cast(a) * cast(b)`."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        return body(element_types([*inputs, *outputs]), multiply_accumulate)


def _batch_matmul_maps() -> ArrayAttr[AffineMapAttr]:
    b, m, n, k = (AffineDimExpr(d) for d in range(4))
    return ArrayAttr([AffineMapAttr(AffineMap(4, 0, (b, m, k))),
                      AffineMapAttr(AffineMap(4, 0, (b, k, n))),
                      AffineMapAttr(AffineMap(4, 0, (b, m, n)))])


@irdl_op_definition
class BatchMatmulOp(_MultiplyAccumulate):
    """linalg.batch_matmul: C[b, m, n] += cast(A[b, m, k]) * cast(B[b, k, n]); loops (b, m, n, k).

    `%c = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf16>, tensor<2x4x5xf16>) outs(%z : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>`
    """

    name = "linalg.batch_matmul"

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr], default_value=_batch_matmul_maps())

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(3, 1)


class _Convolution(ConvOperation):
    """A convolution with MLIR's body (ConvOperation's region has no float casts)."""

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        return body(element_types([*inputs, *outputs]), multiply_accumulate)


@irdl_op_definition
class Conv1DNcwFcwOp(_Convolution):
    """linalg.conv_1d_ncw_fcw: O[n, f, ow] += cast(I[n, c, ow*SW + kw*DW]) * cast(K[f, c, kw]);
    loops (n, f, ow, c, kw).

    `%o = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%i, %k : tensor<1x3x8xf32>, tensor<4x3x3xf32>) outs(%z : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>`
    """

    name = "linalg.conv_1d_ncw_fcw"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, ow, c, kw = (AffineDimExpr(d) for d in range(5))
        (sw,), (dw,) = self.strides.get_values(), self.dilations.get_values()
        return (AffineMap(5, 0, (n, c, _window(ow, kw, sw, dw))),
                AffineMap(5, 0, (f, c, kw)),
                AffineMap(5, 0, (n, f, ow)))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(3, 2)


@irdl_op_definition
class Conv3DNcdhwFcdhwOp(_Convolution):
    """linalg.conv_3d_ncdhw_fcdhw: O[n, f, od, oh, ow] += cast(I[n, c, od*SD + kd*DD,
    oh*SH + kh*DH, ow*SW + kw*DW]) * cast(K[f, c, kd, kh, kw]); loops (n, f, od, oh, ow, c, kd,
    kh, kw).

    `%o = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%i, %k : tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x2xf32>) outs(%z : tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>`
    """

    name = "linalg.conv_3d_ncdhw_fcdhw"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, f, od, oh, ow, c, kd, kh, kw = (AffineDimExpr(d) for d in range(9))
        sd, sh, sw = self.strides.get_values()
        dd, dh, dw = self.dilations.get_values()
        return (AffineMap(9, 0, (n, c, _window(od, kd, sd, dd), _window(oh, kh, sh, dh),
                                 _window(ow, kw, sw, dw))),
                AffineMap(9, 0, (f, c, kd, kh, kw)),
                AffineMap(9, 0, (n, f, od, oh, ow)))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(5, 4)


@irdl_op_definition
class DepthwiseConv2DNchwChwOp(_Convolution):
    """linalg.depthwise_conv_2d_nchw_chw: O[n, c, oh, ow] += cast(I[n, c, oh*SH + kh*DH,
    ow*SW + kw*DW]) * cast(K[c, kh, kw]); loops (n, oh, ow, c, kh, kw).

    `%o = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%i, %k : tensor<1x8x9x9xf32>, tensor<8x3x3xf32>) outs(%z : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>`
    """

    name = "linalg.depthwise_conv_2d_nchw_chw"

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        n, oh, ow, c, kh, kw = (AffineDimExpr(d) for d in range(6))
        sh, sw = self.strides.get_values()
        dh, dw = self.dilations.get_values()
        return (AffineMap(6, 0, (n, c, _window(oh, kh, sh, dh), _window(ow, kw, sw, dw))),
                AffineMap(6, 0, (c, kh, kw)),
                AffineMap(6, 0, (n, c, oh, ow)))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return _iterators(4, 2)


def pooling_nchw_maps(op: PoolingOperation) -> tuple[AffineMap, ...]:
    """The maps of the NCHW poolings: input (n, c, oh*SH + kh*DH, ow*SW + kw*DW), window
    (kh, kw), output (n, c, oh, ow); loops (n, c, oh, ow, kh, kw)."""
    n, c, oh, ow, kh, kw = (AffineDimExpr(d) for d in range(6))
    sh, sw = op.strides.get_values()
    dh, dw = op.dilations.get_values()
    return (AffineMap(6, 0, (n, c, _window(oh, kh, sh, dh), _window(ow, kw, sw, dw))),
            AffineMap(6, 0, (kh, kw)),
            AffineMap(6, 0, (n, c, oh, ow)))


@irdl_op_definition
class PoolingNchwSumOp(PoolingOperation):
    """linalg.pooling_nchw_sum: O[n, c, oh, ow] += cast(I[n, c, oh*SH + kh*DH, ow*SW + kw*DW]);
    the second input only gives the window's shape (kh, kw).

    `%o = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%i, %w : tensor<1x3x8x8xf32>, tensor<2x2xf32>) outs(%z : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>`
    """

    name = "linalg.pooling_nchw_sum"

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue],
                          outputs: Sequence[SSAValue]) -> Region:
        return body(element_types([*inputs, *outputs]), accumulate, read=1)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return pooling_nchw_maps(self)


NEW_OPS = (BatchMatmulOp, Conv1DNcwFcwOp, Conv3DNcdhwFcdhwOp, DepthwiseConv2DNchwChwOp,
           PoolingNchwSumOp)
"""The named ops this module adds to xDSL's linalg dialect."""
