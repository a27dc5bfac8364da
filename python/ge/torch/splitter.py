"""Converting a traced module into GE segments and PyTorch eager steps.

Nodes are converted in order into the current segment (one ONNX graph). A node without a converter,
or whose converter raises Unsupported, runs in PyTorch eager: it closes the current segment and a
new one starts after it. Values crossing a boundary become the segment's inputs and outputs.
Nodes that do not depend on the module's inputs (weights, constant tensors) and non-tensor values
that are the same in every run (static sizes) are constants: converters see their values.
"""

import torch
import torch.fx as fx

from . import ops_nn, ops_sequence, ops_tensor, registry  # noqa: F401  (registers the converters)
from .onnx_builder import Builder, V
from .registry import Unsupported
from .tracing import DynamicScalar, TensorMeta


class Segment:
    """One GE graph: the nodes it computes, its inputs (node, leaf path) and outputs (node, template)."""

    def __init__(self, index):
        self.index = index
        self.builder = Builder(f"s{index}_")
        self.nodes = []
        self.values = {}        # node -> structure of V / constants
        self.inputs = []        # (node, path to the leaf in the node's value)
        self.input_values = {}  # node -> structure of V (inputs made for it)
        self.outputs = []       # (node, template): the template holds output indices in place of V's
        self.output_names = []
        self.model_bytes = None

    def mark(self):
        """A point to roll back to when a node's conversion gives up halfway (its nodes and new inputs)."""
        return self.builder.mark(), len(self.builder.inputs), len(self.inputs), dict(self.input_values)

    def rollback(self, mark):
        builder_mark, n_graph_inputs, n_inputs, input_values = mark
        self.builder.rollback(builder_mark)
        del self.builder.inputs[n_graph_inputs:]
        del self.inputs[n_inputs:]
        self.input_values = input_values


