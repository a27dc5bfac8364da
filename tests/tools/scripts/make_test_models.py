#!/usr/bin/env python3
"""Small ONNX models for the `ge` tool tests, written to DIR (argv[1]).

mixed.onnx: x float[2, 3] -> Relu (static: sunk) -> NonZero (data-dependent shape: host).
strings.onnx: s string[3] -> StringNormalizer(UPPER, ASCII only) -> out_s; s -> Cast(float) -> f; f -> Cast(string) -> back.
"""
import sys

import onnx
from onnx import TensorProto, helper

out = sys.argv[1]

g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("NonZero", ["r"], ["nz"], name="nonzero")],
    "mixed",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("nz", TensorProto.INT64, [2, None])],
)
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), f"{out}/mixed.onnx")

g = helper.make_graph(
    [
        helper.make_node("StringNormalizer", ["s"], ["out_s"], name="upper", case_change_action="UPPER"),
        helper.make_node("Cast", ["s"], ["f"], name="to_float", to=TensorProto.FLOAT),
        helper.make_node("Cast", ["f"], ["back"], name="to_string", to=TensorProto.STRING),
    ],
    "strings",
    [helper.make_tensor_value_info("s", TensorProto.STRING, [3])],
    [
        helper.make_tensor_value_info("out_s", TensorProto.STRING, [3]),
        helper.make_tensor_value_info("f", TensorProto.FLOAT, [3]),
        helper.make_tensor_value_info("back", TensorProto.STRING, [3]),
    ],
)
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), f"{out}/strings.onnx")
print("ok")
