#!/usr/bin/python3
"""Side-by-side latency of GE, ONNX Runtime and PyTorch eager on the real-model suite.

For each model and thread count the engines run alternately, each as its own process timing RUNS
runs after warm-up, in ROUNDS rounds whose order reverses every round (GE, ORT, PyTorch, then
PyTorch, ORT, GE: a drift of the shared machine's speed during a model's rounds falls on every
engine alike). --pin pins the 1-thread runs (taskset) to one CPU, the same for every engine (auto:
the faster by a 1-thread sgemm measured at the start); it is off by default because it slows
ONNX Runtime under Node.js (its run goes to a libuv worker thread, which then shares the one CPU
with Node's own threads: resnet18 28 -> 37 ms on 2026-12-03) while GE and PyTorch are unaffected.
The table shows the mean of each engine's per-round medians, GE/ORT and GE/PyTorch ratios,
GE's GFLOP/s (2 x the MACs of its Conv/MatMul-like nodes, as `ge bench` counts them) against oneDNN's sgemm peak
measured in the same run, and each engine's peak resident memory (/usr/bin/time -v).

Usage: /usr/bin/python3 bench/models.py [--ge build/bin/ge] [--models a,b] [--threads 1,2]
                                        [--runs 20] [--rounds 2] [--pin none|auto|CPU]
                                        [--out bench/results/DATE.md]
Needs ../shared/bench (setup.sh, export_models.py: models under /tmp/harness/models).
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "bench"))
MODELS = "/tmp/harness/models"
DEFAULT = ("resnet18,resnet50,mobilenet_v2,mobilenet_v3_small,squeezenet1_0,shufflenet_v2_x1_0,"
           "efficientnet_b0,densenet121,tinybert_dynseq")


PIN = []  # taskset prefix for the 1-thread runs (set in main)


def run_timed(cmd, env=None, threads=1):
    """Runs cmd under /usr/bin/time -v (pinned when threads == 1); returns (stdout, peak RSS in MiB)."""
    pin = PIN if threads == 1 else []
    p = subprocess.run(pin + ["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr[-800:]}")
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    return p.stdout, (int(m.group(1)) / 1024 if m else float("nan"))


def input_shape_arg(model):
    """--input-shape NAME=dims of the reference input (dynamic models run at its size, like ORT)."""
    import numpy as np
    import onnx
    m = onnx.load(f"{MODELS}/{model}/model.onnx", load_external_data=False)
    init = {i.name for i in m.graph.initializer}
    name = [i.name for i in m.graph.input if i.name not in init][0]
    dims = np.load(f"{MODELS}/{model}/input_0.npy").shape
    return ["--input-shape", f"{name}=" + ",".join(str(d) for d in dims)]


def ge_ms(ge, model, threads, runs):
    out, rss = run_timed([ge, "bench", f"{MODELS}/{model}/model.onnx", "--runs", str(runs), "--warmup", "5",
                          "--threads", str(threads)] + input_shape_arg(model), threads=threads)
    m = re.search(r"per run \(us\): min ([\d.]+)\s+median ([\d.]+)", out)
    f = re.search(r"\(([\d.]+) GFLOP,", out)  # GE's count from the compiled graph's static shapes
    ge_ms.gflop = float(f.group(1)) if f else float("nan")
    return float(m.group(2)) / 1000, rss


def ort_ms(model, threads, runs):
    env = dict(os.environ, NODE_PATH="/tmp/harness/ort/node_modules")
    out, rss = run_timed(["node", f"{SHARED}/bench_ort.js", f"{MODELS}/{model}", "--threads", str(threads),
                          "--runs", str(runs), "--max-seconds", "60", "--json"], env, threads)
    return json.loads(out.strip().splitlines()[-1])["median_ms"], rss


def torch_ms(model, threads, runs):
    out, rss = run_timed(["/usr/bin/python3", f"{SHARED}/bench_torch.py", "--only", model, "--threads",
                          str(threads), "--runs", str(runs), "--max-seconds", "60"], threads=threads)
    for line in out.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            if "median_ms" in r:
                return r["median_ms"], rss
    raise RuntimeError(f"no PyTorch result for {model}: {out[-400:]}")


def sgemm_peak(cpu=None):
    exe = "/tmp/harness/bin/gemm_bench"
    if not os.path.exists(exe):
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        subprocess.run(["g++", "-O3", "-march=native", "-fopenmp", f"{SHARED}/gemm_bench.cpp", "-o", exe,
                        "-lopenblas", "-ldnnl"], check=True)
    pin = ["taskset", "-c", str(cpu)] if cpu is not None else []
    out = subprocess.run(pin + [exe, "dnnl", "1"], capture_output=True, text=True).stdout
    m = re.search(r"median=([\d.]+) GFLOP/s", out)
    return float(m.group(1)) if m else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ge", default=os.path.join(HERE, "..", "build", "bin", "ge"))
    ap.add_argument("--models", default=DEFAULT)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--runs", type=int, default=20, help="timed runs per engine per round")
    ap.add_argument("--rounds", type=int, default=2, help="rounds per model and thread count, order reversed each")
    ap.add_argument("--pin", default="none", help="CPU for 1-thread runs: none, auto (the faster) or a number")
    ap.add_argument("--out", default=os.path.join(HERE, "results", f"{datetime.date.today()}.md"))
    a = ap.parse_args()
    models = [m for m in a.models.split(",") if os.path.exists(f"{MODELS}/{m}/model.onnx")]
    threads = [int(t) for t in a.threads.split(",")]
    cpus = sorted(os.sched_getaffinity(0))
    per_cpu = {c: sgemm_peak(c) for c in cpus[:2]}
    print("oneDNN sgemm, 1 thread: " + ", ".join(f"CPU {c} {g:.1f} GFLOP/s" for c, g in per_cpu.items()),
          flush=True)
    if a.pin == "auto":
        pin_cpu = max(per_cpu, key=per_cpu.get)
    elif a.pin == "none":
        pin_cpu = None
    else:
        pin_cpu = int(a.pin)
    if pin_cpu is not None:
        PIN[:] = ["taskset", "-c", str(pin_cpu)]
    peak = per_cpu.get(pin_cpu, max(per_cpu.values()))
    engines = [("GE", lambda m, t: ge_ms(a.ge, m, t, a.runs)), ("ORT", lambda m, t: ort_ms(m, t, a.runs)),
               ("PyTorch", lambda m, t: torch_ms(m, t, a.runs))]
    rows = []
    for i, model in enumerate(models):
        for t in threads:
            print(f"[{i + 1}/{len(models)}] {model} threads={t}", flush=True)
            got = {name: [] for name, _ in engines}
            rss = {name: float("nan") for name, _ in engines}
            for r in range(a.rounds):
                for name, fn in (engines if r % 2 == 0 else engines[::-1]):
                    try:
                        ms, mem = fn(model, t)
                    except RuntimeError as e:
                        if name != "PyTorch":
                            raise
                        print(f"  PyTorch: {e}", file=sys.stderr)
                        continue
                    got[name].append(ms)
                    rss[name] = mem if rss[name] != rss[name] else max(rss[name], mem)
                print("  round " + str(r + 1) + ": " +
                      "  ".join(f"{n} {v[-1]:.2f} ms" for n, v in got.items() if len(v) > r), flush=True)
            g, o, p = (statistics.mean(got[n]) if got[n] else float("nan") for n in ("GE", "ORT", "PyTorch"))
            gf = ge_ms.gflop / (g / 1e3)
            rows.append((model, t, g, o, p, g / o, g / p, gf, rss["GE"], rss["ORT"], rss["PyTorch"]))
            print(f"  GE {g:.2f} ms  ORT {o:.2f} ms  PyTorch {p:.2f} ms  GE/ORT {g / o:.2f}", flush=True)
    lines = [f"# bench/models.py, {datetime.datetime.now():%Y-%m-%d %H:%M}", "",
             f"Per engine the mean of {a.rounds} round medians ({a.runs} runs after warm-up each, engine order "
             f"reversed every round); 1-thread runs pinned to "
             f"{'CPU ' + str(pin_cpu) if pin_cpu is not None else 'no CPU'}. oneDNN sgemm peak (1 thread, same "
             "run): " + ", ".join(f"CPU {c} {g:.1f}" for c, g in per_cpu.items()) + " GFLOP/s.", "",
             "| model | threads | GE ms | ORT ms | PyTorch ms | GE/ORT | GE/PyTorch | GE GFLOP/s | % sgemm peak "
             "| RSS GE / ORT / PT (MiB) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for (m, t, g, o, p, ro, rp, gf, gr, orr, pr) in rows:
        pct = 100 * gf / (peak * t) if gf == gf else float("nan")
        lines.append(f"| {m} | {t} | {g:.2f} | {o:.2f} | {p:.2f} | {ro:.2f} | {rp:.2f} | {gf:.1f} | {pct:.0f}% "
                     f"| {gr:.0f} / {orr:.0f} / {pr:.0f} |")
    for t in threads:
        r = [x[5] for x in rows if x[1] == t]
        if r:
            lines.append(f"\nGeometric mean GE/ORT at {t} thread(s): {statistics.geometric_mean(r):.2f}")
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as fh:
        fh.write(text)
    print(f"written {a.out}")


if __name__ == "__main__":
    main()
