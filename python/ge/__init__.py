"""GE, a graph compiler and executor for neural networks, from Python.

    import ge, numpy as np
    model = ge.compile("model.onnx", opt_level=2)          # or the ModelProto's bytes
    out = model.run({"input": np.zeros((1, 3, 224, 224), np.float32)})
    model.save("model.gem"); ge.load("model.gem")          # offline compiled
    import ge.torch; fn = ge.torch.compile(module, (x,))   # a PyTorch module on GE

Every GE error is raised as ge.GeError (a RuntimeError) with GE's message.
"""

import concurrent.futures
import os
import shutil
import tempfile
import threading

from ._ge import GeError, Graph, ModelOptions, Session, finalize, initialize, parse_onnx
from . import _ge

GeError.__module__ = "ge"  # raised from C++ as ge._ge.GeError; one public name

__all__ = ["GeError", "Graph", "Model", "Session", "compile", "finalize", "initialize", "load", "parse_onnx"]

_MODES = ("auto", "sink", "host")


def _options(mode, opt_level, input_shapes, max_streams, prefer_fallback, output_nodes):
    if mode not in _MODES:
        raise GeError(f"mode {mode!r}: expected one of {', '.join(_MODES)}")
    if opt_level not in (0, 1, 2):
        raise GeError(f"opt_level {opt_level!r}: expected 0, 1 or 2")
    opt = ModelOptions()
    opt.mode = mode
    opt.opt_level = opt_level
    opt.max_streams = int(max_streams)
    opt.prefer_fallback = bool(prefer_fallback)
    opt.input_shapes = {str(k): [int(d) for d in v] for k, v in (input_shapes or {}).items()}
    opt.output_nodes = [str(n) for n in (output_nodes or [])]
    return opt


def _as_source(source):
    """A path (str/PathLike), bytes, or an object with SerializeToString (an onnx.ModelProto)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if hasattr(source, "SerializeToString"):
        return source.SerializeToString()
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    raise GeError(f"expected a model path, the model's bytes or an onnx.ModelProto, got {type(source).__name__}")


_executor = None
_executor_lock = threading.Lock()


def _pool():
    """The threads run_async uses (runs release the GIL, so they overlap)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = concurrent.futures.ThreadPoolExecutor(max_workers=max(4, os.cpu_count() or 1),
                                                              thread_name_prefix="ge-run")
        return _executor


class Model:
    """A compiled, loaded model. run() is safe from any number of threads at once."""

    def __init__(self, impl, source, options):
        self._impl = impl
        self._source = source  # a path or bytes: what save() compiles offline
        self._options = options

    def run(self, feeds, timeout=None):
        """feeds: {input name: array} or a list of arrays in input order -> {output name: numpy array}.
        timeout: seconds the run may take (None: no limit); past it the run stops before its next
        host-scheduled node or Loop/Scan iteration and raises ge.GeError."""
        return self._impl.run(feeds, timeout)

    def __call__(self, *arrays):
        """The outputs as a list, for inputs given positionally."""
        return list(self._impl.run(list(arrays)).values())

    def run_async(self, feeds, timeout=None):
        """Runs on a worker thread; returns a concurrent.futures.Future of run()'s dict."""
        return _pool().submit(self._impl.run, feeds, timeout)

    def info(self):
        """What the model compiled to: mode, segments, optimizer report, memory, per-node placement."""
        return self._impl.info()

    def graph_text(self):
        return self._impl.graph_text()

    @property
    def inputs(self):
        return self._impl.inputs

    @property
    def outputs(self):
        return self._impl.outputs

    @property
    def mode(self):
        """What "auto" resolved to: "sink", "host" or "mixed"."""
        return self._impl.mode

    @property
    def offline(self):
        """True when loaded from a .gem."""
        return self._impl.offline

    def save(self, path):
        """Writes the offline-compiled model (.gem) that ge.load() reads without compiling."""
        path = os.fspath(path)
        if self._impl.offline:
            if isinstance(self._source, bytes):
                with open(path, "wb") as f:
                    f.write(self._source)
            else:
                shutil.copyfile(self._source, path)
            return
        if isinstance(self._source, bytes):
            with tempfile.NamedTemporaryFile(suffix=".onnx") as tmp:
                tmp.write(self._source)
                tmp.flush()
                _ge.compile_to_file(tmp.name, self._options, path)
        else:
            _ge.compile_to_file(self._source, self._options, path)

    def __repr__(self):
        names = lambda ds: ", ".join(d["name"] for d in ds)
        return f"ge.Model(mode={self.mode}, inputs=[{names(self.inputs)}], outputs=[{names(self.outputs)}])"


def compile(source, mode="auto", opt_level=2, input_shapes=None, max_streams=0, prefer_fallback=False,
            output_nodes=None, name=None):
    """Compiles and loads a model: an ONNX/TensorFlow file path, an ONNX ModelProto (or its bytes), or a .gem.

    mode: "auto" (static parts sunk, dynamic parts on the host), "sink" or "host".
    opt_level: the graph optimizer's level, 0, 1 or 2.
    input_shapes: {input name: dims} fixing symbolic dims at compile time.
    """
    src = _as_source(source)
    opt = _options(mode, opt_level, input_shapes, max_streams, prefer_fallback, output_nodes)
    if isinstance(src, bytes):
        impl = _ge.load_bytes(src, opt, name or "<memory>")
    else:
        impl = _ge.load_file(src, opt)
    return Model(impl, src, opt)


def load(path):
    """Loads an offline-compiled model (.gem, from Model.save or `ge compile`)."""
    return compile(path)


def __getattr__(name):
    # ge.torch imports PyTorch: only on first use.
    if name == "torch":
        import importlib
        return importlib.import_module(".torch", __name__)
    raise AttributeError(f"module 'ge' has no attribute {name!r}")
