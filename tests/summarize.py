#!/usr/bin/python3
# Summarise a meson testlog.json: show why tests were skipped (GPU tests say
# "skipped: no CUDA device") and end with "N passed, N failed, N skipped".
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import json
import sys

passed = failed = skipped = 0
with open(sys.argv[1], encoding="utf-8") as log:
    for line in log:
        test = json.loads(line)
        result = test["result"]
        if result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
            reasons = [l.strip() for l in (test.get("stdout") or "").splitlines()
                       if l.strip().lower().startswith("skipped")]
            print(f"{test['name']}: {reasons[-1] if reasons else 'skipped'}")
        else:
            failed += 1
            print(f"{test['name']}: {result}")

print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
