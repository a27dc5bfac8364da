#!/usr/bin/python3
"""The tools and the tests include only GE's public headers (include/), not src/.

A quoted #include that names a file under src/ and not under include/ is an internal header. The
files below are white-box unit tests of components that have no public surface (the caching
allocator, the core pool, the memory planner, the sink executor's internals, checked arithmetic,
traces, oneDNN convolution plans, vector math, the fallback hook, ...): they may include the
headers of what they test, and no other file may. Exits 1 naming each other file and header.

Usage: /usr/bin/python3 scripts/check_public_headers.py [--root DIR]
"""
import argparse
import os
import re
import sys

WHITE_BOX = {
    "tests/base/checked_math_test.cc",
    "tests/base/host_memory_test.cc",
    "tests/base/trace_test.cc",
    "tests/compiler/compile_test.cc",
    "tests/compiler/memory_planner_test.cc",
    "tests/compiler/offline_model_test.cc",
    "tests/executor/guard_bytes_test.cc",
    "tests/executor/op_profile_test.cc",
    "tests/executor/sink_executor_test.cc",
    "tests/executor/zero_copy_test.cc",
    "tests/onnx_backend/onnx_backend_runner.cc",
    "tests/opapi/fallback_equivalence_test.cc",
    "tests/opapi/opapi_test_util.h",
    "tests/ops/conv_plan_test.cc",
    "tests/ops/vec_math_test.cc",
    "tests/parser/raw_data_split_test.cc",
    "tests/register/ascend_port_test.cc",
    "tests/register/fallback_decision_test.cc",
    "tests/runtime/caching_allocator_test.cc",
    "tests/runtime/core_pool_test.cc",
    "tests/runtime/stream_test.cc",
    "tests/runtime/trace_test.cc",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    root = os.path.abspath(ap.parse_args().root)
    bad, seen, uses = [], 0, set()
    for top in ("tools", "tests"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".cc", ".h", ".cpp")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                seen += 1
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for inc in INCLUDE.findall(text):
                    internal = (os.path.exists(os.path.join(root, "src", inc)) and
                                not os.path.exists(os.path.join(root, "include", inc)))
                    if internal and rel in WHITE_BOX:
                        uses.add(rel)
                    elif internal:
                        bad.append(f"{rel}: includes the internal header src/{inc}")
    stale = [f for f in sorted(WHITE_BOX) if not os.path.exists(os.path.join(root, f))]
    for f in stale:
        bad.append(f"{f}: listed as a white-box test but does not exist (remove it from the list)")
    for f in sorted(WHITE_BOX - uses - set(stale)):
        bad.append(f"{f}: listed as a white-box test but includes only public headers (remove it from the list)")
    for line in bad:
        print(line)
    print(f"{seen} files read, {len(WHITE_BOX)} white-box tests allowed internal headers, {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
