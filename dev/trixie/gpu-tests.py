#!/usr/bin/env python3
"""Run the meson tests of the staged 1.26 build on the GPU machine.

The GPU machine's meson is another version and cannot run `meson test` on a
build directory made in the trixie root, so this reads the build's test list
(BUILD/meson-info/intro-tests.json, packed by stage-gpu-runtime.sh) and runs
each compiled test through dev/trixie/run-on-gpu.sh with the test's own
environment, arguments and timeout.  Tests that run Python are left out (the
staged root has no Python).  Exit status 77 counts as skipped, as in meson.
Ends with "N passed, N failed, N skipped".

  usage: dev/trixie/gpu-tests.py [--suite SUITE]... [--build DIR] [NAME...]
         (default: the "cuda" suite; --suite all: every compiled test)

Copyright (C) 2026 The gst-sharpness authors
SPDX-License-Identifier: LGPL-2.1-or-later
"""
import argparse
import json
import os
import subprocess
import sys
import time

# The test executables run under trixie's loader, not in the chroot: on the
# GPU machine (Firecracker, driver 580) CUDA reported "driver version is
# insufficient" inside the chroot and worked under the loader (2026-11-23).
os.environ.setdefault("TRIXIE_RUN_MODE", "loader")

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", action="append")
    parser.add_argument("--build", default="build-trixie")
    parser.add_argument("--tarball", default=".devgst126.tar.xz")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    os.chdir(SRC)
    suites = args.suite or ["cuda"]
    runner = [os.path.join(HERE, "run-on-gpu.sh"), "-t", args.tarball]

    # Unpack first (run-on-gpu.sh does it once per tarball).
    subprocess.run(runner + ["true"], check=True)
    with open(os.path.join(args.build, "meson-info", "intro-tests.json"),
              encoding="utf-8") as f:
        tests = json.load(f)

    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for test in tests:
        name, cmd = test["name"], test["cmd"]
        suite = [s.split(":")[-1] for s in test["suite"]]
        if args.names and name not in args.names:
            continue
        if not args.names and "all" not in suites and \
                not set(suites) & set(suite):
            continue
        if "python" in os.path.basename(cmd[0]):
            print(f"--- {name}: runs Python, not run here")
            continue
        env = []
        for key, value in sorted(test["env"].items()):
            env += ["-e", f"{key}={value}"]
        print(f"--- {name}: {' '.join(cmd)}", flush=True)
        start = time.monotonic()
        try:
            rc = subprocess.run(runner + env + cmd,
                                timeout=test["timeout"] or None).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        result = {0: "passed", 77: "skipped"}.get(rc, "failed")
        counts[result] += 1
        print(f"--- {name}: {result} (exit {rc}, "
              f"{time.monotonic() - start:.1f} s)", flush=True)

    print(f"{counts['passed']} passed, {counts['failed']} failed, "
          f"{counts['skipped']} skipped")
    return 1 if counts["failed"] or not counts["passed"] else 0


if __name__ == "__main__":
    sys.exit(main())
