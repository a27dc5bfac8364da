#!/usr/bin/python3
"""The real-model suite: torchvision CNNs and a transformer encoder, exported by PyTorch with
PyTorch's own outputs as references, run through GE in every scheduling mode.

Exports are cached under --cache (made once per machine: no downloads; weights are random but
conditioned so that outputs are of order 0.1-10, not vanishing). Each model is checked with
  max |GE - PyTorch| <= 1e-4 * max |PyTorch| + 1e-5
in sink mode (static models), host mode, and, for the dynamic-axis variants, host-run and
shape-specialized (--input-shape: one sink segment) at two sizes. Prints one line per check and exits non-zero on any mismatch or error.

Usage: /usr/bin/python3 tests/models/model_suite.py --ge build/bin/ge --cache build/models
                                                    [--models a,b,...] [--list] [--offline]
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

SEED = 0
CNNS = ["resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small", "squeezenet1_0", "shufflenet_v2_x1_0",
        "efficientnet_b0", "densenet121", "vit_b_16"]
# resnet_tail: ResNet's last stages alone (a 256-channel block at 14x14, a 512-channel one at
# 7x7) on a 256x14x14 input: the convolutions that run in output-channel blocks (ops/dnnl_conv.cc).
# vit_tiny: torchvision's VisionTransformer at 32x32, 2 layers of 4 heads (PyTorch's
# MultiheadAttention export, sequence-first); its dynamic-batch form computes the head-split
# targets at run time.
# densenet_tiny: torchvision's DenseNet at 32x32 (growth 8, blocks of 3 and 4 layers): each
# layer's Concat -> BatchNormalization -> Relu, run as one ConcatScaleShift at -O2.
# pool_tail: global average pools of a 3x3 64 -> 64 convolution (Winograd row blocks) and of a
# 1x1 one to 40 channels, and a max pool: the global pools read the row means the convolutions'
# blocks compute (conv-row-mean-fusion), 40 channels being two vectors of 16 and 8 single floats
# (ops/dnnl_conv.cc).
# mlp_acts: Linear layers each followed by another activation (Hardswish, ReLU6, SiLU, LeakyReLU,
# Hardsigmoid, Tanh, Sigmoid), each fused into its FusedMatMul at -O2 (activation_match.h); at
# batch 1 (GE's matrix-vector blocks) and, with a dynamic batch, 1 and 5 (oneDNN matmul blocks).
SMALL = ["mobilenet_v3_small", "squeezenet1_0", "mobilenet_v3_small_dynbatch", "resnet_tail", "resnet_tail_dynbatch",
         "vit_tiny", "vit_tiny_dynbatch", "pool_tail", "mlp_acts", "mlp_acts_dynbatch"]


def all_models():
    return (CNNS + [m + "_dynbatch" for m in CNNS] + ["resnet_tail", "resnet_tail_dynbatch", "vit_tiny", "vit_tiny_dynbatch"] +
            ["densenet_tiny", "densenet_tiny_dynbatch", "pool_tail", "mlp_acts", "mlp_acts_dynbatch", "encoder",
             "encoder_dynseq"])


def condition(model, in_shape):
    """Random weights that give O(1) outputs: zero matrices get N(0, 0.02) (ViT's head), BatchNorm
    gets a random affine part and running statistics recalibrated on random data."""
    import torch
    import torch.nn as nn
    torch.manual_seed(SEED + 1)
    for p in model.parameters():
        if p.dim() >= 2 and torch.count_nonzero(p) == 0:
            nn.init.normal_(p, 0.0, 0.02)
    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    if bns:
        with torch.no_grad():
            for m in bns:
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0.0, 0.1)
                m.reset_running_stats()
                m.momentum = None
        torch.set_num_threads(1)
        model.train()
        with torch.no_grad():
            for _ in range(2):
                model(torch.randn(4, *in_shape[1:]))
    return model.eval()


def build(name):
    """(module, [inputs...], input name, output name, dynamic axes or None)."""
    import torch
    import torch.nn as nn
    torch.manual_seed(SEED)
    g = torch.Generator().manual_seed(1234)
    base = name.replace("_dynbatch", "")
    if base == "pool_tail":
        in_shape = (1, 3, 32, 32)

        class PoolTail(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(3, 64, 3, padding=1)
                self.conv2 = nn.Conv2d(64, 64, 3, padding=1)  # Winograd row blocks
                self.conv3 = nn.Conv2d(64, 40, 1)
                self.fc = nn.Linear(144, 10)

            def forward(self, x):
                y1 = torch.relu(self.conv1(x))
                y2 = torch.relu(self.conv2(y1))
                y3 = torch.relu(self.conv3(y2))
                g2 = torch.flatten(nn.functional.adaptive_avg_pool2d(y2, 1), 1)
                g3 = torch.flatten(nn.functional.adaptive_avg_pool2d(y3, 1), 1)
                m = torch.flatten(nn.functional.max_pool2d(y3, 2).mean((2, 3)), 1)
                return self.fc(torch.cat([g2, g3, m], 1))

        model = condition(PoolTail(), in_shape)
        return model, [torch.randn(*in_shape, generator=g)], "input", "output", None
    if base == "mlp_acts":
        widths = [64, 96, 96, 80, 64, 48, 40, 32]
        acts = [nn.Hardswish(), nn.ReLU6(), nn.SiLU(), nn.LeakyReLU(0.1), nn.Hardsigmoid(), nn.Tanh(), nn.Sigmoid()]
        layers = []
        for i, act in enumerate(acts):
            layers += [nn.Linear(widths[i], widths[i + 1]), act]
        model = nn.Sequential(*layers).eval()
        xs = [2 * torch.randn(1, 64, generator=g)]
        dyn = None
        if name.endswith("_dynbatch"):
            xs.append(2 * torch.randn(5, 64, generator=g))
            dyn = {"input": {0: "N"}, "output": {0: "N"}}
        return model, xs, "input", "output", dyn
    if base in CNNS or base in ("resnet_tail", "vit_tiny", "densenet_tiny"):
        import torchvision.models as tvm
        in_shape = (1, 3, 224, 224)
        if base == "vit_tiny":
            in_shape = (1, 3, 32, 32)
            net = tvm.VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=4, hidden_dim=64,
                                        mlp_dim=128, num_classes=10)
        elif base == "densenet_tiny":
            in_shape = (1, 3, 32, 32)
            net = tvm.DenseNet(growth_rate=8, block_config=(3, 4), num_init_features=16, bn_size=2, num_classes=10)
        elif base == "resnet_tail":
            from torchvision.models.resnet import BasicBlock
            in_shape = (1, 256, 14, 14)
            down = nn.Sequential(nn.Conv2d(256, 512, 1, 2, bias=False), nn.BatchNorm2d(512))
            net = nn.Sequential(BasicBlock(256, 256), BasicBlock(256, 512, 2, down), nn.AdaptiveAvgPool2d(1),
                                nn.Flatten(), nn.Linear(512, 10))
        else:
            net = getattr(tvm, base)(weights=None)
        model = condition(net, in_shape)
        xs = [torch.randn(*in_shape, generator=g)]
        dyn = None
        if name.endswith("_dynbatch"):
            xs.append(torch.randn(2, *in_shape[1:], generator=g))
            dyn = {"input": {0: "N"}, "output": {0: "N"}}
        return model, xs, "input", "output", dyn

    class Encoder(nn.Module):
        """4-layer transformer encoder (d_model 256, 4 heads, GELU) over token ids."""

        def __init__(self, vocab=8000, d=256, heads=4, layers=4, ff=1024, max_len=512):
            super().__init__()
            self.tok = nn.Embedding(vocab, d)
            self.pos = nn.Embedding(max_len, d)
            layer = nn.TransformerEncoderLayer(d, heads, ff, dropout=0.0, activation="gelu", batch_first=True)
            self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
            self.norm = nn.LayerNorm(d)

        def forward(self, ids):
            pos = torch.arange(ids.shape[1], device=ids.device).unsqueeze(0)
            return self.norm(self.enc(self.tok(ids) + self.pos(pos)))

    model = Encoder().eval()
    xs = [torch.randint(0, 8000, (1, 128), generator=g, dtype=torch.int64)]
    dyn = None
    if name == "encoder_dynseq":
        xs.append(torch.randint(0, 8000, (1, 37), generator=g, dtype=torch.int64))
        dyn = {"input_ids": {1: "S"}, "hidden": {1: "S"}}
    return model, xs, "input_ids", "hidden", dyn


def export(name, cache):
    d = os.path.join(cache, name)
    if os.path.exists(os.path.join(d, "done")):
        return d
    import torch
    os.makedirs(d, exist_ok=True)
    print(f"exporting {name} (once per machine) ...", flush=True)
    model, xs, iname, oname, dyn = build(name)
    torch.set_grad_enabled(True)  # TransformerEncoder's fused no-grad path has no ONNX form
    torch.onnx.export(model, (xs[0],), os.path.join(d, "model.onnx"), opset_version=17, input_names=[iname],
                      output_names=[oname], dynamic_axes=dyn, do_constant_folding=True)
    with torch.no_grad():
        for k, x in enumerate(xs):
            np.save(os.path.join(d, f"input_{k}.npy"), x.numpy())
            np.save(os.path.join(d, f"output_{k}.npy"), model(x).numpy())
    with open(os.path.join(d, "input_name"), "w") as f:
        f.write(iname)
    open(os.path.join(d, "done"), "w").close()
    return d


def check(ge, d, mode, k, extra, offline=False, expect_ops=()):
    """mode: sink | host | specialized (auto with --input-shape: must be one sink segment).
    offline: the model is compiled to a .gem first (`ge compile`, same mode and shapes), the .gem
    is run, and its outputs must be identical (bit for bit) to running the .onnx.
    expect_ops: op types that must be in the optimized graph (unless -O0/-O1)."""
    iname = open(os.path.join(d, "input_name")).read().strip()
    # Per process: ctest runs the -O0, offline and default suites at once on the same cache.
    out = os.path.join(d, f"ge_{mode}_{k}_{os.getpid()}.npy")
    x = os.path.join(d, f"input_{k}.npy")
    run_mode = "auto" if mode == "specialized" else mode
    cmd = [ge, "run", os.path.join(d, "model.onnx"), "--input", f"{iname}={x}", "--output", out,
           "--mode", run_mode, "--report"] + extra
    if mode == "host":  # the third run at one shape takes its tensors from a planned arena
        cmd += ["--repeat", "3"]
    shape_args = []
    if mode == "specialized":
        shape_args = ["--input-shape", f"{iname}=" + ",".join(str(n) for n in np.load(x).shape)]
    cmd += shape_args
    if offline:
        gem = os.path.join(d, f"model_{mode}_{k}_{os.getpid()}.gem")
        c = subprocess.run([ge, "compile", os.path.join(d, "model.onnx"), "-o", gem, "--mode", run_mode] +
                           shape_args + extra, capture_output=True, text=True)
        if c.returncode != 0:
            return False, f"ge compile failed ({c.returncode}): {(c.stdout + c.stderr).strip()[-600:]}"
        online = subprocess.run(cmd, capture_output=True, text=True)
        if online.returncode != 0:
            return False, f"ge failed ({online.returncode}): {(online.stdout + online.stderr).strip()[-600:]}"
        online_out = np.load(out)
        cmd = [ge, "run", gem, "--input", f"{iname}={x}", "--output", out, "--report"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return False, f"ge failed ({p.returncode}): {(p.stdout + p.stderr).strip()[-600:]}"
    ref = np.load(os.path.join(d, f"output_{k}.npy"))
    got = np.load(out)
    os.remove(out)
    if offline:
        os.remove(gem)
    if got.shape != ref.shape:
        return False, f"shape {got.shape}, expected {ref.shape}"
    if offline and (got.dtype != online_out.dtype or got.tobytes() != online_out.tobytes()):
        return False, "the .gem's outputs differ from the .onnx's"
    diff = float(np.abs(got.astype(np.float64) - ref).max())
    tol = 1e-4 * float(np.abs(ref).max()) + 1e-5
    seg = next((line for line in p.stdout.splitlines() if line.startswith("segments:")), "")
    ops = next((line for line in p.stdout.splitlines() if line.startswith("ops after:")), "")
    transformer = os.path.basename(d).startswith(("vit", "encoder"))
    if transformer and not offline and "-O0" not in extra and (" Softmax " in ops + " " or "FusedAttention" not in ops):
        return False, f"attention not fused at -O2: '{ops}'"
    for op in expect_ops:
        if not offline and "-O0" not in extra and "-O1" not in extra and f" {op} " not in ops + " ":
            return False, f"expected {op} after the optimizer, got '{ops}'"
    if mode == "specialized" and not re.fullmatch(r"segments: sink\[\d+ nodes?\]", seg):
        return False, f"expected one sink segment, got '{seg}'"
    opt = re.search(r"optimizer: (-O\d): (\d+) -> (\d+) nodes", p.stdout)
    compile_ms = re.search(r"time: compile ([\d.]+) ms", p.stdout)
    ROWS.append({"diff": diff, "tol": tol, "segments": seg.replace("segments: ", ""),
                 "nodes": f"{opt.group(2)} -> {opt.group(3)}" if opt else "?",
                 "compile_ms": float(compile_ms.group(1)) if compile_ms else float("nan")})
    return diff <= tol, f"max abs diff {diff:.3g} (tol {tol:.3g}) {seg}"


ROWS = []  # what each check measured, for --table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ge", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--models", default=",".join(SMALL))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--ge-args", default="", help="extra arguments for every ge run (e.g. -O0)")
    ap.add_argument("--offline", action="store_true",
                    help="compile each model to a .gem (ge compile) and run that; outputs must equal the .onnx's")
    ap.add_argument("--expect-ops", default="", help="comma-separated op types the optimized graphs must hold")
    ap.add_argument("--table", default="", help="append one markdown row per check to this file (model, level, mode, "
                    "input set, max abs diff, tolerance, nodes before -> after the optimizer, segments, compile ms)")
    a = ap.parse_args()
    if a.list:
        print("\n".join(all_models()))
        return 0
    names = all_models() if a.models == "all" else a.models.split(",")
    extra = a.ge_args.split()
    failures = 0
    for name in names:
        d = export(name, a.cache)
        dynamic = name.endswith("_dynbatch") or name.endswith("_dynseq")
        runs = ([("host", 0), ("host", 1), ("specialized", 0), ("specialized", 1)] if dynamic else
                [("sink", 0), ("host", 0)])
        for mode, k in runs:
            ROWS.clear()
            ok, msg = check(a.ge, d, mode, k, extra, a.offline, [op for op in a.expect_ops.split(",") if op])
            failures += not ok
            print(f"{'PASS' if ok else 'FAIL'} {name} {mode} set {k}: {msg}", flush=True)
            if a.table:
                level = next((x for x in extra if re.fullmatch(r"-O\d", x)), "-O2")
                with open(a.table, "a") as f:
                    if not ROWS:
                        f.write(f"| {name} | {level} | {mode} | {k} | FAIL: {msg[:80]} | | | | |\n")
                    for r in ROWS:
                        f.write(f"| {name} | {level} | {mode} | {k} | {r['diff']:.3g} | {r['tol']:.3g} | {r['nodes']} | "
                                f"{r['segments']} | {r['compile_ms']:.0f} |\n")
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
