#!/usr/bin/python3
# gst-inspect-1.0 cudasharpness must load the plugin (an undefined symbol
# fails here, not at build time) and list every metric of the table.
#
#   check-inspect.py GST_INSPECT SHARPNESS_METRIC_H
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import re
import subprocess
import sys


def main():
    inspect, header = sys.argv[1], sys.argv[2]
    # The nicks, read from the X-macro table itself.
    with open(header, encoding="utf-8") as f:
        nicks = re.findall(r'X \(\s*\w+\s*,\s*\w+\s*,\s*"([^"]+)"', f.read())
    if len(nicks) < 2:
        print(f"could not read the metric table from {header}")
        return 1

    run = subprocess.run([inspect, "cudasharpness"], capture_output=True,
                         text=True, timeout=60)
    out = run.stdout + run.stderr
    errors = []
    if run.returncode != 0:
        errors.append(f"gst-inspect-1.0 exited with {run.returncode}")
    for bad in ("undefined symbol", "No such element", "CRITICAL"):
        if bad in out:
            errors.append(f"output contains '{bad}'")
    for word in ("Filter/Analyzer/Video", "GstSharpnessMetric",
                 "GstSharpnessBackend", "relative-threshold", "pinned-pool"):
        if word not in out:
            errors.append(f"'{word}' missing")
    for nick in nicks:
        if not re.search(r"\(\d+\): " + re.escape(nick) + r"\s", out):
            errors.append(f"metric '{nick}' missing from the metric enum")

    if errors:
        print(out)
        print("\n".join(errors))
        return 1
    print(f"gst-inspect-1.0 cudasharpness lists all {len(nicks)} metrics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
