"""Converters for torch functions, operators and Tensor methods (call_function / call_method nodes).

In-place methods (add_, relu_, ...) have none: they run in eager, where the mutation is seen by
every later reader of the tensor.
"""

import math
import operator

import numpy as np
import torch
import torch.nn.functional as F

from .onnx_builder import V, onnx_type
from .registry import Unsupported, converter


def axis(d, rank):
    return d + rank if d < 0 else d


def dims_arg(args):
    """view(a, b) and view((a, b)) alike."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, torch.Size)):
        return list(args[0])
    return list(args)


# ---- elementwise -----------------------------------------------------------------------------

def _check_promotion(a, b, ref):
    """Operands GE computes in ref's dtype as PyTorch would; type promotion stays in eager."""
    other = b if ref is a else a
    if ref.dtype is None:
        return
    if isinstance(other, float) and not ref.dtype.is_floating_point:
        raise Unsupported(f"{ref.dtype} tensor with a float scalar (type promotion)")
    if isinstance(other, (V, torch.Tensor)) and other.dtype is not None and other.dtype != ref.dtype:
        raise Unsupported(f"operands of dtypes {ref.dtype} and {other.dtype} (type promotion)")


def _binary(op_type):
    def convert(g, a, b, *, alpha=None, out=None):
        if out is not None:
            raise Unsupported("out= is not supported")
        if not isinstance(a, V) and not isinstance(b, V):
            raise Unsupported("no tensor operand")
        ref = a if isinstance(a, V) else b
        _check_promotion(a, b, ref)
        a, b = g.like(a, ref), g.like(b, ref)
        if alpha is not None and alpha != 1:
            b = g.op("Mul", b, g.like(alpha, ref))
        return g.op(op_type, a, b)
    return convert


converter(operator.add, torch.add, "add")(_binary("Add"))
converter(operator.sub, torch.sub, "sub")(_binary("Sub"))
converter(operator.mul, torch.mul, "mul")(_binary("Mul"))
converter(torch.pow, operator.pow, "pow")(_binary("Pow"))
converter(torch.maximum, "maximum")(_binary("Max"))
converter(torch.minimum, "minimum")(_binary("Min"))


@converter(operator.truediv, torch.div, "div")
def div(g, a, b, *, rounding_mode=None):
    if rounding_mode is not None:
        raise Unsupported(f"rounding_mode={rounding_mode!r}")
    ref = a if isinstance(a, V) else b
    if ref.dtype is not None and not ref.dtype.is_floating_point:
        raise Unsupported("true division of integer tensors")
    _check_promotion(a, b, ref)
    return g.op("Div", g.like(a, ref), g.like(b, ref))


@converter(operator.floordiv)
def floordiv(g, a, b):
    ref = a if isinstance(a, V) else b
    if ref.dtype is not None and ref.dtype.is_floating_point:
        return g.op("Floor", g.op("Div", g.like(a, ref), g.like(b, ref)))
    return g.op("Div", g.like(a, ref), g.like(b, ref))  # sizes: non-negative, so truncation is floor


@converter(torch.matmul, operator.matmul, torch.bmm, "matmul", "bmm")
def matmul(g, a, b):
    return g.op("MatMul", g.value(a), g.value(b))


def _unary(op_type, **attrs):
    def convert(g, x, *args, **kwargs):
        if any(not isinstance(a, bool) for a in args) or set(kwargs) - {"inplace"}:
            raise Unsupported(f"{op_type}: extra arguments {args} {kwargs}")
        return g.op(op_type, x, **attrs)
    return convert


