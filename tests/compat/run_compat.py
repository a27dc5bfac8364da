#!/usr/bin/python3
"""The Ascend port test: every compat operator project run three ways against numpy.

For each op: a static-shape one-node ONNX model (the node must be sunk), the same model with
symbolic dims (the node must take its fallback path: the generated aclnn call), and the project's
own single-op application calling the generated typed aclnn API. The references are computed here
with numpy from the same inputs; nothing is compared with GE's own output.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

RNG = np.random.default_rng(20261201)


def rand(shape, dtype=np.float32, lo=-2.0, hi=2.0):
    return RNG.uniform(lo, hi, size=shape).astype(dtype)


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    from math import erf
    return 0.5 * x * (1.0 + np.vectorize(erf)(x / np.sqrt(2.0)))


# ---- the ops ------------------------------------------------------------------------------
# Each case: project, op type, inputs (name -> array, or None for an omitted optional input),
# constants (initializers), ONNX attributes, output names, reference(inputs) -> outputs, which
# dims become symbolic in the dynamic model, and the app's argument order.

def case_add_custom():
    out = []
    for dtype in (np.float32, np.float16):
        x, y = rand((4, 3000), dtype), rand((4, 3000), dtype)
        out.append(dict(proj="add_custom", op="AddCustom", inputs=[("x", x), ("y", y)], attrs=[],
                        outputs=["z"], ref=lambda i: [(i["x"].astype(np.float32) + i["y"].astype(np.float32))
                                                      .astype(i["x"].dtype)],
                        tol=1e-3 if dtype == np.float16 else 1e-6, app=["x", "y"], tag=np.dtype(dtype).name))
    return out


def case_axpy_opt():
    x, b = rand((3, 257)), rand((3, 257))
    alpha = 1.5

    def ref(i, relu):
        y = alpha * i["x"] + (i["bias"] if i.get("bias") is not None else 0)
        return [np.maximum(y, 0) if relu else y]
    return [
        dict(proj="axpy_opt", op="AxpyOpt", inputs=[("x", x), ("bias", b)],
             attrs=[("alpha", "f", str(alpha)), ("with_relu", "i", "1")], outputs=["y"],
             ref=lambda i: ref(i, True), app=["x", "bias"], app_args=["1.5", "1"], tag="bias,relu"),
        dict(proj="axpy_opt", op="AxpyOpt", inputs=[("x", x), ("bias", None)],
             attrs=[("alpha", "f", str(alpha))], outputs=["y"],
             ref=lambda i: ref(i, False), app=["x", "-"], app_args=["1.5", "0"], tag="no bias"),
    ]


def case_ge_glu():
    x = rand((6, 64))

    def ref(i, approx):
        a, g = np.split(i["x"].astype(np.float32), 2, axis=-1)
        return [(a * (gelu_tanh(g) if approx else gelu_erf(g))).astype(i["x"].dtype)]
    return [dict(proj="ge_glu", op="GeGluCustom", inputs=[("x", x)], attrs=[("approximate", "i", "1")],
                 outputs=["y"], ref=lambda i: ref(i, True), tol=1e-5, app=["x"], app_args=["1"], tag="tanh"),
            dict(proj="ge_glu", op="GeGluCustom", inputs=[("x", x)], attrs=[("approximate", "i", "0")],
                 outputs=["y"], ref=lambda i: ref(i, False), tol=1e-5, app=["x"], app_args=["0"], tag="erf"),
            dict(proj="ge_glu", op="GeGluCustom", inputs=[("x", x.astype(np.float16))],
                 attrs=[("approximate", "i", "1")], outputs=["y"], ref=lambda i: ref(i, True), tol=2e-3, app=["x"],
                 app_args=["1"], tag="float16")]


def case_concat_list():
    xs = [rand((2, n, 5)) for n in (3, 1, 4)]
    return [dict(proj="concat_list", op="ConcatListCustom", inputs=[("x%d" % k, a) for k, a in enumerate(xs)],
                 attrs=[("concat_dim", "i", "1")], outputs=["y"],
                 ref=lambda i: [np.concatenate([i["x0"], i["x1"], i["x2"]], axis=1)],
                 app=["x0", "x1", "x2"], app_args=["1"], dyn_axes=[0])]


def case_matmul_bias():
    a, b, bias = rand((17, 33)), rand((40, 33)), rand((40,))
    return [dict(proj="matmul_bias", op="MatmulBiasCustom", inputs=[("a", a), ("b", b), ("bias", bias)],
                 attrs=[("transpose_b", "i", "1")], outputs=["c"],
                 ref=lambda i: [(i["a"].astype(np.float64) @ i["b"].T.astype(np.float64) + i["bias"])
                                .astype(np.float32)],
                 tol=1e-4, app=["a", "b", "bias"], app_args=["0", "1"], dyn_axes=[0])]


def case_attr_mix():
    x = rand((4, 10))
    scales, shifts, mask = [0.5, -1.0, 2.0], [1, -2], [1, 1, 0, 1]

    def ref(i):
        v = i["x"].copy()
        j = np.arange(v.shape[-1])
        v = v * np.array(scales, np.float32)[j % len(scales)] + np.array(shifts, np.float32)[j % len(shifts)]
        v = -v  # negate
        v = np.where(np.array(mask, bool)[j % len(mask)], v, 0)
        v = np.clip(v, -1.5, 2.5)  # mode "clip"
        return [(v * 3 * 2).astype(np.float32)]  # repeat 3, two default groups
    return [dict(proj="attr_mix", op="AttrMixCustom", inputs=[("x", x)],
                 attrs=[("scales", "floats", ",".join(map(str, scales))), ("shifts", "ints", "1,-2"),
                        ("negate", "i", "1"), ("mask", "ints", "1,1,0,1"), ("mode", "s", "clip"),
                        ("lo", "f", "-1.5"), ("hi", "f", "2.5"), ("repeat", "i", "3")],
                 outputs=["y"], ref=ref, tol=1e-5, app=["x"], app_args=[])]


def case_reduce_sum_axis():
    x = rand((3, 4, 5))
    return [dict(proj="reduce_sum_axis", op="ReduceSumAxisCustom", inputs=[("x", x)],
                 consts=[("axes", "int64", "1", "1")], attrs=[("keep_dims", "i", "1")], outputs=["y"],
                 ref=lambda i: [i["x"].sum(axis=1, keepdims=True)], tol=1e-5, app=["x"], app_args=["1", "1"])]


def case_layer_norm():
    x, g, b = rand((7, 48)), rand((48,)), rand((48,))

    def ref(i, with_beta):
        v = i["x"].astype(np.float64)
        m = v.mean(-1, keepdims=True)
        var = ((v - m) ** 2).mean(-1, keepdims=True)
        y = (v - m) / np.sqrt(var + 1e-5) * i["gamma"] + (i["beta"] if with_beta else 0)
        return [y.astype(np.float32)]
    return [dict(proj="layer_norm", op="LayerNormCustom", inputs=[("x", x), ("gamma", g), ("beta", b)],
                 attrs=[("epsilon", "f", "1e-5")], outputs=["y"], ref=lambda i: ref(i, True), tol=1e-4,
                 app=["x", "gamma", "beta"], app_args=["1e-5"], dyn_axes=[0], tag="beta"),
            dict(proj="layer_norm", op="LayerNormCustom", inputs=[("x", x), ("gamma", g), ("beta", None)],
                 attrs=[("epsilon", "f", "1e-5")], outputs=["y"], ref=lambda i: ref(i, False), tol=1e-4,
                 app=["x", "gamma", "-"], app_args=["1e-5"], dyn_axes=[0], tag="no beta")]


CASES = [case_add_custom, case_axpy_opt, case_ge_glu, case_concat_list, case_matmul_bias, case_attr_mix,
         case_reduce_sum_axis, case_layer_norm]

DTYPE = {np.dtype(np.float32): "float32", np.dtype(np.float16): "float16", np.dtype(np.int64): "int64"}


def dims(name, shape, dynamic, dyn_axes):
    """Dims of a model value; in the dynamic model the chosen axes are symbols of their own."""
    return ",".join(("%s_d%d" % (name, a)) if dynamic and (dyn_axes is None or a in dyn_axes) else str(d)
                    for a, d in enumerate(shape))


def make_model(args, c, path, dynamic):
    cmd = [args.make_model, path, c["op"]]
    present = {n: a for n, a in c["inputs"] if a is not None}
    for n, a in c["inputs"]:
        cmd += ["--in", "-" if a is None else "%s:%s:%s" % (n, DTYPE[a.dtype], dims(n, a.shape, dynamic, c.get("dyn_axes")))]
    for name, dt, shape, vals in c.get("consts", []):
        cmd += ["--const", "%s:%s:%s:%s" % (name, dt, shape, vals)]
    refs = c["ref"](present)
    for n, r in zip(c["outputs"], refs):
        cmd += ["--out", "%s:%s:%s" % (n, DTYPE[r.dtype], dims(n, r.shape, dynamic, c.get("dyn_axes")))]
    for n, k, v in c["attrs"]:
        cmd += ["--attr", "%s:%s:%s" % (n, k, v)]
    subprocess.run(cmd, check=True)
    return present, refs


def compare(what, got, want, tol):
    if got.shape != want.shape:
        return "%s: shape %s, numpy %s" % (what, got.shape, want.shape)
    g, w = got.astype(np.float64), want.astype(np.float64)
    err = np.max(np.abs(g - w) / (1.0 + np.abs(w))) if w.size else 0.0
    return None if err <= tol else "%s: max relative error %.3g > %.3g" % (what, err, tol)


def run_graph(args, c, lib, work, dynamic):
    name = "%s_%s_%s" % (c["proj"], c.get("tag", "").replace(",", "_").replace(" ", "_"),
                         "dynamic" if dynamic else "static")
    model = os.path.join(work, name + ".onnx")
    present, refs = make_model(args, c, model, dynamic)
    inputs, outputs = os.path.join(work, name + "_in.npz"), os.path.join(work, name + "_out.npz")
    np.savez(inputs, **present)
    env = dict(os.environ, GE_LOG_LEVEL="debug")
    p = subprocess.run([args.ge, "run", model, "--custom-op-lib", lib, "--inputs", inputs, "--outputs", outputs],
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        return ["%s: ge run failed (%d): %s" % (name, p.returncode, (p.stderr or p.stdout)[-2000:])]
    node = c["op"] + "_0"
    want_log = ("%s, setting fallback attribute" % node) if dynamic else ("%s, no fallback: sink" % node)
    errs = []
    if want_log not in p.stdout + p.stderr:
        errs.append("%s: the log does not say '%s'" % (name, want_log))
    got = np.load(outputs)
    for n, r in zip(c["outputs"], refs):
        e = compare("%s output %s" % (name, n), got[n], r, c.get("tol", 1e-6))
        if e:
            errs.append(e)
    return errs


def run_app(args, c, lib, work):
    name = "%s_%s_aclnn" % (c["proj"], c.get("tag", "").replace(",", "_").replace(" ", "_"))
    present = {n: a for n, a in c["inputs"] if a is not None}
    refs = c["ref"](present)
    files = []
    for n in c["app"]:
        if n == "-":
            files.append("-")
            continue
        f = os.path.join(work, "%s_%s.npy" % (name, n))
        np.save(f, present[n])
        files.append(f)
    outs = [os.path.join(work, "%s_out%d.npy" % (name, k)) for k in range(len(refs))]
    app = os.path.join(args.bin_dir, "compat_%s_app" % c["proj"])
    p = subprocess.run([app, lib] + files + outs + c.get("app_args", []), capture_output=True, text=True)
    if p.returncode != 0:
        return ["%s: app failed (%d): %s" % (name, p.returncode, (p.stderr or p.stdout)[-2000:])]
    errs = []
    for k, r in enumerate(refs):
        e = compare("%s output %d" % (name, k), np.load(outs[k]), r, c.get("tol", 1e-6))
        if e:
            errs.append(e)
    return errs


def run_expect(args, work, name, model_args, lib, env_extra, want_rc0, want_text):
    """Runs one model and checks the exit status and that `want_text` is in the output."""
    model = os.path.join(work, name + ".onnx")
    subprocess.run([args.make_model, model] + model_args, check=True)
    env = dict(os.environ, GE_LOG_LEVEL="debug", **env_extra)
    p = subprocess.run([args.ge, "run", model, "--custom-op-lib", lib], capture_output=True, text=True, env=env)
    out = p.stdout + p.stderr
    errs = []
    if (p.returncode == 0) != want_rc0:
        errs.append("%s: exit status %d: %s" % (name, p.returncode, out[-1500:]))
    if want_text not in out:
        errs.append("%s: the output does not say '%s': %s" % (name, want_text, out[-1500:]))
    return errs


def extra_checks(args):
    """What the host code declares beyond computing: check support, per-SoC aclnn modes."""
    lib = lambda proj: os.path.join(args.bin_dir, "libcompat_%s.so" % proj)
    checks = [
        # NeedCheckSupportFlag: the check-support function rejects a 3-D input, with its reason.
        ("matmul_bias check support", lambda: run_expect(
            args, args.work, "matmul_bias_3d",
            ["MatmulBiasCustom", "--in", "a:float32:2,3,4", "--in", "b:float32:4,5", "--out", "c:float32:2,5"],
            lib("matmul_bias"), {}, False, "not supported by MatmulBiasCustom")),
        # The device's SoC picks the config: on Ascend310P GeGluCustom takes float16 only and is
        # aclnn_only, so even a static node takes the fallback path; on the default Ascend910B
        # float32 is allowed and the node is sunk.
        ("ge_glu soc ascend310p", lambda: run_expect(
            args, args.work, "ge_glu_310p", ["GeGluCustom", "--in", "x:float16:2,8", "--out", "y:float16:2,4"],
            lib("ge_glu"), {"GE_SOC_VERSION": "Ascend310P"}, True,
            "GeGluCustom_0, setting fallback attribute (aclnn_only")),
        ("ge_glu soc ascend310p float32", lambda: run_expect(
            args, args.work, "ge_glu_310p_f32", ["GeGluCustom", "--in", "x:float32:2,8", "--out", "y:float32:2,4"],
            lib("ge_glu"), {"GE_SOC_VERSION": "Ascend310P"}, False, "has dtype float32, expected one of float16")),
        ("ge_glu soc ascend910b", lambda: run_expect(
            args, args.work, "ge_glu_910b", ["GeGluCustom", "--in", "x:float32:2,8", "--out", "y:float32:2,4"],
            lib("ge_glu"), {}, True, "GeGluCustom_0, no fallback: sink")),
    ]
    failures = []
    for name, fn in checks:
        errs = fn()
        print("%-8s %s" % ("FAIL" if errs else "ok", name))
        failures += errs
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ge", required=True)
    ap.add_argument("--make-model", required=True)
    ap.add_argument("--bin-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--only", help="run only this project")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures, runs = [], 0
    for make in CASES:
        for c in make():
            if args.only and c["proj"] != args.only:
                continue
            lib = os.path.join(args.bin_dir, "libcompat_%s.so" % c["proj"])
            for how, fn in (("static", lambda: run_graph(args, c, lib, args.work, False)),
                            ("dynamic", lambda: run_graph(args, c, lib, args.work, True)),
                            ("aclnn", lambda: run_app(args, c, lib, args.work))):
                errs = fn()
                runs += 1
                print("%-8s %-16s %-10s %s" % ("FAIL" if errs else "ok", c["proj"], c.get("tag", ""), how))
                failures += errs
    if not args.only:
        extra = extra_checks(args)
        failures += extra
    for f in failures:
        print("  " + f)
    print("%d runs, %d failures" % (runs, len(failures)))
    return 1 if failures or runs == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
