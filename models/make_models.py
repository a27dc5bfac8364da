#!/usr/bin/python3
"""Exports the small models bundled with GE, with PyTorch's own outputs as references.

small_cnn: Conv-Relu-MaxPool-Conv-Relu-GlobalAveragePool-Flatten-Gemm-Softmax on 1x3x32x32.
mlp:       Flatten-MatMul/Gemm-Relu-Gemm on 4x64.
conv_bn_res: what the graph optimizer rewrites (exported with BatchNormalization and Dropout
           kept): Conv+BN+Relu, Conv+BN+residual Add+Relu, Conv+BN+SiLU, depthwise Conv+BN+Relu6
           (Clip), a Shape->Gather->Unsqueeze->Concat->Reshape flatten, a cancelling Transpose
           pair, Dropout and MatMul+Add, on 2x3x16x16.
nhwc_ops:  what the NHWC layout pass carries between convolutions, on 2x3x21x21 (batch 2: the
           per-image loop): strided, dilated and depthwise convs, MaxPool with ceil_mode, a
           channel Concat, BatchNormalization+Relu after it (not foldable), AveragePool with and
           without count_include_pad, residual Add, LeakyRelu and Hardsigmoid, global pooling.
layer_norm_mlp: Linear-LayerNorm-Relu-Linear on 4x16, exported at opset 16, where LayerNorm
           is decomposed (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add).
attention: the two attention forms the attention-fusion pass fuses, on 2x7x32 (batch 2): PyTorch's
           nn.MultiheadAttention (sequence-first, packed QKV projection, 4 heads) with a causal
           float mask, and a BERT-style batch-first block (separate Q/K/V projections, Reshape +
           permute, scores / sqrt(d) + a padding mask over keys), summed.
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


class ConvBnRes(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8)
        self.c2, self.b2 = nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8)
        self.c3, self.b3 = nn.Conv2d(8, 16, 1), nn.BatchNorm2d(16)
        self.c4, self.b4 = nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.BatchNorm2d(16)
        self.drop = nn.Dropout(0.5)
        self.w = nn.Parameter(torch.randn(16, 10) * 0.5)
        self.b = nn.Parameter(torch.randn(10))
        for bn in (self.b1, self.b2, self.b3, self.b4):  # non-trivial running statistics
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 2.0)
            bn.weight.data.uniform_(0.5, 1.5)
            bn.bias.data.uniform_(-0.2, 0.2)

    def forward(self, x):
        y = torch.relu(self.b1(self.c1(x)))
        y = torch.relu(self.b2(self.c2(y)) + y)
        y = nn.functional.silu(self.b3(self.c3(y)))
        y = nn.functional.relu6(self.b4(self.c4(y)))
        y = y.transpose(1, 3).transpose(1, 3)
        y = y.mean((2, 3), keepdim=True)
        y = y.view(y.size(0), -1)
        return self.drop(y) @ self.w + self.b


class NhwcOps(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(3, 8, 5, stride=2, padding=4, dilation=2)
        self.pool = nn.MaxPool2d(3, stride=2, ceil_mode=True)
        self.bn = nn.BatchNorm2d(16)
        self.avg1 = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)
        self.dw = nn.Conv2d(16, 16, 3, padding=2, dilation=2, groups=16)
        self.avg2 = nn.AvgPool2d(2, stride=2, padding=1, count_include_pad=True)
        self.c3 = nn.Conv2d(16, 12, 1)
        self.c4 = nn.Conv2d(12, 12, 3, padding=1)
        self.fc = nn.Linear(12, 5)
        self.bn.running_mean.uniform_(-0.5, 0.5)
        self.bn.running_var.uniform_(0.5, 2.0)
        self.bn.weight.data.uniform_(0.5, 1.5)
        self.bn.bias.data.uniform_(-0.2, 0.2)

    def forward(self, x):
        a = torch.relu(self.c1(x))
        b = torch.relu(self.c2(x))
        y = torch.cat([self.pool(a), self.pool(b)], 1)
        y = torch.relu(self.bn(y))
        y = self.avg1(y)
        y = self.dw(y) + y
        y = self.avg2(y)
        y = nn.functional.leaky_relu(self.c3(y), 0.1)
        y = nn.functional.hardsigmoid(self.c4(y)) * y
        return self.fc(y.mean((2, 3)))


class LayerNormMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.ln, self.fc2 = nn.Linear(16, 32), nn.LayerNorm(32), nn.Linear(32, 8)
        self.ln.weight.data.uniform_(0.5, 1.5)
        self.ln.bias.data.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.fc2(torch.relu(self.ln(self.fc1(x))))


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(32, 4)
        self.q, self.k, self.v = nn.Linear(32, 32), nn.Linear(32, 32), nn.Linear(32, 32)
        self.causal = torch.triu(torch.full((7, 7), -1e4), diagonal=1)
        self.pad = torch.tensor([0., 0., 0., 0., 0., -1e4, -1e4])  # the last two keys masked out

    def forward(self, x):  # x: [B, S, E]
        xs = x.transpose(0, 1)  # [S, B, E]
        a, _ = self.mha(xs, xs, xs, attn_mask=self.causal, need_weights=False)
        b, s, e = x.shape
        heads = lambda t: t.reshape(b, s, 4, e // 4).permute(0, 2, 1, 3)
        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        scores = q.matmul(k.permute(0, 1, 3, 2)) / (e // 4) ** 0.5 + self.pad
        y = scores.softmax(-1).matmul(v).permute(0, 2, 1, 3).reshape(b, s, e)
        return a.transpose(0, 1) + y


def export(name, model, x, keep_training_ops=False, opset=17):
    torch.manual_seed(0)
    model.eval()
    with torch.no_grad():
        y = model(x)
    path = os.path.join(HERE, name + ".onnx")
    # keep_training_ops: PRESERVE keeps BatchNormalization (inference mode) instead of fusing it
    # into the Conv, and without constant folding the Shape chains and Transposes stay.
    training = torch.onnx.TrainingMode.PRESERVE if keep_training_ops else torch.onnx.TrainingMode.EVAL
    torch.onnx.export(model, x, path, input_names=["input"], output_names=["output"], opset_version=opset,
                      training=training, do_constant_folding=not keep_training_ops)
    np.save(os.path.join(HERE, name + "_input.npy"), x.numpy())
    np.save(os.path.join(HERE, name + "_output.npy"), y.numpy())
    print(f"wrote {path}: output {tuple(y.shape)}")


def main(only=None):
    """Exports every model, or only the one named."""
    models = [  # name, seed, (module, input), export options
        ("small_cnn", 0, lambda: (SmallCnn(), torch.randn(1, 3, 32, 32)), {}),
        ("mlp", 1, lambda: (Mlp(), torch.randn(4, 64)), {}),
        ("conv_bn_res", 2, lambda: (ConvBnRes(), torch.randn(2, 3, 16, 16)), {"keep_training_ops": True}),
        ("layer_norm_mlp", 3, lambda: (LayerNormMlp(), torch.randn(4, 16)), {"opset": 16}),
        ("nhwc_ops", 4, lambda: (NhwcOps(), torch.randn(2, 3, 21, 21)), {}),
        ("attention", 5, lambda: (Attention(), torch.randn(2, 7, 32)), {}),
    ]
    for name, seed, make, options in models:
        if only is not None and name != only:
            continue
        torch.manual_seed(seed)
        model, x = make()
        export(name, model, x, **options)


if __name__ == "__main__":
    import sys
    main(sys.argv[1] if len(sys.argv) > 1 else None)
