#!/usr/bin/python3
"""The NHWC TensorFlow convolution graphs of the test set, after GE's optimizer, hold no
back-to-back Transpose pair (a Transpose reading another Transpose's output): layout conversions
are left only at the boundaries. Each graph holding a Conv2D / DepthwiseConv2dNative in NHWC is
compiled by `ge run --dump-graph` and its optimized textual IR is checked (graphs without inputs
fold to constants and are skipped). Prints the Transposes each graph keeps; exits 1 on a pair
(naming both nodes), a graph that fails to run, or when no graph holds a convolution."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NODE = re.compile(r"^node (\S+): (.*?) = ([A-Za-z0-9_@.]+)\((.*?)\)")


def parse_ir(text):
    """[(node, op, [inputs], [outputs])] of the textual IR (graph_text.h)."""
    nodes = []
    for line in text.splitlines():
        m = NODE.match(line.strip())
        if not m:
            continue
        outs = [o.split(":")[0].strip() for o in re.sub(r"\[[^\]]*\]", "", m.group(2)).split(",")]
        ins = [i.strip() for i in m.group(4).split(",") if i.strip()]
        nodes.append((m.group(1), m.group(3), ins, outs))
    return nodes


def transpose_pairs(nodes):
    """(producer Transpose, consumer Transpose) pairs."""
    producer = {}
    for name, op, _, outs in nodes:
        for o in outs:
            producer[o] = (name, op)
    pairs = []
    for name, op, ins, _ in nodes:
        if op == "Transpose" and ins and producer.get(ins[0], ("", ""))[1] == "Transpose":
            pairs.append((producer[ins[0]][0], name))
    return pairs


def nhwc_conv_graphs(root):
    graphs = []
    for dirpath, _, files in os.walk(root):
        if "frozen_model.pb" not in files:
            continue
        with open(os.path.join(dirpath, "frozen_model.pb"), "rb") as f:
            data = f.read()
        if (b"Conv2D" in data or b"DepthwiseConv2dNative" in data) and b"NCHW" not in data:
            graphs.append(dirpath)
    return sorted(graphs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ge", default="ge")
    ap.add_argument("--root", default=os.path.join(HERE, "data"))
    a = ap.parse_args()
    graphs = nhwc_conv_graphs(a.root)
    if not graphs:
        print("no NHWC convolution graph found")
        return 1
    failed = skipped = 0
    with tempfile.TemporaryDirectory() as tmp:
        for d in graphs:
            name = os.path.relpath(d, a.root)
            ir = os.path.join(tmp, "graph.txt")
            shapes = []  # the recorded inputs' shapes (the placeholders' batch dims are unknown)
            for f in sorted(os.listdir(d)):
                if f.endswith(".placeholder.shape"):
                    with open(os.path.join(d, f)) as sf:
                        dims = sf.read().split()
                    shapes += ["--input-shape", f"{f[:-len('.placeholder.shape')]}={','.join(dims)}"]
            r = subprocess.run([a.ge, "run", os.path.join(d, "frozen_model.pb"), "--dump-graph", ir] + shapes,
                               capture_output=True, text=True, timeout=300)
            if r.returncode != 0:
                print(f"FAIL {name}: {(r.stderr.strip() or r.stdout.strip())[-300:]}")
                failed += 1
                continue
            with open(ir) as f:
                nodes = parse_ir(f.read())
            pairs = transpose_pairs(nodes)
            kept = sum(op == "Transpose" for _, op, _, _ in nodes)
            convs = sum(op in ("FusedConv", "Conv") for _, op, _, _ in nodes)
            if convs == 0:
                print(f"SKIP {name}: no convolution left (folded to constants)")
                skipped += 1
            elif pairs:
                print(f"FAIL {name}: back-to-back Transposes " + ", ".join(f"{p} -> {c}" for p, c in pairs))
                failed += 1
            else:
                print(f"PASS {name}: {kept} Transpose(s) for {convs} convolution(s)")
    checked = len(graphs) - skipped
    print(f"{checked - failed} of {checked} NHWC convolution graphs without a Transpose pair ({skipped} skipped)")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
