"""Builds one ONNX graph (a GE segment) from converter calls.

Values are V objects naming an ONNX value; the ones bound to fx nodes carry the node's example
dtype and shape, with `dyn` marking the dims that vary between runs (symbolic in the graph).
"""

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper

OPSET = 17

_ONNX_TYPES = {
    torch.float32: TensorProto.FLOAT, torch.float64: TensorProto.DOUBLE, torch.float16: TensorProto.FLOAT16,
    torch.int8: TensorProto.INT8, torch.int16: TensorProto.INT16, torch.int32: TensorProto.INT32,
    torch.int64: TensorProto.INT64, torch.uint8: TensorProto.UINT8, torch.bool: TensorProto.BOOL,
}
_NUMPY_TYPES = {
    torch.float32: np.float32, torch.float64: np.float64, torch.float16: np.float16, torch.int8: np.int8,
    torch.int16: np.int16, torch.int32: np.int32, torch.int64: np.int64, torch.uint8: np.uint8, torch.bool: np.bool_,
}

_TORCH_OF_NUMPY = {np.dtype(n): t for t, n in _NUMPY_TYPES.items()}


def onnx_type(dtype):
    if dtype not in _ONNX_TYPES:
        from .registry import Unsupported
        raise Unsupported(f"dtype {dtype} has no GE equivalent")
    return _ONNX_TYPES[dtype]


def numpy_type(dtype):
    return _NUMPY_TYPES[dtype]


def _dims(name, shape, dyn):
    """ONNX dims: a dynamic dim is a symbol (dim_param) of its own."""
    return [f"{name}_d{i}" if d else int(s) for i, (s, d) in enumerate(zip(shape, dyn))]


class V:
    """An ONNX value. dtype/shape/dyn: the example's, when known (None inside a converter's own nodes).

    scalar: the value stands for a Python int/float/bool (a dynamic size), held as a 0-d tensor.
    """

    __slots__ = ("name", "dtype", "shape", "dyn", "scalar")

    def __init__(self, name, dtype=None, shape=None, dyn=None, scalar=None):
        self.name, self.dtype, self.shape, self.scalar = name, dtype, shape, scalar
        self.dyn = dyn if dyn is not None else (tuple(False for _ in shape) if shape is not None else None)

    @property
    def rank(self):
        if self.shape is None:
            from .registry import Unsupported
            raise Unsupported(f"the rank of {self.name} is unknown")
        return len(self.shape)

    def static_dim(self, d):
        """Dim d's size when it is the same in every run, else None."""
        if self.shape is None or self.dyn[d]:
            return None
        return self.shape[d]

    def __repr__(self):
        return f"V({self.name}, {self.dtype}, {self.shape})"


class Builder:
    """Nodes, initializers and inputs of one graph; `op` and the constant helpers are what converters use."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.nodes = []
        self.initializers = []
        self.inputs = []   # onnx ValueInfoProto
        self._count = 0
        self._consts = {}  # (bytes, dtype, shape) -> V: equal small constants emitted once

    def fresh(self, hint="v"):
        self._count += 1
        return f"{self.prefix}{hint}_{self._count}"

    def mark(self):
        """A point to roll back to when a converter gives up halfway."""
        return len(self.nodes), len(self.initializers), dict(self._consts)

    def rollback(self, mark):
        n, i, consts = mark
        del self.nodes[n:]
        del self.initializers[i:]
        self._consts = consts

    def op(self, op_type, *inputs, outputs=1, domain=None, **attrs):
        """Emits a node; returns its output V (a tuple when outputs > 1). A None input is an absent optional one."""
        names = [self.fresh(op_type.lower()) for _ in range(outputs)]
        ins = ["" if x is None else self.value(x).name for x in inputs]
        while ins and not ins[-1]:  # absent trailing optional inputs are left out
            ins.pop()
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(helper.make_node(op_type, ins, names, name=names[0], domain=domain, **attrs))
        outs = tuple(V(n) for n in names)
        return outs[0] if outputs == 1 else outs

    def add_input(self, name, dtype, shape, dyn, scalar=None):
        self.inputs.append(helper.make_tensor_value_info(name, onnx_type(dtype), _dims(name, shape, dyn)))
        return V(name, dtype, tuple(shape), tuple(dyn), scalar)

    def initializer(self, tensor, hint="w"):
        """A weight (a torch tensor or numpy array) as an initializer."""
        if isinstance(tensor, torch.Tensor):
            tensor = tensor.detach().cpu()
            dtype = tensor.dtype
            array = tensor.numpy()
        else:
            array = np.asarray(tensor)
            dtype = _TORCH_OF_NUMPY.get(array.dtype)
        name = self.fresh(hint)
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return V(name, dtype, tuple(array.shape))

    def const(self, value, dtype=None):
        """A small constant (int64 for Python ints, float32 for floats unless dtype says otherwise)."""
        if dtype is None:
            array = np.asarray(value)
            if array.dtype == np.float64:
                array = array.astype(np.float32)
        else:
            array = np.asarray(value, dtype=numpy_type(dtype) if isinstance(dtype, torch.dtype) else dtype)
        key = (array.tobytes(), str(array.dtype), array.shape)
        if key not in self._consts:
            self._consts[key] = self.initializer(array, "c")
        return self._consts[key]

    def value(self, x):
        """x as a V: a V itself, a torch tensor (an initializer), or a Python/numpy constant."""
        if isinstance(x, V):
            return x
        if isinstance(x, torch.Tensor):
            return self.initializer(x)
        return self.const(x)

    def like(self, x, ref):
        """x (a Python scalar or tensor) as a V of ref's dtype, for the other side of a binary op."""
        if isinstance(x, V):
            return x
        if isinstance(x, torch.Tensor):
            return self.initializer(x.to(ref.dtype) if ref.dtype is not None else x)
        dtype = ref.dtype if ref.dtype is not None else (torch.int64 if isinstance(x, int) else torch.float32)
        return self.const(x, dtype)

    def shape_tensor(self, dims):
        """A 1-D int64 tensor from a list of Python ints and 0-d V's (dynamic sizes)."""
        if all(not isinstance(d, V) for d in dims):
            return self.const(np.array([int(d) for d in dims], np.int64))
        parts = [self.op("Reshape", d, self.const(np.array([1], np.int64))) if isinstance(d, V)
                 else self.const(np.array([int(d)], np.int64)) for d in dims]
        return self.op("Concat", *parts, axis=0)

    def model(self, outputs, name):
        """The ModelProto with these V's (bound to nodes: dtype and shape known) as its outputs."""
        outs = [helper.make_tensor_value_info(v.name, onnx_type(v.dtype), _dims(v.name, v.shape, v.dyn))
                for v in outputs]
        graph = helper.make_graph(self.nodes, name, self.inputs, outs, self.initializers)
        domains = sorted({n.domain for n in self.nodes if n.domain})  # e.g. ai.onnx.preview.training
        opsets = [helper.make_opsetid("", OPSET)] + [helper.make_opsetid(d, 1) for d in domains]
        model = helper.make_model(graph, opset_imports=opsets, producer_name="ge.torch")
        model.ir_version = 8
        return model
