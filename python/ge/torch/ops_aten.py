"""Converters for the aten operators of AOTAutograd's forward and backward graphs (training)."""

import numpy as np
import torch

from . import ops_tensor
from .registry import Unsupported, converter

aten = torch.ops.aten

converter(aten.add.Tensor)(ops_tensor._binary("Add"))
converter(aten.sub.Tensor)(ops_tensor._binary("Sub"))
converter(aten.mul.Tensor)(ops_tensor._binary("Mul"))
converter(aten.div.Tensor)(ops_tensor.div)
converter(aten.relu.default)(ops_tensor._unary("Relu"))
converter(aten.detach.default)(ops_tensor._unary("Identity"))
converter(aten.mm.default, aten.bmm.default)(ops_tensor.matmul)
converter(aten.t.default)(ops_tensor.t)
converter(aten.permute.default)(ops_tensor.permute)


@converter(aten.addmm.default)
def addmm(g, bias, a, b, *, beta=1, alpha=1):
    if beta != 1 or alpha != 1:
        raise Unsupported("addmm with beta/alpha")
    return g.op("Add", g.op("MatMul", a, b), g.value(bias))


@converter(aten.view.default, aten._unsafe_view.default, aten.reshape.default)
def view(g, x, size):
    return ops_tensor.reshape(g, x, list(size))


@converter(aten._reshape_alias.default)
def reshape_alias(g, x, size, stride):
    return ops_tensor.reshape(g, x, list(size))


@converter(aten.sum.dim_IntList)
def sum_dims(g, x, dims, keepdim=False, *, dtype=None):
    if dtype is not None:
        raise Unsupported("sum with dtype=")
    axes = [ops_tensor.axis(d, x.rank) for d in dims] if dims else list(range(x.rank))
    return g.op("ReduceSum", x, g.const(np.array(axes, np.int64)), keepdims=int(keepdim))


@converter(aten.threshold_backward.default)
def threshold_backward(g, grad, x, threshold):
    """The gradient where x > threshold, else 0."""
    return g.op("Where", g.op("Greater", x, g.like(threshold, x)), grad, g.like(0.0, grad))


@converter(aten.convolution.default)
def convolution(g, x, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    if transposed:
        raise Unsupported("transposed convolution")
    kernel = list(weight.shape[2:])  # a V's example shape, or a constant tensor's
    return g.op("Conv", x, weight, bias, strides=list(stride), pads=list(padding) * 2, dilations=list(dilation),
                group=int(groups), kernel_shape=kernel)
