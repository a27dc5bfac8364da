"""ge.torch: run a PyTorch module on GE.

    import ge.torch
    compiled = ge.torch.compile(model.eval(), (example,), dynamic=True)
    y = compiled(x)              # like model(x), on GE
    print(compiled.report())     # the GE segments and what ran in PyTorch eager, and why

The module is traced with torch.fx (symbolic tracing), each node converted to ONNX by a registered
converter (registry.py) and each run of converted nodes compiled by GE as one graph. Nodes without
a converter run in PyTorch eager between the GE segments. Weights are read at compile time.
"""

import torch

import ge

from . import optim, splitter, tracing  # noqa: F401  (optim: ge.torch.optim)
from .registry import Unsupported, converter  # noqa: F401  (public: custom converters)

__all__ = ["compile", "CompiledModule", "converter", "Unsupported"]


def _dynamic_dims(dynamic, example_inputs):
    """Per input, the dims that are symbolic: True = dim 0 (batch) of every tensor input."""
    if dynamic is False or dynamic is None:
        return [() for _ in example_inputs]
    if dynamic is True:
        return [(0,) if isinstance(x, torch.Tensor) and x.dim() > 0 else () for x in example_inputs]
    dims = list(dynamic)
    if len(dims) != len(example_inputs):
        raise ValueError(f"dynamic: expected one tuple of dims per input ({len(example_inputs)}), got {len(dims)}")
    return [tuple(d) for d in dims]


def compile(module, example_inputs, dynamic=False, mode="auto", opt_level=2, training=False):
    """Compiles `module` (in its current train/eval mode; weights as they are now) for inputs like `example_inputs`.

    dynamic: False (every dim as in the examples), True (dim 0 of each input symbolic: any batch size),
    or per input a tuple of symbolic dims, e.g. [(0, 1)] for batch and sequence.
    Returns a CompiledModule, callable like the module. training=True: see ge.torch.training.compile
    (forward and backward graphs on GE; the parameters are read at every call).
    """
    if not isinstance(module, torch.nn.Module):
        raise TypeError(f"ge.torch.compile: expected a torch.nn.Module, got {type(module).__name__}")
    example_inputs = tuple(example_inputs) if isinstance(example_inputs, (tuple, list)) else (example_inputs,)
    if training:
        if dynamic:
            raise ValueError("ge.torch.compile: training=True compiles static shapes only (dynamic=False)")
        from . import training as training_
        return training_.compile(module, mode=mode, opt_level=opt_level)
    gm = tracing.trace(module, len(example_inputs))
    return compile_graph_module(gm, example_inputs, _dynamic_dims(dynamic, example_inputs), mode, opt_level)


def compile_graph_module(gm, example_inputs, dyn, mode="auto", opt_level=2):
    """The CompiledModule of an fx GraphModule (traced here, or handed over by AOTAutograd)."""
    meta, examples = tracing.record(gm, example_inputs, dyn)
    steps = splitter.Splitter(gm, meta, examples, tracing.depends_on_inputs(gm)).run()
    constants = {n: examples[n] for n in gm.graph.nodes if n not in tracing.depends_on_inputs(gm)}
    fixed = {i: x for i, x in enumerate(example_inputs) if not isinstance(x, torch.Tensor)}
    return CompiledModule(gm, steps, constants, fixed, mode, opt_level)


def _to_numpy(v):
    if isinstance(v, torch.Tensor):
        return v.detach().cpu().numpy()
    return torch.tensor(v, dtype=torch.int64).numpy()  # a dynamic size


