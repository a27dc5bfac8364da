"""Training on GE: AOTAutograd (functorch.compile.aot_module) splits the module into forward and
backward graphs of aten operators; each is compiled like an inference graph (ops_aten.py converts
the aten operators; those without a converter, such as convolution_backward, run in eager).
The optimizers of optim.py run their update step as a GE graph.
"""

from functorch.compile import aot_module, make_boxed_func

from . import ops_aten  # noqa: F401  (registers the aten converters)


class TrainingModule:
    """The module under AOTAutograd with GE-compiled graphs; reports list the compiled graphs' fallbacks."""

    def __init__(self, module, mode, opt_level):
        from . import compile_graph_module
        self.compiled = {}  # "forward" / "backward" -> CompiledModule

        def compiler(kind):
            def compile_graph(gm, example_inputs):
                c = compile_graph_module(gm, tuple(example_inputs), [() for _ in example_inputs], mode, opt_level)
                self.compiled[kind] = c
                return make_boxed_func(c)
            return compile_graph

        self.module = module
        self._aot = aot_module(module, compiler("forward"), compiler("backward"))

    def __call__(self, *args):
        return self._aot(*args)

    def parameters(self):
        return self.module.parameters()

    def report(self):
        return "\n".join(f"{kind}:\n{c.report()}" for kind, c in self.compiled.items())

    @property
    def fallbacks(self):
        return [dict(f, graph=kind) for kind, c in self.compiled.items() for f in c.fallbacks]


def compile(module, mode="auto", opt_level=2):
    """Forward and backward on GE; graphs are compiled at the first call (for its shapes)."""
    return TrainingModule(module, mode, opt_level)
