#!/usr/bin/env python3
"""Checks a `ge --profile` trace (Chrome trace-event JSON).

usage: check_trace.py TRACE.json [--expect NAME]... [--track PREFIX]... [--nesting]

Checks: the file is valid JSON with a traceEvents list; every event has ph, pid, tid, name;
"X" events have numeric ts and dur >= 0; every tid used by an "X" event is named by a
"thread_name" metadata ("M") event; per track the "X" events, in the order written, have
non-decreasing start times (monotonic per track). --nesting also checks that events of a track
nest properly: each event either lies within the enclosing open event or starts at or after its
end (no partial overlap; a tolerance of 1 us for the rounding of ts and dur). --expect NAME: some
"X" event has that name; --track PREFIX: some named track starts with PREFIX; --arg NAME.KEY: some
event NAME has args[KEY]. Prints "ok" or the first failure (exit 1).
"""
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    expect, tracks, arg_checks, nesting = [], [], [], False
    while args:
        a = args.pop(0)
        if a == "--expect":
            expect.append(args.pop(0))
        elif a == "--track":
            tracks.append(args.pop(0))
        elif a == "--arg":
            arg_checks.append(args.pop(0))
        elif a == "--nesting":
            nesting = True
        else:
            fail("unknown argument " + a)
    try:
        with open(path) as f:
            doc = json.load(f)
    except Exception as e:  # noqa: BLE001
        fail(f"not valid JSON: {e}")
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not isinstance(events, list):
        fail("no traceEvents list")
    names = {}
    per_track = {}
    for e in events:
        for k in ("ph", "pid", "tid", "name"):
            if k not in e:
                fail(f"event without {k}: {e}")
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                names[e["tid"]] = e["args"]["name"]
        elif e["ph"] == "X":
            if not isinstance(e.get("ts"), (int, float)) or not isinstance(e.get("dur"), (int, float)):
                fail(f"X event without numeric ts/dur: {e}")
            if e["dur"] < 0:
                fail(f"negative dur: {e}")
            per_track.setdefault(e["tid"], []).append(e)
        else:
            fail(f"unexpected phase {e['ph']}")
    for tid, evs in per_track.items():
        if tid not in names:
            fail(f"track {tid} has events but no thread_name")
        last = -1.0
        for e in evs:
            if e["ts"] < last:
                fail(f"track {names[tid]}: start {e['ts']} before the previous {last} (not monotonic)")
            last = e["ts"]
        if nesting:
            stack = []
            for e in evs:
                start, end = e["ts"], e["ts"] + e["dur"]
                while stack and start >= stack[-1] - 1.0:
                    stack.pop()
                if stack and end > stack[-1] + 1.0:
                    fail(f"track {names[tid]}: '{e['name']}' [{start}, {end}] overlaps the end of its enclosing event ({stack[-1]})")
                stack.append(end)
    all_names = {e["name"] for evs in per_track.values() for e in evs}
    for n in expect:
        if n not in all_names:
            fail(f"no event named '{n}' (have: {sorted(all_names)[:40]})")
    for t in tracks:
        if not any(v.startswith(t) for tid, v in names.items() if tid in per_track):
            fail(f"no track starting with '{t}' (have: {sorted(names.values())})")
    for c in arg_checks:
        n, key = c.split(".", 1)
        if not any(e["name"] == n and key in e.get("args", {}) for evs in per_track.values() for e in evs):
            fail(f"no event '{n}' with args.{key}")
    print("ok")


main()