class CompiledModule:
    """The module's GE segments and eager steps, run in order; call it like the module."""

    def __init__(self, gm, steps, constants, fixed_inputs, mode, opt_level):
        self.graph_module = gm
        self._steps = steps
        self._constants = constants
        self._placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        self._output = next(n for n in gm.graph.nodes if n.op == "output")
        self._models = {}
        self._fixed_inputs = fixed_inputs  # input index -> a non-tensor example value (compiled in)
        for s in steps:
            if isinstance(s, splitter.Segment) and s.model_bytes is not None:
                self._models[s.index] = ge.compile(s.model_bytes, mode=mode, opt_level=opt_level,
                                                   name=f"ge.torch segment {s.index}")

    def __call__(self, *args):
        if len(args) != len(self._placeholders):
            raise TypeError(f"expected {len(self._placeholders)} input(s), got {len(args)}")
        for i, x in enumerate(args):  # non-tensor inputs were compiled in as constants
            if i in self._fixed_inputs and x != self._fixed_inputs[i]:
                raise ValueError(f"input {i}: compiled for the non-tensor value {self._fixed_inputs[i]!r}, got {x!r}")
            if i not in self._fixed_inputs and not isinstance(x, torch.Tensor):
                raise TypeError(f"input {i}: expected a torch.Tensor, got {type(x).__name__}")
        env = dict(self._constants)
        env.update(zip(self._placeholders, args))
        with torch.no_grad():
            for step in self._steps:
                if isinstance(step, splitter.Eager):
                    env[step.node] = self._run_eager(step.node, env)
                elif step.index in self._models:
                    self._run_segment(step, env)
        return torch.fx.node.map_arg(self._output.args[0], lambda n: env[n])

    def _run_segment(self, seg, env):
        feeds = [_to_numpy(splitter.get_path(env[n], path)) for n, path in seg.inputs]
        out = self._models[seg.index].run(feeds)
        arrays = [out[name] for name in seg.output_names]
        for n, template in seg.outputs:
            env[n] = _restore(template, arrays, seg.values[n])

    def _run_eager(self, n, env):
        args = torch.fx.node.map_arg(n.args, lambda a: env[a])
        kwargs = torch.fx.node.map_arg(n.kwargs, lambda a: env[a])
        if n.op == "call_module":
            return self.graph_module.get_submodule(n.target)(*args, **kwargs)
        if n.op == "call_method":
            return getattr(args[0], n.target)(*args[1:], **kwargs)
        return n.target(*args, **kwargs)

    @property
    def fallbacks(self):
        """[{"node", "target", "reason"}] for every node that runs in PyTorch eager."""
        return [{"node": s.node.name, "target": splitter.describe_target(self.graph_module, s.node),
                 "reason": s.reason} for s in self._steps if isinstance(s, splitter.Eager)]

    @property
    def segments(self):
        """The GE segments: their index, node count, inputs and outputs, and each compiled model's info()."""
        return [{"index": s.index, "nodes": len(s.nodes), "inputs": len(s.inputs), "outputs": len(s.output_names),
                 "model": self._models.get(s.index)} for s in self._steps if isinstance(s, splitter.Segment)]

    def report(self):
        """A readable summary: each step in order, GE segments with their node count and GE's mode."""
        lines = []
        n_ge = sum(len(s.nodes) for s in self._steps if isinstance(s, splitter.Segment))
        n_eager = sum(isinstance(s, splitter.Eager) for s in self._steps)
        lines.append(f"ge.torch: {n_ge} node(s) on GE in {len(self._models)} segment(s), {n_eager} in PyTorch eager")
        for s in self._steps:
            if isinstance(s, splitter.Segment):
                model = self._models.get(s.index)
                where = f"GE {model.mode}" if model else "unused"
                lines.append(f"  segment {s.index}: {len(s.nodes)} node(s), {len(s.inputs)} input(s), "
                             f"{len(s.output_names)} output(s) [{where}]")
            else:
                lines.append(f"  eager {s.node.name}: {splitter.describe_target(self.graph_module, s.node)}: "
                             f"{s.reason}")
        return "\n".join(lines)


def _restore(template, arrays, values):
    """A segment output's Python value: arrays as tensors, dynamic sizes as ints."""
    if isinstance(template, (tuple, list)) and not isinstance(template, torch.Size):
        items = [_restore(t, arrays, v) for t, v in zip(template, values)]
        return type(template)(items) if type(template) in (tuple, list) else tuple(items)
    if not isinstance(template, splitter.OutRef):
        return template
    x = arrays[template.index]
    return int(x) if getattr(values, "scalar", None) is int else torch.from_numpy(x)