for _t, _op in [((torch.relu, F.relu, "relu"), "Relu"), ((torch.sigmoid, F.sigmoid, "sigmoid"), "Sigmoid"),
                ((torch.tanh, F.tanh, "tanh"), "Tanh"), ((torch.exp, "exp"), "Exp"), ((torch.log, "log"), "Log"),
                ((torch.sqrt, "sqrt"), "Sqrt"), ((torch.abs, "abs"), "Abs"), ((operator.neg, torch.neg, "neg"), "Neg"),
                ((torch.erf, "erf"), "Erf"), ((torch.sin, "sin"), "Sin"), ((torch.cos, "cos"), "Cos"),
                ((torch.reciprocal, "reciprocal"), "Reciprocal"), ((F.hardswish,), "HardSwish"),
                (("contiguous", "clone", "detach"), "Identity")]:
    converter(*_t)(_unary(_op))


@converter(torch.rsqrt, "rsqrt")
def rsqrt(g, x):
    return g.op("Reciprocal", g.op("Sqrt", x))


def hardsigmoid(g, x):
    return g.op("HardSigmoid", x, alpha=1.0 / 6, beta=0.5)


@converter(F.hardsigmoid)
def hardsigmoid_fn(g, x, inplace=False):
    return hardsigmoid(g, x)


def clip(g, x, lo, hi):
    return g.op("Clip", x, None if lo is None else g.like(lo, x), None if hi is None else g.like(hi, x))


@converter(torch.clamp, "clamp", "clip")
def clamp(g, x, min=None, max=None):
    return clip(g, x, min, max)


@converter(F.relu6)
def relu6(g, x, inplace=False):
    return clip(g, x, 0.0, 6.0)


@converter(F.hardtanh)
def hardtanh(g, x, min_val=-1.0, max_val=1.0, inplace=False):
    return clip(g, x, min_val, max_val)


@converter(F.leaky_relu)
def leaky_relu(g, x, negative_slope=0.01, inplace=False):
    return g.op("LeakyRelu", x, alpha=float(negative_slope))


def gelu(g, x, approximate="none"):
    if approximate == "tanh":  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        inner = g.op("Mul", g.like(math.sqrt(2 / math.pi), x),
                     g.op("Add", x, g.op("Mul", g.like(0.044715, x), g.op("Pow", x, g.like(3.0, x)))))
        return g.op("Mul", g.op("Mul", x, g.like(0.5, x)), g.op("Add", g.op("Tanh", inner), g.like(1.0, x)))
    if approximate != "none":
        raise Unsupported(f"gelu approximate={approximate!r}")
    erf = g.op("Erf", g.op("Div", x, g.like(math.sqrt(2.0), x)))
    return g.op("Mul", g.op("Mul", x, g.like(0.5, x)), g.op("Add", erf, g.like(1.0, x)))


converter(F.gelu)(gelu)


@converter(F.silu)
def silu(g, x, inplace=False):
    return g.op("Mul", x, g.op("Sigmoid", x))


@converter(torch.softmax, F.softmax, "softmax")
def softmax(g, x, dim=None, _stacklevel=3, dtype=None):
    if dim is None or dtype is not None:
        raise Unsupported("softmax needs dim= and no dtype=")
    return g.op("Softmax", x, axis=int(dim))


@converter(torch.log_softmax, F.log_softmax, "log_softmax")
def log_softmax(g, x, dim=None, _stacklevel=3, dtype=None):
    if dim is None or dtype is not None:
        raise Unsupported("log_softmax needs dim= and no dtype=")
    return g.op("LogSoftmax", x, axis=int(dim))


@converter(F.dropout, "dropout")
def dropout(g, x, p=0.5, training=False, inplace=False):
    if training:
        raise Unsupported("dropout in training mode")
    return g.op("Identity", x)


# ---- shape -----------------------------------------------------------------------------------

@converter(torch.flatten, "flatten")
def flatten(g, x, start_dim=0, end_dim=-1):
    start, end = axis(start_dim, x.rank), axis(end_dim, x.rank)
    if end == x.rank - 1:
        if start == 0:
            return g.op("Reshape", x, g.const(np.array([-1], np.int64)))
        if start == 1:
            return g.op("Flatten", x, axis=1)
    tail = [x.static_dim(d) for d in range(end + 1, x.rank)]
    if None in tail:
        raise Unsupported("flatten: a dynamic dim after end_dim")
    return g.op("Reshape", x, g.const(np.array([0] * start + [-1] + tail, np.int64)))


