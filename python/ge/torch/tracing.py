"""Tracing a module with torch.fx and recording what every node produced on the example inputs.

With dynamic dims, the module also runs on inputs one larger in each of those dims: a node's dim
(or Python int) that differs between the two runs is dynamic — a symbolic dim of the GE graph.
"""

import torch
import torch.fx as fx

from . import registry


class TensorMeta:
    __slots__ = ("dtype", "shape", "dyn")

    def __init__(self, dtype, shape, dyn=None):
        self.dtype, self.shape = dtype, tuple(shape)
        self.dyn = tuple(dyn) if dyn is not None else tuple(False for _ in self.shape)

    def __repr__(self):
        dims = ", ".join("?" if d else str(s) for s, d in zip(self.shape, self.dyn))
        return f"{self.dtype}[{dims}]"


class DynamicScalar:
    """A Python int that differs between runs (a dynamic size)."""

    __slots__ = ("type",)

    def __init__(self, type_):
        self.type = type_


class _Tracer(fx.Tracer):
    """torch.nn modules and every module with a registered converter stay whole (leaves)."""

    def is_leaf_module(self, m, qualname):
        return type(m) in registry.leaf_modules() or super().is_leaf_module(m, qualname)


def trace(module, num_inputs):
    """The module's fx GraphModule. A module fx keeps whole is one call_module node of a wrapper."""
    tracer = _Tracer()
    if tracer.is_leaf_module(module, ""):
        root = torch.nn.Module()
        root.add_module("module", module)
        graph = fx.Graph()
        inputs = tuple(graph.placeholder(f"input_{i}") for i in range(num_inputs))
        graph.output(graph.call_module("module", inputs))
        return fx.GraphModule(root, graph, type(module).__name__)
    graph = tracer.trace(module)
    return fx.GraphModule(tracer.root, graph, type(module).__name__)


class _Recorder(fx.Interpreter):
    def __init__(self, gm):
        super().__init__(gm)
        self.values = {}

    def run_node(self, n):
        r = super().run_node(n)
        self.values[n] = r
        return r


def _contains_tensor(v):
    if isinstance(v, torch.Tensor):
        return True
    if isinstance(v, (tuple, list)):
        return any(_contains_tensor(x) for x in v)
    if isinstance(v, dict):
        return any(_contains_tensor(x) for x in v.values())
    return False


def _meta(a, b):
    """The node's value summary: TensorMeta for tensors, DynamicScalar for differing ints, else the value."""
    if isinstance(a, torch.Tensor):
        dyn = [b is not None and (len(b.shape) != len(a.shape) or sa != sb) for sa, sb in
               zip(a.shape, b.shape if b is not None else a.shape)]
        return TensorMeta(a.dtype, a.shape, dyn)
    if isinstance(a, (tuple, list)) and not isinstance(a, torch.Size) and _contains_tensor(a):
        bs = b if b is not None else [None] * len(a)
        return type(a)(_meta(x, y) for x, y in zip(a, bs)) if type(a) in (tuple, list) else \
            tuple(_meta(x, y) for x, y in zip(a, bs))
    if b is not None and isinstance(a, (int, float)) and not isinstance(a, bool) and a != b:
        return DynamicScalar(type(a))
    if b is not None and isinstance(a, (tuple, list)) and a != b:  # a size tuple with a dynamic dim
        return tuple(_meta(x, y) for x, y in zip(a, b))
    return a


def _enlarge(x, dims):
    for d in dims:
        x = torch.cat([x, x.narrow(d, 0, 1)], d)
    return x


def record(gm, example_inputs, dynamic_dims):
    """{node: meta} and {node: example value} from running the example (and the enlarged one)."""
    with torch.no_grad():
        first = _Recorder(gm)
        first.run(*example_inputs)
        second = None
        if any(dynamic_dims):
            second = _Recorder(gm)
            second.run(*[_enlarge(x, d) if isinstance(x, torch.Tensor) else x
                         for x, d in zip(example_inputs, dynamic_dims)])
    meta = {n: _meta(v, second.values.get(n) if second else None) for n, v in first.values.items()}
    return meta, first.values


def depends_on_inputs(gm):
    """The nodes whose value depends on a placeholder (the rest are constants of the module)."""
    deps = set()
    for n in gm.graph.nodes:
        if n.op == "placeholder" or any(a in deps for a in n.all_input_nodes):
            deps.add(n)
    return deps
