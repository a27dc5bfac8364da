#!/usr/bin/python3
"""The tools and the tests include only GE's public headers (include/), not src/.

A quoted #include that names a file under src/ and not under include/ is an internal header; no
file under tools/ or tests/ may include one. (The build enforces the same: those targets have only
include/ and tests/common on their include path. The white-box unit tests of internal components
are src/<layer>/**/<name>_test.cc, beside what they test, and are not checked here.) Exits 1 naming
each file and header.

Usage: /usr/bin/python3 scripts/check_public_headers.py [--root DIR]
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    root = os.path.abspath(ap.parse_args().root)
    bad, seen = [], 0
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
                    if (os.path.exists(os.path.join(root, "src", inc)) and
                            not os.path.exists(os.path.join(root, "include", inc))):
                        bad.append(f"{rel}: includes the internal header src/{inc}")
    for line in bad:
        print(line)
    print(f"{seen} files read, {len(bad)} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
