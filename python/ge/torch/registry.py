"""The converter registry: one small function per PyTorch op, registered by decorator.

A converter takes the ONNX builder `g` (onnx_builder.Builder) and the node's arguments, with every
tensor argument already a builder value (onnx_builder.V) and everything else a Python value:

    @converter(torch.relu, F.relu, "relu")          # functions and Tensor methods
    def relu(g, x, inplace=False):
        return g.op("Relu", x)

    @converter(nn.Conv2d)                           # nn modules: the module comes first
    def conv2d(g, mod, x): ...

It returns a value, a tuple of values, or a Python constant. A converter that meets an argument
it cannot express raises Unsupported(reason): the node then runs in PyTorch eager (the fallback)
and the reason is reported.
"""

import inspect


class Unsupported(Exception):
    """This node, with these arguments, has no GE conversion: it runs in PyTorch eager."""


_functions = {}  # callable -> converter (call_function)
_methods = {}    # Tensor method name -> converter (call_method)
_modules = {}    # nn.Module subclass -> converter (call_module)


def converter(*targets):
    """Registers the decorated function for each target: a callable, a Tensor method name, or an nn.Module class."""
    def register(fn):
        for t in targets:
            if isinstance(t, str):
                _methods[t] = fn
            elif inspect.isclass(t):
                _modules[t] = fn
            else:
                _functions[t] = fn
        return fn
    return register


def lookup(op, target, module=None):
    """The converter of an fx node (op is its kind), or None."""
    if op == "call_function":
        return _functions.get(target)
    if op == "call_method":
        return _methods.get(target)
    if op == "call_module":
        for cls in type(module).__mro__:  # a subclass converts as its base unless it has its own
            if cls in _modules:
                return _modules[cls] if cls is type(module) or type(module).forward is cls.forward else None
    return None


def leaf_modules():
    """Module classes the tracer keeps whole (their converters see the module, not its code)."""
    return tuple(_modules)