class OutRef:
    """In a segment output's template: the index of the GE output that holds this leaf."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class Eager:
    """A node run in PyTorch, and why."""

    def __init__(self, node, reason):
        self.node, self.reason = node, reason


def describe_target(gm, n):
    if n.op == "call_module":
        return f"{type(gm.get_submodule(n.target)).__name__} ({n.target})"
    if n.op == "call_method":
        return f"Tensor.{n.target}"
    t = n.target
    if isinstance(t, torch._ops.OpOverload):  # an aten operator: "aten.convolution.default"
        return str(t)
    mod = getattr(t, "__module__", None) or ""
    return f"{mod}.{getattr(t, '__qualname__', getattr(t, '__name__', str(t)))}".lstrip(".")


def _leaves(struct, path=()):
    """(path, leaf) pairs of a nested tuple/list (a torch.Size is one leaf)."""
    if isinstance(struct, (tuple, list)) and not isinstance(struct, torch.Size):
        for i, s in enumerate(struct):
            yield from _leaves(s, path + (i,))
    else:
        yield path, struct


def get_path(value, path):
    for i in path:
        value = value[i]
    return value


class Splitter:
    def __init__(self, gm, meta, examples, deps):
        self.gm, self.meta, self.examples, self.deps = gm, meta, examples, deps
        self.steps = []      # Segment | Eager, in execution order
        self.constants = {}  # node -> value
        self.where = {}      # node -> the Segment that computes it (None: a placeholder or eager step)
        self.segment = None

    def run(self):
        for n in self.gm.graph.nodes:
            if n.op in ("placeholder", "output"):
                self.where[n] = None
                continue
            if self._is_constant(n):
                self.constants[n] = self.examples[n]
                continue
            reason = self._convert(n)
            if reason is not None:
                self._close()
                self.steps.append(Eager(n, reason))
                self.where[n] = None
        self._close()
        self._find_outputs()
        return self.steps

    def _is_constant(self, n):
        if n not in self.deps:
            return True
        m = self.meta[n]
        return not any(isinstance(leaf, (TensorMeta, DynamicScalar)) for _, leaf in _leaves(m))

    # ---- conversion ----

    def _convert(self, n):
        """Converts n into the current segment; returns None, or why it falls back."""
        if self.segment is None:
            self.segment = Segment(sum(isinstance(s, Segment) for s in self.steps))
        seg, g = self.segment, self.segment.builder
        module = self.gm.get_submodule(n.target) if n.op == "call_module" else None
        fn = registry.lookup(n.op, n.target, module)
        if fn is None:
            return "no converter registered"
        mark = seg.mark()
        try:
            args = fx.node.map_aggregate(n.args, lambda a: self._lookup(a) if isinstance(a, fx.Node) else a)
            kwargs = fx.node.map_aggregate(n.kwargs, lambda a: self._lookup(a) if isinstance(a, fx.Node) else a)
            result = fn(g, module, *args, **kwargs) if module is not None else fn(g, *args, **kwargs)
            result = self._bind(n, result)
        except Unsupported as e:
            reason = str(e)
        except Exception as e:  # a converter that does not understand these arguments
            reason = f"converter failed: {type(e).__name__}: {e}"
        else:
            seg.values[n] = result
            seg.nodes.append(n)
            self.where[n] = seg
            return None
        seg.rollback(mark)
        return reason

    def _bind(self, n, result):
        """Attaches the example's dtype/shape to the result's values; reused values get an Identity."""
        g = self.segment.builder
        taken = {leaf.name for s in self.segment.values.values() for _, leaf in _leaves(s) if isinstance(leaf, V)}
        taken |= {leaf.name for s in self.segment.input_values.values() for _, leaf in _leaves(s)
                  if isinstance(leaf, V)}

        def attach(path):
            r, m = get_path(result, path), get_path(self.meta[n], path)
            if isinstance(m, TensorMeta) and isinstance(r, torch.Tensor):
                r = g.value(r)  # a constant tensor picked out of a container
            if not isinstance(r, V):
                if isinstance(m, TensorMeta):
                    raise Unsupported(f"converter returned {type(r).__name__} where PyTorch gives a tensor")
                return r
            if r.name in taken:
                r = g.op("Identity", r)
            if isinstance(m, TensorMeta):
                r.dtype, r.shape, r.dyn = m.dtype, m.shape, m.dyn
            elif isinstance(m, DynamicScalar) or isinstance(m, int):
                r.dtype, r.shape, r.dyn, r.scalar = torch.int64, (), (), int
            else:
                raise Unsupported(f"converter returned a tensor where PyTorch gives {type(m).__name__}")
            return r

        self._check_structure(result, self.meta[n])
        paths = dict(_leaves(result))
        return _rebuild(result, {p: attach(p) for p in paths})

    def _check_structure(self, result, meta):
        if isinstance(meta, (tuple, list)) and not isinstance(meta, torch.Size):
            if not isinstance(result, (tuple, list)) or len(result) != len(meta):
                raise Unsupported(f"converter returned {type(result).__name__}, PyTorch gives {len(meta)} values")
            for r, m in zip(result, meta):
                self._check_structure(r, m)

    def _lookup(self, a):
        """An argument's value in the current segment: its V's, a constant, or new segment inputs."""
        seg = self.segment
        if a in self.constants:
            return self.constants[a]
        if a in seg.values:
            return seg.values[a]
        if a in seg.input_values:
            return seg.input_values[a]

        def make(path_leaf):
            path, m = path_leaf
            name = "_".join([a.name] + [str(i) for i in path])  # the fx node's name: errors name it
            if isinstance(m, TensorMeta):
                v = seg.builder.add_input(name, m.dtype, m.shape, m.dyn)
            elif isinstance(m, DynamicScalar):
                if m.type is not int:
                    raise Unsupported(f"a dynamic Python {m.type.__name__} argument")
                v = seg.builder.add_input(name, torch.int64, (), (), scalar=int)
            else:
                return m  # a static Python value inside a structure
            seg.inputs.append((a, path))
            return v

        leaves = dict(_leaves(self.meta[a]))
        value = _rebuild(self.meta[a], {p: make((p, m)) for p, m in leaves.items()})
        seg.input_values[a] = value
        return value

    def _close(self):
        if self.segment is not None and self.segment.nodes:
            self.steps.append(self.segment)
        self.segment = None

    # ---- outputs ----

    def _find_outputs(self):
        """Each segment's values used after it, and its ONNX model."""
        for seg in (s for s in self.steps if isinstance(s, Segment)):
            outs = []
            for n in seg.nodes:
                if all(self.where.get(u) is seg for u in n.users):
                    continue
                index = {}
                for p, leaf in _leaves(seg.values[n]):
                    if isinstance(leaf, V):
                        index[p] = OutRef(len(outs))
                        outs.append(leaf)
                seg.outputs.append((n, _rebuild(seg.values[n], {p: index.get(p, leaf)
                                                               for p, leaf in _leaves(seg.values[n])})))
            seg.output_names = [v.name for v in outs]
            if outs:
                model = seg.builder.model(outs, f"ge_torch_segment_{seg.index}")
                seg.model_bytes = model.SerializeToString()


def _rebuild(struct, leaves, path=()):
    """struct with each leaf replaced by leaves[path]."""
    if isinstance(struct, (tuple, list)) and not isinstance(struct, torch.Size):
        items = [_rebuild(s, leaves, path + (i,)) for i, s in enumerate(struct)]
        return type(struct)(items) if type(struct) in (tuple, list) else tuple(items)
    return leaves[path]
