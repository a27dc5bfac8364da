#!/usr/bin/python3
"""Builds the sink-scheduling benchmark models with onnx.helper (run with /usr/bin/python3).

  make_sink_models.py OUT_DIR

writes OUT_DIR/<name>/model.onnx and input_0.npy for
  add_chain_<N>   N chained Add(y, c) on a [1,16] float tensor (N = 1, 1000): the per-op and
                  fixed costs of a run
  branches_<B>x<D>  B independent branches of D (Add c, Relu) pairs on [1,W] summed at the end:
                  the multi-stream case (W = 1024)
  tiny_2x5        2 branches of 5 pairs on [1,16]: branches too small for a second stream
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(out_dir, name, graph, x):
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="ge-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(d, "model.onnx"))
    np.save(os.path.join(d, "input_0.npy"), x)


def add_chain(n):
    c = numpy_helper.from_array(np.full((1, 16), 0.001, np.float32), "c")
    nodes, prev = [], "x"
    for i in range(n):
        out = "y" if i == n - 1 else f"t{i}"
        nodes.append(helper.make_node("Add", [prev, "c"], [out], name=f"add{i}"))
        prev = out
    return helper.make_graph(nodes, f"add_chain_{n}",
                             [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
                             [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 16])], [c])


def branches(b, depth, width):
    rng = np.random.default_rng(0)
    inits, nodes, tips = [], [], []
    for i in range(b):
        prev = "x"
        for k in range(depth):
            c = f"c{i}_{k}"
            inits.append(numpy_helper.from_array(rng.standard_normal((1, width)).astype(np.float32) * 0.01, c))
            nodes.append(helper.make_node("Add", [prev, c], [f"a{i}_{k}"], name=f"add{i}_{k}"))
            nodes.append(helper.make_node("Relu", [f"a{i}_{k}"], [f"r{i}_{k}"], name=f"relu{i}_{k}"))
            prev = f"r{i}_{k}"
        tips.append(prev)
    k = 0
    while len(tips) > 1:
        out = "y" if len(tips) == 2 else f"s{k}"
        nodes.append(helper.make_node("Add", [tips[0], tips[1]], [out], name=f"sum{k}"))
        tips = tips[2:] + [out]
        k += 1
    return helper.make_graph(nodes, f"branches_{b}x{depth}",
                             [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, width])],
                             [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, width])], inits)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ge_bench_models"
    for n in (1, 1000):
        save(out, f"add_chain_{n}", add_chain(n), np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16))
    width = 1024
    save(out, "branches_2x200", branches(2, 200, width), np.linspace(-1, 1, width, dtype=np.float32).reshape(1, width))
    save(out, "branches_4x100", branches(4, 100, width), np.linspace(-1, 1, width, dtype=np.float32).reshape(1, width))
    save(out, "tiny_2x5", branches(2, 5, 16), np.linspace(-1, 1, 16, dtype=np.float32).reshape(1, 16))
    print(out)


if __name__ == "__main__":
    main()
