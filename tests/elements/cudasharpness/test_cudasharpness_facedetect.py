#!/usr/bin/python3
# Regions of interest from a real detector: OpenCV's `facedetect` (Debian's
# gstreamer1.0-opencv, with opencv-data's Haar cascades) finds the face in
# scikit-image's "astronaut" and attaches a GstVideoRegionOfInterestMeta of
# type "face"; cudasharpness (roi-types=face) must score it exactly as it
# scores the same rectangle cropped out (videocrop) as a frame of its own,
# and leave other ROI types alone.  Skipped (exit 77) when the OpenCV plugin
# or its cascades are not installed (the CI machines have neither).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'skimage')

import numpy as np  # noqa: E402,F401
from skimage import data, io  # noqa: E402

CASCADE = '/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml'
# Both runs convert the same way, so that the luma planes are the same.
HEAD = ('filesrc location={png} ! pngdec ! videoconvert ! '
        'video/x-raw,format=RGB ! ')
TAIL = ('videoconvert ! video/x-raw,format=I420 ! {crop}cudasharpness '
        'backend=cpu metric={metric} {props} ! fakesink')


def launch(desc):
    out = subprocess.run(['gst-launch-1.0', '-m'] + desc.split(),
                         capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        sys.exit('FAIL: %s\n%s%s' % (desc, out.stdout, out.stderr))
    return out.stdout


def sharpness_messages(text):
    return [line for line in text.splitlines()
            if '(element): sharpness,' in line]


def field(line, name):
    m = re.search(r'%s=\(double\)([-0-9.e+]+)' % re.escape(name), line)
    return float(m.group(1)) if m else None


def main():
    if not shutil.which('gst-launch-1.0'):
        print('skipped: gst-launch-1.0 missing')
        return scaffold.SKIP
    probe = subprocess.run(['gst-inspect-1.0', 'facedetect'],
                           capture_output=True, text=True)
    if probe.returncode != 0 or not os.path.exists(CASCADE):
        print('skipped: facedetect missing (gstreamer1.0-opencv and '
              'opencv-data)')
        return scaffold.SKIP

    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, 'astronaut.png')
        img = data.astronaut()
        io.imsave(png, img, check_contrast=False)
        h, w = img.shape[:2]

        for metric in ('laplacian', 'tenengrad', 'variance'):
            det = launch(HEAD.format(png=png) + 'imagefreeze num-buffers=2 ! '
                         'facedetect updates=every_frame display=false ! '
                         + TAIL.format(crop='', metric=metric,
                                       props='roi-types=face'))
            # facedetect's "faces" field: structures serialised, escaped
            faces = re.findall(r'face, x=\(uint\)(\d+), y=\(uint\)(\d+), '
                               r'width=\(uint\)(\d+), height=\(uint\)(\d+)',
                               det.replace('\\', ''))
            msgs = sharpness_messages(det)
            if not faces or not msgs:
                print('FAIL %s: no face found or no sharpness message'
                      % metric)
                failures += 1
                continue
            x, y, fw, fh = (int(v) for v in faces[0])
            m = re.search(r'roi-scores=\(double\)< ([-0-9.e+]+) >', msgs[0])
            types = re.search(r'roi-types=\(string\)< ([a-z]+) >', msgs[0])
            if not m or not types or types.group(1) != 'face':
                print('FAIL %s: no face score in %s' % (metric, msgs[0]))
                failures += 1
                continue
            roi = float(m.group(1))

            crop = ('videocrop left=%d top=%d right=%d bottom=%d ! '
                    % (x, y, w - x - fw, h - y - fh))
            alone = sharpness_messages(launch(
                HEAD.format(png=png) + 'imagefreeze num-buffers=1 ! '
                + TAIL.format(crop=crop, metric=metric, props='')))
            want = field(alone[0], 'score')
            # The luma of the crop is the frame's luma inside the box:
            # the same sums, the same double.
            ok = want is not None and abs(roi - want) <= 1e-12 * max(
                abs(want), 1.0)
            print('%s %s: face %dx%d at (%d, %d): ROI %.17g, crop %.17g'
                  % ('ok' if ok else 'FAIL', metric, fw, fh, x, y, roi,
                     want if want is not None else float('nan')))
            failures += not ok

        # roi-types filters: no "face" scored when only "person" is asked.
        det = launch(HEAD.format(png=png) + 'imagefreeze num-buffers=1 ! '
                     'facedetect updates=every_frame display=false ! '
                     + TAIL.format(crop='', metric='laplacian',
                                   props='roi-types=person'))
        msgs = sharpness_messages(det)
        if not msgs or 'roi-scores' in msgs[0]:
            print('FAIL roi-types=person scored the face: %s'
                  % (msgs[0] if msgs else 'no message'))
            failures += 1
        else:
            print('ok roi-types=person leaves the face alone')

    print('%d failure(s)' % failures)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
