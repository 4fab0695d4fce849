#!/usr/bin/python3
# Runs one of the CPU backend's C test tools (test-lpc-maps,
# bliinds2-features: `TOOL FILE WIDTH HEIGHT [ARGS]`) on a gray image
# written to a private temporary directory.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import subprocess
import tempfile

import numpy as np


class GrayTool:
    """A C tool that reads a raw gray image; @tmp holds its files."""

    def __init__(self, tool, prefix):
        self.tool = tool
        self.tmp = tempfile.TemporaryDirectory(prefix=prefix)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def run_tool(self, gray, args=(), f64=False):
        """Writes @gray (uint8, or float64 with @f64) to a file, runs the
        tool on it with @args and returns the CompletedProcess; raises
        RuntimeError when the tool fails."""
        path = self.path('frame.gray')
        h, w = gray.shape
        np.ascontiguousarray(gray, dtype=np.float64 if f64 else
                             np.uint8).tofile(path)
        cmd = [self.tool, path, str(w), str(h)] + list(args)
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError('%s failed (%d): %s' % (' '.join(cmd),
                                                     res.returncode,
                                                     res.stderr))
        return res
