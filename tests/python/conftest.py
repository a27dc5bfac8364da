"""Shared helpers for the Python package's tests: small ONNX models built with onnx.helper, and the
model suite's tolerance. References are computed with numpy or eager PyTorch, never with GE."""

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper


def assert_close(got, ref, what=""):
    """The real-model suite's tolerance: 1e-4 of the reference's largest magnitude, plus 1e-5."""
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape, f"{what}: shape {got.shape}, expected {ref.shape}"
    tol = 1e-4 * float(np.abs(ref).max(initial=0)) + 1e-5
    diff = float(np.abs(got.astype(np.float64) - ref).max(initial=0))
    assert diff <= tol, f"{what}: max abs diff {diff:.3g} > tol {tol:.3g}"


def mlp_model(batch="N"):
    """y = relu(x @ W + b): x float32[batch, 4], W [4, 3]. Returns (ModelProto bytes, W, b)."""
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    nodes = [helper.make_node("MatMul", ["x", "W"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["z"]),
             helper.make_node("Relu", ["z"], ["y"])]
    graph = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 3])],
                              [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString(), w, b


def mlp_reference(x, w, b):
    return np.maximum(x @ w + b, 0)


@pytest.fixture(scope="session")
def mlp():
    return mlp_model()
