#!/usr/bin/python3
# Synthetic videos with known blurry frames, made from the natural test
# images (tests/common/natural_images.py): shots of panning mosaics of the
# images, hard cuts between them (some to much less detailed shots), and
# Gaussian blurs of known frames.  Used by the scan tests (the test clip)
# and by rule_eval.py (the clips of the rule evaluation, docs/reference/sharpness-scan.md).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import subprocess

import numpy as np
from scipy import ndimage

from natural_images import load


def _canvas(names, height):
    """The images side by side, each scaled (bicubic) to @height rows, as
    RGB uint8."""
    parts = []
    for name in names:
        img = load(name)
        if img.ndim == 2:
            img = np.stack([img] * 3, axis=2)
        z = height / img.shape[0]
        img = ndimage.zoom(img.astype(np.float32), (z, z, 1), order=3)
        parts.append(np.clip(np.rint(img), 0, 255).astype(np.uint8))
    return np.concatenate(parts, axis=1)


class Clip:
    """@shots: [(first frame, [image names], pan in pixels per frame)];
    @blurs: [(first frame, frame count, sigma)].  Frames are W x H RGB."""

    def __init__(self, name, width, height, fps, frames, shots, blurs):
        self.name = name
        self.width, self.height, self.fps = width, height, fps
        self.frames = frames
        self.shots = shots
        self.blurs = blurs
        self._canvases = {}

    def blurry(self):
        """Per-frame truth: True where the frame was blurred."""
        truth = np.zeros(self.frames, dtype=bool)
        for first, count, _ in self.blurs:
            truth[first:first + count] = True
        return truth

    def cuts(self):
        return [s[0] for s in self.shots[1:]]

    def segments(self):
        """[(first, last)] frames of each blur, in order."""
        return sorted((f, f + n - 1) for f, n, _ in self.blurs)

    def sigma(self, i):
        for first, count, sigma in self.blurs:
            if first <= i < first + count:
                return sigma
        return 0

    def frame(self, i):
        shot = max(k for k, s in enumerate(self.shots) if s[0] <= i)
        first, names, pan = self.shots[shot]
        if shot not in self._canvases:
            self._canvases[shot] = _canvas(names, self.height)
        canvas = self._canvases[shot]
        span = canvas.shape[1] - self.width
        x = int(round((i - first) * pan))
        if span > 0:
            # Back and forth across the canvas.
            x %= 2 * span
            x = x if x <= span else 2 * span - x
        else:
            x = 0
        img = canvas[:, x:x + self.width]
        if img.shape[1] < self.width:
            img = np.pad(img, ((0, 0), (0, self.width - img.shape[1]),
                               (0, 0)), mode='reflect')
        sigma = self.sigma(i)
        if sigma:
            img = ndimage.gaussian_filter(img.astype(np.float32),
                                          (sigma, sigma, 0), mode='reflect',
                                          truncate=4.0)
            img = np.clip(np.rint(img), 0, 255).astype(np.uint8)
        return np.ascontiguousarray(img)

    def encoder(self, codec, path, threads=2):
        """The ffmpeg command that encodes the clip's frames, read from its
        standard input, to @path: H.264 (libx264) in MP4 or VP9
        (libvpx-vp9) in WebM, 4:2:0, @fps constant frame rate."""
        enc = {
            'h264': ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18',
                     '-movflags', '+faststart', '-f', 'mp4'],
            'vp9': ['-c:v', 'libvpx-vp9', '-deadline', 'realtime',
                    '-cpu-used', '8', '-row-mt', '1', '-b:v', '6M',
                    '-f', 'webm'],
        }[codec]
        return ['ffmpeg', '-v', 'error', '-y', '-f', 'rawvideo',
                '-pix_fmt', 'rgb24', '-s', '%dx%d' % (self.width,
                                                      self.height),
                '-r', str(self.fps), '-i', '-'] + enc + [
                    '-pix_fmt', 'yuv420p', '-threads', str(threads), path]

    def encode(self, path, codec='h264'):
        """Writes the clip with ffmpeg (encoder())."""
        cmd = self.encoder(codec, path)
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        for i in range(self.frames):
            proc.stdin.write(self.frame(i).tobytes())
        proc.stdin.close()
        if proc.wait() != 0:
            raise RuntimeError('ffmpeg failed: %s' % ' '.join(cmd))


# Image sets: detailed shots and a much less detailed one (the moon and a
# soft coffee cup: a cut to it drops gradient scores like a blur does).
DETAILED = ['astronaut', 'brick', 'camera', 'grass']
DETAILED2 = ['gravel', 'chelsea', 'camera']
SMOOTH = ['moon', 'coffee']


def test_clip(fps=30):
    """The tests' clip: 1280x720, 20 s at 30 fps; blurs (sigma 3) of 0.3 s,
    1 s and 3 s and a one-frame glitch; two cuts, one to a smooth shot."""
    f = lambda s: int(round(s * fps))  # noqa: E731
    return Clip('test', 1280, 720, fps, f(20),
                shots=[(0, DETAILED, 3), (f(7), SMOOTH, 2),
                       (f(11), DETAILED2, 4)],
                blurs=[(f(2), f(0.3), 3), (f(4.5), f(1), 3),
                       (f(8.5), 1, 4), (f(14), f(3), 3)])


def eval_clips():
    """The clips of the rule evaluation (docs/reference/sharpness-scan.md), 1280x720 at 25 fps."""
    fps = 25
    f = lambda s: int(round(s * fps))  # noqa: E731
    return [test_clip()] + [
        # A long blur, cuts to a less detailed shot and back.
        Clip('cuts', 1280, 720, fps, f(20),
             shots=[(0, DETAILED, 2), (f(6), SMOOTH, 2),
                    (f(12), DETAILED2, 3)],
             blurs=[(f(2), f(1.2), 3), (f(8), f(1), 3), (f(14), f(3), 3)]),
        # Fast pans, milder blurs (sigma 2), one starting right after a cut.
        Clip('pans', 1280, 720, fps, f(20),
             shots=[(0, DETAILED2, 12), (f(10), DETAILED, 9)],
             blurs=[(f(3), f(2), 2), (f(10) + 5, f(1), 2),
                    (f(15), f(0.4), 3)]),
        # Short blurs and glitches, many cuts.
        Clip('short', 1280, 720, fps, f(20),
             shots=[(0, DETAILED, 1), (f(4), DETAILED2, 1),
                    (f(8), SMOOTH, 1), (f(12), DETAILED, 5),
                    (f(16), SMOOTH, 3)],
             blurs=[(f(1), f(0.3), 3), (f(2.5), 1, 4), (f(5), f(0.6), 3),
                    (f(9), f(0.5), 3), (f(13), 2, 3), (f(17), f(0.8), 3)]),
        # A blur longer than the window, on a slowly panning smooth shot.
        Clip('long', 1280, 720, fps, f(20),
             shots=[(0, SMOOTH, 1), (f(10), DETAILED, 2)],
             blurs=[(f(3), f(5), 3), (f(13), f(4), 2)]),
    ]
