#!/usr/bin/python3
"""Exports the small models bundled with GE, with PyTorch's own outputs as references.

small_cnn: Conv-Relu-MaxPool-Conv-Relu-GlobalAveragePool-Flatten-Gemm-Softmax on 1x3x32x32.
mlp:       Flatten-MatMul/Gemm-Relu-Gemm on 4x64.
Each model is written as models/<name>.onnx with <name>_input.npy and <name>_output.npy
(PyTorch's output for that input). Run with Debian's python3 (torch 1.13).
"""
import os
import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))


class SmallCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(16, 10)

    def forward(self, x):
        x = torch.flatten(self.features(x), 1)
        return torch.softmax(self.classifier(x), dim=1)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 32), nn.ReLU(), nn.Linear(32, 10))

    def forward(self, x):
        return self.net(x) * 2.0 + 1.0


def export(name, model, x):
    torch.manual_seed(0)
    model.eval()
    with torch.no_grad():
        y = model(x)
    path = os.path.join(HERE, name + ".onnx")
    torch.onnx.export(model, x, path, input_names=["input"], output_names=["output"], opset_version=17)
    np.save(os.path.join(HERE, name + "_input.npy"), x.numpy())
    np.save(os.path.join(HERE, name + "_output.npy"), y.numpy())
    print(f"wrote {path}: output {tuple(y.shape)}")


def main():
    torch.manual_seed(0)
    export("small_cnn", SmallCnn(), torch.randn(1, 3, 32, 32))
    torch.manual_seed(1)
    export("mlp", Mlp(), torch.randn(4, 64))


if __name__ == "__main__":
    main()
