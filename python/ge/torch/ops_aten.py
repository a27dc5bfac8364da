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


def _i64(*v):
    return np.array(v, np.int64)


@converter(aten.convolution_backward.default)
def convolution_backward(g, grad_out, x, weight, bias_sizes, stride, padding, dilation, transposed, output_padding,
                         groups, output_mask):
    """2-D, ungrouped: the input's gradient is a transposed convolution of the output's gradient; the
    weight's is a convolution of the input by the output's gradient (batch as channels, stride and
    dilation swapped); the bias's a sum."""
    if transposed or groups != 1 or x.rank != 4:
        raise Unsupported("convolution_backward: only 2-D, ungrouped, not transposed")
    k = list(weight.shape[2:])
    spatial_in, spatial_out = x.shape[2:], grad_out.shape[2:]
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        extra = [i - ((o - 1) * s - 2 * p + d * (kk - 1) + 1)
                 for i, o, s, p, d, kk in zip(spatial_in, spatial_out, stride, padding, dilation, k)]
        grad_input = g.op("ConvTranspose", grad_out, weight, strides=list(stride), pads=list(padding) * 2,
                          dilations=list(dilation), output_padding=extra, kernel_shape=k)
    if output_mask[1]:
        xt = g.op("Transpose", x, perm=[1, 0, 2, 3])
        gt = g.op("Transpose", grad_out, perm=[1, 0, 2, 3])
        w = g.op("Conv", xt, gt, strides=list(dilation), dilations=list(stride), pads=list(padding) * 2,
                 kernel_shape=list(spatial_out))
        full = [(i + 2 * p - s * (o - 1) - 1) // d + 1
                for i, o, s, p, d in zip(spatial_in, spatial_out, stride, padding, dilation)]
        if full != k:  # the convolution reaches past the kernel: keep the kernel's extent
            w = g.op("Slice", w, g.const(_i64(0, 0)), g.const(_i64(*k)), g.const(_i64(2, 3)))
        grad_weight = g.op("Transpose", w, perm=[1, 0, 2, 3])
    if output_mask[2]:
        grad_bias = g.op("ReduceSum", grad_out, g.const(_i64(0, 2, 3)), keepdims=0)
    return grad_input, grad_weight, grad_bias
