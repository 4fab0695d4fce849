#!/usr/bin/python3
# Where a measurement ran: source root, CPU model, tool versions.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import datetime
import json
import os
import platform
import re
import subprocess

SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def cpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor()
    m = re.search(r"Model name:\s*(.+)", out)
    return m.group(1).strip() if m else platform.processor()


def ffmpeg_version(ffmpeg):
    out = subprocess.run([ffmpeg, "-version"], capture_output=True,
                         text=True, check=True).stdout
    return out.splitlines()[0].split(" Copyright")[0]


def ffmpeg_release(ffmpeg="ffmpeg"):
    """(major, minor) of `@ffmpeg -version`; None for a git build (N-...),
    which the tests take as the newest behaviour."""
    first = ffmpeg_version(ffmpeg)
    m = re.match(r"ffmpeg version n?(\d+)\.(\d+)", first)
    return (int(m.group(1)), int(m.group(2))) if m else None


def meson_buildtype(build_dir):
    """buildtype of the meson build dir @build_dir, or None."""
    try:
        with open(os.path.join(build_dir, "meson-info",
                               "intro-buildoptions.json")) as f:
            options = json.load(f)
    except (OSError, ValueError):
        return None
    return next((o["value"] for o in options if o["name"] == "buildtype"),
                None)


def os_name():
    try:
        return platform.freedesktop_os_release()["PRETTY_NAME"]
    except (OSError, KeyError):
        return platform.platform(terse=True)


def describe(*tools):
    """'DATE: CPU model, N CPUs, OS; tool; tool' for a report header."""
    return "%s: %s, %d CPUs, %s, Linux %s; %s" % (
        datetime.date.today().isoformat(), cpu_model(), os.cpu_count(),
        os_name(), platform.release(), "; ".join(tools))