@converter("view", "reshape", torch.reshape)
def reshape(g, x, *shape):
    dims = dims_arg(shape)
    if any(d == 0 for d in dims if not isinstance(d, V)):
        raise Unsupported("reshape to a zero-size dim")
    return g.op("Reshape", x, g.shape_tensor(dims))


@converter("permute", torch.permute)
def permute(g, x, *dims):
    return g.op("Transpose", x, perm=[axis(d, x.rank) for d in dims_arg(dims)])


@converter("transpose", torch.transpose)
def transpose(g, x, dim0, dim1):
    perm = list(range(x.rank))
    a, b = axis(dim0, x.rank), axis(dim1, x.rank)
    perm[a], perm[b] = perm[b], perm[a]
    return g.op("Transpose", x, perm=perm)


@converter("t", torch.t)
def t(g, x):
    return g.op("Transpose", x, perm=[1, 0]) if x.rank == 2 else g.op("Identity", x)


@converter("unsqueeze", torch.unsqueeze)
def unsqueeze(g, x, dim):
    return g.op("Unsqueeze", x, g.const(np.array([axis(dim, x.rank + 1)], np.int64)))


@converter("squeeze", torch.squeeze)
def squeeze(g, x, dim=None):
    if dim is None:
        return g.op("Squeeze", x)
    return g.op("Squeeze", x, g.const(np.array([axis(dim, x.rank)], np.int64)))


@converter(torch.cat, torch.concat)
def cat(g, tensors, dim=0):
    ref = next(t for t in tensors if isinstance(t, V))
    return g.op("Concat", *[g.like(t, ref) for t in tensors], axis=axis(dim, ref.rank))


@converter(torch.stack)
def stack(g, tensors, dim=0):
    ref = next(t for t in tensors if isinstance(t, V))
    d = axis(dim, ref.rank + 1)
    parts = [g.op("Unsqueeze", g.like(t, ref), g.const(np.array([d], np.int64))) for t in tensors]
    return g.op("Concat", *parts, axis=d)


@converter("expand")
def expand(g, x, *sizes):
    dims = dims_arg(sizes)
    if any(not isinstance(d, V) and d == -1 for d in dims):  # -1 keeps the dim: 1 broadcasts to it
        dims = [1 if not isinstance(d, V) and d == -1 else d for d in dims]
    return g.op("Expand", x, g.shape_tensor(dims))


def _size(g, x, d):
    return g.op("Gather", g.op("Shape", x), g.const(np.array(d, np.int64)), axis=0)


@converter("size")
def size(g, x, dim=None):
    """Only reached for a size that varies between runs (static sizes are constants)."""
    if dim is not None:
        return _size(g, x, axis(dim, x.rank))
    return tuple(_size(g, x, d) if x.dyn[d] else x.shape[d] for d in range(x.rank))


@converter(getattr)
def getattr_(g, x, name):
    if name == "shape" and isinstance(x, V):
        return size(g, x)
    raise Unsupported(f"attribute {name!r}")


def _reduce(op_type, axes_as_input):
    def convert(g, x, dim=None, keepdim=False, *, dtype=None):
        if dtype is not None:
            raise Unsupported("dtype=")
        if dim is None:
            axes = list(range(x.rank))
        else:
            axes = [axis(d, x.rank) for d in (dim if isinstance(dim, (tuple, list)) else [dim])]
        if axes_as_input:
            return g.op(op_type, x, g.const(np.array(axes, np.int64)), keepdims=int(keepdim))
        return g.op(op_type, x, axes=axes, keepdims=int(keepdim))
    return convert


converter(torch.mean, "mean")(_reduce("ReduceMean", False))
converter(torch.sum, "sum")(_reduce("ReduceSum", True))


