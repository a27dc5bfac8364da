"""Converters for torch.nn modules (call_module nodes) and the functional forms that share them.

Weights become initializers: a compiled module runs with the values they had at compile time.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import ops_tensor
from .registry import Unsupported, converter


def _eval_only(mod):
    if mod.training:
        raise Unsupported(f"{type(mod).__name__} in training mode (call .eval() for inference)")


def _pair(v, n):
    return list(v) if isinstance(v, (tuple, list)) else [v] * n


def linear(g, x, weight, bias):
    """x @ weight.T + bias, with a constant weight transposed at compile time."""
    w = g.initializer(weight.detach().t().contiguous()) if isinstance(weight, torch.Tensor) else \
        g.op("Transpose", weight, perm=[1, 0])
    y = g.op("MatMul", x, w)
    return y if bias is None else g.op("Add", y, g.value(bias))


@converter(nn.Linear)
def linear_module(g, mod, x):
    return linear(g, x, mod.weight, mod.bias)


@converter(F.linear)
def linear_fn(g, x, weight, bias=None):
    return linear(g, x, weight, bias)


def conv(g, x, weight, bias, stride, padding, dilation, groups):
    n = weight.dim() - 2
    attrs = dict(strides=_pair(stride, n), dilations=_pair(dilation, n), group=int(groups),
                 kernel_shape=list(weight.shape[2:]))
    if padding == "same":
        attrs["auto_pad"] = "SAME_UPPER"
        if any(s != 1 for s in attrs["strides"]):
            raise Unsupported("padding='same' with stride > 1")
    elif padding == "valid":
        attrs["pads"] = [0] * (2 * n)
    else:
        attrs["pads"] = _pair(padding, n) * 2
    return g.op("Conv", x, g.value(weight), None if bias is None else g.value(bias), **attrs)


@converter(nn.Conv1d, nn.Conv2d, nn.Conv3d)
def conv_module(g, mod, x):
    if mod.padding_mode != "zeros":
        raise Unsupported(f"padding_mode={mod.padding_mode!r}")
    return conv(g, x, mod.weight, mod.bias, mod.stride, mod.padding, mod.dilation, mod.groups)


@converter(F.conv1d, F.conv2d)
def conv_fn(g, x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    if not isinstance(weight, torch.Tensor):
        raise Unsupported("a computed convolution weight")
    return conv(g, x, weight, bias, stride, padding, dilation, groups)


@converter(nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)
def batch_norm(g, mod, x):
    _eval_only(mod)
    if mod.running_mean is None:
        raise Unsupported("batch norm without running statistics")
    c = mod.num_features
    weight = mod.weight if mod.affine else torch.ones(c)
    bias = mod.bias if mod.affine else torch.zeros(c)
    return g.op("BatchNormalization", x, g.value(weight), g.value(bias), g.value(mod.running_mean),
                g.value(mod.running_var), epsilon=float(mod.eps))


def layer_norm(g, x, shape, weight, bias, eps):
    n = len(shape)
    w = weight if weight is not None else torch.ones(shape)
    b = bias if bias is not None else torch.zeros(shape)
    return g.op("LayerNormalization", x, g.value(w), g.value(b), axis=-n, epsilon=float(eps))


@converter(nn.LayerNorm)
def layer_norm_module(g, mod, x):
    return layer_norm(g, x, tuple(mod.normalized_shape), mod.weight, mod.bias, mod.eps)


@converter(F.layer_norm)
def layer_norm_fn(g, x, normalized_shape, weight=None, bias=None, eps=1e-5):
    return layer_norm(g, x, tuple(normalized_shape), weight, bias, eps)


def _activation(fn):
    def convert(g, mod, x):
        return fn(g, x)
    return convert


converter(nn.ReLU)(_activation(lambda g, x: g.op("Relu", x)))
converter(nn.Sigmoid)(_activation(lambda g, x: g.op("Sigmoid", x)))
converter(nn.Tanh)(_activation(lambda g, x: g.op("Tanh", x)))
converter(nn.Hardswish)(_activation(lambda g, x: g.op("HardSwish", x)))
converter(nn.Hardsigmoid)(_activation(ops_tensor.hardsigmoid))
converter(nn.ReLU6)(_activation(lambda g, x: ops_tensor.clip(g, x, 0.0, 6.0)))
converter(nn.SiLU)(_activation(ops_tensor.silu))
converter(nn.Identity)(_activation(lambda g, x: g.op("Identity", x)))


@converter(nn.GELU)
def gelu_module(g, mod, x):
    return ops_tensor.gelu(g, x, mod.approximate)


@converter(nn.LeakyReLU)
def leaky_relu_module(g, mod, x):
    return g.op("LeakyRelu", x, alpha=float(mod.negative_slope))


@converter(nn.Hardtanh)
def hardtanh_module(g, mod, x):
    return ops_tensor.clip(g, x, mod.min_val, mod.max_val)


@converter(nn.Softmax)
def softmax_module(g, mod, x):
    return ops_tensor.softmax(g, x, mod.dim)


@converter(nn.LogSoftmax)
def log_softmax_module(g, mod, x):
    return ops_tensor.log_softmax(g, x, mod.dim)


@converter(nn.Dropout, nn.Dropout1d, nn.Dropout2d, nn.AlphaDropout)
def dropout_module(g, mod, x):
    _eval_only(mod)
    return g.op("Identity", x)


@converter(nn.Flatten)
def flatten_module(g, mod, x):
    return ops_tensor.flatten(g, x, mod.start_dim, mod.end_dim)


@converter(nn.Embedding)
def embedding(g, mod, ids):
    if mod.max_norm is not None:
        raise Unsupported("Embedding with max_norm")
    return g.op("Gather", g.value(mod.weight), ids, axis=0)


def max_pool(g, x, kernel_size, stride, padding, dilation, ceil_mode):
    n = x.rank - 2
    stride = kernel_size if stride is None or stride == [] else stride
    return g.op("MaxPool", x, kernel_shape=_pair(kernel_size, n), strides=_pair(stride, n),
                pads=_pair(padding, n) * 2, dilations=_pair(dilation, n), ceil_mode=int(ceil_mode))


@converter(nn.MaxPool1d, nn.MaxPool2d, nn.MaxPool3d)
def max_pool_module(g, mod, x):
    if mod.return_indices:
        raise Unsupported("return_indices=True")
    return max_pool(g, x, mod.kernel_size, mod.stride, mod.padding, mod.dilation, mod.ceil_mode)


@converter(F.max_pool2d)
def max_pool_fn(g, x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        raise Unsupported("return_indices=True")
    return max_pool(g, x, kernel_size, stride, padding, dilation, ceil_mode)


def avg_pool(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override=None):
    if divisor_override is not None:
        raise Unsupported("divisor_override")
    n = x.rank - 2
    stride = kernel_size if stride is None or stride == [] else stride
    return g.op("AveragePool", x, kernel_shape=_pair(kernel_size, n), strides=_pair(stride, n),
                pads=_pair(padding, n) * 2, ceil_mode=int(ceil_mode), count_include_pad=int(count_include_pad))


@converter(nn.AvgPool1d, nn.AvgPool2d, nn.AvgPool3d)
def avg_pool_module(g, mod, x):
    return avg_pool(g, x, mod.kernel_size, mod.stride, mod.padding, mod.ceil_mode, mod.count_include_pad,
                    getattr(mod, "divisor_override", None))


@converter(F.avg_pool2d)
def avg_pool_fn(g, x, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                divisor_override=None):
    return avg_pool(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def adaptive_avg_pool(g, x, output_size):
    """Output 1: GlobalAveragePool. Otherwise an AveragePool when every input dim divides evenly."""
    n = x.rank - 2
    out = _pair(output_size, n)
    if all(o == 1 for o in out):
        return g.op("GlobalAveragePool", x)
    sizes = [x.static_dim(2 + i) for i in range(n)]
    out = [s if o is None else o for o, s in zip(out, sizes)]
    if None in sizes or any(s % o for s, o in zip(sizes, out)):
        raise Unsupported(f"adaptive pooling of {x.shape} to {out}: the input does not divide evenly")
    k = [s // o for s, o in zip(sizes, out)]
    return g.op("AveragePool", x, kernel_shape=k, strides=k)


@converter(nn.AdaptiveAvgPool1d, nn.AdaptiveAvgPool2d, nn.AdaptiveAvgPool3d)
def adaptive_avg_pool_module(g, mod, x):
    return adaptive_avg_pool(g, x, mod.output_size)


@converter(F.adaptive_avg_pool2d)
def adaptive_avg_pool_fn(g, x, output_size):
    return adaptive_avg_pool(g, x, output_size)