@converter("to", "type")
def to(g, x, *args, **kwargs):
    dtype = kwargs.get("dtype") or next((a for a in args if isinstance(a, torch.dtype)), None)
    if dtype is None or any(not isinstance(a, (torch.dtype, torch.device, str)) for a in args):
        raise Unsupported(f"to{args}: only a dtype (and the CPU device)")
    return g.op("Cast", x, to=onnx_type(dtype))


@converter(operator.getitem)
def getitem(g, x, index):
    """Python containers index in Python; a tensor index of ints, slices, None and ... becomes Slice/Squeeze."""
    if not isinstance(x, V):
        return x[index]
    index = index if isinstance(index, tuple) else (index,)
    if any(not isinstance(i, (int, slice, type(None), type(Ellipsis))) for i in index):
        raise Unsupported(f"tensor index {index}")
    if Ellipsis in index:
        k = index.index(Ellipsis)
        fill = x.rank - (len(index) - 1 - sum(i is None for i in index))
        index = index[:k] + (slice(None),) * fill + index[k + 1:]
    starts, ends, axes, steps, squeeze_axes, new_axes = [], [], [], [], [], []
    d, out_d = 0, 0
    for i in index:
        if i is None:
            new_axes.append(out_d)
            out_d += 1
            continue
        if isinstance(i, int):
            starts.append(i)
            ends.append(i + 1 if i != -1 else np.iinfo(np.int64).max)
            axes.append(d)
            steps.append(1)
            squeeze_axes.append(d)
        elif i != slice(None):
            starts.append(0 if i.start is None else i.start)
            ends.append(np.iinfo(np.int64).max if i.stop is None else i.stop)
            axes.append(d)
            steps.append(1 if i.step is None else i.step)
            out_d += 1
        else:
            out_d += 1
        d += 1
    y = x
    if axes:
        y = g.op("Slice", x, *[g.const(np.array(v, np.int64)) for v in (starts, ends, axes, steps)])
    if squeeze_axes:
        y = g.op("Squeeze", y, g.const(np.array(squeeze_axes, np.int64)))
    if new_axes:
        y = g.op("Unsqueeze", y, g.const(np.array(new_axes, np.int64)))
    return y if y is not x else g.op("Identity", x)


def _compare(op_type, negate=False):
    def convert(g, a, b):
        ref = a if isinstance(a, V) else b
        _check_promotion(a, b, ref)
        y = g.op(op_type, g.like(a, ref), g.like(b, ref))
        return g.op("Not", y) if negate else y
    return convert


converter(operator.gt, torch.gt, "gt")(_compare("Greater"))
converter(operator.lt, torch.lt, "lt")(_compare("Less"))
converter(operator.ge, torch.ge, "ge")(_compare("GreaterOrEqual"))
converter(operator.le, torch.le, "le")(_compare("LessOrEqual"))
converter(operator.eq, torch.eq, "eq")(_compare("Equal"))
converter(operator.ne, torch.ne, "ne")(_compare("Equal", negate=True))


def _cast(dtype):
    def convert(g, x):
        return g.op("Cast", x, to=onnx_type(dtype))
    return convert


for _name, _dtype in [("long", torch.int64), ("int", torch.int32), ("bool", torch.bool), ("half", torch.float16),
                      ("double", torch.float64), ("float", torch.float32)]:
    converter(_name)(_cast(_dtype))


@converter(torch.where)
def where(g, cond, a, b):
    ref = a if isinstance(a, V) else b
    if not isinstance(ref, V):
        raise Unsupported("where() without a tensor branch")
    _check_promotion(a, b, ref)
    return g.op("Where", g.value(cond), g.like(a, ref), g.like(b, ref))


@converter("masked_fill")
def masked_fill(g, x, mask, value):
    if isinstance(value, float) and x.dtype is not None and not x.dtype.is_floating_point:
        raise Unsupported("a float fill value for an integer tensor")
    return g.op("Where", g.value(mask), g.like(value, x), x)
